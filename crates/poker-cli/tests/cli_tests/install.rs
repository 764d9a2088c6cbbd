//! Install and discovery: the header's version macros match Cargo.toml, and
//! `make install-files PREFIX=<temp>` lays out a prefix whose shared library
//! carries the SONAME `libpoker.so.MAJOR.MINOR` behind the links
//! `libpoker.so -> libpoker.so.MAJOR.MINOR -> libpoker.so.VERSION`, from
//! which a C program builds with `pkg-config --cflags --libs libpoker` (no
//! rpath: it runs with LD_LIBRARY_PATH pointing at the temporary prefix,
//! which the loader does not search) and statically with `--static`
//! (Libs.private), and the installed Python module finds the installed
//! library. They need make, pkg-config, patchelf and readelf (the
//! install tier of `common::tier`).

use crate::common;
use crate::common::tier::{self, needs};
use std::path::Path;
use std::process::Command;

/// The `version = "..."` of Cargo.toml's [package], read as text.
fn cargo_toml_version() -> String {
    let text = std::fs::read_to_string(common::root().join("Cargo.toml")).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("version = \""))
        .expect("a version line");
    line.trim_start_matches("version = \"")
        .trim_end_matches('"')
        .to_string()
}

fn header_define(header: &str, name: &str) -> String {
    let prefix = format!("#define {name} ");
    header
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("{name} missing from poker.h"))
        .to_string()
}

#[test]
fn header_version_macros_match_cargo_toml() {
    let header = std::fs::read_to_string(common::root().join("include/poker.h")).unwrap();
    let version = format!(
        "{}.{}.{}",
        header_define(&header, "POKER_VERSION_MAJOR"),
        header_define(&header, "POKER_VERSION_MINOR"),
        header_define(&header, "POKER_VERSION_PATCH")
    );
    assert_eq!(version, cargo_toml_version());
}

/// The SONAME of a 0.x release: `libpoker.so.0.MINOR` (cargo-c's naming).
fn soname() -> String {
    let version = cargo_toml_version();
    let mut parts = version.split('.');
    let (major, minor) = (parts.next().unwrap(), parts.next().unwrap());
    assert_eq!(major, "0", "from 1.0 on the SONAME is libpoker.so.MAJOR");
    format!("libpoker.so.{major}.{minor}")
}

/// `readelf -d` of `file`: its dynamic section.
fn dynamic_section(file: &Path) -> String {
    let output = Command::new("readelf")
        .arg("-d")
        .arg(file)
        .output()
        .expect("run readelf");
    assert!(output.status.success(), "{}", common::stderr(&output));
    common::stdout(&output)
}

fn install(prefix: &Path) -> String {
    install_with_path(prefix, &std::env::var("PATH").unwrap_or_default())
}

/// [`install`] with the search path `path` (to put a stand-in first).
fn install_with_path(prefix: &Path, path: &str) -> String {
    let _ = std::fs::remove_dir_all(prefix);
    let output = Command::new("make")
        .env("PATH", path)
        .current_dir(common::root())
        .arg("--no-print-directory")
        .arg("install-files")
        .arg(format!("PREFIX={}", prefix.display()))
        .arg(format!("BUILD_DIR={}", common::lib_dir().display()))
        .arg(format!("BIN={}", env!("CARGO_BIN_EXE_poker")))
        .output()
        .expect("run make");
    assert!(
        output.status.success(),
        "make install-files failed:\n{}{}",
        common::stdout(&output),
        common::stderr(&output)
    );
    common::stdout(&output)
}

const PROGRAM: &str = r#"#include <stdio.h>
#include <string.h>
#include <poker.h>
int main(void) {
    char version[32];
    int i, v, c, columns[4];
    PokerGame *game = poker_game_new_text(
        "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH");
    sprintf(version, "%d.%d.%d", POKER_VERSION_MAJOR, POKER_VERSION_MINOR, POKER_VERSION_PATCH);
    if (strcmp(version, poker_version()) != 0) return 2;
    for (i = 0; i < 20; i++) { poker_game_look(game, &v, &c); poker_game_place(game, i % 4 + 1); }
    printf("%s %d\n", poker_version(), poker_game_score(game, columns));
    poker_game_free(game);
    return 0;
}
"#;

#[test]
fn an_installed_prefix_builds_a_c_program_through_pkg_config() {
    needs!(tier::INSTALL);
    let prefix = common::scratch("install").join("prefix");
    let said = install(&prefix);
    // A prefix the loader does not search: make says how to link.
    let hint = format!(
        "the loader does not search {0}/lib: link programs with -Wl,-rpath,{0}/lib",
        prefix.display()
    );
    assert!(said.contains(&hint), "{said}");
    let soname = soname();
    let file = format!("libpoker.so.{}", cargo_toml_version());
    let lib = prefix.join("lib");
    // libpoker.so -> libpoker.so.0.3 -> libpoker.so.0.3.0, a file.
    for (link, target) in [("libpoker.so", soname.as_str()), (&soname, &file)] {
        assert_eq!(
            std::fs::read_link(lib.join(link)).ok(),
            Some(target.into()),
            "lib/{link} is not a link to {target}"
        );
    }
    assert!(lib.join(&file).symlink_metadata().unwrap().is_file());
    let dynamic = dynamic_section(&lib.join(&file));
    assert!(
        dynamic.contains(&format!("Library soname: [{soname}]")),
        "no SONAME {soname} in lib/{file}:\n{dynamic}"
    );
    for file in [
        "include/poker.h",
        "lib/libpoker.a",
        "lib/pkgconfig/libpoker.pc",
        "bin/poker",
        "share/libpoker/pascal/poker.pas",
        "share/libpoker/python/libpoker.py",
        "share/man/man1/poker.1.gz",
        "share/man/man1/poker-eval.1.gz",
        "share/man/man1/poker-camicia-search.1.gz",
        "share/bash-completion/completions/poker",
        "share/zsh/vendor-completions/_poker",
        "share/fish/vendor_completions.d/poker.fish",
    ] {
        assert!(prefix.join(file).is_file(), "{file} not installed");
    }

    let pkg = |args: &[&str]| {
        let output = Command::new("pkg-config")
            .args(args)
            .arg("libpoker")
            .env("PKG_CONFIG_PATH", prefix.join("lib/pkgconfig"))
            .output()
            .expect("run pkg-config");
        assert!(output.status.success(), "{}", common::stderr(&output));
        common::stdout(&output).trim().to_string()
    };
    assert_eq!(pkg(&["--modversion"]), cargo_toml_version());
    let flags = pkg(&["--cflags", "--libs"]);
    assert!(
        flags.contains(&format!("-I{}/include", prefix.display())),
        "{flags}"
    );
    assert!(!flags.contains("rpath"), "an rpath in Libs: {flags}");
    // Libs.private: rustc's native-static-libs for a glibc target (as
    // measured: -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc), less -lgcc_s,
    // which has no static archive.
    let static_flags = pkg(&["--static", "--libs"]);
    for lib in ["-lpthread", "-ldl", "-lc"] {
        assert!(static_flags.contains(lib), "{lib} missing: {static_flags}");
    }
    assert!(!static_flags.contains("-lgcc_s"), "{static_flags}");

    let dir = common::scratch("install");
    let src = dir.join("use_pkg_config.c");
    std::fs::write(&src, PROGRAM).unwrap();
    let exe = dir.join("use_pkg_config");
    let build = |exe: &Path, libs: &str| {
        let output = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "cc -std=c99 -Wall -Wextra -pedantic -Werror -o '{}' '{}' {libs}",
                exe.display(),
                src.display()
            ))
            .env("PKG_CONFIG_PATH", prefix.join("lib/pkgconfig"))
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", common::stderr(&output));
    };
    // The contest text's worked example: 11 points.
    let expected = format!("{} 11\n", cargo_toml_version());

    build(&exe, "$(pkg-config --cflags --libs libpoker)");
    let dynamic = dynamic_section(&exe);
    assert!(
        dynamic.contains(&format!("Shared library: [{soname}]")),
        "the program does not need {soname}:\n{dynamic}"
    );
    assert!(
        !dynamic.contains("RPATH") && !dynamic.contains("RUNPATH"),
        "the program has an rpath:\n{dynamic}"
    );
    // A temporary prefix is not where the loader looks: LD_LIBRARY_PATH
    // points at it (instead of cargo's, which points at the build).
    let run = Command::new(&exe)
        .env("LD_LIBRARY_PATH", &lib)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", common::stderr(&run));
    assert_eq!(common::stdout(&run), expected);

    // The link lines of docs/bindings.md, as it writes them (after `cc
    // FILE.c`, or `cc -static prog.c`), each run with no LD_LIBRARY_PATH: the rpath
    // one-liner (the shared library found through the rpath); a fully
    // static program (no dynamic section at all); libpoker.a alone in a
    // program that loads glibc.
    let readme = std::fs::read_to_string(common::root().join("docs/bindings.md")).unwrap();
    let rpath = "$(pkg-config --cflags --libs libpoker) -Wl,-rpath,$(pkg-config --variable=libdir libpoker)";
    let full = "-static $(pkg-config --static --cflags --libs libpoker)";
    let archive = "$(pkg-config --cflags libpoker) $(pkg-config --static --libs libpoker | sed 's/-lpoker/-l:libpoker.a/')";
    for (name, libs) in [("rpath", rpath), ("full", full), ("archive", archive)] {
        let line = match libs.strip_prefix("-static ") {
            Some(rest) => format!("cc -static prog.c {rest}"),
            None => format!(".c {libs}"),
        };
        assert!(readme.contains(&line), "docs/bindings.md lacks {line}");
        let exe = dir.join(format!("use_pkg_config_{name}"));
        build(&exe, libs);
        let dynamic = dynamic_section(&exe);
        match name {
            "rpath" => assert!(
                dynamic.contains(&format!("path: [{}]", lib.display())),
                "{dynamic}"
            ),
            "full" => assert!(!dynamic.contains("Shared library"), "{dynamic}"),
            _ => assert!(!dynamic.contains("libpoker"), "{dynamic}"),
        }
        let run = Command::new(&exe)
            .env_remove("LD_LIBRARY_PATH")
            .output()
            .unwrap();
        assert!(run.status.success(), "{name}: {}", common::stderr(&run));
        assert_eq!(common::stdout(&run), expected, "{name}");
    }
    // Without -static, --static still links the shared library.
    let exe = dir.join("use_pkg_config_static_flags_only");
    build(&exe, "$(pkg-config --static --cflags --libs libpoker)");
    assert!(
        dynamic_section(&exe).contains(&format!("Shared library: [{soname}]")),
        "--static alone linked libpoker.a"
    );

    let poker = Command::new(prefix.join("bin/poker"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(common::stdout(&poker).contains(&cargo_toml_version()));

    // The installed `poker eval`, run from an empty folder, evaluates the
    // installed examples against the installed library with no options.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let eval = Command::new(prefix.join("bin/poker"))
        .args(["eval", "--json", "--decks"])
        .arg(common::root().join("data/decks.txt"))
        .current_dir(&empty)
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .unwrap();
    assert!(eval.status.success(), "{}", common::stderr(&eval));
    let json: serde_json::Value = serde_json::from_slice(&eval.stdout).unwrap();
    let contestants = json["contestants"].as_array().unwrap();
    let paths: Vec<&str> = contestants
        .iter()
        .map(|c| c["path"].as_str().unwrap())
        .collect();
    assert!(
        paths
            .iter()
            .all(|p| p.contains("share/libpoker/c_examples/")),
        "{paths:?}"
    );
    assert!(
        contestants.iter().all(|c| c["tests"][0]["status"] == "ok"),
        "{json}"
    );
}

#[test]
fn the_installed_python_module_finds_the_installed_library() {
    needs!(tier::INSTALL, tier::PYTHON);
    let prefix = common::scratch("install").join("prefix-python");
    install(&prefix);
    let output = Command::new("python3")
        .arg("-c")
        .arg("import libpoker; print(libpoker.library_path()); print(libpoker.hand_score([(1, 1), (2, 1), (3, 1), (4, 1), (5, 1)]))")
        .env_remove("LIBPOKER")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("PYTHONPATH", prefix.join("share/libpoker/python"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", common::stderr(&output));
    let out = common::stdout(&output);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        Path::new(lines[0]).canonicalize().unwrap(),
        prefix.join("lib/libpoker.so").canonicalize().unwrap()
    );
    assert_eq!(lines[1], "8"); // 9S TS JS QS KS: a straight flush
}

// Into a prefix whose lib the loader searches (here a stand-in ldconfig
// says so, as the real one says it of /usr/local/lib on Debian), make
// install runs ldconfig, and gives no linking hint.
#[test]
fn an_install_into_a_searched_prefix_runs_ldconfig() {
    needs!(tier::INSTALL);
    let dir = common::scratch("install").join("ldconfig");
    let _ = std::fs::remove_dir_all(&dir);
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let prefix = dir.join("prefix");
    let ran = dir.join("ldconfig-ran");
    std::fs::write(
        bin.join("ldconfig"),
        format!(
            "#!/bin/sh\nif [ \"$1\" = -v ]; then echo '{}/lib: (from the test)'; else echo \"$@\" > '{}'; fi\n",
            prefix.display(),
            ran.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin.join("ldconfig"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let said = install_with_path(&prefix, &path);
    assert!(ran.is_file(), "ldconfig did not run: {said}");
    assert!(!said.contains("does not search"), "{said}");
}

/// The fenced block of `docs/bindings.md` that follows the line `after`.
fn docs_block_after(after: &str) -> String {
    let doc = std::fs::read_to_string(common::root().join("docs/bindings.md")).unwrap();
    let start = doc
        .find(after)
        .unwrap_or_else(|| panic!("docs/bindings.md lacks {after:?}"));
    let rest = &doc[start..];
    let open = rest.find("```sh").expect("a sh block");
    let body = &rest[open..];
    let body = &body[body.find('\n').unwrap() + 1..];
    body[..body.find("```").unwrap()].to_string()
}

// The user-prefix recipe of docs/bindings.md, in the order written, in a
// clean shell (only HOME and a system PATH): the install (here
// `install-files` of the test build, which is what `make install` does
// after building), then the lines that link and run a program.
#[test]
fn the_docs_user_prefix_recipe_runs_in_order_in_a_clean_shell() {
    needs!(tier::INSTALL);
    let home = common::scratch("install").join("home");
    let _ = std::fs::remove_dir_all(&home);
    let recipe = docs_block_after("**Under a user prefix**");
    let mut lines = recipe.lines();
    assert_eq!(lines.next(), Some("make install PREFIX=$HOME/.local"));
    let said = install(&home.join(".local"));
    assert!(said.contains("export PKG_CONFIG_PATH="), "{said}");
    let work = home.join("work");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("many_games.c"), PROGRAM).unwrap();
    let script: String = lines.map(|l| format!("{l}\n")).collect();
    let output = Command::new("env")
        .arg("-i")
        .arg(format!("HOME={}", home.display()))
        .arg("PATH=/usr/local/bin:/usr/bin:/bin")
        .args(["bash", "--noprofile", "--norc", "-e", "-c", &script])
        .current_dir(&work)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "the recipe failed:\n{script}\n{}{}",
        common::stdout(&output),
        common::stderr(&output)
    );
    // The contest text's worked example: 11 points.
    assert_eq!(
        common::stdout(&output),
        format!("{} 11\n", cargo_toml_version())
    );
}
