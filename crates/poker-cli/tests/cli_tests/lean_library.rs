//! The library crates pull in none of the `poker` command's crates: a Rust
//! user who only wants the game, dealing, Camicia or the C API does not
//! build a CLI toolkit, and the C library carries no judge or sandbox code.
//!
//! Asks `cargo tree` (offline: every crate it needs is already downloaded,
//! since this test was built) for each crate's normal dependency tree; the
//! command's own tree is checked too, so the check itself is seen to fail
//! when the crates are present.

use std::process::Command;

/// Crates only the `poker` command uses.
const COMMAND_CRATES: [&str; 7] = [
    "clap",
    "indicatif",
    "anyhow",
    "serde_json",
    "minijinja",
    "plotters",
    "sha2",
];

/// Crates of the judging side: the sandbox (seccompiler, the ELF reader),
/// the evaluator, the judge.
const JUDGE_CRATES: [&str; 3] = ["poker-judge", "seccompiler", "object"];

/// The crate names in `cargo tree -p <package> -e normal --prefix none
/// --offline`.
fn dependency_names(package: &str) -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .current_dir(crate::common::root())
        .args([
            "tree",
            "-p",
            package,
            "-e",
            "normal",
            "--prefix",
            "none",
            "--offline",
        ])
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("cargo tree prints UTF-8")
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

fn assert_absent(package: &str, names: &[String], crates: &[&str]) {
    for krate in crates {
        assert!(
            !names.iter().any(|n| n == krate),
            "{krate} is a dependency of {package}: {names:?}"
        );
    }
}

#[test]
fn the_core_crate_depends_on_none_of_the_commands_or_judges_crates() {
    let names = dependency_names("poker-core");
    assert!(names.iter().any(|n| n == "poker-core"), "{names:?}");
    assert_absent("poker-core", &names, &COMMAND_CRATES);
    assert_absent("poker-core", &names, &JUDGE_CRATES);
    assert_absent("poker-core", &names, &["poker-protocol", "libpoker"]);
}

#[test]
fn the_c_library_depends_on_the_core_and_protocol_only() {
    let names = dependency_names("libpoker");
    for krate in ["libpoker", "poker-core", "poker-protocol"] {
        assert!(names.iter().any(|n| n == krate), "{krate}: {names:?}");
    }
    assert_absent("libpoker", &names, &COMMAND_CRATES);
    assert_absent("libpoker", &names, &JUDGE_CRATES);
}

#[test]
fn the_hunt_library_brings_none_of_the_commands_crates_but_its_json() {
    let names = dependency_names("poker-hunt");
    assert!(names.iter().any(|n| n == "poker-hunt"), "{names:?}");
    // Its result files are JSON; its errors are its own types.
    let command_crates: Vec<&str> = COMMAND_CRATES
        .into_iter()
        .filter(|&c| c != "serde_json")
        .collect();
    assert_absent("poker-hunt", &names, &command_crates);
    assert_absent("poker-hunt", &names, &JUDGE_CRATES);
}

#[test]
fn the_command_brings_its_crates() {
    let names = dependency_names("poker-cli");
    for krate in COMMAND_CRATES.iter().chain(&JUDGE_CRATES) {
        assert!(
            names.iter().any(|n| n == krate),
            "{krate} is missing from poker-cli's tree: {names:?}"
        );
    }
}
