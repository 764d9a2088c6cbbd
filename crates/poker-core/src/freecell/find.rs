//! The reverse by brute force: which deal numbers give a board (or the first
//! cards of one). A scan of 1..=2^33-1 in parallel (rayon), made cheap by
//! testing each candidate's first card, then its second, before dealing it
//! in full: the state after one step of consecutive seeds grows by a
//! constant, so the common case is an add, a shift and a remainder by 52.
//! [`find_deals`] answers at once by inverting the generator instead
//! (see `invert.rs`); the scan stays as its independent reference.

use super::{CARDS, DealNumber, JUMP, MAX_DEAL, MIN_DEAL, deal_seeded, draw, small_mod};
use crate::cards::Card;
use rayon::prelude::*;

/// Deal numbers per unit of work (and per progress report). The range
/// boundaries 2^31 and 2^32 are multiples of it, so a block has one rule.
const BLOCK: u64 = 1 << 22;

/// Every deal number in 1..=2^33-1 whose deal is `board` (its 52 cards in
/// dealing order, as [`super::parse_board`] returns them), smallest first.
/// A dealt board has one number in practice; any other board (one with a
/// card twice included) has none. Takes about 15 ms of one core: see
/// [`super::find_prefix`], which it calls.
pub fn find_deals(board: &[Card; CARDS]) -> Vec<DealNumber> {
    match super::find_prefix(board, usize::MAX) {
        Ok(matches) => matches.deals,
        Err(_) => Vec::new(),
    }
}

/// [`find_deals`] by scanning every deal number (a few seconds on two
/// cores): the brute-force reference the fast search is tested against.
pub fn scan_deals(board: &[Card; CARDS]) -> Vec<DealNumber> {
    find_deals_with_progress(board, |_| {})
}

/// The scan of [`scan_deals`], calling `progress(count)` from the worker threads each
/// time `count` more deal numbers have been scanned (the counts add up to
/// 2^33 - 1).
pub fn find_deals_with_progress(
    board: &[Card; CARDS],
    progress: impl Fn(u64) + Sync,
) -> Vec<DealNumber> {
    search(board, MIN_DEAL, MAX_DEAL, &progress)
}

/// [`scan_deals`] over `first..=last` only (e.g. Microsoft's 1..=1000000).
pub fn find_deals_between(
    board: &[Card; CARDS],
    first: DealNumber,
    last: DealNumber,
) -> Vec<DealNumber> {
    search(board, first.get(), last.get(), &|_| {})
}

/// The deal numbers in `first..=last` whose first `prefix.len()` cards are
/// `prefix` (1 to 52 cards), smallest first, by scanning every number: the
/// reference for [`super::find_prefix`]. An empty prefix matches every deal.
pub fn scan_prefix_between(
    prefix: &[Card],
    first: DealNumber,
    last: DealNumber,
) -> Vec<DealNumber> {
    search(
        &prefix[..prefix.len().min(CARDS)],
        first.get(),
        last.get(),
        &|_| {},
    )
}

fn search(
    board: &[Card],
    first: u64,
    last: u64,
    progress: &(impl Fn(u64) + Sync),
) -> Vec<DealNumber> {
    let target: Vec<u8> = board.iter().map(|card| card.index()).collect();
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

/// The deal numbers in `start..end` (one range) whose first cards are
/// `target` (at most 52).
fn scan<const RANGE: u8>(start: u64, end: u64, target: &[u8]) -> Vec<u64> {
    if target.len() < 2 {
        return (start..end)
            .filter(|&n| target.is_empty() || deal_seeded::<RANGE>(n as u32)[0] == target[0])
            .collect();
    }
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
            if card == second && deal_seeded::<RANGE>(seed)[..target.len()] == *target {
                hits.push(start + u64::from(i));
            }
        }
        state1 = state1.wrapping_add(mul1);
    }
    hits
}
