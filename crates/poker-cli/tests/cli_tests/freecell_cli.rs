//! `poker freecell` as a user runs it.

use std::io::Write;
use std::process::Stdio;

fn poker(args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = crate::common::poker()
        .args(args)
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
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Deal 1 in fc-solve's layout, from tests/data/freecell/deals.tsv.
const DEAL_1_COLUMNS: &str = "\
JD KD 2S 4C 3S 6D 6S
2D KC KS 5C TD 8S 9C
9H 9S 9D TS 4S 8D 2H
JC 5S QD QH TH QS 6H
5D AD JS 4H 8H 6C
7H QC AS AC 2C 3D
7C KH AH 4D JH 8C
5H 3H 3C 7S 7D TC
";

#[test]
fn a_deal_prints_as_fc_solve_columns_by_default() {
    assert_eq!(
        poker(&["freecell", "1"], ""),
        (true, DEAL_1_COLUMNS.into(), String::new())
    );
}

#[test]
fn rows_tens_and_order_change_the_layout() {
    let (ok, out, _) = poker(&["freecell", "617", "--rows", "--tens", "10"], "");
    assert!(ok);
    assert_eq!(out.lines().count(), 7);
    assert_eq!(out.lines().next(), Some("7D AD 5C 3S 5S 8C 2D AH"));
    assert_eq!(out.lines().nth(1), Some("10D 7S QD AC 6D 8H AS KH"));
    let (ok, out, _) = poker(&["freecell", "1", "--order"], "");
    assert!(ok);
    assert!(out.starts_with("JD 2D 9H JC 5D 7H 7C 5H KD"));
    assert_eq!(out.lines().count(), 1);
}

#[test]
fn several_deals_and_ranges_print_in_order() {
    let (ok, out, _) = poker(&["freecell", "1..2", "617"], "");
    assert!(ok);
    let headers: Vec<&str> = out.lines().filter(|l| l.starts_with('#')).collect();
    assert_eq!(headers, ["# deal 1", "# deal 2", "# deal 617"]);
    assert!(out.contains(DEAL_1_COLUMNS));
}

#[test]
fn json_has_one_object_per_deal() {
    let (ok, out, _) = poker(&["freecell", "1..=2", "--json"], "");
    assert!(ok);
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 2);
    assert_eq!(objects[0]["deal"], 1);
    assert_eq!(objects[0]["range"], "microsoft");
    assert_eq!(objects[0]["columns"][0][0], "JD");
    assert_eq!(objects[0]["rows"][6].as_array().unwrap().len(), 4);
    // JD: jack is rank 10 (A = 0), diamonds suit 1: 10 * 4 + 1.
    assert_eq!(objects[0]["indices"][0], 41);
}

#[test]
fn numbers_without_a_deal_are_clear_errors() {
    for (arg, needle) in [
        ("0", "deal 0 does not exist"),
        ("-1", "deal -1 does not exist"),
        ("8589934592", "deal 8589934592 does not exist"),
        ("abc", "'abc' is not a deal number"),
        ("5..3", "must not be above"),
        ("1..8589934592", "deal 8589934592 does not exist"),
    ] {
        let (ok, out, err) = poker(&["freecell", "--", arg], "");
        assert!(!ok, "{arg}");
        assert!(out.is_empty(), "{arg}");
        assert!(err.contains(needle), "{arg}: {err}");
    }
}

#[test]
fn find_names_what_is_wrong_with_a_board() {
    let short = DEAL_1_COLUMNS.replacen(" TC\n", "\n", 1);
    let (ok, _, err) = poker(&["freecell", "--find"], &short);
    assert!(!ok);
    assert!(err.contains("missing cards: TC"), "{err}");
    assert!(err.contains("column 8 has 5 cards, expected 6"), "{err}");
    let twice = DEAL_1_COLUMNS.replacen("JD", "KD", 1);
    let (ok, _, err) = poker(&["freecell", "--find", "-"], &twice);
    assert!(!ok);
    assert!(
        err.contains("duplicate cards: KD; missing cards: JD"),
        "{err}"
    );
    let (ok, _, err) = poker(&["freecell", "--find", "/nonexistent/board"], "");
    assert!(!ok);
    assert!(err.contains("/nonexistent/board"), "{err}");
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow unoptimised: run with --release")]
fn find_prints_the_deal_number() {
    let (ok, out, _) = poker(&["freecell", "--find"], DEAL_1_COLUMNS);
    assert!(ok);
    assert_eq!(out, "1\n");
}

#[test]
fn help_explains_the_numbers_and_shows_examples() {
    let (ok, out, _) = poker(&["freecell", "--help"], "");
    assert!(ok);
    for needle in [
        "8589934591",
        "--rows",
        "--tens",
        "--json",
        "--find",
        "Examples",
    ] {
        assert!(out.contains(needle), "{needle}");
    }
}

#[test]
fn find_reads_a_deal_as_json_prints_it_like_the_same_board_as_text() {
    // The same broken board (deal 1 without its TC) as text and as JSON:
    // both are read into one board and refused alike, before any search
    // (the search itself is `find_prints_the_deal_number`'s).
    let (ok, json, _) = poker(&["freecell", "1", "--json"], "");
    assert!(ok);
    // Its first `,"TC"]` ends column 8 (the columns come before the rows).
    assert!(json.find(",\"TC\"]") < json.find("\"rows\""), "{json}");
    let json = json.replacen(",\"TC\"]", "]", 1);
    let text = DEAL_1_COLUMNS.replacen(" TC\n", "\n", 1);
    let (ok, _, from_json) = poker(&["freecell", "--find"], &json);
    assert!(!ok);
    let (_, _, from_text) = poker(&["freecell", "--find"], &text);
    assert!(from_json.contains("missing cards: TC"), "{from_json}");
    assert_eq!(from_json, from_text);
    // Several deals' JSON lines are refused, naming the problem.
    let (ok, two, _) = poker(&["freecell", "1..2", "--json"], "");
    assert!(ok);
    let (ok, _, err) = poker(&["freecell", "--find"], &two);
    assert!(!ok);
    assert!(err.contains("one deal at a time"), "{err}");
}
