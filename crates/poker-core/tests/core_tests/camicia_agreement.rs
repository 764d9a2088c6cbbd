//! The fast simulator against the card-by-card reference simulator on many
//! deals: random 52-card deals, small decks of every shape (where loops are
//! common, so the exact first-repeat counting is exercised), and odd
//! lengths and rank counts.

use poker_core::camicia::{Card, GameEnd, Simulator, reference, search};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn cards(pens: &[u8]) -> Vec<Card> {
    pens.iter()
        .map(|&p| Card::from_penalty(p).unwrap())
        .collect()
}

fn agree(sim: &mut Simulator, a: &[u8], b: &[u8]) -> GameEnd {
    let fast = sim.run(a, b).unwrap();
    let slow = reference::simulate(&cards(a), &cards(b));
    assert_eq!(fast, slow, "a = {a:?}, b = {b:?}");
    fast.status
}

#[test]
fn fast_and_reference_agree_on_random_52_card_deals() {
    let mut sim = Simulator::new();
    for deal in search::random_deals(2024, 3000) {
        agree(&mut sim, deal.a(), deal.b());
    }
}

#[test]
fn fast_and_reference_agree_on_every_deck_pair_up_to_seven_cards() {
    // Every split of every penalty string of length <= 7 (5^7 strings):
    // empty decks, one-card decks, and the few small loops.
    let mut sim = Simulator::new();
    let mut loops = 0;
    for len in 0..=7u32 {
        for code in 0..5u32.pow(len) {
            let pens: Vec<u8> = (0..len).map(|i| (code / 5u32.pow(i) % 5) as u8).collect();
            for split in 0..=pens.len() {
                let (a, b) = pens.split_at(split);
                if agree(&mut sim, a, b) == GameEnd::Loop {
                    loops += 1;
                }
            }
        }
    }
    assert!(loops > 0, "J 2 3 against 4 J 5 alone is a loop");
}

#[test]
fn fast_and_reference_agree_on_random_decks_of_any_length_and_mix() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut sim = Simulator::new();
    let mut statuses = [0; 2];
    for _ in 0..100_000 {
        let total = rng.random_range(0..60);
        let payment_share = rng.random_range(0.0..1.0);
        let pens: Vec<u8> = (0..total)
            .map(|_| {
                if rng.random_bool(payment_share) {
                    rng.random_range(1..=4)
                } else {
                    0
                }
            })
            .collect();
        let split = rng.random_range(0..=pens.len());
        let (a, b) = pens.split_at(split);
        statuses[agree(&mut sim, a, b) as usize] += 1;
    }
    assert!(statuses[0] > 1000 && statuses[1] >= 50, "{statuses:?}");
}

#[test]
fn one_simulator_reused_across_sizes_gives_fresh_results() {
    // A big game, then small ones: the kept buffers must not leak state.
    let mut sim = Simulator::new();
    let mut big = vec![0u8; 400];
    for (i, p) in big.iter_mut().enumerate() {
        *p = [0, 0, 1, 0, 4, 0, 3, 2][i % 8];
    }
    let (a, b) = big.split_at(190);
    agree(&mut sim, a, b);
    agree(&mut sim, &[1, 0, 0], &[0, 1, 0]);
    agree(&mut sim, &[0], &[0]);
    agree(&mut sim, a, b);
}
