//! The reverse: which deal numbers give a board. A brute-force scan of all
//! of 1..=2^33-1 in parallel (rayon), made cheap by testing each candidate's
//! first card, then its second, before dealing it in full: the state after
//! one step of consecutive seeds grows by a constant, so the common case is
//! an add, a shift and a remainder by 52.

use super::{CARDS, DealNumber, JUMP, MAX_DEAL, MIN_DEAL, deal_seeded, draw, small_mod};
use crate::cards::Card;
use rayon::prelude::*;

/// Deal numbers per unit of work (and per progress report). The range
/// boundaries 2^31 and 2^32 are multiples of it, so a block has one rule.
const BLOCK: u64 = 1 << 22;

/// Every deal number in 1..=2^33-1 whose deal is `board` (its 52 cards in
/// dealing order, as [`super::parse_board`] returns them), smallest first.
/// A dealt board has one number in practice; any other board has none.
pub fn find_deals(board: &[Card; CARDS]) -> Vec<DealNumber> {
    find_deals_with_progress(board, |_| {})
}

/// [`find_deals`], calling `progress(count)` from the worker threads each
/// time `count` more deal numbers have been scanned (the counts add up to
/// 2^33 - 1).
pub fn find_deals_with_progress(
    board: &[Card; CARDS],
    progress: impl Fn(u64) + Sync,
) -> Vec<DealNumber> {
    search(board, MIN_DEAL, MAX_DEAL, &progress)
}

/// [`find_deals`] over `first..=last` only (e.g. Microsoft's 1..=1000000).
pub fn find_deals_between(
    board: &[Card; CARDS],
    first: DealNumber,
    last: DealNumber,
) -> Vec<DealNumber> {
    search(board, first.get(), last.get(), &|_| {})
}

fn search(
    board: &[Card; CARDS],
    first: u64,
    last: u64,
    progress: &(impl Fn(u64) + Sync),
) -> Vec<DealNumber> {
    let target = board.map(Card::index);
    let mut found: Vec<DealNumber> = (first / BLOCK..=last / BLOCK)
        .into_par_iter()
        .flat_map_iter(|b| {
            let start = (b * BLOCK).max(first);
            let end = ((b + 1) * BLOCK).min(last + 1); // exclusive
            let hits = if start >= end {
                Vec::new()
            } else if start < 1 << 31 {
                scan::<0>(start, end, &target)
            } else if start < 1 << 32 {
                scan::<1>(start, end, &target)
            } else {
                scan::<2>(start, end, &target)
            };
            progress(end.saturating_sub(start));
            hits
        })
        .map(DealNumber)
        .collect();
    found.sort();
    found
}

/// The deal numbers in `start..end` (one range) that deal `target`.
fn scan<const RANGE: u8>(start: u64, end: u64, target: &[u8; CARDS]) -> Vec<u64> {
    let first = u32::from(target[0]);
    let second = usize::from(target[1]);
    let (mul1, add1) = JUMP[0];
    let (mul2, add2) = JUMP[1];
    let seed0 = start as u32; // the initial state: n, or n - 2^32
    let mut state1 = mul1.wrapping_mul(seed0).wrapping_add(add1);
    let mut hits = Vec::new();
    for i in 0..(end - start) as u32 {
        // Card 1 is the draw mod 52 itself: the deck starts in index order.
        if draw::<RANGE>(state1) % 52 == first {
            let seed = seed0.wrapping_add(i);
            let j = small_mod(
                draw::<RANGE>(mul2.wrapping_mul(seed).wrapping_add(add2)),
                51,
            );
            // Card 1's place now holds the deck's last card, index 51.
            let card = if j == first as usize { 51 } else { j };
            if card == second && deal_seeded::<RANGE>(seed) == *target {
                hits.push(start + u64::from(i));
            }
        }
        state1 = state1.wrapping_add(mul1);
    }
    hits
}
