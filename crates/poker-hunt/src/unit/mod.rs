//! The files of a distributed search: a work unit's result file and its
//! checkpoint, both JSON, written atomically.
//!
//! A result file records exactly which indices its unit covered, its
//! counts, the histogram of game lengths, the order-independent checksum
//! of every outcome, its best games and every loop with its cycle. A
//! checkpoint is the same record of the part done so far, with `next`, the
//! first index not yet simulated. Everything but the last field, `timing`,
//! depends only on the deals: two runs of a unit, or a run resumed from a
//! checkpoint, write the same bytes up to `"timing"`.
//!
//! Format 2 adds backward extension (its setting, the length histogram
//! after extension beside the one before, and the distinct extended deals
//! in a list of their own) and units of random deals (`random`: the seed;
//! `start..end` are then the draws `0..count`). Format 1 files still read.

mod error;
mod format;
mod records;

pub use error::{List, RecordError, UnitError};
pub use format::{CHECKPOINT_FORMAT, UNIT_FORMAT};
use format::{CHECKPOINT_FORMAT_1, UNIT_FORMAT_1};
pub use records::{
    Counts, CycleRecord, ExtendedRecord, ExtensionRecord, GameRecord, Lengths, RandomRecord,
    ShardRecord, Timing, index_field, parse_depth,
};

use poker_core::camicia::search::{
    Extending, ExtensionWork, LENGTH_BIN, Report, Shard, Spent, Work,
};
use poker_core::camicia::{GameEnd, VectorSimulator};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A result file or a checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitFile {
    /// [`UNIT_FORMAT`] or [`CHECKPOINT_FORMAT`].
    pub format: String,
    /// The engine that simulated the deals (`vector`, `fast` or `gpu`).
    pub engine: String,
    /// The `poker` version.
    pub version: String,
    /// The unit's first index (decimal string).
    pub start: String,
    /// One past its last index.
    pub end: String,
    /// For a checkpoint: the first index not simulated yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
    /// For `--shard I/N`: the range it was cut from.
    #[serde(default)]
    pub shard: Option<ShardRecord>,
    /// Best games kept.
    pub top: usize,
    pub counts: Counts,
    /// The wrapping sum of the deals' outcome hashes, 16 hex digits.
    pub checksum: String,
    pub lengths: Lengths,
    /// The longest finished games, best first.
    pub best: Vec<GameRecord>,
    /// Every loop, by index.
    pub loops: Vec<GameRecord>,
    /// For a unit of random deals: its seed (`start..end` are its draws).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random: Option<RandomRecord>,
    /// Backward extension's setting and work (absent: a uniform search).
    #[serde(default)]
    pub extension: Option<ExtensionRecord>,
    /// Finished games by length after extension, each at the length of the
    /// longest deal of its basin.
    #[serde(default)]
    pub lengths_extended: Option<Lengths>,
    /// The longest distinct deals found by extension, longest first.
    #[serde(default)]
    pub extended: Vec<ExtendedRecord>,
    /// The one field comparisons ignore.
    #[serde(default)]
    pub timing: Option<Timing>,
}

/// The name unit files record for the GPU engine.
pub const GPU_ENGINE: &str = "gpu";

/// Whether the GPU engine made this unit (else a CPU engine did).
pub fn on_gpu(file: &UnitFile) -> bool {
    file.engine == GPU_ENGINE
}

/// The engine `poker camicia search` uses on this machine.
pub fn engine_name() -> &'static str {
    if VectorSimulator::new().is_vector() {
        "vector"
    } else {
        "fast"
    }
}

/// The blocks `[first, end)` that slice `shard` takes of a random run of
/// `count` deals.
pub fn random_blocks(seed: u64, count: u128, shard: Shard) -> [u64; 2] {
    match Work::random_shard(seed, count as u64, shard) {
        Work::RandomBlocks { first, end, .. } => [first, end],
        _ => unreachable!("random_shard makes RandomBlocks"),
    }
}

impl UnitFile {
    /// The record of `report` for the unit `start..end`: a result file if
    /// `next` is `None`, else a checkpoint up to `next`.
    pub fn new(
        report: &Report,
        (start, end): (u128, u128),
        next: Option<u128>,
        shard: Option<(Shard, u128, u128)>,
        random: Option<u64>,
        timing: Timing,
    ) -> UnitFile {
        let work = &report.extension;
        let format = if next.is_some() {
            CHECKPOINT_FORMAT
        } else {
            UNIT_FORMAT
        };
        let loops = report.loops.len() as u64;
        UnitFile {
            format: format.into(),
            engine: engine_name().into(),
            version: env!("CARGO_PKG_VERSION").into(),
            start: start.to_string(),
            end: end.to_string(),
            next: next.map(|n| n.to_string()),
            shard: shard.map(|(s, from, to)| ShardRecord {
                index: s.index,
                count: s.count,
                start: from.to_string(),
                end: to.to_string(),
                blocks: random.map(|seed| random_blocks(seed, to, s)),
            }),
            top: report.top,
            counts: Counts {
                deals: report.deals,
                finished: report.deals - loops,
                loops,
            },
            checksum: format!("{:016x}", report.checksum),
            lengths: Lengths {
                bin_cards: LENGTH_BIN,
                counts: report.lengths.clone(),
            },
            best: report.best.iter().map(GameRecord::of).collect(),
            loops: report.loops.iter().map(GameRecord::of).collect(),
            random: random.map(|seed| RandomRecord { seed }),
            extension: work.extending.map(|e| ExtensionRecord {
                from: e.from,
                depth: e.depth.to_string(),
                games: work.games,
                nodes: work.nodes,
                gains: Lengths {
                    bin_cards: LENGTH_BIN,
                    counts: work.gains.clone(),
                },
            }),
            lengths_extended: work.extending.map(|_| Lengths {
                bin_cards: LENGTH_BIN,
                counts: work.lengths.clone(),
            }),
            extended: work.extended.iter().map(ExtendedRecord::of).collect(),
            timing: Some(timing),
        }
    }

    /// Reads and parses `path` (either kind). What it says is not checked:
    /// [`UnitFile::report`] does that.
    ///
    /// # Errors
    ///
    /// [`UnitError::Read`] if the file cannot be read,
    /// [`UnitError::NotAUnitFile`] if it is not the JSON of a unit file,
    /// [`UnitError::Format`] if its format is none this version reads.
    pub fn read(path: &Path) -> Result<UnitFile, UnitError> {
        let text = std::fs::read_to_string(path).map_err(|source| UnitError::Read {
            path: path.into(),
            source,
        })?;
        let file: UnitFile =
            serde_json::from_str(&text).map_err(|source| UnitError::NotAUnitFile {
                path: path.into(),
                source,
            })?;
        if !file.is_result() && !file.is_checkpoint() {
            return Err(UnitError::Format {
                path: path.into(),
                format: file.format,
            });
        }
        Ok(file)
    }

    /// A finished unit's result (either format).
    pub fn is_result(&self) -> bool {
        self.format == UNIT_FORMAT || self.format == UNIT_FORMAT_1
    }

    /// A checkpoint (either format).
    pub fn is_checkpoint(&self) -> bool {
        self.format == CHECKPOINT_FORMAT || self.format == CHECKPOINT_FORMAT_1
    }

    /// The extension setting written, `None` for a uniform search.
    ///
    /// # Errors
    ///
    /// [`RecordError::Depth`] if the depth is not `exact` or `first N
    /// tricks`.
    pub fn extending(&self) -> Result<Option<Extending>, RecordError> {
        self.extension
            .as_ref()
            .map(|e| {
                Ok(Extending {
                    from: e.from,
                    depth: parse_depth(&e.depth)?,
                })
            })
            .transpose()
    }

    /// `(start, end)`.
    ///
    /// # Errors
    ///
    /// The [`index_field`] errors of `start` and `end`, and
    /// [`RecordError::StartAfterEnd`].
    pub fn range(&self) -> Result<(u128, u128), RecordError> {
        let start = index_field("start", &self.start)?;
        let end = index_field("end", &self.end)?;
        if start > end {
            return Err(RecordError::StartAfterEnd { start, end });
        }
        Ok((start, end))
    }

    /// The report as written (games as claimed, not re-simulated), with
    /// its internal consistency checked: counts against the range, the
    /// histogram and the lists; every game inside the range.
    ///
    /// # Errors
    ///
    /// A [`RecordError`] naming the first thing found that cannot be: the
    /// range's or `next`'s, a count, a histogram, the checksum, a claimed
    /// game (its index, deal, status, place in its list), the extension's
    /// setting, histograms and deals.
    pub fn report(&self) -> Result<Report, RecordError> {
        let (start, end) = self.range()?;
        let done_to = match &self.next {
            Some(next) => index_field("next", next)?,
            None => end,
        };
        if !(start..=end).contains(&done_to) {
            return Err(RecordError::NextOutside {
                next: done_to,
                start,
                end,
            });
        }
        let c = &self.counts;
        if u128::from(c.deals) != done_to - start {
            return Err(RecordError::DealCount {
                deals: c.deals,
                start,
                next: done_to,
            });
        }
        if c.finished.checked_add(c.loops) != Some(c.deals) {
            return Err(RecordError::CountsDoNotAdd {
                finished: c.finished,
                loops: c.loops,
                deals: c.deals,
            });
        }
        if self.lengths.bin_cards != LENGTH_BIN {
            return Err(RecordError::LengthBin {
                bin_cards: self.lengths.bin_cards,
            });
        }
        let binned = self
            .lengths
            .counts
            .iter()
            .try_fold(0u64, |s, &n| s.checked_add(n));
        if binned != Some(c.finished) || self.lengths.counts.last() == Some(&0) {
            return Err(RecordError::Histogram {
                finished: c.finished,
            });
        }
        if self.loops.len() as u64 != c.loops {
            return Err(RecordError::LoopCount {
                counted: c.loops,
                listed: self.loops.len(),
            });
        }
        if self.best.len() != self.top.min(c.finished as usize) {
            return Err(RecordError::BestCount {
                listed: self.best.len(),
                expected: self.top.min(c.finished as usize),
                top: self.top,
                finished: c.finished,
            });
        }
        let checksum = u64::from_str_radix(&self.checksum, 16)
            .ok()
            .filter(|_| self.checksum.len() == 16)
            .ok_or_else(|| RecordError::Checksum {
                text: self.checksum.clone(),
            })?;
        let mut report = Report::new(self.top);
        report.deals = c.deals;
        report.checksum = checksum;
        report.lengths = self.lengths.counts.clone();
        for (records, status, list) in [
            (&self.best, GameEnd::Finished, List::Best),
            (&self.loops, GameEnd::Loop, List::Loops),
        ] {
            for record in records {
                let game = record.claimed().map_err(|e| RecordError::Claim {
                    list,
                    error: Box::new(e),
                })?;
                if self.random.is_none() && !(start..done_to).contains(&game.index) {
                    return Err(RecordError::OutsideRange {
                        list,
                        index: game.index,
                        start,
                        next: done_to,
                    });
                }
                if game.outcome.status != status {
                    return Err(RecordError::WrongStatus {
                        list,
                        index: game.index,
                        status: record.status.clone(),
                    });
                }
                if status == GameEnd::Loop {
                    report.loops.push(game);
                } else {
                    report.best.push(game);
                }
            }
        }
        let mut sorted = report.best.clone();
        sorted.sort_by(|x, y| {
            (y.outcome.cards, y.outcome.tricks, x.index).cmp(&(
                x.outcome.cards,
                x.outcome.tricks,
                y.index,
            ))
        });
        if sorted != report.best {
            return Err(RecordError::OutOfOrder(List::Best));
        }
        if !report.loops.is_sorted_by_key(|g| g.index) {
            return Err(RecordError::OutOfOrder(List::Loops));
        }
        report.extension = self.extension_work((start, done_to))?;
        Ok(report)
    }

    /// The extension work as written, its consistency checked: the
    /// histogram after extension holds every finished game, the extended
    /// deals are distinct, in order, at most `top`, each from an index
    /// searched.
    fn extension_work(&self, (start, done_to): (u128, u128)) -> Result<ExtensionWork, RecordError> {
        let (Some(extending), Some(record)) = (self.extending()?, &self.extension) else {
            if self.lengths_extended.is_some() || !self.extended.is_empty() {
                return Err(RecordError::ExtendedWithoutSetting);
            }
            return Ok(ExtensionWork::default());
        };
        let lengths = self
            .lengths_extended
            .as_ref()
            .ok_or(RecordError::NoExtendedHistogram)?;
        let binned = lengths
            .counts
            .iter()
            .try_fold(0u64, |s, &n| s.checked_add(n));
        if lengths.bin_cards != LENGTH_BIN
            || binned != Some(self.counts.finished)
            || lengths.counts.last() == Some(&0)
        {
            return Err(RecordError::ExtendedHistogram {
                finished: self.counts.finished,
            });
        }
        let gained = record
            .gains
            .counts
            .iter()
            .try_fold(0u64, |s, &n| s.checked_add(n));
        if record.gains.bin_cards != LENGTH_BIN
            || gained.is_none_or(|g| g > record.games)
            || record.gains.counts.last() == Some(&0)
        {
            return Err(RecordError::GainsHistogram {
                games: record.games,
            });
        }
        let mut work = ExtensionWork {
            extending: Some(extending),
            games: record.games,
            nodes: record.nodes,
            gains: record.gains.counts.clone(),
            lengths: lengths.counts.clone(),
            extended: Vec::new(),
            spent: Spent::default(),
        };
        if self.extended.len() > self.top {
            return Err(RecordError::TooManyExtended {
                listed: self.extended.len(),
                top: self.top,
            });
        }
        for record in &self.extended {
            let e = record.claimed().map_err(|e| RecordError::Claim {
                list: List::Extended,
                error: Box::new(e),
            })?;
            if self.random.is_none() && !(start..done_to).contains(&e.from) {
                return Err(RecordError::ExtendedFromOutside {
                    index: e.game.index,
                    from: e.from,
                    start,
                    next: done_to,
                });
            }
            if e.game.outcome.status != GameEnd::Finished {
                return Err(RecordError::WrongStatus {
                    list: List::Extended,
                    index: e.game.index,
                    status: record.game.status.clone(),
                });
            }
            let before = work.extended.len();
            work.insert(e, usize::MAX);
            if work.extended.len() == before {
                return Err(RecordError::ListedTwice {
                    index: e.game.index,
                });
            }
        }
        let written: Vec<u128> = self
            .extended
            .iter()
            .map(|r| r.game.index.parse().unwrap_or(0))
            .collect();
        if work.extended.iter().map(|e| e.game.index).ne(written) {
            return Err(RecordError::OutOfOrder(List::Extended));
        }
        Ok(work)
    }

    /// The file's bytes: compact JSON and a newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec(self).expect("a unit file serialises");
        bytes.push(b'\n');
        bytes
    }

    /// Writes the file atomically: to a temporary file in the same folder,
    /// synced, then renamed over `path`, so a reader (or a resumed run)
    /// sees the old file or the new one, never a part.
    ///
    /// # Errors
    ///
    /// As [`write_atomically`].
    pub fn write(&self, path: &Path) -> Result<(), UnitError> {
        write_atomically(path, &self.to_bytes())
    }
}

/// Writes `bytes` to `path` through a synced temporary file and a rename.
///
/// # Errors
///
/// [`UnitError::NotAFileName`] if `path` names no file,
/// [`UnitError::Write`] if the file cannot be written (nothing is left
/// behind: the temporary file is removed).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), UnitError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| UnitError::NotAFileName { path: path.into() })?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| -> std::io::Result<()> {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)?;
        // The rename itself reaches the disk with the folder.
        std::fs::File::open(dir)?.sync_all()
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(|source| UnitError::Write {
        path: PathBuf::from(path),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Scratch, run_to_end, unit};

    #[test]
    fn a_file_that_is_not_a_unit_file_is_named_with_why() {
        let dir = Scratch::new("unit-read");
        let missing = dir.path("missing.json");
        match UnitFile::read(&missing) {
            Err(UnitError::Read { path, source }) => {
                assert_eq!(
                    (path, source.kind()),
                    (missing, std::io::ErrorKind::NotFound)
                );
            }
            other => panic!("not a read error: {other:?}"),
        }
        let text = dir.path("notes.txt");
        std::fs::write(&text, "not a unit").expect("a foreign file");
        assert!(
            matches!(UnitFile::read(&text), Err(UnitError::NotAUnitFile { path, .. }) if path == text)
        );
        let written = dir.path("unit.json");
        run_to_end(&unit(0, 100, Some(&written), None));
        let mut file = UnitFile::read(&written).expect("a result file");
        file.format = "poker-camicia-unit/9".into();
        file.write(&written).expect("rewritten");
        assert!(matches!(
            UnitFile::read(&written),
            Err(UnitError::Format { format, .. }) if format == "poker-camicia-unit/9"
        ));
    }

    #[test]
    fn a_count_that_contradicts_the_range_is_refused() {
        let dir = Scratch::new("unit-counts");
        let written = dir.path("unit.json");
        run_to_end(&unit(0, 100, Some(&written), None));
        let mut file = UnitFile::read(&written).expect("a result file");
        assert!(file.report().is_ok());
        file.counts.deals = 99;
        assert_eq!(
            file.report(),
            Err(RecordError::DealCount {
                deals: 99,
                start: 0,
                next: 100
            })
        );
        // The game listed first, moved to another index: its deal is not that index's.
        let mut moved = UnitFile::read(&written).expect("a result file");
        let index: u128 = moved.best[0].index.parse().expect("an index");
        moved.best[0].index = (index + 1).to_string();
        assert!(
            matches!(
                moved.report(),
                Err(RecordError::Claim { list: List::Best, error })
                    if matches!(*error, RecordError::NotTheDeal { index: i, .. } if i == index + 1)
            ),
            "{:?}",
            moved.report()
        );
    }
}
