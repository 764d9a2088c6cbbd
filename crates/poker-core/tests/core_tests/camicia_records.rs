//! The published record games of tests/data/camicia/records.json, for the
//! Camicia tests: each with its index, its deal and its published outcome.

use poker_core::camicia::search::Game;
use poker_core::camicia::{Deal, GameEnd, Outcome, Player, parse_deck, penalties};
use serde_json::Value;

/// The entries of tests/data/camicia/records.json, in the file's order.
fn record_entries() -> Vec<Value> {
    let path = format!(
        "{}/tests/data/camicia/records.json",
        crate::common::root().display()
    );
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    data["records"].as_array().unwrap().clone()
}

/// Every published record, in the file's order.
pub fn records() -> Vec<Game> {
    record_entries()
        .iter()
        .map(|r| {
            let a = parse_deck(r["a"].as_str().unwrap(), Player::A).unwrap();
            let b = parse_deck(r["b"].as_str().unwrap(), Player::B).unwrap();
            let status = match r["status"].as_str().unwrap() {
                "finished" => GameEnd::Finished,
                "loop" => GameEnd::Loop,
                other => panic!("unknown status {other}"),
            };
            Game {
                index: r["index"].as_str().unwrap().parse().unwrap(),
                deal: Deal::new(&penalties(&a), &penalties(&b)).unwrap(),
                outcome: Outcome::new(
                    status,
                    r["cards"].as_u64().unwrap(),
                    r["tricks"].as_u64().unwrap(),
                ),
            }
        })
        .collect()
}

/// Every record's finder and year, in the file's order.
pub fn finders() -> Vec<(String, u64)> {
    record_entries()
        .iter()
        .map(|r| {
            (
                r["finder"].as_str().unwrap().to_string(),
                r["year"].as_u64().unwrap(),
            )
        })
        .collect()
}
