//! Replays the fuzz targets' committed inputs on stable: the seed corpus
//! (`fuzz/seeds/<target>/`) and every input a fuzzer found failing
//! (`fuzz/regressions/<target>/`, each named after what it found), through
//! the same property checks the targets run (`fuzz/checks.rs`). See
//! fuzz/README.md for running the fuzzers themselves (nightly).

#[path = "../../../../fuzz/checks.rs"]
mod checks;

/// Runs `check` over every file of `fuzz/seeds/<target>` and
/// `fuzz/regressions/<target>`; returns how many there were.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let root = crate::common::root().join("fuzz");
    let mut count = 0;
    for kind in ["seeds", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(kind).join(target)) else {
            continue;
        };
        let mut paths: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for path in paths {
            let data = std::fs::read(&path).unwrap();
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "{} failed its check", path.display());
            count += 1;
        }
    }
    count
}

#[test]
fn card_token_inputs_round_trip() {
    assert!(replay("cards", checks::cards) >= 5);
}

#[test]
fn deck_file_inputs_round_trip() {
    assert!(replay("deck_file", checks::deck_file) >= 3);
}

#[test]
fn camicia_inputs_round_trip_and_engines_agree() {
    assert!(replay("camicia", checks::camicia) >= 5);
}

#[test]
fn freecell_board_inputs_parse_back_and_dealt_boards_are_found() {
    assert!(replay("freecell_board", checks::freecell_board) >= 20);
}

#[test]
fn input_validator_accepts_exactly_the_package_format() {
    assert!(replay("input_validator", checks::input_validator) >= 16);
}

#[test]
fn interactor_games_end_accepted_with_their_score_or_rejected() {
    assert!(replay("interactor", checks::interactor) >= 17);
}

#[test]
fn channel_inputs_follow_the_protocol() {
    assert!(replay("channel", checks::channel) >= 6);
}

#[test]
fn game_api_call_sequences_give_the_documented_codes() {
    assert!(replay("game_api", checks::game_api) >= 6);
}

/// The find property is a real search: a deal outside the window searched
/// is not found, so the check above could fail.
#[test]
fn a_deal_outside_the_searched_window_is_not_found() {
    use poker_core::freecell::{Deal, DealNumber, find_deals_between};
    let board = Deal::new(DealNumber::new(5000).unwrap()).cards();
    let (low, high) = (DealNumber::new(1).unwrap(), DealNumber::new(4999).unwrap());
    assert!(find_deals_between(&board, low, high).is_empty());
    let high = DealNumber::new(5000).unwrap();
    assert_eq!(
        find_deals_between(&board, low, high),
        vec![DealNumber::new(5000).unwrap()]
    );
}

#[test]
fn camicia_deals_give_the_fast_engines_outcomes_in_the_vector_engine() {
    assert!(replay("camicia_deals", checks::camicia_deals) >= 5);
}
