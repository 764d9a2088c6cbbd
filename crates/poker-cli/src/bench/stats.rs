//! The benchmark's figures: the contestant's mean, spread and extremes,
//! and the hindsight optimum of the same decks.

use super::play::{Plan, Played};
use super::tally::Totals;
use poker_core::optimum::deck_optimum;
use rayon::prelude::*;

/// A mean with its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mean {
    /// The mean.
    pub value: f64,
    /// Its standard error.
    pub error: f64,
}

/// A total and the practice seed of the lowest deck reaching it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Extreme {
    /// The game total.
    pub total: u8,
    /// `POKER_SEED` that replays it.
    pub seed: u64,
}

/// What `poker bench` reports, computed once for every renderer.
pub struct Summary {
    /// The contestant's mean total.
    pub mean: Mean,
    /// The sample standard deviation of its totals.
    pub sd: f64,
    /// Its lowest total (0 and seed 0 without games).
    pub min: Extreme,
    /// Its highest total.
    pub max: Extreme,
    /// Seconds per game, spawn or fork to the 20th placement.
    pub seconds_per_game: f64,
    /// Games that did not end ok.
    pub failed: u64,
    /// The mean hindsight optimum of the same decks.
    pub optimum: Mean,
    /// The optima's histogram, beside the contestant's.
    pub optima: Totals,
}

impl Summary {
    /// The figures of the games played under `plan`.
    pub fn of(played: &Played, plan: &Plan) -> Summary {
        let tally = &played.tally;
        let (mean, sd, se) = tally.totals.stats();
        let extreme = |found: Option<(u8, usize)>| {
            found.map_or(Extreme { total: 0, seed: 0 }, |(total, deck)| Extreme {
                total,
                seed: plan.seed_of(deck),
            })
        };
        let optima = optima(plan);
        let (best, _, best_error) = optima.stats();
        Summary {
            mean: Mean {
                value: mean,
                error: se,
            },
            sd,
            min: extreme(tally.min),
            max: extreme(tally.max),
            seconds_per_game: tally.seconds / plan.games as f64,
            failed: tally.failed,
            optimum: Mean {
                value: best,
                error: best_error,
            },
            optima,
        }
    }
}

/// The hindsight optima of the plan's decks, on every core.
fn optima(plan: &Plan) -> Totals {
    (1..=plan.games)
        .into_par_iter()
        .fold(Totals::default, |mut t, i| {
            t.add(deck_optimum(&plan.deck(i)).total);
            t
        })
        .reduce(Totals::default, |mut a, b| {
            a.merge(&b);
            a
        })
}
