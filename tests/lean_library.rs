//! The library without default features (`default-features = false`) pulls
//! in none of the `poker` command's crates: a Rust user who only wants the
//! game, dealing, Camicia or the C API does not build a CLI toolkit.
//!
//! Asks `cargo tree` (offline: every crate it needs is already downloaded,
//! since this test was built) for the normal dependency tree, once without
//! and once with default features, so the check itself is seen to fail when
//! the command's crates are present.

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

/// The crate names in `cargo tree -e normal --prefix none --offline`, with
/// `extra` arguments.
fn dependency_names(extra: &[&str]) -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["tree", "-e", "normal", "--prefix", "none", "--offline"])
        .args(extra)
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

#[test]
fn without_default_features_the_library_depends_on_none_of_the_commands_crates() {
    let names = dependency_names(&["--no-default-features"]);
    assert!(names.iter().any(|n| n == "poker"), "{names:?}");
    for krate in COMMAND_CRATES {
        assert!(
            !names.iter().any(|n| n == krate),
            "{krate} is a dependency without default features: {names:?}"
        );
    }
}

#[test]
fn with_default_features_the_command_brings_its_crates() {
    let names = dependency_names(&[]);
    for krate in COMMAND_CRATES {
        assert!(
            names.iter().any(|n| n == krate),
            "{krate} is missing with default features: {names:?}"
        );
    }
}
