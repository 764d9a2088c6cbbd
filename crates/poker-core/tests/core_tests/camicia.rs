//! Camicia against independent vectors (tests/data/camicia/, copied from
//! shared/vectors/camicia: exercism's canonical data, the published record
//! games, and known pitfalls). Expected values come only from those files.

use poker_core::camicia::{
    self, Card, Deal, GameEnd, Outcome, Player, Simulator, parse_deck, reference, simulate_str,
};
use serde_json::Value;

fn load(name: &str) -> Value {
    let path = format!(
        "{}/tests/data/camicia/{name}",
        crate::common::root().display()
    );
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn deck(tokens: &Value, player: Player) -> Vec<Card> {
    let text: Vec<&str> = tokens
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    parse_deck(&text.join(" "), player).unwrap()
}

fn expected(v: &Value) -> Outcome {
    let status = match v["status"].as_str().unwrap() {
        "finished" => GameEnd::Finished,
        "loop" => GameEnd::Loop,
        other => panic!("unknown status {other}"),
    };
    Outcome::new(
        status,
        v["cards"].as_u64().unwrap(),
        v["tricks"].as_u64().unwrap(),
    )
}

/// Both simulators must give the expected outcome.
fn check(name: &str, a: &[Card], b: &[Card], want: Outcome) {
    assert_eq!(camicia::simulate(a, b), want, "fast simulator: {name}");
    assert_eq!(
        reference::simulate(a, b),
        want,
        "reference simulator: {name}"
    );
}

#[test]
fn all_28_canonical_exercism_cases_give_the_published_outcome() {
    let data = load("canonical.json");
    let cases = data["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 28);
    for case in cases {
        let a = deck(&case["input"]["playerA"], Player::A);
        let b = deck(&case["input"]["playerB"], Player::B);
        check(
            case["description"].as_str().unwrap(),
            &a,
            &b,
            expected(&case["expected"]),
        );
    }
}

#[test]
fn every_published_record_gives_its_published_cards_and_tricks() {
    let data = load("records.json");
    let records = data["records"].as_array().unwrap();
    assert_eq!(records.len(), 10);
    for r in records {
        let name = format!("{} {}", r["finder"], r["year"]);
        let want = expected(r);
        let (a, b) = (r["a"].as_str().unwrap(), r["b"].as_str().unwrap());
        assert_eq!(simulate_str(a, b).unwrap(), want, "{name}");
        let (a, b) = (
            parse_deck(a, Player::A).unwrap(),
            parse_deck(b, Player::B).unwrap(),
        );
        check(&name, &a, &b, want);
    }
}

#[test]
fn every_published_record_has_its_published_index_both_ways() {
    let data = load("records.json");
    for r in data["records"].as_array().unwrap() {
        let index: u128 = r["index"].as_str().unwrap().parse().unwrap();
        let a = camicia::penalties(&parse_deck(r["a"].as_str().unwrap(), Player::A).unwrap());
        let b = camicia::penalties(&parse_deck(r["b"].as_str().unwrap(), Player::B).unwrap());
        let deal = Deal::new(&a, &b).unwrap();
        assert_eq!(deal.rank(), index, "rank of {}", r["finder"]);
        assert_eq!(Deal::unrank(index), Some(deal), "unrank of {}", r["finder"]);
        assert_eq!(
            deal.to_string(),
            format!("{} {}", r["a"].as_str().unwrap(), r["b"].as_str().unwrap())
        );
    }
}

#[test]
fn every_pitfall_case_gives_the_right_outcome_not_the_typical_wrong_one() {
    let data = load("pitfalls.json");
    let cases = data.as_array().unwrap();
    assert!(cases.len() >= 14);
    for case in cases {
        let a = deck(&case["playerA"], Player::A);
        let b = deck(&case["playerB"], Player::B);
        let want = expected(&case["expected"]);
        check(case["id"].as_str().unwrap(), &a, &b, want);
    }
}

#[test]
fn the_seeds_loop_example_repeats_round_two_at_round_four() {
    // Seed 002's second table: "round 4 starts like round 2".
    let a = parse_deck("J 2 3", Player::A).unwrap();
    let b = parse_deck("4 J 5", Player::B).unwrap();
    let trace = reference::trace(&a, &b);
    assert_eq!(trace.repeat, Some((4, 2)));
    assert_eq!(trace.outcome, Outcome::new(GameEnd::Loop, 8, 3));
}

#[test]
fn the_seeds_finished_example_has_one_row_per_card_like_the_seeds_table() {
    // Seed 002's first table: the deal, 13 cards played, round 2's start.
    let a = parse_deck("2 A 7 8 Q 10", Player::A).unwrap();
    let b = parse_deck("3 4 5 6 K 9 J", Player::B).unwrap();
    let trace = reference::trace(&a, &b);
    assert_eq!(trace.rows.len(), 15);
    let owed: Vec<Option<(Player, u8)>> = trace.rows.iter().map(|r| r.owed).collect();
    use Player::{A, B};
    assert_eq!(
        owed,
        vec![
            None,
            None,
            None,
            Some((B, 4)),
            Some((B, 3)),
            Some((B, 2)),
            Some((B, 1)),
            Some((A, 3)),
            Some((A, 2)),
            Some((A, 1)),
            Some((B, 2)),
            Some((B, 1)),
            Some((A, 1)),
            None,
            None,
        ]
    );
    let last = trace.rows.last().unwrap();
    assert_eq!(last.round, 2);
    assert!(last.a.is_empty() && last.pile.is_empty());
    assert_eq!(last.b.len(), 13);
}

#[test]
fn dash_notation_and_exercism_tokens_give_the_same_game() {
    // Casella 2024 as in records.json and as in the canonical data.
    let data = load("canonical.json");
    let case = data["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["description"].as_str().unwrap().starts_with("Casella"))
        .unwrap();
    let a = deck(&case["input"]["playerA"], Player::A);
    let b = deck(&case["input"]["playerB"], Player::B);
    assert_eq!(
        camicia::notation(&camicia::penalties(&a)),
        "---K---Q-KQAJ-----AAJ--J--"
    );
    assert_eq!(
        camicia::notation(&camicia::penalties(&b)),
        "----------Q----KQ-J-----KA"
    );
}

#[test]
fn lowercase_tokens_and_t_for_ten_are_accepted() {
    let upper = simulate_str("2 A 7 8 Q 10", "3 4 5 6 K 9 J").unwrap();
    let lower = simulate_str("2 a 7 8 q t", "3 4 5 6 k 9 j").unwrap();
    assert_eq!(upper, lower);
    assert_eq!(lower, Outcome::new(GameEnd::Finished, 13, 1));
}

#[test]
fn an_invalid_token_is_reported_with_player_and_position() {
    let err = simulate_str("2 A", "3 4 X 5").unwrap_err();
    assert_eq!(err.player, Player::B);
    assert_eq!(err.token_index, 2);
    assert_eq!(err.byte_offset, 4);
    assert_eq!(err.token, "X");
    for bad in ["1", "11", "0", "--x-", "K1", "10-", "AKQJ2"] {
        assert!(simulate_str(bad, "2").is_err(), "{bad} must be rejected");
    }
}

#[test]
fn penalties_above_four_are_rejected_with_their_position() {
    let err = Simulator::new().run(&[0, 1], &[0, 0, 5]).unwrap_err();
    assert_eq!((err.player, err.position, err.value), (Player::B, 2, 5));
}
