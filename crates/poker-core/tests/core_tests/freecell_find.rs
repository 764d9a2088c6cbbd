//! The fast search (`find_prefix`, `find_deals`) against the brute-force
//! scan it replaces, on full and partial boards from all three ranges.

use poker_core::cards::{Card, CardError};
use poker_core::freecell::{
    Deal, DealNumber, MAX_DEAL, find_deals, find_prefix, find_prefix_indices, scan_prefix_between,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn cards(n: u64) -> [Card; 52] {
    Deal::new(DealNumber::try_from(n).unwrap()).cards()
}

fn number(n: u64) -> DealNumber {
    DealNumber::try_from(n).unwrap()
}

/// Windows of 2^22 numbers at both ends of each range.
const EDGES: [(u64, u64); 6] = [
    (1, 1 << 22),
    ((1 << 31) - (1 << 22), (1 << 31) - 1),
    (1 << 31, (1 << 31) + (1 << 22) - 1),
    ((1 << 32) - (1 << 22), (1 << 32) - 1),
    (1 << 32, (1 << 32) + (1 << 22) - 1),
    (MAX_DEAL - (1 << 22) + 1, MAX_DEAL),
];

/// The scan over `first..=last` and the fast search's list cut to it agree.
fn agree_on_window(prefix: &[Card], first: u64, last: u64) {
    let fast = find_prefix(prefix, usize::MAX).unwrap();
    assert_eq!(fast.total, fast.deals.len() as u64);
    let inside: Vec<DealNumber> = fast
        .deals
        .iter()
        .copied()
        .filter(|d| (first..=last).contains(&d.get()))
        .collect();
    let scanned = scan_prefix_between(prefix, number(first), number(last));
    assert_eq!(
        inside,
        scanned,
        "{} cards, window {first}..={last}",
        prefix.len()
    );
}

fn random_deals(count: usize) -> Vec<u64> {
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    let mut deals = Vec::new();
    for (low, high) in [
        (1u64, (1 << 31) - 1),
        (1 << 31, (1 << 32) - 1),
        (1 << 32, MAX_DEAL),
    ] {
        for _ in 0..count {
            deals.push(rng.random_range(low..=high));
        }
    }
    deals
}

#[test]
fn full_boards_give_their_number_in_every_range_and_at_every_edge() {
    let mut deals = random_deals(20);
    deals.extend([
        1,
        2,
        617,
        11982,
        (1 << 31) - 1,
        1 << 31,
        (1 << 32) - 1,
        1 << 32,
        (1 << 32) + 1,
        MAX_DEAL,
    ]);
    for n in deals {
        let board = cards(n);
        let found = find_deals(&board);
        assert_eq!(found, [number(n)], "deal {n}");
        // The scan around it finds the same, and nothing else.
        let first = n.saturating_sub(1 << 21).max(1);
        let last = (n + (1 << 21)).min(MAX_DEAL);
        assert_eq!(
            poker_core::freecell::find_deals_between(&board, number(first), number(last)),
            found
        );
    }
}

#[test]
fn partial_boards_agree_with_the_scan_at_the_edges_of_each_range() {
    for (i, n) in random_deals(2).into_iter().enumerate() {
        let board = cards(n);
        for len in [2, 3, 4, 5, 6, 9, 26, 51] {
            let prefix = &board[..len];
            let fast = find_prefix(prefix, usize::MAX).unwrap();
            assert!(fast.deals.contains(&number(n)), "deal {n}, {len} cards");
            let (first, last) = EDGES[(i + len) % EDGES.len()];
            agree_on_window(prefix, first, last);
            let (first, last) = (
                n.saturating_sub(1 << 19).max(1),
                (n + (1 << 19)).min(MAX_DEAL),
            );
            agree_on_window(prefix, first, last);
        }
    }
}

#[test]
fn prefixes_of_deals_at_the_edges_agree_with_the_scan_there() {
    for (first, last) in EDGES {
        for n in [first, last] {
            for len in [3, 4, 6] {
                agree_on_window(&cards(n)[..len], first, last);
            }
        }
    }
}

/// The whole 1..2^33-1 scanned once for a 4-card prefix (about 1,300
/// deals, in all three ranges); the full board it starts is among them.
/// A few seconds optimised.
#[test]
#[cfg_attr(debug_assertions, ignore = "slow unoptimised: run with --release")]
fn the_whole_range_agrees_with_the_scan() {
    let board = cards(MAX_DEAL);
    let fast = find_prefix(&board[..4], usize::MAX).unwrap();
    let scanned = scan_prefix_between(&board[..4], DealNumber::MIN, DealNumber::MAX);
    assert!(scanned.len() > 500, "{}", scanned.len());
    assert_eq!(fast.deals, scanned);
    assert_eq!(fast.total, scanned.len() as u64);
    let full: Vec<DealNumber> = scanned
        .into_iter()
        .filter(|&n| Deal::new(n).cards() == board)
        .collect();
    assert_eq!(find_deals(&board), full);
}

#[test]
fn boards_no_deal_gives_have_no_number() {
    for n in [1u64, 1 << 31, MAX_DEAL] {
        let mut board = cards(n);
        board.swap(50, 51);
        assert_eq!(find_deals(&board), []);
        let (first, last) = (
            n.saturating_sub(1 << 21).max(1),
            (n + (1 << 21)).min(MAX_DEAL),
        );
        assert_eq!(
            poker_core::freecell::find_deals_between(&board, number(first), number(last)),
            []
        );
        // A rotated board: every card present, in no dealt order.
        let mut board = cards(n);
        board.rotate_left(1);
        assert_eq!(find_deals(&board), []);
    }
}

#[test]
fn the_list_is_capped_at_max_and_holds_the_smallest() {
    let prefix = &cards(7)[..3];
    let all = find_prefix(prefix, usize::MAX).unwrap();
    assert!(all.total > 10_000, "{}", all.total);
    let some = find_prefix(prefix, 10).unwrap();
    assert_eq!(some.total, all.total);
    assert_eq!(some.deals, all.deals[..10]);
    assert_eq!(find_prefix(prefix, 0).unwrap().deals, []);
    let mut sorted = all.deals.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted, all.deals);
}

/// One card: the counted total is the sum over every possible second card
/// of the enumerated totals, and the list is what the scan finds first.
#[test]
fn a_single_card_counts_every_deal_starting_with_it() {
    // 38 (JH) is also the first card of seed 0, which is no deal.
    for first in [38u8, 51] {
        let card = Card::from_index(first).unwrap();
        let single = find_prefix(&[card], 200).unwrap();
        let sum: u64 = (0..52u8)
            .filter(|&i| i != first)
            .map(|i| {
                find_prefix(&[card, Card::from_index(i).unwrap()], 0)
                    .unwrap()
                    .total
            })
            .sum();
        assert_eq!(single.total, sum, "card {card}");
        let scanned = scan_prefix_between(&[card], number(1), number(100_000));
        assert_eq!(single.deals, scanned[..200], "card {card}");
    }
}

#[test]
fn bad_prefixes_are_errors() {
    let board = cards(1);
    assert!(matches!(
        find_prefix(&[board[0], board[1], board[0]], 5),
        Err(CardError::Duplicate { .. })
    ));
    assert!(matches!(
        find_prefix(&[], 5),
        Err(CardError::WrongCount { .. })
    ));
    let mut long = board.to_vec();
    long.push(board[0]);
    assert!(find_prefix(&long, 5).is_err());
    assert!(matches!(
        find_prefix_indices(&[3, 52], 5),
        Err(CardError::OutOfRange { .. })
    ));
    let indices: Vec<u8> = board.iter().map(|c| c.index()).collect();
    assert_eq!(find_prefix_indices(&indices, 5).unwrap().deals, [number(1)]);
}
