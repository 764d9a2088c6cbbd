//! Backward extension inside a search: every game of at least a set length
//! is extended to the longest deal of its basin (see
//! [`crate::camicia::extend`]), and the distinct longer deals kept.

use super::game::{Game, LENGTH_BIN, count};
use crate::camicia::extend::{Depth, extend_deal};
use crate::camicia::{Deal, Outcome};
use std::sync::OnceLock;
use std::time::Duration;

/// The clock [`ExtensionWork::spent`] adds up: the calling thread's CPU
/// time, given by the program (the core makes no system calls).
static THREAD_CPU_CLOCK: OnceLock<fn() -> Duration> = OnceLock::new();

/// Times backward extension from now on in this process with `clock`,
/// which reads the calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`);
/// the first clock given stays. Until then extension is not timed and
/// [`ExtensionWork::spent`] stays zero.
pub fn time_extension_with(clock: fn() -> Duration) {
    let _ = THREAD_CPU_CLOCK.set(clock);
}

/// Which games a search extends, and how deep it searches their
/// predecessor trees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Extending {
    /// Games of at least this many cards are extended.
    pub from: u64,
    /// How much of each game's predecessor trees is searched.
    pub depth: Depth,
}

impl Extending {
    /// The search units' setting: games of 2000 cards and more, the trees
    /// of their first 10 tricks. On 952 random games of 1500+ cards and
    /// 3019 of 2000+ that bound found the exact longest deal every time,
    /// at a sixth to a seventh of the exact search's cost; from 2000 cards
    /// extension takes about 4% of the vector engine's search time, from
    /// 1500 about a third (`docs/camicia.md` has the measurements).
    pub const DEFAULT: Extending = Extending {
        from: 2000,
        depth: Depth::FirstTricks(10),
    };
}

/// A deal found by extension: longer than the game it was extended from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extended {
    /// The longest deal of the basin, its index and its game.
    pub game: Game,
    /// The index of the searched deal it was extended from (the smallest,
    /// if several games of a search share the basin).
    pub from: u128,
    /// Cards it plays beyond the game of `from`.
    pub added: u64,
    /// Tricks of `from`'s game before the round start where the two games
    /// meet.
    pub joins_trick: u64,
}

/// CPU time spent extending (the worker threads' clocks, once the program
/// gave one: [`time_extension_with`]), kept beside a report but never part
/// of its result: reports compare equal whatever it was.
#[derive(Clone, Copy, Debug, Default)]
pub struct Spent(pub Duration);

impl PartialEq for Spent {
    fn eq(&self, _: &Spent) -> bool {
        true
    }
}

impl Eq for Spent {}

/// What extension did in a search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExtensionWork {
    /// The setting; `None` for a uniform search.
    pub extending: Option<Extending>,
    /// Games extended (finished games of at least `from` cards).
    pub games: u64,
    /// Predecessor-tree states examined.
    pub nodes: u64,
    /// Finished games by length after extension: each game counted at the
    /// length of the longest deal of its basin (its own length if it was
    /// not extended), in bins of [`LENGTH_BIN`] cards.
    pub lengths: Vec<u64>,
    /// Cards gained by the games that extended (the longest deal of the
    /// basin longer than the game), in bins of [`LENGTH_BIN`] cards; the
    /// other games of the `games` gained nothing.
    pub gains: Vec<u64>,
    /// The longest distinct extended deals, longest first (then smallest
    /// index), at most the report's `top`.
    pub extended: Vec<Extended>,
    /// CPU time spent extending (not part of the result).
    pub spent: Spent,
}

fn better(x: &Extended, y: &Extended) -> bool {
    (x.game.outcome.cards, std::cmp::Reverse(x.game.index))
        > (y.game.outcome.cards, std::cmp::Reverse(y.game.index))
}

impl ExtensionWork {
    /// Counts one finished game of the search, extending it if it is long
    /// enough; `index` is the searched deal's index.
    pub(super) fn add(
        &mut self,
        deal: &Deal,
        outcome: Outcome,
        index: impl FnOnce() -> u128,
        top: usize,
    ) {
        let Some(setting) = self.extending else {
            return;
        };
        if outcome.cards < setting.from {
            count(&mut self.lengths, outcome.cards, 1);
            return;
        }
        let clock = THREAD_CPU_CLOCK.get().copied();
        let started = clock.map(|now| now());
        // A finished game: extension cannot meet a loop.
        let Ok(found) = extend_deal(deal, setting.depth) else {
            count(&mut self.lengths, outcome.cards, 1);
            return;
        };
        self.games += 1;
        self.nodes += found.nodes;
        count(&mut self.lengths, found.outcome.cards, 1);
        if found.extends() {
            count(&mut self.gains, found.added, 1);
            self.insert(
                Extended {
                    game: Game {
                        index: found.deal.rank(),
                        deal: found.deal,
                        outcome: found.outcome,
                    },
                    from: index(),
                    added: found.added,
                    joins_trick: found.joins_trick,
                },
                top,
            );
        }
        if let (Some(now), Some(started)) = (clock, started) {
            self.spent.0 += now().saturating_sub(started);
        }
    }

    /// Keeps `found` among the `top` longest distinct deals; a deal found
    /// again keeps the smallest index it came from.
    pub fn insert(&mut self, found: Extended, top: usize) {
        if let Some(same) = self
            .extended
            .iter_mut()
            .find(|e| e.game.index == found.game.index)
        {
            if found.from < same.from {
                *same = found;
            }
            return;
        }
        let at = self.extended.partition_point(|e| !better(&found, e));
        if at < top {
            self.extended.insert(at, found);
            self.extended.truncate(top);
        }
    }

    /// Adds another search's extension work to this one.
    pub fn merge(&mut self, other: ExtensionWork, top: usize) {
        if self.extending.is_none() {
            self.extending = other.extending;
        }
        self.games += other.games;
        self.nodes += other.nodes;
        for (bin, &n) in other.lengths.iter().enumerate() {
            if n > 0 {
                count(&mut self.lengths, bin as u64 * LENGTH_BIN, n);
            }
        }
        for (bin, &n) in other.gains.iter().enumerate() {
            if n > 0 {
                count(&mut self.gains, bin as u64 * LENGTH_BIN, n);
            }
        }
        for found in other.extended {
            self.insert(found, top);
        }
        self.spent.0 += other.spent.0;
    }
}
