//! The contest module (POKER.H) in practice mode, tested as C: real C
//! programs compiled against the built library and run with pipes.

use crate::common;
use common::{compile_c, run, stderr, stdout};

/// The contest text's worked example (seed 001) row by row, left to right,
/// suits translated (T=clubs, C=hearts, P=spades, R=diamonds); the four
/// cards it leaves unused (TS JS QC AH) close the deck. Scores 2+5+1+3 = 11.
const SEED_EXAMPLE_ROWS: &str =
    "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH";

/// A contestant placing card i in column `order[i]`.
fn fixed_order_contestant(order: &[i32; 20]) -> String {
    let list: Vec<String> = order.iter().map(|c| c.to_string()).collect();
    format!(
        r#"#include <stdio.h>
#include "poker.h"
static const int order[20] = {{{}}};
int main(void) {{
    int i, v, c;
    p_startgame();
    for (i = 0; i < 20; i++) {{ p_look(&v, &c); p_place(order[i]); }}
    return 0;
}}
"#,
        list.join(", ")
    )
}

const ROUND_ROBIN: [i32; 20] = [1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4];

#[test]
fn seed_example_deck_round_robin_reports_the_seed_board_and_total_11() {
    let exe = compile_c("rr_fixed", &fixed_order_contestant(&ROUND_ROBIN));
    let output = run(&exe, &[("POKER_DECK", SEED_EXAMPLE_ROWS)]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let out = stdout(&output);
    let lines: Vec<&str> = out.lines().collect();
    let board_start = lines
        .iter()
        .position(|l| l.starts_with("  JC"))
        .expect(&out);
    assert_eq!(
        &lines[board_start..board_start + 5],
        [
            "  JC  TH  9H  QS",
            "  9S  TD  AS  QD",
            "  KC  TC  KS  KD",
            "  KH  AC  9C  QH",
            "  JD  AD  JH  9D"
        ]
    );
    assert!(out.contains("column 1: two pair (2 points)"), "{out}");
    assert!(out.contains("column 2: full house (5 points)"), "{out}");
    assert!(out.contains("column 3: one pair (1 point)"), "{out}");
    assert!(
        out.contains("column 4: three of a kind (3 points)"),
        "{out}"
    );
    assert_eq!(lines.last(), Some(&"total: 11"));
}

#[test]
fn seed_placement_order_example_is_legal_and_builds_the_seed_board() {
    // The contest text's example order: card numbers in each cell.
    //   3  1  2  4 /  7  6  8  5 /  9 10 11 12 / 16 13 15 14 / 18 19 17 20
    let grid = [
        [3, 1, 2, 4],
        [7, 6, 8, 5],
        [9, 10, 11, 12],
        [16, 13, 15, 14],
        [18, 19, 17, 20],
    ];
    let example: Vec<&str> = SEED_EXAMPLE_ROWS.split_whitespace().collect();
    let mut order = [0; 20];
    let mut deck = vec![""; 24];
    for (row, cells) in grid.iter().enumerate() {
        for (column, &n) in cells.iter().enumerate() {
            order[n - 1] = column as i32 + 1;
            deck[n - 1] = example[row * 4 + column];
        }
    }
    deck[20..].copy_from_slice(&example[20..]);
    let exe = compile_c("seed_order", &fixed_order_contestant(&order));
    let output = run(&exe, &[("POKER_DECK", &deck.join(" "))]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).contains("  JC  TH  9H  QS\n"));
    assert!(stdout(&output).ends_with("total: 11\n"));
}

#[test]
fn output_printed_before_the_end_is_not_lost_in_a_pipe() {
    let source = r#"#include <stdio.h>
#include "poker.h"
int main(void) {
    int i, v, c;
    printf("contestant says hello\n");
    p_startgame();
    for (i = 0; i < 20; i++) {
        p_look(&v, &c);
        printf("card %d: %d %d\n", i + 1, v, c);
        fprintf(stderr, "thinking %d\n", i + 1);
        p_place(i % 4 + 1);
    }
    return 0;
}
"#;
    let exe = compile_c("chatty", source);
    let output = run(&exe, &[("POKER_DECK", SEED_EXAMPLE_ROWS)]);
    assert_eq!(output.status.code(), Some(0));
    let out = stdout(&output);
    assert!(
        out.starts_with("contestant says hello\ncard 1: 3 4\n"),
        "{out}"
    );
    // Card 20 of the deck is 9D: value 1, color 3 (diamonds). It is printed
    // before the report, which ends the output.
    let last_card = out.find("card 20: 1 3\n").expect(&out);
    assert!(last_card < out.find("total: 11").unwrap());
    assert!(stderr(&output).contains("thinking 20\n"));
}

/// Runs a C main body and returns (exit code, stderr).
fn violation(name: &str, body: &str) -> (Option<i32>, String) {
    let source = format!(
        "#include <stdio.h>\n#include \"poker.h\"\nint main(void) {{\n    int v, c;\n    (void)v; (void)c;\n{body}\n    printf(\"not stopped\\n\");\n    return 0;\n}}\n"
    );
    let exe = compile_c(name, &source);
    let output = run(&exe, &[("POKER_SEED", "1")]);
    assert!(
        !stdout(&output).contains("not stopped"),
        "{name} was not stopped"
    );
    (output.status.code(), stderr(&output))
}

#[test]
fn call_before_startgame_is_stopped() {
    let (code, err) = violation("before_start", "p_look(&v, &c);");
    assert_eq!(code, Some(3));
    assert!(err.contains("card 1 (call 1, p_look)"), "{err}");
    assert!(
        err.contains("p_startgame must be called once, before any other"),
        "{err}"
    );
}

#[test]
fn startgame_twice_is_stopped() {
    let (code, err) = violation("start_twice", "p_startgame(); p_startgame();");
    assert_eq!(code, Some(3));
    assert!(
        err.contains("card 1 (call 2, p_startgame): p_startgame may be called only once"),
        "{err}"
    );
}

#[test]
fn look_twice_is_stopped() {
    let (code, err) = violation(
        "look_twice",
        "p_startgame(); p_look(&v, &c); p_look(&v, &c);",
    );
    assert_eq!(code, Some(3));
    assert!(
        err.contains("card 1 (call 3, p_look): p_look called twice"),
        "{err}"
    );
}

#[test]
fn place_without_look_is_stopped() {
    let body = "p_startgame(); p_look(&v, &c); p_place(1); p_place(2);";
    let (code, err) = violation("place_no_look", body);
    assert_eq!(code, Some(3));
    assert!(
        err.contains("card 2 (call 4, p_place): p_place called without a p_look"),
        "{err}"
    );
}

#[test]
fn column_out_of_range_is_stopped() {
    for (name, column) in [("col0", "0"), ("col5", "5"), ("colneg", "-2147483647 - 1")] {
        let body = format!("p_startgame(); p_look(&v, &c); p_place({column});");
        let (code, err) = violation(name, &body);
        assert_eq!(code, Some(3));
        assert!(err.contains("card 1 (call 3, p_place): column"), "{err}");
        assert!(err.contains("is outside 1..4"), "{err}");
    }
}

#[test]
fn unbalanced_placement_from_the_seed_is_stopped() {
    // The contest text's example: place(1), place(2), place(3), place(1).
    let body = "p_startgame();\n p_look(&v, &c); p_place(1); p_look(&v, &c); p_place(2);\n p_look(&v, &c); p_place(3); p_look(&v, &c); p_place(1);";
    let (code, err) = violation("unbalanced", body);
    assert_eq!(code, Some(3));
    assert!(
        err.contains("card 4 (call 9, p_place): placing in column 1"),
        "{err}"
    );
    assert!(err.contains("differ by more than 1"), "{err}");
}

#[test]
fn null_pointer_to_look_is_stopped() {
    for (name, args) in [
        ("null_both", "0, 0"),
        ("null_value", "0, &c"),
        ("null_color", "&v, 0"),
    ] {
        let body = format!("p_startgame(); p_look({args});");
        let (code, err) = violation(name, &body);
        assert_eq!(code, Some(3));
        assert!(
            err.contains("card 1 (call 2, p_look): p_look was given a NULL pointer"),
            "{err}"
        );
    }
}

#[test]
fn bad_deck_or_seed_in_the_environment_is_a_clear_error() {
    let exe = compile_c("rr_env", &fixed_order_contestant(&ROUND_ROBIN));
    let output = run(&exe, &[("POKER_DECK", "AS KS")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("POKER_DECK: expected 24 cards, found 2"));
    let output = run(
        &exe,
        &[(
            "POKER_DECK",
            "2S 9S TS JS QS KS AS 9H TH JH QH KH AH 9D TD JD QD KD AD 9C TC JC QC KC",
        )],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("card 2S is not in this deck"),
        "{}",
        stderr(&output)
    );
    let output = run(&exe, &[("POKER_SEED", "minus one")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("POKER_SEED"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_seed_gives_the_same_deal_every_time_and_the_report_names_it() {
    let exe = compile_c("rr_seed", &fixed_order_contestant(&ROUND_ROBIN));
    let first = stdout(&run(&exe, &[("POKER_SEED", "2024")]));
    let second = stdout(&run(&exe, &[("POKER_SEED", "2024")]));
    assert_eq!(first, second);
    assert!(first.contains("(POKER_SEED=2024)"), "{first}");
    let other = stdout(&run(&exe, &[("POKER_SEED", "2025")]));
    assert_ne!(first, other);
    let fresh = stdout(&run(&exe, &[]));
    assert!(fresh.contains("(POKER_SEED="), "{fresh}");
}

#[test]
fn calls_from_several_threads_share_one_consistent_game() {
    let source = r#"#include <pthread.h>
#include <stdio.h>
#include "poker.h"
static pthread_mutex_t turn = PTHREAD_MUTEX_INITIALIZER;
static int placed = 0;
static void *player(void *arg) {
    int v, c, k;
    (void)arg;
    for (k = 0; k < 5; k++) {
        pthread_mutex_lock(&turn);
        p_look(&v, &c);
        placed++;
        p_place((placed - 1) % 4 + 1);
        pthread_mutex_unlock(&turn);
    }
    return 0;
}
int main(void) {
    pthread_t t[4];
    int i;
    p_startgame();
    for (i = 0; i < 4; i++) pthread_create(&t[i], 0, player, 0);
    for (i = 0; i < 4; i++) pthread_join(t[i], 0);
    return 1;
}
"#;
    let exe = common::compile_c_file(
        "threads",
        &{
            let p = common::scratch("c").join("threads.c");
            std::fs::write(&p, source).unwrap();
            p
        },
        &["-std=gnu99", "-pthread"],
    );
    let output = run(&exe, &[("POKER_DECK", SEED_EXAMPLE_ROWS)]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).ends_with("total: 11\n"));
}

#[test]
fn racing_threads_end_the_game_once_with_one_message() {
    // Eight threads place in column 1 without coordination: some call breaks
    // a rule first, and exactly that one is reported.
    let source = r#"#include <pthread.h>
#include "poker.h"
static void *run(void *arg) {
    int v, c, i;
    (void)arg;
    for (i = 0; i < 20; i++) { p_look(&v, &c); p_place(1); }
    return 0;
}
int main(void) {
    pthread_t t[8];
    int i;
    p_startgame();
    for (i = 0; i < 8; i++) pthread_create(&t[i], 0, run, 0);
    for (i = 0; i < 8; i++) pthread_join(t[i], 0);
    return 0;
}
"#;
    let path = common::scratch("c").join("racing.c");
    std::fs::write(&path, source).unwrap();
    let exe = common::compile_c_file("racing", &path, &["-std=gnu99", "-pthread"]);
    for _ in 0..40 {
        let output = run(&exe, &[("POKER_SEED", "1")]);
        assert_eq!(output.status.code(), Some(3));
        let err = stderr(&output);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("poker: rule broken at card "), "{err}");
    }
}

#[test]
fn the_report_starts_on_its_own_line_and_writes_tens_as_t_as_poker_deck_does() {
    let source = r#"#include <stdio.h>
#include "poker.h"
int main(void) {
    int i, v, c;
    printf("no newline here");
    p_startgame();
    for (i = 0; i < 20; i++) { p_look(&v, &c); p_place(i % 4 + 1); }
    return 0;
}
"#;
    let exe = compile_c("partial_line", source);
    let output = run(&exe, &[("POKER_DECK", SEED_EXAMPLE_ROWS)]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let out = stdout(&output);
    // The deck as given, tens written `T` as POKER_DECK and deck files
    // write them, on the board too.
    assert!(
        out.starts_with(
            "no newline here\npoker: 20 cards placed; deck JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH (POKER_DECK)\n"
        ),
        "{out}"
    );
    assert!(!out.contains("10"), "{out}");
    for line in out.lines() {
        assert_eq!(line, line.trim_end(), "trailing spaces in {out:?}");
    }
    // The deck line is accepted back as POKER_DECK.
    let deck = out.lines().nth(1).unwrap();
    let deck = &deck[deck.find("deck ").unwrap() + 5..deck.find(" (").unwrap()];
    let again = run(&exe, &[("POKER_DECK", deck)]);
    assert_eq!(stdout(&again), out);
}

#[test]
fn a_program_ending_before_its_20th_placement_is_told_so() {
    let source = r#"#include <stdio.h>
#include "poker.h"
int main(void) {
    int v, c;
    p_startgame();
    p_look(&v, &c);
    p_place(1);
    printf("leaving early\n");
    return 0;
}
"#;
    let exe = compile_c("early_exit", source);
    let output = run(&exe, &[("POKER_SEED", "1")]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "leaving early\n");
    assert_eq!(
        stderr(&output),
        "poker: game ended after 1 of 20 placements; the evaluator scores it 0\n"
    );
    // A finished game and a broken rule say nothing more.
    let finished = compile_c("rr_quiet", &fixed_order_contestant(&ROUND_ROBIN));
    assert_eq!(stderr(&run(&finished, &[("POKER_SEED", "1")])), "");
    let (_, err) = violation("col9_quiet", "p_startgame(); p_look(&v, &c); p_place(9);");
    assert_eq!(err.lines().count(), 1, "{err}");
}
