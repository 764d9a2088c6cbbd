//! The vector engine: 52-card games eight at a time, one round of each per
//! step, in the lanes of AVX2 registers.
//!
//! # Why
//! The fast engine ([`super::Simulator`]) plays a round in a few steps per
//! payment card; what is left of its time is the mispredicted branch that
//! ends each round's chain of payments (does the payer pay in full, or hit
//! a payment card?), a coin flip at every payment, and the round's chain
//! of dependent steps. Here each vector instruction works for eight games,
//! and no game's coin flip is a branch: a step reads the next runs of both
//! decks of every game, finds in each lane the first run that pays its
//! debt in full or runs out, and writes each winner's new runs with one
//! store per game. Two sets of eight games take turns, so one set's step
//! never waits for the stores of the step just before it.
//!
//! # Layout
//! The decks are run-length encoded as in the fast engine (`z << 3 | p`:
//! `z` number cards, then a payment card of penalty `p`; the last run is
//! the tail, penalty 0). Each game has a flat buffer per deck: runs sit
//! from `head` to `last` in order and the pile's runs are written after
//! the winner's tail. Positions only grow; when a deck's tail nears the
//! buffer's end its few live runs move back to the start. Each deck's
//! front run is kept in a register (a player who pays part of a run keeps
//! the rest there; the buffer's copy goes stale and is not read again), and
//! so is its tail.
//!
//! # Exactness
//! Rules, counts and results are those of the fast engine. A step sees
//! seven runs of a round's chain of payments; a longer chain (rare: every
//! link is a coin flip) is played run by run for that game alone. Loops are not
//! looked for: a game still running after [`ROUND_LIMIT`] rounds (beyond
//! every known terminating game) is played again from the deal by the fast
//! engine, whose loop detection is exact. The vector path needs AVX2,
//! detected at run time; without it, or with `POKER_PLAIN=1` in the
//! environment, every deal goes to the fast engine, with the same results.

use super::index::Deal;
use super::search::Engine;
use super::{GameEnd, Outcome, Simulator};

#[cfg(target_arch = "x86_64")]
mod avx2;
mod lanes;

pub use lanes::ROUND_LIMIT;
use lanes::{Lanes, SETS};

/// The vector engine for the search: plays 52-card deals with the same
/// outcomes as [`Simulator`] (which it uses for games past
/// [`ROUND_LIMIT`] rounds, and for every deal where the vector path cannot
/// run).
#[derive(Clone, Debug)]
pub struct VectorSimulator {
    lanes: Box<[Lanes; SETS]>,
    fallback: Simulator,
    vector: bool,
}

impl Default for VectorSimulator {
    fn default() -> VectorSimulator {
        VectorSimulator::new()
    }
}

impl VectorSimulator {
    /// A simulator that uses the vector path where the machine has AVX2 and
    /// `POKER_PLAIN` is not set.
    pub fn new() -> VectorSimulator {
        VectorSimulator::with_vector(true)
    }

    /// A simulator whose vector path is on only if `vector` is true and
    /// the machine can run it (`POKER_PLAIN` aside): for tests and
    /// benchmarks that run both paths.
    pub fn with_vector(vector: bool) -> VectorSimulator {
        VectorSimulator {
            lanes: Box::default(),
            fallback: Simulator::new(),
            vector: vector && vector_path(),
        }
    }

    /// Whether deals take the vector path.
    pub fn is_vector(&self) -> bool {
        self.vector
    }

    /// Simulates one deal (batches with [`Engine::run_batch`] are faster:
    /// eight games at once).
    pub fn run(&mut self, deal: &Deal) -> Outcome {
        let mut outcome = [Outcome::new(GameEnd::Finished, 0, 0)];
        self.run_batch(std::slice::from_ref(deal), &mut outcome);
        outcome[0]
    }
}

impl Engine for VectorSimulator {
    fn run_batch(&mut self, deals: &[Deal], outcomes: &mut [Outcome]) {
        assert_eq!(deals.len(), outcomes.len(), "one outcome per deal");
        #[cfg(target_arch = "x86_64")]
        if self.vector {
            // SAFETY: `vector_path` saw AVX2 on this CPU.
            unsafe { avx2::run(&mut self.lanes, deals, outcomes, &mut self.fallback) };
            return;
        }
        self.fallback.run_batch(deals, outcomes);
    }
}

/// True if the vector path may run: AVX2 present, and `POKER_PLAIN` unset
/// (or empty, or 0).
fn vector_path() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        !crate::plain_path::forced() && std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
