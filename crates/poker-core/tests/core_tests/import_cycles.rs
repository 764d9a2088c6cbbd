//! The repository's import-cycle check (`.ci/import_cycles.py`, run by
//! `.ci/lint`): none in the workspace, and a cycle added to a scratch copy
//! of a crate is found and named.

use crate::common::{root, scratch};
use std::path::Path;
use std::process::{Command, Output};

fn check(repository: &Path) -> Output {
    Command::new("python3")
        .arg(root().join(".ci/import_cycles.py"))
        .arg(repository)
        .output()
        .expect("python3 runs the cycle check")
}

/// Copies poker-core's sources into `dir/crates/poker-core/src`.
fn copy_core(dir: &Path) -> std::path::PathBuf {
    let _ = std::fs::remove_dir_all(dir);
    let src = dir.join("crates/poker-core/src");
    copy_tree(&root().join("crates/poker-core/src"), &src);
    src
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn append(file: &Path, text: &str) {
    let mut source = std::fs::read_to_string(file).unwrap();
    source.push_str(text);
    std::fs::write(file, source).unwrap();
}

#[test]
fn the_workspace_has_no_import_cycle() {
    let output = check(&root());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}{stderr}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert!(stderr.contains("no cycle among"), "{stderr}");
}

#[test]
fn a_parent_using_a_child_that_uses_it_is_a_cycle() {
    let dir = scratch("import_cycles_parent");
    let src = copy_core(&dir);
    // contest/board.rs uses COLUMNS from contest/mod.rs, which re-exports
    // Board: a pass-through, no cycle yet. A function in mod.rs that uses
    // Board closes one.
    let before = check(&dir);
    assert_eq!(before.status.code(), Some(0));
    append(
        &src.join("contest/mod.rs"),
        "\n/// Added by the test.\npub fn cells(_: &Board) -> usize {\n    COLUMNS\n}\n",
    );
    let after = check(&dir);
    let stdout = String::from_utf8_lossy(&after.stdout);
    assert_eq!(after.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "crates/poker-core/src/contest/mod.rs -> crates/poker-core/src/contest/board.rs (Board)"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("crates/poker-core/src/contest/board.rs -> crates/poker-core/src/contest/mod.rs (COLUMNS"),
        "{stdout}"
    );
}

#[test]
fn a_cycle_hidden_behind_a_re_export_is_found_and_test_code_is_not() {
    let dir = scratch("import_cycles_sibling");
    let src = copy_core(&dir);
    // A sibling's name through the parent's `pub use` resolves to the
    // sibling: freecell/board.rs -> format.rs (Layout, re-exported by
    // freecell/mod.rs), and back from code in a #[cfg(test)] module, left
    // out: no cycle yet.
    append(
        &src.join("freecell/board.rs"),
        "\nuse super::Layout;\n/// Added by the test.\npub fn layout(layout: Layout) -> Layout {\n    layout\n}\n",
    );
    append(
        &src.join("freecell/format.rs"),
        "\n#[cfg(test)]\nmod added {\n    use super::super::parse_board;\n    fn f() {\n        parse_board(\"\");\n    }\n}\n",
    );
    let test_only = check(&dir);
    assert_eq!(
        test_only.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&test_only.stdout)
    );
    // The same import in the library's code closes the cycle.
    append(
        &src.join("freecell/format.rs"),
        "\nuse super::parse_board;\n/// Added by the test.\npub fn parse(text: &str) -> bool {\n    parse_board(text).is_ok()\n}\n",
    );
    let output = check(&dir);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("cycle between 2 files:"), "{stdout}");
    assert!(
        stdout.contains("crates/poker-core/src/freecell/format.rs -> crates/poker-core/src/freecell/board.rs (parse_board)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("crates/poker-core/src/freecell/board.rs -> crates/poker-core/src/freecell/format.rs (Layout)"),
        "{stdout}"
    );
}
