//! The committed include/poker.h is exactly what cbindgen generates from
//! src/ffi (regenerate with `POKER_BLESS=1 cargo test -p libpoker --test c_api header`), and it
//! compiles cleanly from strict C89, C99 and C++, where a use of a
//! deprecated name draws the compiler's deprecation warning.

use crate::common;
use crate::common::tier::{self, needs};
use std::process::{Command, Output};

#[test]
fn committed_header_is_up_to_date() {
    let generated = std::fs::read_to_string(env!("POKER_GENERATED_HEADER")).unwrap();
    let path = common::root().join("include/poker.h");
    if std::env::var_os("POKER_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/poker.h is stale: run `POKER_BLESS=1 cargo test -p libpoker --test c_api header` and commit it"
    );
}

/// Compiles `body` (after `#include "poker.h"`) with warnings as errors.
fn compile(compiler: &str, std: &str, extension: &str, name: &str, body: &str) -> Output {
    let dir = common::scratch("header");
    let src = dir.join(format!("{name}_{std}.{extension}"));
    std::fs::write(&src, format!("#include \"poker.h\"\n{body}")).unwrap();
    Command::new(compiler)
        .args([
            &format!("-std={std}"),
            "-Wall",
            "-Wextra",
            "-pedantic",
            "-Werror",
            "-fsyntax-only",
        ])
        .arg(format!("-I{}", common::root().join("include").display()))
        .arg(&src)
        .output()
        .expect("run the compiler")
}

fn compiles(compiler: &str, std: &str, extension: &str) {
    let output = compile(
        compiler,
        std,
        extension,
        "use",
        "int main(void) { void (*f)(void) = p_startgame; (void)f; return 0; }\n",
    );
    assert!(
        output.status.success(),
        "{compiler} -std={std} rejects poker.h:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn header_compiles_as_c89() {
    compiles("cc", "c89", "c");
}

#[test]
fn header_compiles_as_c99() {
    compiles("cc", "c99", "c");
}

#[test]
fn header_compiles_as_cpp() {
    needs!(tier::CPP);
    compiles("c++", "c++98", "cpp");
    compiles("c++", "c++17", "cpp");
}

/// A program that uses `name` (a deprecated code, or with `call` the
/// deprecated function) fails under -Werror with a deprecation warning
/// that names it and says which release removes it.
fn warns_on(compiler: &str, std: &str, extension: &str, name: &str, body: &str) {
    let output = compile(
        compiler,
        std,
        extension,
        &format!("deprecated_{name}"),
        body,
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success(),
        "{compiler} -std={std}: {name} drew no warning"
    );
    assert!(
        stderr.lines().any(|line| line.contains(name)
            && line.contains("is deprecated: removed in 0.4.0")
            && line.contains("[-Werror=deprecated-declarations]")),
        "{compiler} -std={std}: {name} did not draw the deprecation warning:\n{stderr}"
    );
}

/// The 0.1 names and `camicia_simulate_ex`, each used as a C program would.
const DEPRECATED_USES: &[(&str, &str)] = &[
    ("FREECELL_OK", "int main(void) { return FREECELL_OK; }\n"),
    (
        "CAMICIA_ERR_TOKEN",
        "int main(void) { int code = 0; switch (code) { case CAMICIA_ERR_TOKEN: return 1; default: return 0; } }\n",
    ),
    (
        "POKER_HAND_ERR_NULL",
        "int main(void) { return poker_hand_category(0) == POKER_HAND_ERR_NULL; }\n",
    ),
    (
        "camicia_simulate_ex",
        "int main(void) { CamiciaResult r; return camicia_simulate_ex(\"2\", \"3\", &r, 0); }\n",
    ),
];

fn each_deprecated_name_warns(compiler: &str, std: &str, extension: &str) {
    for (name, body) in DEPRECATED_USES {
        warns_on(compiler, std, extension, name, body);
    }
}

#[test]
fn using_a_deprecated_name_warns_in_c89() {
    each_deprecated_name_warns("cc", "c89", "c");
}

#[test]
fn using_a_deprecated_name_warns_in_c99() {
    each_deprecated_name_warns("cc", "c99", "c");
}

#[test]
fn using_a_deprecated_name_warns_in_cpp() {
    needs!(tier::CPP);
    each_deprecated_name_warns("c++", "c++98", "cpp");
    each_deprecated_name_warns("c++", "c++17", "cpp");
}

#[test]
fn the_current_names_draw_no_warning() {
    needs!(tier::CPP);
    // The same uses with the names that replace them, and the
    // CamiciaError type (only camicia_simulate_ex's declaration uses it).
    let body = "int main(void) {\n\
                CamiciaResult r; CamiciaError e; int code = camicia_simulate(\"2\", \"3\", &r);\n\
                e.player = -1;\n\
                switch (code) { case POKER_ERR_TOKEN: return 1; default: break; }\n\
                return code == POKER_OK && poker_hand_category(0) == POKER_ERR_NULL && e.player < 0;\n}\n";
    for (compiler, std, extension) in [
        ("cc", "c89", "c"),
        ("cc", "c99", "c"),
        ("c++", "c++98", "cpp"),
        ("c++", "c++17", "cpp"),
    ] {
        let output = compile(compiler, std, extension, "current", body);
        assert!(
            output.status.success(),
            "{compiler} -std={std} warns on current names:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

#[test]
fn a_program_may_silence_the_deprecation_warnings() {
    let body = "int main(void) { return FREECELL_OK; }\n";
    let dir = common::scratch("header");
    let src = dir.join("silenced.c");
    std::fs::write(
        &src,
        format!("#define POKER_DEPRECATED(note)\n#include \"poker.h\"\n{body}"),
    )
    .unwrap();
    let output = Command::new("cc")
        .args([
            "-std=c89",
            "-Wall",
            "-Wextra",
            "-pedantic",
            "-Werror",
            "-fsyntax-only",
        ])
        .arg(format!("-I{}", common::root().join("include").display()))
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn a_cpp_program_links_and_plays_a_game() {
    needs!(tier::CPP);
    let dir = common::scratch("header");
    let src = dir.join("contestant.cpp");
    std::fs::write(
        &src,
        "#include \"poker.h\"\nint main() {\n    int v = 0, c = 0;\n    p_startgame();\n    for (int i = 0; i < 20; i++) { p_look(&v, &c); p_place(i % 4 + 1); }\n    return 1;\n}\n",
    )
    .unwrap();
    let exe = dir.join("contestant_cpp");
    let lib = common::lib_dir();
    let status = Command::new("c++")
        .args([
            "-std=c++17",
            "-Wall",
            "-Wextra",
            "-pedantic",
            "-Werror",
            "-o",
        ])
        .arg(&exe)
        .arg(&src)
        .arg(format!("-I{}", common::root().join("include").display()))
        .arg(format!("-L{}", lib.display()))
        .arg("-lpoker")
        // DT_RPATH (not RUNPATH) wins over LD_LIBRARY_PATH, which `cargo test`
        // points at target/<profile>, where a stale libpoker.so may lie.
        .arg("-Wl,--disable-new-dtags")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .status()
        .unwrap();
    assert!(status.success(), "C++ contestant does not build");
    // The contest text's worked example deck, row by row: round robin
    // rebuilds its board, which scores 11.
    let output = common::run(
        &exe,
        &[(
            "POKER_DECK",
            "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH",
        )],
    );
    assert_eq!(output.status.code(), Some(0));
    assert!(common::stdout(&output).ends_with("total: 11\n"));
}
