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
    /// No range given, and no unit's shard says the whole range.
    NoRange,
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
            ProgressError::NoRange => {
                f.write_str("no unit here says its whole range: give --range START..END")
            }
        }
    }
}

impl std::error::Error for ProgressError {}

/// The progress of the search of one index range.
pub struct Progress {
    /// The whole range, `start..end`.
    pub range: (u128, u128),
    /// Its deals.
    pub total: u128,
    /// Deals done: finished units', and running units' as of their last
    /// checkpoint.
    pub done: u128,
    /// Units finished.
    pub finished_units: usize,
    /// Units running (their checkpoint without their result beside it).
    pub running_units: usize,
    /// The share done, 0 to 1 (1 for an empty range).
    pub fraction: f64,
    /// Deals per wall second since the first unit started (0 unknown).
    pub rate: f64,
    /// Deals per CPU second of every unit (0 unknown).
    pub cpu_rate: f64,
    /// Deals left.
    pub left: u128,
    /// Seconds left at `rate`, if known.
    pub eta: Option<f64>,
    /// The longest finished game so far.
    pub best: Option<GameRecord>,
    /// Loops so far.
    pub loops: u64,
    /// Seconds since the oldest running unit's checkpoint was written.
    pub oldest_checkpoint: Option<u64>,
}

impl Progress {
    /// Reads `folder`'s units of index ranges (other files, and units of
    /// random deals, are ignored) at Unix time `now`; `range` is the
    /// whole search's (default: the range the units' shards were cut from).
    ///
    /// # Errors
    ///
    /// [`ProgressError::ReadFolder`] and [`ProgressError::Entry`] if the
    /// folder cannot be read; without `range`,
    /// [`ProgressError::ShardRange`] if the shard range found is not
    /// decimal indices and [`ProgressError::NoRange`] if no unit has a
    /// shard.
    pub fn of_folder(
        folder: &Path,
        range: Option<(u128, u128)>,
        now: u64,
    ) -> Result<Self, ProgressError> {
        let mut done_units = Vec::new();
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
            // Units of random deals cover no part of a range.
            if file.report().is_err() || file.random.is_some() {
                continue;
            }
            if file.is_result() {
                done_units.push(file);
            } else {
                checkpoints.push(file);
            }
        }
        // A checkpoint left beside its unit's result counts once.
        checkpoints.retain(|c| {
            !done_units
                .iter()
                .any(|u| u.start == c.start && u.end == c.end)
        });
        let range = match range {
            Some(range) => range,
            None => {
                let of = done_units
                    .iter()
                    .chain(&checkpoints)
                    .find_map(|u| u.shard.as_ref());
                let s = of.ok_or(ProgressError::NoRange)?;
                let index = |text: &str| text.parse().map_err(ProgressError::ShardRange);
                (index(&s.start)?, index(&s.end)?)
            }
        };
        Ok(Self::of_units(&done_units, &checkpoints, range, now))
    }

    /// The progress of finished units and running units' checkpoints.
    fn of_units(
        done_units: &[UnitFile],
        checkpoints: &[UnitFile],
        range: (u128, u128),
        now: u64,
    ) -> Self {
        let total = range.1 - range.0;
        let finished: u128 = done_units.iter().map(|u| u128::from(u.counts.deals)).sum();
        let partial: u128 = checkpoints.iter().map(|u| u128::from(u.counts.deals)).sum();
        let done = finished + partial;
        let all = || done_units.iter().chain(checkpoints);
        let timings = all().filter_map(|u| u.timing.as_ref());
        let first_start = timings.clone().map(|t| t.started).filter(|&t| t > 0).min();
        let cpu: f64 = timings.map(|t| t.cpu_seconds).sum();
        let wall = first_start.map_or(0.0, |t| now.saturating_sub(t) as f64);
        let rate = if wall > 0.0 { done as f64 / wall } else { 0.0 };
        let left = total.saturating_sub(done);
        let best = all().flat_map(|u| u.best.first()).max_by(|x, y| {
            (x.cards, x.tricks, std::cmp::Reverse(&x.index)).cmp(&(
                y.cards,
                y.tricks,
                std::cmp::Reverse(&y.index),
            ))
        });
        // Running units are seen only through their checkpoints: how old
        // the oldest is.
        let oldest_checkpoint = checkpoints
            .iter()
            .filter_map(|c| c.timing.as_ref())
            .map(|t| now.saturating_sub(t.written))
            .max();
        Progress {
            range,
            total,
            done,
            finished_units: done_units.len(),
            running_units: checkpoints.len(),
            fraction: if total == 0 {
                1.0
            } else {
                done as f64 / total as f64
            },
            rate,
            cpu_rate: if cpu > 0.0 { done as f64 / cpu } else { 0.0 },
            left,
            eta: (rate > 0.0).then(|| left as f64 / rate),
            best: best.cloned(),
            loops: all().map(|u| u.counts.loops).sum(),
            oldest_checkpoint,
        }
    }
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
            (250, 750, 1000)
        );
        assert_eq!((progress.finished_units, progress.running_units), (2, 0));
        assert_eq!(progress.fraction, 0.25);
        // Without --range and without shards, the whole range is unknown.
        let unknown = Progress::of_folder(&dir.0, None, 0).err();
        assert!(
            matches!(unknown, Some(ProgressError::NoRange)),
            "{unknown:?}"
        );
    }
}
