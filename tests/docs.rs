//! Every C, Pascal and Python example in README.md and docs/bindings.md
//! compiles and runs against the fresh library (Pascal ones only when fpc
//! is installed; skipped ones are named on stderr).

mod common;
use std::process::{Command, Output};

/// The fenced blocks of `file` whose info string is `lang`.
fn blocks(file: &str, lang: &str) -> Vec<String> {
    let text = std::fs::read_to_string(common::root().join(file)).unwrap();
    let mut found = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match &mut current {
            None if line == format!("```{lang}") => current = Some(String::new()),
            Some(block) if line == "```" => {
                found.push(std::mem::take(block));
                current = None;
            }
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
            None => {}
        }
    }
    found
}

fn check(output: &Output, what: &str) {
    assert_eq!(
        output.status.code(),
        Some(0),
        "{what} failed:\n{}{}",
        common::stdout(output),
        common::stderr(output)
    );
}

const FILES: [&str; 2] = ["README.md", "docs/bindings.md"];

#[test]
fn c_examples_in_the_docs_run() {
    let mut count = 0;
    for file in FILES {
        for (i, block) in blocks(file, "c").iter().enumerate() {
            let name = format!("doc_{}_{i}", file.replace(['/', '.'], "_"));
            let exe = common::compile_c(&name, block);
            let output = common::run(&exe, &[("POKER_SEED", "42")]);
            check(&output, &format!("C example {i} of {file}"));
            count += 1;
        }
    }
    assert!(count >= 3, "only {count} C examples found");
}

#[test]
fn pascal_examples_in_the_docs_run() {
    if !common::have_fpc("the Pascal examples of the docs") {
        return;
    }
    let mut count = 0;
    for file in FILES {
        for (i, block) in blocks(file, "pascal").iter().enumerate() {
            let dir =
                common::scratch("docs").join(format!("pas_{}_{i}", file.replace(['/', '.'], "_")));
            std::fs::create_dir_all(&dir).unwrap();
            let src = dir.join("example.pas");
            std::fs::write(&src, block).unwrap();
            let exe = common::compile_pascal_file(&src, &dir, &[]);
            let output = common::run(&exe, &[("POKER_SEED", "42")]);
            check(&output, &format!("Pascal example {i} of {file}"));
            assert!(common::stdout(&output).contains("total: "));
            count += 1;
        }
    }
    assert!(count >= 2, "only {count} Pascal examples found");
}

#[test]
fn python_examples_in_the_docs_run() {
    if !common::tool_or_skip(
        "python3",
        "--version",
        "the Python examples of the docs",
        "Debian package python3",
    ) {
        return;
    }
    let mut count = 0;
    for file in FILES {
        for (i, block) in blocks(file, "python").iter().enumerate() {
            let output = Command::new("python3")
                .arg("-c")
                .arg(block)
                .env_remove("PYTHONUNBUFFERED")
                .env_remove("POKER_DECK")
                .env_remove("POKER_MANAGER_FD")
                .env("POKER_SEED", "42")
                .env("PYTHONDONTWRITEBYTECODE", "1")
                .env("PYTHONPATH", common::root().join("bindings/python"))
                .env("LIBPOKER", common::lib_dir())
                .output()
                .unwrap();
            check(&output, &format!("Python example {i} of {file}"));
            let out = common::stdout(&output);
            if block.contains("refused") {
                // The outputs its comments promise.
                assert!(out.contains("\n8\n"), "{out}");
                assert!(
                    out.contains(
                        "refused: rule broken at card 1 (call 3, p_place): column 7 is outside 1..4\n"
                    ),
                    "{out}"
                );
                assert!(out.ends_with("5H 3H 3C 7S 7D TC\n"), "{out}");
            }
            count += 1;
        }
    }
    assert!(count >= 3, "only {count} Python examples found");
}
