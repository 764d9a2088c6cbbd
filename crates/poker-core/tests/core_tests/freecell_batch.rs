//! The batch dealer, on both its paths, against `deal_indices` one deal at
//! a time (itself tested against the step-by-step algorithm and the
//! pysol-cards vectors).

use poker_core::freecell::{DealNumber, MAX_DEAL, deal_indices, deal_range, deal_range_with};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn check(first: u64, count: usize) {
    let expected: Vec<[u8; 52]> = (first..first + count as u64)
        .map(|n| deal_indices(DealNumber::try_from(n).unwrap()))
        .collect();
    let start = DealNumber::try_from(first).unwrap();
    for vector in [false, true] {
        let mut out = vec![[0u8; 52]; count];
        deal_range_with(start, &mut out, vector).unwrap();
        for (i, (got, want)) in out.iter().zip(&expected).enumerate() {
            assert_eq!(got, want, "deal {}, vector path {vector}", first + i as u64);
        }
    }
    let mut out = vec![[0u8; 52]; count];
    deal_range(start, &mut out).unwrap();
    assert_eq!(out, expected);
}

#[test]
fn ranges_crossing_each_boundary_deal_as_one_by_one() {
    for (first, count) in [
        (1u64, 1000usize),
        ((1 << 31) - 37, 75),
        ((1 << 32) - 5, 11),
        ((1 << 31) - 3, 1),
        (MAX_DEAL - 9, 10),
        (MAX_DEAL, 1),
    ] {
        check(first, count);
    }
}

#[test]
fn random_ranges_of_every_length_mod_4_deal_as_one_by_one() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for count in 0..40usize {
        let first = rng.random_range(1..=MAX_DEAL - 40);
        check(first, count);
    }
    for _ in 0..30 {
        check(rng.random_range(1..=MAX_DEAL - 5000), 4099);
    }
}

#[test]
fn a_range_past_the_last_deal_is_an_error_and_writes_nothing() {
    let mut out = vec![[7u8; 52]; 3];
    assert!(deal_range(DealNumber::try_from(MAX_DEAL - 1).unwrap(), &mut out).is_err());
    assert!(out.iter().all(|d| d.iter().all(|&c| c == 7)));
    assert!(deal_range(DealNumber::MAX, &mut []).is_ok());
}
