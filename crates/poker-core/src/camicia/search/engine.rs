//! The engine interface of the search: whatever simulates the deals.

use crate::camicia::{Deal, Outcome, Simulator};

/// Simulates batches of 52-card deals for the search.
///
/// The search cuts its work into blocks and hands an engine each block's
/// deals in batches of at most [`BATCH`](super::BATCH) deals, in index order
/// for a range and in drawing order for random deals. [`Simulator`] (the
/// fast engine, one deal after another) is the engine the `poker` command
/// uses; an engine that simulates many deals at once plugs in the same way.
/// The search runs one engine per worker thread and never shares one.
pub trait Engine {
    /// Simulates every deal of `deals` and writes its outcome to the same
    /// position of `outcomes`. The search always passes two slices of the
    /// same length; an engine may panic if they differ.
    fn run_batch(&mut self, deals: &[Deal], outcomes: &mut [Outcome]);
}

impl Engine for Simulator {
    fn run_batch(&mut self, deals: &[Deal], outcomes: &mut [Outcome]) {
        assert_eq!(deals.len(), outcomes.len(), "one outcome per deal");
        for (deal, outcome) in deals.iter().zip(outcomes) {
            *outcome = self.run_unchecked(deal.a(), deal.b());
        }
    }
}
