//! The 52-card shuffle: reproducible, a permutation, uniform (chi-square
//! with a fixed seed), and `poker shuffle`'s output.

use poker::ffi::error::POKER_ERR_NULL;
use poker::ffi::hand::poker_shuffle;
use poker_core::cards::{Card, standard_deck};
use poker_core::shuffle::{ShuffledDeck, shuffle_seeded};

#[test]
fn a_seed_always_gives_the_same_permutation() {
    let a = ShuffledDeck::new(42);
    assert_eq!(a, ShuffledDeck::new(42));
    assert_ne!(a.cards(), ShuffledDeck::new(43).cards());
    let mut sorted = a.cards().to_vec();
    sorted.sort();
    let mut deck = standard_deck();
    deck.sort();
    assert_eq!(sorted, deck);
    assert_eq!(a.seed(), 42);
}

/// Chi-square of the card x position table of `shuffles` shuffles, each
/// from `shuffle(i)`: 52 x 52 cells, (52-1)^2 = 2601 degrees of freedom.
fn chi_square(shuffles: u32, shuffle: impl Fn(u32) -> Vec<Card>) -> f64 {
    let mut counts = vec![[0u32; 52]; 52];
    for i in 0..shuffles {
        for (position, card) in shuffle(i).iter().enumerate() {
            counts[usize::from(card.index())][position] += 1;
        }
    }
    let expected = f64::from(shuffles) / 52.0;
    counts
        .iter()
        .flatten()
        .map(|&n| (f64::from(n) - expected).powi(2) / expected)
        .sum()
}

/// Bound for 2601 degrees of freedom: mean 2601, standard deviation
/// sqrt(2 * 2601) = 72.1; 3100 is mean + 6.9 sd, which a uniform shuffle
/// exceeds with probability about 1e-11. The seed is fixed, so the test is
/// deterministic anyway; the bound only has to be one a fair shuffle cannot
/// plausibly cross, while a biased one (below) lands far above it.
const BOUND: f64 = 3100.0;
const SHUFFLES: u32 = 104_000; // 2000 expected per cell

#[test]
fn every_card_lands_in_every_position_about_equally_often() {
    let chi2 = chi_square(SHUFFLES, |i| {
        ShuffledDeck::new(0x5EED_0000 + u64::from(i))
            .cards()
            .to_vec()
    });
    eprintln!("fair shuffle: chi-square {chi2:.1} (2601 degrees of freedom)");
    assert!(chi2 < BOUND, "chi-square {chi2:.1} >= {BOUND}");
    // A fair shuffle is not suspiciously perfect either (mean - 6.9 sd).
    assert!(chi2 > 2102.0, "chi-square {chi2:.1} is implausibly low");
}

#[test]
fn the_test_catches_the_classic_biased_shuffle() {
    // "Swap each card with any card" (j drawn from the whole deck each time):
    // n^n outcomes over n! orders, so some orders are more likely.
    use rand::{Rng, SeedableRng};
    let chi2 = chi_square(SHUFFLES, |i| {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(u64::from(i));
        let mut cards = standard_deck();
        for k in 0..52 {
            let j = rng.random_range(0..52);
            cards.swap(k, j);
        }
        cards
    });
    eprintln!("biased shuffle: chi-square {chi2:.1}");
    assert!(chi2 > BOUND, "biased shuffle passed: chi-square {chi2:.1}");
}

#[test]
fn any_slice_shuffles_the_same_way() {
    let mut cards = standard_deck();
    shuffle_seeded(&mut cards, 9);
    assert_eq!(cards, ShuffledDeck::new(9).cards().to_vec());
}

#[test]
fn the_c_function_writes_the_same_deck() {
    let mut cards = [0u8; 52];
    assert_eq!(unsafe { poker_shuffle(7, cards.as_mut_ptr()) }, 0);
    let expected: Vec<u8> = ShuffledDeck::new(7)
        .cards()
        .iter()
        .map(|c| c.index())
        .collect();
    assert_eq!(cards.to_vec(), expected);
    assert_eq!(
        unsafe { poker_shuffle(7, std::ptr::null_mut()) },
        POKER_ERR_NULL
    );
}

#[test]
fn the_command_prints_face_of_suit_in_two_columns() {
    let out = crate::common::poker()
        .args(["shuffle", "--seed", "42"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 26);
    let deck = ShuffledDeck::new(42);
    let faces = [
        "Ace", "Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack",
        "Queen", "King",
    ];
    let suits = ["Hearts", "Diamonds", "Clubs", "Spades"];
    for (line, pair) in lines.iter().zip(deck.cards().chunks(2)) {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words.len(), 6, "{line}");
        assert!(faces.contains(&words[0]) && words[1] == "of" && suits.contains(&words[2]));
        assert_eq!(format!("{} of {}", words[0], words[2]), pair[0].long_name());
        assert_eq!(format!("{} of {}", words[3], words[5]), pair[1].long_name());
    }
    // The case study's "%5s of %-8s": faces right-aligned, so both columns
    // line up; the second card starts 4 spaces after the first's 17 chars.
    for line in &lines {
        assert_eq!(&line[5..9], " of ", "{line:?}");
        assert_eq!(&line[17..21], "    ", "{line:?}");
        assert_eq!(&line[26..30], " of ", "{line:?}");
    }

    let out = crate::common::poker()
        .args(["shuffle", "--seed", "42", "--json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["seed"], 42);
    assert_eq!(json["cards"].as_array().unwrap().len(), 52);
    assert_eq!(json["names"][0], deck.cards()[0].long_name());
}
