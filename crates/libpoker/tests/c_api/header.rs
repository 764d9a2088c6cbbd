//! The committed include/poker.h is exactly what cbindgen generates from
//! src/ffi (regenerate with `POKER_BLESS=1 cargo test -p libpoker --test c_api header`), and it
//! compiles cleanly from strict C89, C99 and C++.

use crate::common;
use crate::common::tier::{self, needs};
use std::process::Command;

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

fn compiles(compiler: &str, std: &str, extension: &str) {
    let dir = common::scratch("header");
    let src = dir.join(format!("use_{std}.{extension}"));
    std::fs::write(
        &src,
        "#include \"poker.h\"\nint main(void) { void (*f)(void) = p_startgame; (void)f; return 0; }\n",
    )
    .unwrap();
    let output = Command::new(compiler)
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
        .expect("run the compiler");
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
