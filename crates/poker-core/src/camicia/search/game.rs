//! A game worth reporting, and the bins games are counted in by length.

use crate::camicia::{Deal, Outcome};

/// One simulated deal worth reporting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// The deal's index (see [`crate::camicia::index`]).
    pub index: u128,
    /// The deal itself.
    pub deal: Deal,
    /// Its outcome.
    pub outcome: Outcome,
}

/// Width of a [`super::Report::lengths`] bin, in cards.
pub const LENGTH_BIN: u64 = 10;

/// Counts `n` finished games of `cards` cards in `lengths`, bins of
/// [`LENGTH_BIN`] cards.
#[inline(always)]
pub(super) fn count(lengths: &mut Vec<u64>, cards: u64, n: u64) {
    let bin = (cards / LENGTH_BIN) as usize;
    if bin >= lengths.len() {
        lengths.resize(bin + 1, 0);
    }
    lengths[bin] += n;
}
