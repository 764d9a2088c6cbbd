//! `poker man FOLDER` writes a manual page for `poker` and for every
//! subcommand `--help` lists, at any depth, and `poker completions SHELL`
//! completes those subcommands and their options.

use crate::common;
use std::collections::BTreeSet;

/// The subcommands that `poker [SUB...] --help` lists under "Commands:",
/// less `help`.
fn listed(path: &[&str]) -> Vec<String> {
    let output = common::poker().args(path).arg("--help").output().unwrap();
    assert!(output.status.success(), "{}", common::stderr(&output));
    common::stdout(&output)
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|name| name != "help")
        .collect()
}

/// `poker`'s page names, from `--help` alone: poker, poker-eval, ...
fn expected_pages(path: &mut Vec<String>, pages: &mut BTreeSet<String>) {
    let words: Vec<&str> = path.iter().map(String::as_str).collect();
    pages.insert(
        std::iter::once("poker")
            .chain(words.iter().copied())
            .collect::<Vec<_>>()
            .join("-"),
    );
    for sub in listed(&words) {
        path.push(sub);
        expected_pages(path, pages);
        path.pop();
    }
}

#[test]
fn man_writes_a_page_for_poker_and_every_subcommand_help_lists() {
    let mut expected = BTreeSet::new();
    expected_pages(&mut Vec::new(), &mut expected);
    assert!(expected.contains("poker-eval") && expected.contains("poker-camicia-search"));
    let dir = common::scratch("manual").join("man1");
    let _ = std::fs::remove_dir_all(&dir);
    let output = common::poker().arg("man").arg(&dir).output().unwrap();
    assert!(output.status.success(), "{}", common::stderr(&output));
    assert_eq!(
        common::stdout(&output),
        format!("{} manual pages in {}\n", expected.len(), dir.display())
    );
    let written: BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .map(|name| {
            name.strip_suffix(".1")
                .expect("a section 1 page")
                .to_string()
        })
        .collect();
    assert_eq!(written, expected);
    // A page says what --help says: eval's options, with their defaults.
    let page = std::fs::read_to_string(dir.join("poker-eval.1")).unwrap();
    assert!(
        page.starts_with(".ie"),
        "not roff: {}",
        &page[..40.min(page.len())]
    );
    assert!(page.contains(".TH poker-eval 1"), "{page}");
    assert!(page.contains(r"\-\-time\-limit"), "{page}");
    assert!(page.contains("[default: 5s]"), "{page}");
    // Help texts are plain text, not markdown: no page quotes with backticks.
    for name in &expected {
        let page = std::fs::read_to_string(dir.join(format!("{name}.1"))).unwrap();
        assert!(!page.contains('`'), "{name}.1 holds a backtick");
    }
}

#[test]
fn no_help_text_holds_a_markdown_backtick() {
    fn check(path: &mut Vec<String>) {
        let words: Vec<&str> = path.iter().map(String::as_str).collect();
        let output = common::poker().args(&words).arg("--help").output().unwrap();
        let help = common::stdout(&output);
        assert!(
            !help.contains('`'),
            "poker {} --help holds a backtick:\n{help}",
            words.join(" ")
        );
        for sub in listed(&words) {
            path.push(sub);
            check(path);
            path.pop();
        }
    }
    check(&mut Vec::new());
}

#[test]
fn man_refuses_a_folder_it_cannot_make() {
    let file = common::scratch("manual").join("a-file");
    std::fs::write(&file, "").unwrap();
    let output = common::poker()
        .arg("man")
        .arg(file.join("man1"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        common::stderr(&output).starts_with("poker: error: cannot make the folder "),
        "{}",
        common::stderr(&output)
    );
}

#[test]
fn completions_cover_the_subcommands_and_their_options() {
    for shell in ["bash", "zsh", "fish"] {
        let output = common::poker()
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{shell}: {}",
            common::stderr(&output)
        );
        let script = common::stdout(&output);
        for word in listed(&[])
            .iter()
            .map(String::as_str)
            .chain(["time-limit", "extend-from"])
        {
            assert!(script.contains(word), "{shell} completion lacks {word}");
        }
    }
    let output = common::poker()
        .args(["completions", "tcsh"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    // The hidden subcommands stay out of the user's list.
    let listed = listed(&[]);
    assert!(
        !listed.iter().any(|s| s == "man" || s == "completions"),
        "{listed:?}"
    );
}
