//! What a new user meets in the first hour, each checked as they would see
//! it: contestants' names, compile diagnostics and warnings, the decks'
//! canonical text and hash, `poker rank`'s words, ranges, and the reason a
//! prebuilt program without its library scores 0.

use crate::common;
use crate::common::tier::{self, needs};

use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The first built-in deck, as `poker decks` writes it.
const DECK: &str = "JS TD KC QS 9C AD 9D QC JD KS TH JH 9S JC TS TC KD AH AC KH AS QD 9H QH";

fn poker(args: &[&str], stdin: &str) -> Output {
    let mut child = crate::common::poker()
        .args(args)
        .current_dir(common::root())
        .env_remove("POKER_MANAGER_FD")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// `poker eval --json` over one deck, unconfined, against the fresh library.
fn eval_json(extra: &[&str], contestants: &[&Path]) -> (Value, String) {
    let decks = common::scratch("first_hour").join("one_deck.txt");
    std::fs::write(&decks, format!("{DECK}\n")).unwrap();
    let lib = common::lib_dir();
    let mut args = vec![
        "eval",
        "--json",
        "--quiet",
        "--lib-dir",
        lib.to_str().unwrap(),
    ];
    args.extend(["--decks", decks.to_str().unwrap()]);
    args.extend(extra);
    args.extend(contestants.iter().map(|p| p.to_str().unwrap()));
    let output = poker(&args, "");
    assert!(output.status.success(), "{}", common::stderr(&output));
    (
        serde_json::from_slice(&output.stdout).unwrap(),
        common::stderr(&output),
    )
}

#[test]
fn contestants_sharing_a_stem_are_named_by_their_file_names() {
    needs!(tier::PASCAL, tier::PYTHON);
    let root = common::root();
    let paths = [
        root.join("c_examples/greedy.c"),
        root.join("pascal_examples/greedy.pas"),
        root.join("python_examples/greedy.py"),
        root.join("c_examples/roundrobin.c"),
    ];
    let refs: Vec<&Path> = paths.iter().map(|p| p.as_path()).collect();
    let (report, _) = eval_json(&["--sandbox", "off"], &refs);
    let names: Vec<&str> = report["contestants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["greedy.c", "greedy.pas", "greedy.py", "roundrobin"]);
}

#[test]
fn a_pascal_compile_error_names_the_contestants_own_file() {
    needs!(tier::PASCAL);
    let dir = common::scratch("first_hour");
    let source = dir.join("mine.pas");
    // Line 5, column 3: an identifier that does not exist.
    std::fs::write(
        &source,
        "program mine;\nuses Poker;\nbegin\n  p_startgame;\n  no_such_procedure;\nend.\n",
    )
    .unwrap();
    let (report, warning) = eval_json(&["--sandbox", "off"], &[&source]);
    let why = report["contestants"][0]["not_run"].as_str().unwrap();
    let expected = format!("{}(5,3) Error", source.display());
    assert!(why.contains(&expected), "{why}");
    assert!(!why.contains("contestant.pas"), "{why}");
    // The audit's compile line for practice keeps the documented -FU (the
    // unit's compiled files beside the program, not in the unit's folder).
    let practice = report["audit"]["compile"][0]["practice"].as_str().unwrap();
    assert!(practice.contains("fpc"), "{practice}");
    assert!(
        practice.split_whitespace().any(|w| w == "-FU."),
        "{practice}"
    );
    // The warning on stderr carries the first diagnostic, not a bare colon.
    let line = warning
        .lines()
        .find(|l| l.starts_with("poker: warning: mine is not run"))
        .unwrap_or_else(|| panic!("{warning}"));
    assert!(line.contains("does not compile: "), "{line}");
    assert!(line.contains("(5,3) Error"), "{line}");
}

#[test]
fn the_warning_for_a_c_source_that_does_not_compile_names_the_error() {
    let dir = common::scratch("first_hour");
    let source = dir.join("nocompile.c");
    std::fs::write(&source, "int main(void) { return missing; }\n").unwrap();
    let (_, warning) = eval_json(&["--sandbox", "off"], &[&source]);
    let line = warning
        .lines()
        .find(|l| l.contains("nocompile is not run"))
        .unwrap_or_else(|| panic!("{warning}"));
    assert!(!line.ends_with(':'), "{line}");
    assert!(line.contains("missing"), "{line}");
}

#[test]
fn canonical_decks_hash_to_the_audits_sha256_for_a_hand_written_file() {
    // The first built-in deck written by hand: lower case, tens as 10,
    // extra spaces, a comment and blank lines.
    let hand = "# my secret deck\n\njs 10d kc qs 9c ad 9d qc jd ks 10h jh 9s jc 10s 10c kd ah ac kh as qd 9h qh  \n\n";
    let file = common::scratch("first_hour").join("hand.txt");
    std::fs::write(&file, hand).unwrap();
    let canonical = poker(&["decks", "--canonical", file.to_str().unwrap()], "");
    assert!(canonical.status.success(), "{}", common::stderr(&canonical));
    assert_eq!(common::stdout(&canonical), format!("{DECK}\n"));

    let mut sha = Command::new("sha256sum")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    sha.stdin
        .take()
        .unwrap()
        .write_all(&canonical.stdout)
        .unwrap();
    let sum = common::stdout(&sha.wait_with_output().unwrap());
    let sum = sum.split_whitespace().next().unwrap();

    let lib = common::lib_dir();
    let roundrobin = common::root().join("c_examples/roundrobin.c");
    let output = poker(
        &[
            "eval",
            "--json",
            "--quiet",
            "--sandbox",
            "off",
            "--lib-dir",
            lib.to_str().unwrap(),
            "--decks",
            file.to_str().unwrap(),
            roundrobin.to_str().unwrap(),
        ],
        "",
    );
    assert!(output.status.success(), "{}", common::stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["audit"]["decks_sha256"], sum);
}

#[test]
fn rank_says_rank_and_standard_input_as_the_other_commands_do() {
    let ranked = poker(&["rank", "-"], "alice 30\nbob 15\n");
    assert!(ranked.status.success(), "{}", common::stderr(&ranked));
    let text = common::stdout(&ranked);
    // The table `poker eval` ends with: its heading, then its columns
    // (with the same indent and the same word, "contestant").
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("ranking (the best total is worth 10 points)")
    );
    assert!(
        lines.next().unwrap().starts_with("  rank  contestant  "),
        "{text}"
    );
    // 10 points for the best, 10 * 15 / 30 = 5 for the other.
    assert!(
        text.contains("alice") && text.lines().nth(3).unwrap().ends_with(" 5"),
        "{text}"
    );
    let bad = poker(&["rank", "-"], "alice lots\n");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        common::stderr(&bad).starts_with("poker: error: standard input: line 1:"),
        "{}",
        common::stderr(&bad)
    );
}

#[test]
fn freecell_ranges_take_both_forms_and_camicia_ranges_say_which_end_counts() {
    let inclusive = poker(&["freecell", "1..=2", "--order"], "");
    let legacy = poker(&["freecell", "1..2", "--order"], "");
    assert!(inclusive.status.success() && legacy.status.success());
    assert_eq!(common::stdout(&inclusive), common::stdout(&legacy));
    assert_eq!(common::stdout(&inclusive).matches("# deal").count(), 2);
    assert!(
        common::stderr(&inclusive).is_empty(),
        "{}",
        common::stderr(&inclusive)
    );
    assert!(
        common::stderr(&legacy).contains("write 1..=2"),
        "{}",
        common::stderr(&legacy)
    );
    // Camicia: START..END excludes END, START..=LAST includes LAST: the same
    // three deals.
    let count = |range: &str| -> u64 {
        let out = poker(
            &["camicia", "search", "--quiet", "--json", "--range", range],
            "",
        );
        assert!(out.status.success(), "{}", common::stderr(&out));
        let summary = common::stdout(&out)
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|v| v.get("deals").is_some())
            .unwrap_or_else(|| panic!("{}", common::stdout(&out)));
        summary["deals"].as_u64().unwrap()
    };
    assert_eq!(count("0..3"), 3);
    assert_eq!(count("0..=2"), 3);
    let help = common::stdout(&poker(&["camicia", "search", "--help"], ""));
    assert!(help.contains("END excluded"), "{help}");
}

#[test]
fn camicia_search_of_no_deals_prints_no_empty_heading() {
    let out = poker(&["camicia", "search", "--quiet", "--count", "0"], "");
    assert!(out.status.success(), "{}", common::stderr(&out));
    assert!(
        !common::stdout(&out).contains("longest finished games:"),
        "{}",
        common::stdout(&out)
    );
}

#[test]
fn bench_help_does_not_speak_of_a_decks_option_it_lacks() {
    let help = common::stdout(&poker(&["bench", "--help"], ""));
    assert!(!help.contains("on with --decks"), "{help}");
    assert!(help.contains("and for bench"), "{help}");
}

#[test]
fn a_prebuilt_program_without_the_lib_dir_library_is_told_how_to_pass_it() {
    needs!(tier::SANDBOX);
    // greedy linked against a copy of the library in a folder that
    // --lib-dir does not name: the sandbox gives it only --lib-dir's.
    let elsewhere = common::scratch("first_hour").join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::copy(
        common::lib_dir().join("libpoker.so"),
        elsewhere.join("libpoker.so"),
    )
    .unwrap();
    let program = common::compile_c_file_against(
        "greedy_elsewhere",
        &common::root().join("c_examples/greedy.c"),
        &["-std=c99"],
        &elsewhere,
    );
    // Its rpath names that folder: the sandbox refuses it before any game
    // (it copies in libraries only from the system's folders and
    // --lib-dir), saying so.
    let (report, _) = eval_json(&["--sandbox", "on"], &[&program]);
    let contestant = &report["contestants"][0];
    let why = contestant["not_run"].as_str().unwrap_or_default();
    assert!(
        why.contains(&format!(
            "searches for libraries in {}",
            elsewhere.display()
        )),
        "{contestant}"
    );
    assert!(why.contains("--lib-dir"), "{why}");
}
