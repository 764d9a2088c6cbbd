//! A distributed search's progress, read from a folder of result files and
//! checkpoints as they are: what is done, how fast, how long is left, and
//! the best game so far.

use crate::chain::Chain;
use crate::unit::{GameRecord, UnitFile};
use std::fmt;
use std::num::ParseIntError;
use std::path::{Path, PathBuf};

/// Why a folder's progress could not be told.
#[derive(Debug)]
#[non_exhaustive]
pub enum ProgressError {
    /// The folder could not be listed.
    ReadFolder {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// An entry of the folder could not be read.
    Entry(std::io::Error),
    /// A unit's shard names a range that is not decimal indices.
    ShardRange(ParseIntError),
}

impl fmt::Display for ProgressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProgressError::ReadFolder { path, source } => write!(
                f,
                "cannot read the folder {}: {}",
                path.display(),
                Chain(source)
            ),
            ProgressError::Entry(e) => write!(f, "{}", Chain(e)),
            ProgressError::ShardRange(e) => write!(f, "{}", Chain(e)),
        }
    }
}

impl std::error::Error for ProgressError {}

/// How many of the longest games [`Progress`] lists.
pub const BEST_LISTED: usize = 5;

/// What the units of one kind have done.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Part {
    /// Deals done: finished units', and running units' as of their last
    /// checkpoint.
    pub done: u128,
    /// Units finished.
    pub finished_units: usize,
    /// Units running (their checkpoint without their result beside it).
    pub running_units: usize,
    /// Games that finished (the others looped).
    pub finished_games: u64,
    /// Games that looped.
    pub loops: u64,
}

/// The index-range units' share of their range.
#[derive(Clone, Debug, PartialEq)]
pub struct RangeProgress {
    /// The whole range, `start..end`, if known (given, or the range the
    /// units' shards were cut from).
    pub range: Option<(u128, u128)>,
    /// What its units have done.
    pub part: Part,
}

/// The units of random deals.
#[derive(Clone, Debug, PartialEq)]
pub struct RandomProgress {
    /// Their seeds, each once, in order.
    pub seeds: Vec<u64>,
    /// Deals the units seen are to draw: for a sharded run its whole
    /// `--count` (shards not started yet included), else each unit's.
    pub planned: u128,
    /// What they have done.
    pub part: Part,
}

/// A distributed search's progress: its index-range units and its units
/// of random deals, each unit rated by its own recorded running time.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// The index-range units (`None`: none, and no range given).
    pub range: Option<RangeProgress>,
    /// The units of random deals (`None`: none).
    pub random: Option<RandomProgress>,
    /// Deals done, of both kinds.
    pub done: u128,
    /// Deals planned, if known (the range's and the random runs').
    pub total: Option<u128>,
    /// `done / total`, 0 to 1 (1 for nothing planned), if known.
    pub fraction: Option<f64>,
    /// Deals per second of a unit: all deals done over the wall seconds
    /// the units recorded running (0 unknown).
    pub unit_rate: f64,
    /// Deals per CPU second of every unit (0 unknown).
    pub cpu_rate: f64,
    /// The running units' deals per second now: the sum of each one's own
    /// rate (deals over its recorded seconds, as of its checkpoint).
    pub running_rate: f64,
    /// Deals left, if the total is known.
    pub left: Option<u128>,
    /// Seconds left at `running_rate`, if known.
    pub eta: Option<f64>,
    /// The longest finished games so far, longest first (at most
    /// [`BEST_LISTED`], each deal once).
    pub best: Vec<GameRecord>,
    /// Seconds since the oldest running unit's checkpoint was written.
    pub oldest_checkpoint: Option<u64>,
}

impl Progress {
    /// Reads `folder`'s result files and checkpoints, of index ranges and
    /// of random deals (other files are ignored), at Unix time `now`;
    /// `range` is the whole range searched by index (default: the range
    /// the range units' shards were cut from).
    ///
    /// # Errors
    ///
    /// [`ProgressError::ReadFolder`] and [`ProgressError::Entry`] if the
    /// folder cannot be read; without `range`,
    /// [`ProgressError::ShardRange`] if the shard range found is not
    /// decimal indices.
    pub fn of_folder(
        folder: &Path,
        range: Option<(u128, u128)>,
        now: u64,
    ) -> Result<Self, ProgressError> {
        let mut results = Vec::new();
        let mut checkpoints = Vec::new();
        let entries = std::fs::read_dir(folder).map_err(|source| ProgressError::ReadFolder {
            path: folder.into(),
            source,
        })?;
        for entry in entries {
            let path = entry.map_err(ProgressError::Entry)?.path();
            if !path.is_file() {
                continue;
            }
            // Partial files being written and foreign files are not units.
            let Ok(file) = UnitFile::read(&path) else {
                continue;
            };
            if file.report().is_err() {
                continue;
            }
            if file.is_result() {
                results.push(file);
            } else {
                checkpoints.push(file);
            }
        }
        // A checkpoint left beside its unit's result counts once.
        checkpoints.retain(|c| {
            !results
                .iter()
                .any(|u| u.start == c.start && u.end == c.end && u.random == c.random)
        });
        let ranged = |u: &&UnitFile| u.random.is_none();
        let range_units = results.iter().chain(&checkpoints).any(|u| ranged(&u));
        let range = match range {
            Some(range) => Some(range),
            None if range_units => results
                .iter()
                .chain(&checkpoints)
                .filter(ranged)
                .find_map(|u| u.shard.as_ref())
                .map(|s| {
                    let index = |text: &str| text.parse().map_err(ProgressError::ShardRange);
                    Ok((index(&s.start)?, index(&s.end)?))
                })
                .transpose()?,
            None => None,
        };
        Ok(Self::of_units(
            &results,
            &checkpoints,
            range,
            range_units,
            now,
        ))
    }

    /// The progress of finished units and running units' checkpoints.
    fn of_units(
        results: &[UnitFile],
        checkpoints: &[UnitFile],
        range: Option<(u128, u128)>,
        range_units: bool,
        now: u64,
    ) -> Self {
        let part = |random: bool| {
            let mut part = Part::default();
            for (units, running) in [(results, false), (checkpoints, true)] {
                for u in units.iter().filter(|u| u.random.is_some() == random) {
                    part.done += u128::from(u.counts.deals);
                    part.finished_games += u.counts.finished;
                    part.loops += u.counts.loops;
                    if running {
                        part.running_units += 1;
                    } else {
                        part.finished_units += 1;
                    }
                }
            }
            part
        };
        let all = || results.iter().chain(checkpoints);
        let ranges = (range_units || range.is_some()).then(|| RangeProgress {
            range,
            part: part(false),
        });
        let random = all().any(|u| u.random.is_some()).then(|| {
            let mut seeds: Vec<u64> = all()
                .filter_map(|u| Some(u.random.as_ref()?.seed))
                .collect();
            seeds.sort_unstable();
            seeds.dedup();
            RandomProgress {
                planned: seeds.iter().map(|&seed| planned(all(), seed)).sum(),
                seeds,
                part: part(true),
            }
        });
        let done = all().map(|u| u128::from(u.counts.deals)).sum();
        let range_total = match &ranges {
            Some(RangeProgress { range: None, .. }) => None,
            Some(RangeProgress {
                range: Some((start, end)),
                ..
            }) => Some(end.saturating_sub(*start)),
            None => Some(0),
        };
        let total = range_total.map(|t| t + random.as_ref().map_or(0, |r| r.planned));
        let own_rate = |u: &UnitFile| {
            u.timing
                .as_ref()
                .filter(|t| t.seconds > 0.0)
                .map_or(0.0, |t| u.counts.deals as f64 / t.seconds)
        };
        let seconds: f64 = all()
            .filter_map(|u| u.timing.as_ref())
            .map(|t| t.seconds)
            .sum();
        let cpu: f64 = all()
            .filter_map(|u| u.timing.as_ref())
            .map(|t| t.cpu_seconds)
            .sum();
        let running_rate: f64 = checkpoints.iter().map(own_rate).sum();
        let left = total.map(|t| t.saturating_sub(done));
        let mut best: Vec<GameRecord> = all().flat_map(|u| u.best.iter().cloned()).collect();
        // Most cards, then most tricks, then the lowest index.
        best.sort_by_key(|g| {
            let index: u128 = g.index.parse().unwrap_or(u128::MAX);
            std::cmp::Reverse((g.cards, g.tricks, std::cmp::Reverse(index)))
        });
        best.dedup_by(|x, y| x.index == y.index);
        best.truncate(BEST_LISTED);
        // Running units are seen only through their checkpoints: how old
        // the oldest is.
        let oldest_checkpoint = checkpoints
            .iter()
            .filter_map(|c| c.timing.as_ref())
            .map(|t| now.saturating_sub(t.written))
            .max();
        Progress {
            range: ranges,
            random,
            done,
            total,
            fraction: total.map(|t| if t == 0 { 1.0 } else { done as f64 / t as f64 }),
            unit_rate: if seconds > 0.0 {
                done as f64 / seconds
            } else {
                0.0
            },
            cpu_rate: if cpu > 0.0 { done as f64 / cpu } else { 0.0 },
            running_rate,
            left,
            eta: left
                .filter(|_| running_rate > 0.0)
                .map(|l| l as f64 / running_rate),
            best,
            oldest_checkpoint,
        }
    }
}

/// The deals a seed's units are to draw: a sharded run's whole count,
/// plus any unsharded unit's own.
fn planned<'a>(units: impl Iterator<Item = &'a UnitFile>, seed: u64) -> u128 {
    let (mut run, mut own) = (0u128, 0u128);
    for u in units.filter(|u| u.random.as_ref().is_some_and(|r| r.seed == seed)) {
        match &u.shard {
            Some(s) => run = run.max(s.end.parse().unwrap_or(0)),
            None => {
                own += u
                    .range()
                    .map_or(0, |(start, end)| end.saturating_sub(start))
            }
        }
    }
    run + own
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Scratch, run_to_end, unit};

    #[test]
    fn a_folder_of_units_tells_the_share_done_and_ignores_other_files() {
        let dir = Scratch::new("progress");
        run_to_end(&unit(0, 100, Some(&dir.path("a.json")), None));
        run_to_end(&unit(100, 250, Some(&dir.path("b.json")), None));
        std::fs::write(dir.path("notes.txt"), "not a unit").expect("a foreign file");
        let progress = Progress::of_folder(&dir.0, Some((0, 1000)), u64::MAX).expect("reads");
        assert_eq!(
            (progress.done, progress.left, progress.total),
            (250, Some(750), Some(1000))
        );
        let part = &progress.range.as_ref().expect("range units").part;
        assert_eq!((part.finished_units, part.running_units), (2, 0));
        assert_eq!(progress.fraction, Some(0.25));
        assert!(progress.random.is_none());
        // Without --range and without shards, the whole range is unknown.
        let unknown = Progress::of_folder(&dir.0, None, 0).expect("reads");
        assert_eq!(
            (unknown.done, unknown.total, unknown.left),
            (250, None, None)
        );
    }
}
