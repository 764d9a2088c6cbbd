//! Backward extension (`poker_core::camicia::extend`) and predecessors
//! (`poker_core::camicia::predecessor`). Expected values: the longest deals
//! of the published records' basins (tests/data/camicia/extensions.json,
//! found by a separate implementation and checked there by forward play),
//! and the card-by-card reference simulator, which plays every predecessor
//! forward.

use crate::camicia_records::records;
use poker_core::camicia::extend::{Depth, ExtendError, extend, extend_deal};
use poker_core::camicia::predecessor::predecessors;
use poker_core::camicia::reference::{self, RoundStart};
use poker_core::camicia::search::random_deals;
use poker_core::camicia::{
    Card, GameEnd, Outcome, Player, Simulator, notation, parse_deck, penalties,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

fn extensions() -> Vec<Value> {
    let path = format!(
        "{}/tests/data/camicia/extensions.json",
        crate::common::root().display()
    );
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    data["extensions"].as_array().unwrap().clone()
}

#[test]
fn published_records_extend_to_the_longest_deals_of_their_basins() {
    let records = records();
    let mut sim = Simulator::new();
    for want in extensions() {
        let year = want["year"].as_u64().unwrap();
        let record = records
            .iter()
            .zip(crate::camicia_records::finders())
            .find(|(_, (finder, y))| *y == year && finder == want["finder"].as_str().unwrap())
            .map(|(g, _)| g)
            .unwrap_or_else(|| panic!("no record {want}"));
        let got = extend(record.deal.a(), record.deal.b()).unwrap();
        assert_eq!(got.original, record.outcome, "{want}");
        // Forward play of the deal found is the proof of its length.
        assert_eq!(sim.run_unchecked(got.deal.a(), got.deal.b()), got.outcome);
        if want["extends"].as_bool().unwrap() {
            assert!(got.extends(), "{want}");
            assert_eq!(got.outcome.cards, want["cards"].as_u64().unwrap(), "{want}");
            assert_eq!(got.added, got.outcome.cards - record.outcome.cards);
            if let Some(a) = want["a"].as_str() {
                assert_eq!(notation(got.deal.a()), a, "{want}");
                assert_eq!(notation(got.deal.b()), want["b"].as_str().unwrap());
                assert_eq!(got.outcome.tricks, want["tricks"].as_u64().unwrap());
            }
        } else {
            assert!(!got.extends(), "{want}: {}", got.deal);
            assert_eq!(got.deal, record.deal, "{want}");
        }
    }
}

#[test]
fn mann_and_wu_is_andersons_game_after_68_cards_and_nessler_2012_joins_it_after_31_cards() {
    let records = records();
    let find = |cards| records.iter().find(|g| g.outcome.cards == cards).unwrap();
    let mann_wu = extend(find(7157).deal.a(), find(7157).deal.b()).unwrap();
    // Mann & Wu's deal is itself in Anderson's game: the join is the deal.
    assert_eq!((mann_wu.joins_trick, mann_wu.before_join), (0, 68));
    let nessler = extend(find(7207).deal.a(), find(7207).deal.b()).unwrap();
    // Nessler's game plays 31 cards, then Anderson's from its card 31 + 18.
    assert_eq!(nessler.joins_card, 31);
    assert_eq!(nessler.before_join, 31 + 18);
}

#[test]
fn the_first_tricks_bound_finds_the_records_extensions_too() {
    for record in records()
        .iter()
        .filter(|g| g.outcome.status == GameEnd::Finished)
    {
        let exact = extend_deal(&record.deal, Depth::Exact).unwrap();
        let bounded = extend_deal(&record.deal, Depth::FirstTricks(10)).unwrap();
        assert_eq!((bounded.deal, bounded.outcome), (exact.deal, exact.outcome));
        assert!(bounded.nodes <= exact.nodes);
    }
}

#[test]
fn a_loop_is_not_extended_and_other_deals_are_refused() {
    let casella = records()
        .into_iter()
        .find(|g| g.outcome.status == GameEnd::Loop)
        .unwrap();
    assert_eq!(
        extend(casella.deal.a(), casella.deal.b()),
        Err(ExtendError::Loop(Outcome::new(GameEnd::Loop, 474, 66)))
    );
    let short = penalties(&parse_deck("A-K-", Player::A).unwrap());
    let err = extend(&short, &short).unwrap_err();
    assert!(matches!(err, ExtendError::Deal(_)));
    assert!(err.to_string().contains("26 and 26"), "{err}");
    let mut five_aces = *random_deals(1, 1)[0].penalties();
    let at = five_aces.iter().position(|&p| p == 0).unwrap();
    five_aces[at] = 4;
    let err = extend(&five_aces[..26], &five_aces[26..]).unwrap_err();
    assert!(err.to_string().contains("four each"), "{err}");
}

/// Plays `state` one round forward with the reference simulator.
fn forward(state: &RoundStart) -> RoundStart {
    reference::play_round(state)
        .expect("the leader holds a card")
        .0
}

#[test]
fn one_reference_round_is_the_next_round_start_of_the_reference_trace() {
    for deal in random_deals(7, 40) {
        let cards =
            |p: &[u8]| -> Vec<Card> { p.iter().map(|&x| Card::from_penalty(x).unwrap()).collect() };
        let trace = reference::trace(&cards(deal.a()), &cards(deal.b()));
        let starts: Vec<_> = trace
            .rows
            .iter()
            .filter(|r| r.pile.is_empty() && r.owed.is_none())
            .collect();
        let mut state = RoundStart {
            a: deal.a().to_vec(),
            b: deal.b().to_vec(),
            lead: Player::A,
        };
        for pair in starts.windows(2).take(30) {
            if pair[0].round == pair[1].round {
                continue;
            }
            let next = forward(&state);
            assert_eq!(next.a, penalties(&pair[1].a));
            assert_eq!(next.b, penalties(&pair[1].b));
            state = next;
        }
    }
}

#[test]
fn every_predecessor_of_a_thousand_random_states_replays_to_it() {
    // Round starts of random games (whose true previous state must be
    // found) and random states of any split and leader.
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut states = Vec::new();
    for deal in random_deals(9, 500) {
        let mut state = RoundStart {
            a: deal.a().to_vec(),
            b: deal.b().to_vec(),
            lead: Player::A,
        };
        let steps = rng.random_range(1..40);
        for _ in 0..steps {
            let (next, _, finished) = reference::play_round(&state).unwrap();
            states.push((next.clone(), Some(state.clone())));
            state = next;
            if finished {
                break;
            }
        }
    }
    states.truncate(800);
    while states.len() < 1000 {
        let mut cards = *random_deals(rng.random(), 1)[0].penalties();
        let split = rng.random_range(1..52);
        cards.rotate_left(rng.random_range(0..52));
        let lead = if rng.random_bool(0.5) {
            Player::A
        } else {
            Player::B
        };
        states.push((
            RoundStart {
                a: cards[..split].to_vec(),
                b: cards[split..].to_vec(),
                lead,
            },
            None,
        ));
    }
    let (mut total, mut finals) = (0, 0);
    for (state, came_from) in &states {
        let before = predecessors(state);
        total += before.len();
        finals += usize::from(state.a.is_empty() || state.b.is_empty());
        for p in &before {
            assert!(!p.a.is_empty() && !p.b.is_empty(), "{p:?}");
            assert_eq!(&forward(p), state, "{p:?} does not lead to {state:?}");
        }
        if let Some(prev) = came_from {
            assert!(before.contains(prev), "{prev:?} missing from {before:?}");
        }
    }
    assert!(
        total > 1000 && finals > 10,
        "{total} predecessors, {finals} final states"
    );
}

#[test]
fn a_search_extending_long_games_finds_the_same_games_and_longer_deals() {
    use poker_core::camicia::search::{Extending, Search, Work};
    let search = |extend| Search {
        work: Work::Random {
            seed: 3,
            count: 100_000,
        },
        top: 20,
        threads: std::num::NonZeroUsize::new(2).unwrap(),
        extend,
    };
    let extending = Extending {
        from: 800,
        depth: Depth::FirstTricks(10),
    };
    let plain = search(None).run(Simulator::new, |_| {}, |_| {}).unwrap();
    let mut extended = search(Some(extending))
        .run(Simulator::new, |_| {}, |_| {})
        .unwrap();
    // The same on any number of threads: blocks merge in any order.
    let one_thread = Search {
        threads: std::num::NonZeroUsize::MIN,
        ..search(Some(extending))
    };
    assert_eq!(
        one_thread.run(Simulator::new, |_| {}, |_| {}).unwrap(),
        extended
    );
    let work = std::mem::take(&mut extended.extension);
    // Every deal's own game is reported as without extension.
    assert_eq!(extended, plain);
    let finished = plain.deals - plain.loops.len() as u64;
    assert_eq!(work.lengths.iter().sum::<u64>(), finished);
    let long: u64 = plain.lengths[80..].iter().sum();
    assert_eq!(work.games, long);
    assert!(!work.extended.is_empty() && work.extended.len() <= 20);
    let mut sim = Simulator::new();
    let mut seen = std::collections::HashSet::new();
    for e in &work.extended {
        assert!(seen.insert(e.game.index), "a deal listed twice");
        assert_eq!(
            sim.run_unchecked(e.game.deal.a(), e.game.deal.b()),
            e.game.outcome
        );
        let from = poker_core::camicia::Deal::unrank(e.from).unwrap();
        let own = sim.run_unchecked(from.a(), from.b());
        assert!(own.cards >= 800);
        assert_eq!(own.cards + e.added, e.game.outcome.cards);
    }
    // The histogram after extension is the one before, moved up.
    let above = |h: &[u64], x: usize| h.iter().skip(x).sum::<u64>();
    assert!(above(&work.lengths, 150) > above(&plain.lengths, 150));
}
