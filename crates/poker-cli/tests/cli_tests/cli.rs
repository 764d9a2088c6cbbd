//! The `poker` command's shared vocabulary, from the outside: JSON on the
//! small commands, one error prefix, `--jobs` and `--quiet` where work runs
//! in parallel or shows progress, and `poker eval`'s usage errors, `--strict`
//! and documented compile command.

use crate::common;
use serde_json::Value;
use std::process::Output;

fn poker(args: &[&str]) -> Output {
    crate::common::poker()
        .args(args)
        .output()
        .expect("run poker")
}

fn json(args: &[&str]) -> Value {
    let output = poker(args);
    assert!(output.status.success(), "{}", common::stderr(&output));
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

/// The README's example deal (24 cards).
const DEAL: &str = "JS TD KC QS 9C AD 9D QC JD KS TH JH 9S JC TS TC KD AH AC KH AS QD 9H QH";

#[test]
fn hand_prints_json() {
    let v = json(&["hand", "--json", "AS KS QS JS TS"]);
    // The contest text's table: a straight flush scores 8.
    assert_eq!(v["category"], "straight flush");
    assert_eq!(v["contest_points"], 8);
    assert_eq!(v["cards"].as_array().unwrap().len(), 5);
    let v = json(&["hand", "--json", "2C", "3C", "4C", "5C", "7D"]);
    assert_eq!(v["category"], "high card");
    assert_eq!(v["contest_points"], Value::Null);
}

#[test]
fn decks_json_holds_the_built_in_decks_of_the_deck_file() {
    let v = json(&["decks", "--json", "--seed", "19940808"]);
    assert_eq!(v["seed"], 19940808);
    let file = std::fs::read_to_string(common::root().join("data/decks.txt")).unwrap();
    let expected: Vec<Vec<&str>> = file
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split_whitespace().collect())
        .collect();
    let got: Vec<Vec<&str>> = v["decks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            d.as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn optimum_takes_20_cards_like_the_c_function_and_prints_json() {
    let full = json(&["optimum", "--json", DEAL]);
    let dealt: Vec<&str> = DEAL.split_whitespace().take(20).collect();
    let twenty = json(&["optimum", "--json", &dealt.join(" ")]);
    // The last 4 cards are never dealt: the same best total either way.
    assert_eq!(full["decks"][0]["best"], twenty["decks"][0]["best"]);
    assert_eq!(twenty["decks"][0]["cards"].as_array().unwrap().len(), 20);
    // The board is the dealt cards, four columns of five.
    let board = twenty["decks"][0]["board"].as_array().unwrap();
    let mut placed: Vec<&str> = board
        .iter()
        .flat_map(|c| c.as_array().unwrap().iter().map(|t| t.as_str().unwrap()))
        .collect();
    assert!(board.iter().all(|c| c.as_array().unwrap().len() == 5));
    let mut expected = dealt.clone();
    placed.sort();
    expected.sort();
    assert_eq!(placed, expected);
    let text = poker(&["optimum", &dealt.join(" ")]);
    assert!(text.status.success(), "{}", common::stderr(&text));
    let files = json(&["optimum", "--json", "--decks", "data/decks.txt"]);
    assert_eq!(files["decks"].as_array().unwrap().len(), 10);
}

#[test]
fn optimum_without_a_deal_names_both_ways_to_give_one() {
    let output = poker(&["optimum"]);
    assert_eq!(output.status.code(), Some(2));
    let err = common::stderr(&output);
    assert!(err.starts_with("poker: error: "), "{err}");
    assert!(err.contains("--decks"), "{err}");
}

#[test]
fn every_error_has_one_prefix() {
    for args in [
        &["optimum", "--no-such-flag"][..],
        &["hand", "AS"],
        &["freecell", "0"],
        &["camicia", "search", "--jobs", "0"],
        &["eval", "--time-limit", "0"],
    ] {
        let output = poker(args);
        assert!(!output.status.success(), "{args:?}");
        let err = common::stderr(&output);
        assert!(err.starts_with("poker: error: "), "{args:?}: {err}");
    }
}

#[test]
fn parallel_and_progress_flags_are_named_alike() {
    for (command, flags) in [
        (&["eval"][..], &["--quiet"][..]),
        (&["bench"], &["--jobs", "--quiet"]),
        (&["camicia", "search"], &["--jobs", "--quiet"]),
        (&["decks"], &["--json"]),
        (&["optimum"], &["--json"]),
        (&["hand"], &["--json"]),
    ] {
        let mut args = command.to_vec();
        args.push("--help");
        let help = common::stdout(&poker(&args));
        for flag in flags {
            assert!(
                help.contains(&format!("{flag} ")) || help.contains(&format!("{flag}\n")),
                "{command:?} lacks {flag}:\n{help}"
            );
        }
    }
}

fn eval_output(args: &[&str]) -> Output {
    let lib = common::lib_dir();
    let mut all = vec!["eval", "--quiet", "--lib-dir", lib.to_str().unwrap()];
    all.extend_from_slice(args);
    poker(&all)
}

#[test]
fn eval_refuses_what_cannot_be_a_contestant_before_running_anything() {
    let dir = common::scratch("cli");
    let text = dir.join("notes.txt");
    std::fs::write(&text, "not a program\n").unwrap();
    let greedy = common::root().join("c_examples/greedy.c");
    for (path, why) in [
        ("nosuch.c".to_string(), "does not exist"),
        (dir.display().to_string(), "is a folder"),
        (
            text.display().to_string(),
            "neither a .c, .cpp, .cc, .cxx, .C, .pas, .pp or .py source nor an executable",
        ),
    ] {
        let output = eval_output(&[greedy.to_str().unwrap(), &path]);
        assert_eq!(output.status.code(), Some(2), "{path}");
        assert_eq!(common::stdout(&output), "", "{path}: something ran");
        let err = common::stderr(&output);
        assert!(err.starts_with("poker: error: contestant "), "{err}");
        assert!(err.contains(why), "{path}: {err}");
    }
}

#[test]
fn output_paths_that_cannot_be_written_are_refused_before_any_work() {
    // A contestant that leaves a mark when it runs: with an --html page
    // that cannot be written it must never run. The same for bench's page,
    // a merge's page and a search unit's result file.
    let dir = common::scratch("cli-output");
    let mark = dir.join("played");
    let contestant = dir.join("marks.py");
    std::fs::write(
        &contestant,
        format!("open({:?}, 'w').close()\n", mark.display().to_string()),
    )
    .unwrap();
    let missing = dir.join("no-such-folder/page.html");
    let refused = format!(
        "poker: error: cannot write {}: no folder {}\n",
        missing.display(),
        dir.join("no-such-folder").display()
    );
    let page = missing.to_str().unwrap();
    let c = contestant.to_str().unwrap();
    for args in [
        vec!["eval", "--quiet", "--sandbox", "off", "--html", page, c],
        vec![
            "bench",
            "--quiet",
            "--sandbox",
            "off",
            "--games",
            "3",
            "--html",
            page,
            c,
        ],
        vec!["camicia", "merge", "--html", page, c],
        vec![
            "camicia", "search", "--quiet", "--range", "0..1000", "--output", page,
        ],
    ] {
        let output = poker(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(common::stderr(&output), refused, "{args:?}");
        assert_eq!(common::stdout(&output), "", "{args:?}");
        assert!(!mark.exists(), "{args:?}: the contestant ran");
    }
}

#[test]
fn one_file_given_twice_is_refused_and_namesakes_build_apart() {
    // a/greedy.c and b/greedy.c are two contestants, each replayed with a
    // program of its own; a/greedy.c given twice (two spellings) is one.
    let dir = common::scratch("cli-namesakes");
    let greedy = std::fs::read(common::root().join("c_examples/greedy.c")).unwrap();
    for folder in ["a", "b"] {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
        std::fs::write(dir.join(folder).join("greedy.c"), &greedy).unwrap();
    }
    let (a, b) = (dir.join("a/greedy.c"), dir.join("b/greedy.c"));
    let again = dir.join("a/../a/greedy.c");
    let output = eval_output(&[a.to_str().unwrap(), again.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(common::stdout(&output), "", "something ran");
    assert_eq!(
        common::stderr(&output),
        format!(
            "poker: error: contestant {} is given twice (as {} and {})\n",
            a.display(),
            a.display(),
            again.display()
        )
    );

    let output = eval_output(&["--json", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(output.status.success(), "{}", common::stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let outputs: Vec<String> = report["audit"]["compile"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let practice = c["practice"].as_str().unwrap();
            let after = practice
                .split(" -o ")
                .nth(1)
                .unwrap_or_else(|| panic!("no -o in {practice}"));
            after.split(' ').next().unwrap().to_string()
        })
        .collect();
    assert_eq!(outputs, ["./a_greedy_c", "./b_greedy_c"]);
}

#[test]
fn a_contestant_that_does_not_compile_scores_0_and_strict_fails_the_run() {
    let dir = common::scratch("cli");
    let broken = dir.join("broken.c");
    std::fs::write(&broken, "int main(void) { return missing; }\n").unwrap();
    let decks = dir.join("one_deck.txt");
    std::fs::write(&decks, format!("{DEAL}\n")).unwrap();
    let bad_column = common::root().join("tests/contestants/bad_column.c");
    let args = [
        "--sandbox",
        "auto",
        "--decks",
        decks.to_str().unwrap(),
        "--json",
        broken.to_str().unwrap(),
        bad_column.to_str().unwrap(),
    ];
    let output = eval_output(&args);
    assert_eq!(output.status.code(), Some(0), "{}", common::stderr(&output));
    let v: Value = serde_json::from_slice(&output.stdout).unwrap();
    let broken = &v["contestants"][0];
    assert!(
        broken["not_run"]
            .as_str()
            .unwrap()
            .contains("does not compile"),
        "{broken}"
    );
    assert_eq!(broken["total"], 0);
    // Two totals of 0 share a place.
    assert_eq!(v["contestants"][1]["total"], 0);
    assert_eq!(broken["rank"], v["contestants"][1]["rank"]);

    let mut strict = args.to_vec();
    strict.push("--strict");
    let output = eval_output(&strict);
    assert_eq!(output.status.code(), Some(1));
    assert!(common::stderr(&output).contains("not run (--strict)"));
    // A run where every contestant ran passes --strict.
    let output = eval_output(&[
        "--sandbox",
        "auto",
        "--decks",
        decks.to_str().unwrap(),
        "--strict",
        bad_column.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", common::stderr(&output));
}

/// The line of `poker eval --help` documenting how a .c source is compiled.
fn documented_c_command() -> Vec<String> {
    let help = common::stdout(&poker(&["eval", "--help"]));
    let line = help
        .lines()
        .find(|l| l.trim_start().starts_with(".c "))
        .unwrap_or_else(|| panic!("no .c line in:\n{help}"));
    line.split_whitespace().skip(1).map(String::from).collect()
}

#[test]
fn eval_compiles_c_exactly_as_its_help_says() {
    // A $CC that records its arguments, then compiles with cc.
    let dir = common::scratch("cli");
    let record = dir.join("cc-args.txt");
    let wrapper = dir.join("recording-cc");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}'\nexec cc \"$@\"\n",
            record.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let decks = dir.join("deal.txt");
    std::fs::write(&decks, format!("{DEAL}\n")).unwrap();
    let greedy = common::root().join("c_examples/greedy.c");
    let lib = std::fs::canonicalize(common::lib_dir()).unwrap();
    let output = crate::common::poker()
        .args(["eval", "--quiet", "--sandbox", "off", "--json", "--lib-dir"])
        .arg(&lib)
        .arg("--decks")
        .arg(&decks)
        .arg(&greedy)
        .env("CC", &wrapper)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", common::stderr(&output));
    let v: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(v["contestants"][0]["tests"][0]["status"], "ok", "{v}");

    let used = std::fs::read_to_string(&record).unwrap();
    let lib = lib.display().to_string();
    let shown: Vec<String> = used
        .lines()
        .enumerate()
        .map(|(i, arg)| {
            let arg = arg.replace(&lib, "<lib-dir>");
            match i {
                2 => "PROGRAM".to_string(),
                3 => "SOURCE".to_string(),
                _ if arg.starts_with("-I") => "-I<header-dir>".to_string(),
                _ => arg,
            }
        })
        .collect();
    let mut documented = documented_c_command();
    assert_eq!(documented.remove(0), "$CC");
    assert_eq!(shown, documented, "recorded: {used}");
}
