//! Reading boards back and finding their deal numbers.

use poker_core::freecell::{
    BoardError, Deal, DealNumber, Layout, Tens, find_deals_between, parse_board,
};

fn deal(n: i64) -> Deal {
    Deal::new(DealNumber::new(n).unwrap())
}

fn order(n: i64) -> Vec<String> {
    deal(n).cards().iter().map(|c| c.to_string()).collect()
}

#[test]
fn boards_parse_in_every_layout() {
    for n in [1, 617, 4294967296, 8589934591] {
        let d = deal(n);
        for layout in [Layout::Columns, Layout::Rows, Layout::Order] {
            for tens in [Tens::T, Tens::Ten] {
                let cards = parse_board(&d.format(layout, tens)).unwrap();
                assert_eq!(cards, d.cards(), "deal {n} {layout:?} {tens:?}");
            }
        }
    }
}

#[test]
fn the_seeds_array_notation_and_fc_solve_colons_parse() {
    let seed_style = "[\n['JD', '2D', '9H', 'JC', '5D', '7H', '7C', '5H'],\n\
        ['KD', 'KC', '9S', '5S', 'AD', 'QC', 'KH', '3H'],\n\
        ['2S', 'KS', '9D', 'QD', 'JS', 'AS', 'AH', '3C'],\n\
        ['4C', '5C', 'TS', 'QH', '4H', 'AC', '4D', '7S'],\n\
        ['3S', 'TD', '4S', 'TH', '8H', '2C', 'JH', '7D'],\n\
        ['6D', '8S', '8D', 'QS', '6C', '3D', '8C', 'TC'],\n\
        ['6S', '9C', '2H', '6H']\n]\n";
    assert_eq!(parse_board(seed_style).unwrap(), deal(1).cards());
    let colons: String = deal(1)
        .format(Layout::Columns, Tens::T)
        .lines()
        .map(|l| format!(": {}\n", l.to_lowercase()))
        .collect();
    let with_comment = format!("# deal one\n\n{colons}");
    assert_eq!(parse_board(&with_comment).unwrap(), deal(1).cards());
}

fn invalid(text: &str) -> (Vec<String>, Vec<String>, String) {
    let error = parse_board(text).expect_err("the board is invalid");
    let message = error.to_string();
    match error {
        BoardError::Invalid {
            duplicates,
            missing,
            ..
        } => (
            duplicates.iter().map(|c| c.to_string()).collect(),
            missing.iter().map(|c| c.to_string()).collect(),
            message,
        ),
        other => panic!("expected an invalid board, got {other:?}"),
    }
}

#[test]
fn a_missing_card_is_named() {
    // Deal 1's last card, 6H, is the exposed card of column 4.
    let text = deal(1).format(Layout::Columns, Tens::T);
    let text = text.replacen("6H\n", "\n", 1);
    let (dups, missing, message) = invalid(&text);
    assert!(dups.is_empty());
    assert_eq!(missing, ["6H"]);
    assert!(message.contains("missing cards: 6H"), "{message}");
    assert!(
        message.contains("column 4 has 6 cards, expected 7"),
        "{message}"
    );
}

#[test]
fn a_duplicate_card_is_named_with_the_card_it_hides() {
    // Replace deal 1's first card (JD) with a second KD.
    let text = deal(1)
        .format(Layout::Columns, Tens::T)
        .replacen("JD", "KD", 1);
    let (dups, missing, message) = invalid(&text);
    assert_eq!(dups, ["KD"]);
    assert_eq!(missing, ["JD"]);
    assert!(message.contains("duplicate cards: KD"), "{message}");
    assert!(!message.contains("wrong layout"), "{message}");
}

#[test]
fn wrong_column_lengths_are_named() {
    // A full deck, but column 1 holds 8 cards and column 5 only 5.
    let d = deal(1);
    let columns = d.columns();
    let mut lines: Vec<Vec<String>> = columns
        .iter()
        .map(|c| c.iter().map(|c| c.to_string()).collect())
        .collect();
    let moved = lines[4].pop().unwrap();
    lines[0].push(moved);
    let text: String = lines.iter().map(|l| l.join(" ") + "\n").collect();
    let (dups, missing, message) = invalid(&text);
    assert!(dups.is_empty() && missing.is_empty());
    assert!(
        message.contains("column 1 has 8 cards, expected 7"),
        "{message}"
    );
    assert!(
        message.contains("column 5 has 5 cards, expected 6"),
        "{message}"
    );
    // 52 cards on 4 lines is no layout at all.
    let four: String = order(1).chunks(13).map(|c| c.join(" ") + "\n").collect();
    let (_, _, message) = invalid(&four);
    assert!(message.contains("found 4 lines"), "{message}");
}

#[test]
fn a_bad_token_is_named_with_its_line() {
    let text = deal(1)
        .format(Layout::Columns, Tens::T)
        .replacen("KC", "KX", 1);
    let err = parse_board(&text).unwrap_err();
    assert_eq!(
        err,
        BoardError::BadToken {
            line: 2,
            position: 2,
            token: "KX".into()
        }
    );
    assert!(parse_board("").is_err());
}

#[test]
fn find_returns_the_deal_number_in_every_range() {
    for n in [
        1i64, 617, 11982, 2147483647, 2147483648, 4294967295, 4294967296, 8589934591,
    ] {
        let first = DealNumber::new((n - 3_000_000).max(1)).unwrap();
        let last = DealNumber::new((n + 3_000_000).min(8589934591)).unwrap();
        let found = find_deals_between(&deal(n).cards(), first, last);
        assert_eq!(found, [DealNumber::new(n).unwrap()], "deal {n}");
    }
}

#[test]
fn find_returns_nothing_for_a_board_no_deal_gives() {
    let mut cards = deal(1).cards();
    cards.swap(50, 51);
    let found = find_deals_between(
        &cards,
        DealNumber::new(1).unwrap(),
        DealNumber::new(5_000_000).unwrap(),
    );
    assert!(found.is_empty());
}

/// The whole 1..2^33-1 scan (a few seconds optimised; skipped in debug
/// builds, where it takes minutes: run `cargo test --release`).
#[test]
#[cfg_attr(debug_assertions, ignore = "slow unoptimised: run with --release")]
fn find_scans_the_whole_range() {
    let found = poker_core::freecell::find_deals(&deal(8589934591).cards());
    assert_eq!(found, [DealNumber::new(8589934591).unwrap()]);
}
