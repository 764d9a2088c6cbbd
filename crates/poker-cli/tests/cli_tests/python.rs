//! The Python binding (bindings/python/libpoker.py), run with python3 against
//! the freshly built library: its unit tests (game API, hands, header codes,
//! the shared FreeCell vectors), a Python contestant's output surviving the
//! library's exit() with PYTHONUNBUFFERED unset, and `poker eval` scoring a
//! `.py` contestant like its C twin. They need python3 (the Python tier).

use crate::common;
use crate::common::tier::{self, needs};
use serde_json::Value;
use std::process::{Command, Output};

/// python3 with the binding importable and the fresh library named, stdout
/// a pipe, PYTHONUNBUFFERED removed (this machine exports it, which would
/// hide lost output).
fn python(args: &[&str], env: &[(&str, &str)]) -> Output {
    let root = common::root();
    let mut command = Command::new("python3");
    command
        .args(args)
        .current_dir(root.join("tests/python"))
        .env_remove("PYTHONUNBUFFERED")
        .env_remove("POKER_DECK")
        .env_remove("POKER_SEED")
        .env_remove("POKER_MANAGER_FD")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("PYTHONPATH", root.join("bindings/python"))
        .env("LIBPOKER", common::lib_dir().join("libpoker.so"))
        .env("POKER_HEADER", root.join("include/poker.h"))
        .env("POKER_VECTORS", root.join("tests/data"));
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("run python3")
}

#[test]
fn python_module_unit_tests_pass() {
    needs!(tier::PYTHON);
    let output = python(&["-m", "unittest", "-v", "test_libpoker"], &[]);
    let report = common::stderr(&output);
    assert!(output.status.success(), "{report}");
    // The shared vectors really ran (not skipped).
    assert!(
        report
            .lines()
            .any(|l| l.starts_with("test_deals_match_the_shared_vectors ") && l.ends_with("... ok")),
        "{report}"
    );
}

const SEED_DECK: &str = "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH";

/// A contestant as the contest text has it, printing each card before
/// placing it (round robin); `place` is the call used to place.
fn contestant(place: &str) -> String {
    format!(
        "import libpoker
from libpoker import p_startgame, p_look, p_place
p_startgame()
for i in range(1, 21):
    v, c = p_look()
    print('card %d: %d %d' % (i, v, c))
    {place}((i - 1) % 4 + 1)
"
    )
}

#[test]
fn a_python_contestant_loses_no_output_at_the_final_exit() {
    needs!(tier::PYTHON);
    let output = python(
        &["-c", &contestant("p_place")],
        &[("POKER_DECK", SEED_DECK)],
    );
    assert_eq!(output.status.code(), Some(0), "{}", common::stderr(&output));
    let out = common::stdout(&output);
    // JC = value 3 color 4, first; 9D = 1 3, twentieth (contest encoding).
    assert!(out.starts_with("card 1: 3 4\n"), "{out}");
    assert!(out.contains("card 20: 1 3\n"), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("card ")).count(), 20);
    assert!(out.ends_with("total: 11\n"), "{out}");
}

#[test]
fn without_the_binding_flush_the_same_contestant_loses_its_output() {
    // The control for the test above: placing through the raw C function
    // skips the flush, and Python's buffered lines die with exit().
    needs!(tier::PYTHON);
    let output = python(
        &["-c", &contestant("libpoker._load().p_place")],
        &[("POKER_DECK", SEED_DECK)],
    );
    assert_eq!(output.status.code(), Some(0));
    let out = common::stdout(&output);
    assert!(!out.contains("card 20:"), "{out}");
    assert!(out.ends_with("total: 11\n"), "{out}");
}

#[test]
fn a_python_rule_break_stops_with_the_rule() {
    needs!(tier::PYTHON);
    let script = "from libpoker import p_startgame, p_look, p_place
p_startgame()
for column in (1, 2, 3, 1):
    p_look()
    print('placing', column)
    p_place(column)
";
    let output = python(&["-c", script], &[("POKER_SEED", "1")]);
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(
        common::stdout(&output),
        "placing 1\nplacing 2\nplacing 3\nplacing 1\n"
    );
    assert!(common::stderr(&output).contains("card 4 (call 9, p_place)"));
}

#[test]
fn poker_eval_scores_the_python_greedy_like_its_c_twin() {
    needs!(tier::PYTHON);
    let root = common::root();
    let output = crate::common::poker()
        .args(["eval", "--json", "--lib-dir"])
        .arg(common::lib_dir())
        .arg(root.join("python_examples/greedy.py"))
        .arg(root.join("c_examples/greedy.c"))
        .env_remove("PYTHONUNBUFFERED")
        .output()
        .expect("run poker eval");
    assert!(output.status.success(), "{}", common::stderr(&output));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let py = &json["contestants"][0];
    let c = &json["contestants"][1];
    let tests = py["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 10);
    for (p, c) in tests.iter().zip(c["tests"].as_array().unwrap()) {
        assert_eq!(p["status"], "ok", "{p}");
        assert_eq!(p["score"], c["score"], "deck {}", p["deck"]);
    }
    assert_eq!(py["total"], c["total"]);
}

#[test]
fn a_python_contestant_ending_early_is_told_so() {
    needs!(tier::PYTHON);
    let script = "from libpoker import p_startgame, p_look, p_place
p_startgame()
p_look()
p_place(1)
print('leaving early')
";
    let output = python(&["-c", script], &[("POKER_SEED", "1")]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(common::stdout(&output), "leaving early\n");
    assert_eq!(
        common::stderr(&output),
        "poker: game ended after 1 of 20 placements; the evaluator scores it 0\n"
    );
}
