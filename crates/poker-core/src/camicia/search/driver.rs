//! Running a search on a pool of worker threads: work blocks, batches of
//! blocks, merged reports.

use super::{BLOCK, Engine, Extending, Game, Report, scan_random_into, scan_range_into};
use crate::camicia::index::DEAL_COUNT;
use rayon::prelude::*;
use std::fmt;
use std::num::NonZeroUsize;
use std::ops::ControlFlow;

/// Blocks per thread in one batch of blocks: after each batch, loops are
/// reported and the blocks' reports merged.
const BLOCKS_PER_THREAD: u64 = 16;

/// Which deals a search simulates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Work {
    /// Every deal with index `start <= i < end`, an exhaustive and
    /// self-contained work unit. Indices from [`DEAL_COUNT`] on are ignored.
    Range {
        /// The first index.
        start: u128,
        /// One past the last index.
        end: u128,
    },
    /// `count` uniformly random deals (see [`random_deal`](super::random_deal)):
    /// block `i` draws its deals from ChaCha8 seeded with `seed` on stream
    /// `i`, so the same seed gives the same deals on any number of threads.
    Random {
        /// The ChaCha8 seed.
        seed: u64,
        /// How many deals.
        count: u64,
    },
    /// Blocks `first .. end` of the random search `Random { seed, count }`
    /// (a shard of it, see [`Work::random_shard`]): exactly the deals
    /// those blocks draw in the whole search, block `first + i` on ChaCha8
    /// stream `first + i`. Its blocks are numbered from 0 like any work's;
    /// its games' draw numbers are the whole search's.
    RandomBlocks {
        /// The ChaCha8 seed.
        seed: u64,
        /// How many deals the whole search draws.
        count: u64,
        /// The first block of the whole search taken.
        first: u64,
        /// One past the last block taken.
        end: u64,
    },
}

impl Work {
    /// Slice `shard` of the random search `Random { seed, count }`, cut
    /// along its blocks of [`BLOCK`] deals: blocks `shard.slice(0, B)` of
    /// its `B` blocks (`--shard I/N` with `--count`). The `N` slices hold
    /// every block once, so their reports merge to the whole search's.
    ///
    /// ```
    /// use poker_core::camicia::search::{BLOCK, Shard, Work};
    ///
    /// // 100,000 deals are 7 blocks: slices of 1, 2, 2 and 2 blocks.
    /// let w = Work::random_shard(1, 100_000, Shard { index: 3, count: 4 });
    /// assert_eq!(w, Work::RandomBlocks { seed: 1, count: 100_000, first: 5, end: 7 });
    /// assert_eq!(w.draws(), (5 * 16_384, 100_000));
    /// ```
    pub fn random_shard(seed: u64, count: u64, shard: super::Shard) -> Work {
        let blocks = u128::from(count.div_ceil(BLOCK));
        let (first, end) = shard.slice(0, blocks);
        Work::RandomBlocks {
            seed,
            count,
            first: first as u64,
            end: end as u64,
        }
    }

    /// For random work: its draws `start .. end`, numbered in the whole
    /// search (`0 .. count` for [`Work::Random`]); for a range, its
    /// indices (clipped to [`DEAL_COUNT`]).
    pub fn draws(&self) -> (u128, u128) {
        match *self {
            Work::Range { start, end } => (start, end.min(DEAL_COUNT).max(start)),
            Work::Random { count, .. } => (0, u128::from(count)),
            Work::RandomBlocks {
                count, first, end, ..
            } => {
                let count = u128::from(count);
                let at = |block: u64| (u128::from(block) * u128::from(BLOCK)).min(count);
                (at(first), at(end.max(first)))
            }
        }
    }

    /// How many deals the work holds.
    pub fn deals(&self) -> u128 {
        let (start, end) = self.draws();
        end - start
    }

    /// How many blocks of [`BLOCK`] deals it is cut into (the last may be
    /// shorter).
    pub fn blocks(&self) -> u64 {
        // At most DEAL_COUNT / BLOCK or u64::MAX / BLOCK, rounded up: fits.
        self.deals().div_ceil(u128::from(BLOCK)) as u64
    }

    /// Simulates block `i` (0 ..= [`Work::blocks`] - 1; later blocks are
    /// empty) with `engine`, keeping its `top` best games.
    pub fn block<E: Engine + ?Sized>(&self, engine: &mut E, i: u64, top: usize) -> Report {
        self.block_extending(engine, i, top, None)
    }

    /// [`Work::block`], extending games as `extending` says (`None`:
    /// uniform).
    pub fn block_extending<E: Engine + ?Sized>(
        &self,
        engine: &mut E,
        i: u64,
        top: usize,
        extending: Option<Extending>,
    ) -> Report {
        let first = u128::from(i) * u128::from(BLOCK);
        let count = self.deals().saturating_sub(first).min(u128::from(BLOCK)) as u64;
        let report = Report::extending(top, extending);
        match *self {
            Work::Range { start, .. } => scan_range_into(engine, start + first, count, report),
            Work::Random { seed, .. } => scan_random_into(engine, seed, i, count, report),
            Work::RandomBlocks { seed, first, .. } => {
                scan_random_into(engine, seed, first.saturating_add(i), count, report)
            }
        }
    }
}

/// A search over many deals on a pool of worker threads.
///
/// Its [`Report`] is the same on any number of threads: the blocks' reports
/// merge in any order to the same result.
///
/// ```
/// use poker_core::camicia::Simulator;
/// use poker_core::camicia::search::{Search, Work};
/// use std::num::NonZeroUsize;
///
/// let search = Search {
///     work: Work::Random { seed: 1, count: 50_000 },
///     top: 3,
///     threads: NonZeroUsize::new(2).unwrap(),
///     extend: None,
/// };
/// let report = search.run(Simulator::new, |_deals_done| {}, |_a_loop| {})?;
/// assert_eq!(report.deals, 50_000);
/// assert_eq!(report.best.len(), 3);
/// println!("longest: {} cards", report.best[0].outcome.cards);
/// # Ok::<(), poker_core::camicia::search::SearchError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Search {
    /// The deals to simulate.
    pub work: Work,
    /// How many of the longest finished games to keep.
    pub top: usize,
    /// Worker threads.
    pub threads: NonZeroUsize,
    /// Backward extension of long games (`None`: a uniform search).
    pub extend: Option<Extending>,
}

impl Search {
    /// Simulates every deal of the work and returns what it found.
    ///
    /// Each worker thread makes its own engine with `new_engine` and
    /// simulates whole blocks. Blocks go out in batches of 16 per thread, so
    /// any length of work runs in bounded memory and loops come out as they
    /// are found:
    /// - `progress(n)` is called from the worker threads as each block of
    ///   `n` deals is done (the `n`s add up to [`Work::deals`]);
    /// - `on_loop(game)` is called on the calling thread for every game that
    ///   loops, after the batch of blocks holding it is done: in block
    ///   order, and within a block in index order for a range and drawing
    ///   order for random deals. The report lists them again, by index.
    ///
    /// # Errors
    /// [`SearchError`] if the worker threads cannot be started; nothing is
    /// simulated then.
    pub fn run<E, N, P, L>(
        &self,
        new_engine: N,
        progress: P,
        on_loop: L,
    ) -> Result<Report, SearchError>
    where
        E: Engine,
        N: Fn() -> E + Sync + Send,
        P: Fn(u64) + Sync + Send,
        L: FnMut(&Game),
    {
        let start = Partial {
            blocks: 0,
            report: Report::extending(self.top, self.extend),
        };
        let done = self.run_from(start, new_engine, progress, on_loop, |_| {
            ControlFlow::Continue(())
        })?;
        Ok(done.report)
    }

    /// [`Search::run`] from a point reached before (a checkpoint), stopping
    /// early if asked: simulates blocks `from.blocks ..` and merges them
    /// into `from.report`. After each batch of blocks, `after_batch` sees
    /// what is done so far (every block below [`Partial::blocks`], none
    /// above): [`ControlFlow::Break`] stops there. The result is complete
    /// when its `blocks` equals [`Work::blocks`]; a search resumed from
    /// any [`Partial`] it handed out ends with the same report as one run
    /// straight through.
    ///
    /// # Errors
    /// As [`Search::run`].
    pub fn run_from<E, N, P, L, C>(
        &self,
        from: Partial,
        new_engine: N,
        progress: P,
        mut on_loop: L,
        mut after_batch: C,
    ) -> Result<Partial, SearchError>
    where
        E: Engine,
        N: Fn() -> E + Sync + Send,
        P: Fn(u64) + Sync + Send,
        L: FnMut(&Game),
        C: FnMut(&Partial) -> ControlFlow<()>,
    {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads.get())
            .build()
            .map_err(SearchError)?;
        let blocks = self.work.blocks();
        let batch = (self.threads.get() as u64).saturating_mul(BLOCKS_PER_THREAD);
        let mut done = from;
        while done.blocks < blocks {
            let (next, end) = (done.blocks, done.blocks.saturating_add(batch).min(blocks));
            let reports: Vec<Report> = pool.install(|| {
                (next..end)
                    .into_par_iter()
                    .map_init(&new_engine, |engine, i| {
                        let r = self.work.block_extending(engine, i, self.top, self.extend);
                        progress(r.deals);
                        r
                    })
                    .collect()
            });
            for r in reports {
                r.loops.iter().for_each(&mut on_loop);
                done.report.merge(r);
            }
            done.blocks = end;
            if after_batch(&done).is_break() {
                break;
            }
        }
        Ok(done)
    }
}

/// How far a [`Search`] has come: blocks `0 .. blocks` of its work are
/// simulated and merged into `report`, no others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partial {
    /// Blocks done (the first block not done).
    pub blocks: u64,
    /// What they found.
    pub report: Report,
}

/// Why a search could not run: its worker threads did not start.
#[derive(Debug)]
pub struct SearchError(rayon::ThreadPoolBuildError);

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("cannot start the search's worker threads")
    }
}

impl std::error::Error for SearchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}
