//! Every command of README.md and docs/*.md runs: the fenced `sh` blocks
//! of each file, in the order written, in one `bash -e` per file, in a
//! scratch folder laid out like the repository (its example folders, and a
//! `target/release` holding the test build's `poker` and `libpoker.so`,
//! which is first on `PATH`). A command tagged `[slow]`, `[root]`,
//! `[network]`, `[gpu]` or `[cluster]` in its comment, or in a block whose
//! opening line carries the tag, is left out (docs/development.md, "The
//! documentation is tested"). `<!-- file: NAME -->` before a block saves
//! the block as NAME first.

use crate::common;
use crate::common::tier::{self, needs};
use std::path::Path;
use std::process::Command;

/// The tags that leave a command out.
const TAGS: [&str; 5] = ["[slow]", "[root]", "[network]", "[gpu]", "[cluster]"];

/// What one documentation file asks to run.
#[derive(Default, Debug)]
struct Runnable {
    /// Files to write first: (name, text).
    files: Vec<(String, String)>,
    /// The commands, each one or more lines, in the order written.
    commands: Vec<String>,
    /// How many commands were left out for a tag.
    tagged: usize,
}

fn tagged(text: &str) -> bool {
    TAGS.iter().any(|tag| text.contains(tag))
}

/// The commands of a `sh` block: lines continued with `\`, and compound
/// commands (`for ... done`, `if ... fi`) up to their end, are one command.
fn split_commands(block: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut current = String::new();
    let mut depth = 0i32;
    for line in block.lines() {
        if current.is_empty() && line.trim().is_empty() {
            continue;
        }
        current.push_str(line);
        current.push('\n');
        match line.split_whitespace().next() {
            Some("for" | "while" | "until" | "if") => depth += 1,
            Some("done" | "fi") => depth -= 1,
            _ => {}
        }
        if !line.ends_with('\\') && depth <= 0 {
            commands.push(std::mem::take(&mut current));
            depth = 0;
        }
    }
    if !current.is_empty() {
        commands.push(current);
    }
    commands
}

/// Parses one Markdown file.
fn runnable(text: &str) -> Runnable {
    let mut found = Runnable::default();
    let mut file_name: Option<String> = None;
    let mut block: Option<(String, String)> = None; // (info string, body)
    for line in text.lines() {
        match &mut block {
            None => {
                if let Some(info) = line.strip_prefix("```") {
                    block = Some((info.to_string(), String::new()));
                } else if let Some(name) = line
                    .strip_prefix("<!-- file: ")
                    .and_then(|rest| rest.strip_suffix(" -->"))
                {
                    file_name = Some(name.to_string());
                }
            }
            Some((info, body)) if line == "```" => {
                if let Some(name) = file_name.take() {
                    found.files.push((name, std::mem::take(body)));
                } else if info.split_whitespace().next() == Some("sh") {
                    let commands = split_commands(body);
                    if tagged(info) {
                        found.tagged += commands.len();
                    } else {
                        for command in commands {
                            if tagged(&command) {
                                found.tagged += 1;
                            } else {
                                found.commands.push(command);
                            }
                        }
                    }
                }
                block = None;
            }
            Some((_, body)) => {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    found
}

#[test]
fn the_parser_splits_commands_and_honours_tags_and_files() {
    let doc = "<!-- file: a.c -->\n```c\nint main(void) { return 0; }\n```\n\n\
               ```sh\ncc a.c \\\n  -o a\n./a   # runs\nfor i in 1 2; do\n  echo $i\ndone\n\
               make deb   # [slow] a minute\n```\n\n```sh [root]\ndpkg -i x.deb\n```\n\n\
               ```text\nnot a command\n```\n";
    let found = runnable(doc);
    assert_eq!(
        found.files,
        vec![(
            "a.c".to_string(),
            "int main(void) { return 0; }\n".to_string()
        )]
    );
    assert_eq!(
        found.commands,
        vec![
            "cc a.c \\\n  -o a\n",
            "./a   # runs\n",
            "for i in 1 2; do\n  echo $i\ndone\n"
        ]
    );
    assert_eq!(found.tagged, 2);
}

/// The scratch folder for `doc`: the repository's example folders (links),
/// a `target/release` with copies of the test build, and the stand-ins
/// for the contestant the docs call `mine`.
fn workspace(doc: &str) -> std::path::PathBuf {
    let dir = common::scratch("doc_commands").join(doc.replace(['/', '.'], "_"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("target/release")).unwrap();
    let root = common::root();
    for folder in [
        "c_examples",
        "cpp_examples",
        "pascal_examples",
        "python_examples",
        "include",
        "bindings",
        "data",
        "tests",
        "examples",
        "contrib",
    ] {
        std::os::unix::fs::symlink(root.join(folder), dir.join(folder)).unwrap();
    }
    let release = dir.join("target/release");
    std::fs::copy(env!("CARGO_BIN_EXE_poker"), release.join("poker")).unwrap();
    std::fs::copy(
        common::lib_dir().join("libpoker.so"),
        release.join("libpoker.so"),
    )
    .unwrap();
    for (mine, example) in [
        ("mine.c", "c_examples/greedy.c"),
        ("mine.cpp", "cpp_examples/greedy.cpp"),
        ("mine.pas", "pascal_examples/greedy.pas"),
        ("mine.py", "python_examples/greedy.py"),
    ] {
        std::fs::copy(root.join(example), dir.join(mine)).unwrap();
    }
    let other = Command::new("cc")
        .args([
            "c_examples/roundrobin.c",
            "-Iinclude",
            "-Ltarget/release",
            "-lpoker",
        ])
        .arg(format!("-Wl,-rpath,{}", release.display()))
        .args(["-o", "other_program"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(other.status.success(), "{}", common::stderr(&other));
    dir
}

/// The bash script that runs `commands`, each announced on standard error.
fn script(commands: &[String]) -> String {
    let mut text = String::from("set -e\n");
    for command in commands {
        let command = command
            .strip_prefix("cargo build --release && ")
            .unwrap_or(command);
        let shown = command
            .lines()
            .next()
            .unwrap_or_default()
            .replace('\'', "'\\''");
        text += &format!("printf '%s %s\\n' \"$SECONDS s\" '$ {shown}' >&2\n{command}");
    }
    text
}

fn files() -> Vec<String> {
    let mut files = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(common::root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| format!("docs/{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn every_untagged_command_of_the_readme_and_docs_runs() {
    needs!(tier::PASCAL, tier::PYTHON, tier::CPP);
    let mut ran = 0;
    let mut left_out = 0;
    for doc in files() {
        let found = runnable(&std::fs::read_to_string(common::root().join(&doc)).unwrap());
        left_out += found.tagged;
        if found.commands.is_empty() {
            continue;
        }
        let dir = workspace(&doc);
        for (name, text) in &found.files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let path = format!(
            "{}:{}",
            dir.join("target/release").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let start = std::time::Instant::now();
        let output = Command::new("bash")
            .args(["--noprofile", "--norc", "-c", &script(&found.commands)])
            .current_dir(&dir)
            .env("PATH", path)
            .env_remove("POKER_SEED")
            .env_remove("POKER_DECK")
            .env_remove("POKER_MANAGER_FD")
            .env_remove("LD_LIBRARY_PATH")
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .output()
            .unwrap();
        let stderr = common::stderr(&output);
        assert!(
            output.status.success(),
            "a command of {doc} failed (exit status {:?}); the last one shown ran last:\n{}\n{stderr}",
            output.status.code(),
            common::stdout(&output)
        );
        eprintln!(
            "{doc}: {} commands in {:.1} s ({} tagged, left out)",
            found.commands.len(),
            start.elapsed().as_secs_f64(),
            found.tagged
        );
        ran += found.commands.len();
        cleanup(&dir);
    }
    // The README's main job and the tour's commands, and every face's page.
    eprintln!("{ran} commands ran, {left_out} left out for their tags");
    assert!(ran >= 60, "only {ran} commands ran");
    assert!(left_out >= 15, "only {left_out} commands tagged");
}

/// Removes what a file's commands made (large outputs such as a package).
fn cleanup(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
}
