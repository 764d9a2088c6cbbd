//! Cycle canonical forms and ids (`poker_core::camicia::cycle`). Expected
//! values: the cycle lengths published with the 2024 non-terminating game
//! (62 tricks, spec and records.json), and the exercism loop cases played
//! out by hand:
//!
//! - `J 2 3` / `4 J 5` (the seed's example): round 2 starts with A `--J-`,
//!   B `J-`, A to lead; round 3 with A `J-`, B `--J-`, B to lead (the
//!   mirror of round 2); round 4 repeats round 2. A cycle of 2 tricks and
//!   3 + 3 = 6 cards, its own mirror.
//! - `2 3 J 6` / `K 5 J 7`: round 1 (A `--J-`, B `K-J-`, A leads), round 2
//!   (A `--K-J-`, B `J-`, A leads), round 3 (A `K-J-`, B `--J-`, B leads:
//!   round 1 mirrored), round 4 (A `J-`, B `--K-J-`, B leads: round 2
//!   mirrored); round 5 repeats round 1 after 5 + 3 + 5 + 3 = 16 cards. A
//!   cycle of 4 tricks and 16 cards, its own mirror.

use crate::camicia_records;

use poker_core::camicia::cycle::Cycle;
use poker_core::camicia::reference::RoundStart;
use poker_core::camicia::{GameEnd, Player, parse_deck, penalties, reference};

fn pens(text: &str) -> Vec<u8> {
    penalties(&parse_deck(text, Player::A).unwrap())
}

fn cycle(a: &str, b: &str) -> Cycle {
    Cycle::of_penalties(&pens(a), &pens(b)).expect("a loop")
}

/// The game dealt as this round start (A's deck first); a round B leads is
/// dealt mirrored, since A always plays first.
fn dealt(state: &RoundStart) -> (Vec<u8>, Vec<u8>, bool) {
    match state.lead {
        Player::A => (state.a.clone(), state.b.clone(), false),
        Player::B => (state.b.clone(), state.a.clone(), true),
    }
}

#[test]
fn the_seeds_loop_has_a_two_trick_cycle_that_is_its_own_mirror() {
    let c = cycle("J 2 3", "4 J 5");
    assert_eq!((c.tricks(), c.cards), (2, 6));
    assert_eq!(c.id(), c.mirror_id());
    let round2 = RoundStart {
        a: vec![0, 0, 1, 0],
        b: vec![1, 0],
        lead: Player::A,
    };
    assert!(c.rounds.contains(&round2), "{:?}", c.rounds);
}

#[test]
fn the_four_card_exercism_loop_has_a_four_trick_cycle_of_sixteen_cards() {
    let c = cycle("2 3 J 6", "K 5 J 7");
    assert_eq!((c.tricks(), c.cards), (4, 16));
    assert_eq!(c.id(), c.mirror_id());
    let round1 = RoundStart {
        a: vec![0, 0, 1, 0],
        b: vec![3, 0, 1, 0],
        lead: Player::A,
    };
    assert!(c.rounds.contains(&round1));
}

#[test]
fn the_published_2024_loop_has_a_cycle_of_62_tricks() {
    let record = camicia_records::records()
        .into_iter()
        .find(|r| r.outcome.status == GameEnd::Loop)
        .unwrap();
    let c = Cycle::of_penalties(record.deal.a(), record.deal.b()).unwrap();
    assert_eq!(c.tricks(), 62);
    assert_eq!(c.rounds.len(), 62);
    // The same id however often it is computed, as 16 hex digits.
    assert_eq!(c.id().to_string().len(), 16);
    assert_eq!(
        c.id(),
        Cycle::of_penalties(record.deal.a(), record.deal.b())
            .unwrap()
            .id()
    );
}

#[test]
fn the_same_cycle_entered_at_any_of_its_rounds_gets_one_id() {
    let record = camicia_records::records()
        .into_iter()
        .find(|r| r.outcome.status == GameEnd::Loop)
        .unwrap();
    let c = Cycle::of_penalties(record.deal.a(), record.deal.b()).unwrap();
    let (id, mirror) = (c.id(), c.mirror_id());
    assert_ne!(id, mirror, "the 2024 cycle is not its own mirror");
    let (mut as_is, mut mirrored) = (0, 0);
    for state in &c.rounds {
        let (a, b, swapped) = dealt(state);
        // Dealt as a round of the cycle, the game is in the cycle from its
        // first round: it repeats after exactly one turn of 62 tricks.
        let cards = |p: &[u8]| -> Vec<poker_core::camicia::Card> {
            p.iter()
                .map(|&x| poker_core::camicia::Card::from_penalty(x).unwrap())
                .collect()
        };
        let outcome = reference::simulate(&cards(&a), &cards(&b));
        assert_eq!((outcome.status, outcome.tricks), (GameEnd::Loop, 62));
        let entered = Cycle::of_penalties(&a, &b).unwrap();
        if swapped {
            assert_eq!(entered.id(), mirror);
            mirrored += 1;
        } else {
            assert_eq!(entered.id(), id);
            as_is += 1;
        }
    }
    assert!(as_is > 0 && mirrored > 0, "{as_is} {mirrored}");
}

#[test]
fn canonical_order_does_not_depend_on_where_the_list_starts() {
    let c = cycle("2 3 J 6", "K 5 J 7");
    for r in 0..c.rounds.len() {
        let mut rotated = c.rounds.clone();
        rotated.rotate_left(r);
        let again = Cycle::from_rounds(rotated, c.cards);
        assert_eq!(again, c);
        assert_eq!(again.canonical_bytes(), c.canonical_bytes());
    }
}

#[test]
fn a_finished_game_has_no_cycle() {
    assert_eq!(
        Cycle::of_penalties(&pens("2 A 7 8 Q 10"), &pens("3 4 5 6 K 9 J")),
        None
    );
}
