//! The Free Pascal binding (bindings/pascal/poker.pas): a contestant written
//! as in the contest text compiles and plays in the fpc, tp, objfpc and
//! delphi modes with no output lost through a pipe, and `poker eval` builds
//! and scores `.pas` contestants. They need fpc (the Pascal tier;
//! Debian: `apt-get install fp-compiler`; .ci/run installs it).

use crate::common;
use crate::common::tier::{self, needs};
use serde_json::Value;
use std::path::PathBuf;

/// The contest text's worked example (seed 001) row by row, then its 4
/// unused cards; round robin scores 2 + 5 + 1 + 3 = 11.
const SEED_DECK: &str = "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH";

/// The first 20 cards of SEED_DECK in the contest encoding, by hand
/// (value 1..6 = 9 10 J Q K A, color 1..4 = spades hearts diamonds clubs).
const SEED_CODES: [(i32, i32); 20] = [
    (3, 4),
    (2, 2),
    (1, 2),
    (4, 1),
    (1, 1),
    (2, 3),
    (6, 1),
    (4, 3),
    (5, 4),
    (2, 4),
    (5, 1),
    (5, 3),
    (5, 2),
    (6, 4),
    (1, 4),
    (4, 2),
    (3, 3),
    (6, 3),
    (3, 2),
    (1, 3),
];

/// Compiles Pascal `source` with extra fpc `flags` into its own folder.
fn compile(name: &str, source: &str, flags: &[&str]) -> PathBuf {
    let dir = common::scratch("pascal").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join(format!("{name}.pas"));
    std::fs::write(&src, source).unwrap();
    common::compile_pascal_file(&src, &dir, flags)
}

/// Exactly the contest text's loop with `integer` variables, printing each
/// card before placing it, and the size of `integer` in this mode.
const CONTEST_TEXT_PROGRAM: &str = "program contest;
uses Poker;
var
  i, v, c, t: integer;
begin
  writeln('integer is ', SizeOf(v), ' bytes');
  p_startgame;
  for i := 1 to 20 do
  begin
    p_look(v, c);
    writeln('card ', i, ': ', v, ' ', c);
    t := (i - 1) mod 4 + 1;
    p_place(t);
  end;
end.
";

fn plays_in_mode(mode: &str, integer_bytes: usize) {
    let exe = compile(
        &format!("contest_{mode}"),
        CONTEST_TEXT_PROGRAM,
        &[&format!("-M{mode}")],
    );
    // stdout is a pipe here: every line written before the 20th p_place
    // must survive the library's exit().
    let output = common::run(&exe, &[("POKER_DECK", SEED_DECK)]);
    assert_eq!(output.status.code(), Some(0), "{}", common::stderr(&output));
    let out = common::stdout(&output);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], format!("integer is {integer_bytes} bytes"));
    for (i, (v, c)) in SEED_CODES.iter().enumerate() {
        assert_eq!(lines[i + 1], format!("card {}: {v} {c}", i + 1), "{out}");
    }
    assert!(out.contains("column 2: full house (5 points)"), "{out}");
    assert_eq!(lines.last(), Some(&"total: 11"), "{out}");
}

#[test]
fn contest_text_contestant_plays_in_default_fpc_mode() {
    needs!(tier::PASCAL);
    plays_in_mode("fpc", 2);
}

#[test]
fn contest_text_contestant_plays_in_tp_mode() {
    needs!(tier::PASCAL);
    plays_in_mode("tp", 2);
}

#[test]
fn contest_text_contestant_plays_in_objfpc_mode() {
    needs!(tier::PASCAL);
    plays_in_mode("objfpc", 4);
}

#[test]
fn contest_text_contestant_plays_in_delphi_mode() {
    needs!(tier::PASCAL);
    plays_in_mode("delphi", 4);
}

#[test]
fn a_broken_rule_stops_a_pascal_contestant_with_its_message() {
    needs!(tier::PASCAL);
    // The contest text's example of an illegal order: 1, 2, 3, 1.
    let source = "program bad;
uses Poker;
var v, c: integer;
begin
  p_startgame;
  p_look(v, c); p_place(1);
  p_look(v, c); p_place(2);
  p_look(v, c); p_place(3);
  writeln('before the fourth');
  p_look(v, c); p_place(1);
  writeln('not reached');
end.
";
    let exe = compile("unbalanced", source, &[]);
    let output = common::run(&exe, &[("POKER_SEED", "1")]);
    assert_eq!(output.status.code(), Some(3));
    assert_eq!(common::stdout(&output), "before the fourth\n");
    assert!(
        common::stderr(&output).contains("card 4 (call 9, p_place)"),
        "{}",
        common::stderr(&output)
    );
}

/// Runs `poker eval --json` on the built-in decks with `contestants`.
fn eval(contestants: &[PathBuf], env: &[(&str, &str)]) -> Value {
    let mut command = crate::common::poker();
    command
        .args(["eval", "--json", "--lib-dir"])
        .arg(common::lib_dir())
        .args(contestants);
    for (k, v) in env {
        command.env(k, v);
    }
    let output = command.output().expect("run poker eval");
    assert!(output.status.success(), "{}", common::stderr(&output));
    serde_json::from_slice(&output.stdout).expect("JSON")
}

#[test]
fn poker_eval_scores_the_pascal_greedy_like_its_c_twin() {
    needs!(tier::PASCAL);
    let root = common::root();
    let json = eval(
        &[
            root.join("pascal_examples/greedy.pas"),
            root.join("c_examples/greedy.c"),
        ],
        &[],
    );
    let pascal = &json["contestants"][0];
    let c = &json["contestants"][1];
    // Two contestants called "greedy" are told apart by their file names.
    assert_eq!(pascal["name"], "greedy.pas");
    assert_eq!(c["name"], "greedy.c");
    let tests = pascal["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 10);
    for (p, c) in tests.iter().zip(c["tests"].as_array().unwrap()) {
        assert_eq!(p["status"], "ok", "{p}");
        assert_eq!(p["score"], c["score"], "deck {}", p["deck"]);
    }
    assert_eq!(pascal["total"], c["total"]);
}

#[test]
fn poker_eval_says_when_fpc_cannot_be_run() {
    // Runs with or without fpc installed: FPC names a compiler that is not there.
    let json = eval(
        &[common::root().join("pascal_examples/greedy.pas")],
        &[("FPC", "/nonexistent/fpc")],
    );
    let test = &json["contestants"][0]["tests"][0];
    assert_eq!(test["score"], 0);
    let reason = test["reason"].as_str().unwrap_or("");
    assert!(reason.contains("fp-compiler"), "{reason}");
}
