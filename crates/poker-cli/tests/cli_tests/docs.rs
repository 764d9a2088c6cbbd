//! Every C, Pascal and Python example in README.md, docs/contestant.md and
//! docs/bindings.md
//! compiles and runs against the fresh library (the Pascal and Python ones
//! in the Pascal and Python tiers of `common::tier`).

use crate::common;
use crate::common::tier::{self, needs};
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

const FILES: [&str; 3] = ["README.md", "docs/contestant.md", "docs/bindings.md"];

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
    needs!(tier::PASCAL);
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
    needs!(tier::PYTHON);
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
                assert!(out.contains("5H 3H 3C 7S 7D TC\n"), "{out}");
                assert!(
                    out.ends_with(
                        "7225 68 --A-Q--J--J---Q--AJ-K---K- -J-------Q------A--A--QKK-\n"
                    ),
                    "{out}"
                );
            }
            count += 1;
        }
    }
    assert!(count >= 3, "only {count} Python examples found");
}

fn read(file: &str) -> String {
    std::fs::read_to_string(common::root().join(file)).unwrap()
}

#[test]
fn readme_builds_the_library_before_any_command_links_against_it() {
    // `cargo test` leaves libpoker.so only in target/release/deps; `cargo
    // build --release` is what puts it where the README's cc lines look.
    let readme = read("README.md");
    let first = blocks("README.md", "sh").into_iter().next().unwrap();
    assert!(
        first
            .lines()
            .next()
            .unwrap()
            .starts_with("cargo build --release "),
        "{first}"
    );
    let linked = readme.find("-Ltarget/release").expect("a cc line");
    assert!(readme.find(&first).unwrap() < linked);
    // .ci/run follows these steps on a fresh clone and checks the file.
    let ci = read(".ci/run");
    assert!(ci.contains("cargo build --release"), "{ci}");
    assert!(ci.contains("target/release/libpoker.so"), "{ci}");
}

#[test]
fn readme_and_eval_help_give_the_same_compile_commands() {
    let help = crate::common::poker()
        .args(["eval", "--help"])
        .output()
        .unwrap();
    let help = common::stdout(&help);
    let words = |line: &str| line.split_whitespace().collect::<Vec<_>>().join(" ");
    let commands = |text: &str| -> Vec<String> {
        text.lines()
            .map(str::trim_start)
            .filter(|l| {
                [".c ", ".cpp,", ".pas", ".py "]
                    .iter()
                    .any(|kind| l.starts_with(kind))
            })
            .map(words)
            .collect()
    };
    let readme = blocks("docs/organiser.md", "text").join("");
    assert_eq!(commands(&help).len(), 4, "{help}");
    assert_eq!(commands(&readme), commands(&help));
}

#[test]
fn bindings_doc_names_every_c_example() {
    let doc = read("docs/bindings.md");
    let mut count = 0;
    for entry in std::fs::read_dir(common::root().join("c_examples")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".c") {
            assert!(
                doc.contains(&format!("`{name}`")),
                "docs/bindings.md omits {name}"
            );
            count += 1;
        }
    }
    assert!(count >= 3);
}

#[test]
fn readme_prerequisites_name_every_tool_ci_requires() {
    let readme = read("docs/development.md");
    let ci = read(".ci/run");
    let list = ci
        .lines()
        .find_map(|l| l.trim().strip_prefix("for tool in "))
        .expect(".ci/run lists the tools it requires");
    let list = list.split(';').next().unwrap();
    for tool in list.split_whitespace() {
        let debian = match tool {
            "bwrap" => "bubblewrap",
            "cc" => "gcc",
            "/usr/bin/python3" => "python3",
            "fpc" => "fp-compiler",
            other => other,
        };
        assert!(
            readme.contains(&format!("`{debian}`")),
            "docs/development.md omits {debian}"
        );
    }
}

#[test]
fn no_internal_references_in_docs_header_or_messages() {
    let mut files = vec![
        "README.md".to_string(),
        "include/poker.h".to_string(),
        "bindings/python/libpoker.py".to_string(),
        "bindings/pascal/poker.pas".to_string(),
    ];
    for dir in [
        "docs",
        "crates/poker-cli/src",
        "crates/libpoker/src/ffi",
        "c_examples",
        "python_examples",
        "pascal_examples",
    ] {
        for entry in std::fs::read_dir(common::root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            // Pictures (the README's screenshot) are not text.
            if path.is_file() && path.extension().is_none_or(|e| e != "png") {
                files.push(
                    path.strip_prefix(common::root())
                        .unwrap()
                        .display()
                        .to_string(),
                );
            }
        }
    }
    for file in files {
        let text = read(&file).to_lowercase();
        for internal in [
            "seed 00",
            "strategy2",
            "shared/spec",
            "shared/notes",
            "shared/vectors",
        ] {
            assert!(!text.contains(internal), "{file} mentions {internal:?}");
        }
        for (at, _) in text.match_indices("issue ") {
            let next = text[at + 6..].chars().next();
            assert!(
                !next.is_some_and(|c| c.is_ascii_digit()) || text[..at].ends_with("cargo "),
                "{file} mentions an issue number"
            );
        }
    }
}

/// `line` with runs of spaces made one, and the measured columns (times
/// like `0.016 s`, memory like `1.7 MiB`, or `-` when not measured) and
/// the compiler's name after "compile command:" replaced by placeholders.
fn normalised(line: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut rest = line.split_whitespace().peekable();
    while let Some(word) = rest.next() {
        let decimal = word.contains('.') && word.parse::<f64>().is_ok();
        let measured =
            word == "-" || decimal && rest.peek().is_some_and(|u| ["s", "MiB"].contains(u));
        let compiler = words.last().is_some_and(|w| w == "command:");
        words.push(if measured {
            if word != "-" {
                rest.next(); // its unit
            }
            "#".into()
        } else if compiler {
            "CC".into()
        } else {
            word.to_string()
        });
    }
    words.join(" ")
}

/// The README's sample text report is what `poker eval` prints today: each
/// of its lines is a line of the real report (a line with `...` stands for
/// the real line's start), measured figures and the compiler aside.
#[test]
fn the_readme_sample_report_matches_poker_eval() {
    let readme = blocks("docs/organiser.md", "text");
    let sample = readme
        .iter()
        .find(|b| b.starts_with("greedy (c_examples/greedy.c)"))
        .expect("README's sample report");
    let output = crate::common::poker()
        .args(["eval", "--quiet", "--lib-dir"])
        .arg(common::lib_dir())
        .args(["c_examples/greedy.c", "tests/contestants/bad_column.c"])
        .current_dir(common::root())
        .env_remove("POKER_MANAGER_FD")
        .output()
        .unwrap();
    check(&output, "poker eval");
    let report: Vec<String> = common::stdout(&output).lines().map(normalised).collect();
    for line in sample.lines().filter(|l| l.trim() != "...") {
        let expected = normalised(line.split("...").next().unwrap());
        assert!(
            report.iter().any(|r| if line.contains("...") {
                r.starts_with(&expected)
            } else {
                *r == expected
            }),
            "README's sample line is not in poker eval's report:\n{line}\n\nreport:\n{}",
            common::stdout(&output)
        );
    }
}

// The Pascal recipes' folder for compiled units is not the folder the
// Camicia docs keep work units in (`units/`, `$CAMICIA_DIR`'s default), so
// following both in one place mixes nothing.
#[test]
fn pascal_unit_folders_are_not_camicia_work_unit_folders() {
    let camicia = std::fs::read_to_string(common::root().join("docs/camicia.md")).unwrap();
    assert!(camicia.contains("(default `units/`)"), "docs/camicia.md");
    for file in ["docs/contestant.md", "docs/bindings.md"] {
        let text = std::fs::read_to_string(common::root().join(file)).unwrap();
        let folders: Vec<&str> = text
            .split_whitespace()
            .filter_map(|w| w.strip_prefix("-FU"))
            .filter(|f| !f.starts_with('<'))
            .collect();
        assert!(!folders.is_empty(), "{file} has no Pascal recipe");
        for folder in folders {
            assert_ne!(folder.trim_end_matches('/'), "units", "{file}");
        }
    }
}
