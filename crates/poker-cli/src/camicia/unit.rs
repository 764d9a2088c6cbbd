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

use anyhow::{Context, bail};
use poker_core::camicia::cycle::Cycle;
use poker_core::camicia::search::{Game, LENGTH_BIN, Report, Shard};
use poker_core::camicia::{DEAL_COUNT, Deal, Outcome, Status, VectorSimulator, notation};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// `format` of a finished unit's result file.
pub const UNIT_FORMAT: &str = "poker-camicia-unit/1";
/// `format` of a checkpoint.
pub const CHECKPOINT_FORMAT: &str = "poker-camicia-checkpoint/1";

/// A loop's cycle: its id (see `poker_core::camicia::cycle`), its mirror's id
/// (A and B swapped), its length in tricks and the cards of one turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CycleRecord {
    pub id: String,
    pub mirror_id: String,
    pub tricks: u64,
    pub cards: u64,
}

impl CycleRecord {
    pub fn of(cycle: &Cycle) -> CycleRecord {
        CycleRecord {
            id: cycle.id().to_string(),
            mirror_id: cycle.mirror_id().to_string(),
            tricks: cycle.tricks() as u64,
            cards: cycle.cards,
        }
    }
}

/// One game as written: index (a decimal string: it exceeds 2^64), the
/// deal in - notation, the outcome and, for a loop, its cycle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    pub index: String,
    pub a: String,
    pub b: String,
    pub status: String,
    pub cards: u64,
    pub tricks: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cycle: Option<CycleRecord>,
}

impl GameRecord {
    /// The record of `game`; a loop's cycle is extracted here.
    pub fn of(game: &Game) -> GameRecord {
        let cycle = (game.outcome.status == Status::Loop)
            .then(|| Cycle::of_penalties(game.deal.a(), game.deal.b()))
            .flatten()
            .map(|c| CycleRecord::of(&c));
        GameRecord {
            index: game.index.to_string(),
            a: notation(game.deal.a()),
            b: notation(game.deal.b()),
            status: game.outcome.status.to_string(),
            cards: game.outcome.cards,
            tricks: game.outcome.tricks,
            cycle,
        }
    }

    /// The game as claimed (the deal from the index; `a`, `b` must match
    /// it). Nothing is simulated.
    pub fn claimed(&self) -> anyhow::Result<Game> {
        let index: u128 = self
            .index
            .parse()
            .with_context(|| format!("index `{}` is not a decimal number", self.index))?;
        let deal =
            Deal::unrank(index).with_context(|| format!("index {index} is past the last deal"))?;
        if notation(deal.a()) != self.a || notation(deal.b()) != self.b {
            bail!(
                "index {index}: the deal written, {} {}, is not deal {index}, {deal}",
                self.a,
                self.b
            );
        }
        let status = match self.status.as_str() {
            "finished" => Status::Finished,
            "loop" => Status::Loop,
            other => bail!("index {index}: unknown status `{other}`"),
        };
        Ok(Game {
            index,
            deal,
            outcome: Outcome::new(status, self.cards, self.tricks),
        })
    }
}

/// Deals simulated, finished, looping.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub deals: u64,
    pub finished: u64,
    pub loops: u64,
}

/// Finished games by length: `counts[i]` games of `bin_cards * i ..
/// bin_cards * (i + 1)` cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lengths {
    pub bin_cards: u64,
    pub counts: Vec<u64>,
}

/// The range a shard was cut from, and which slice it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardRecord {
    pub index: u64,
    pub count: u64,
    pub start: String,
    pub end: String,
}

/// Time spent, over every run of the unit (resumed runs add up).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Wall seconds of the runs.
    pub seconds: f64,
    /// CPU seconds of the runs.
    pub cpu_seconds: f64,
    /// When the first run started (Unix seconds).
    pub started: u64,
    /// When this file was written (Unix seconds).
    pub written: u64,
}

/// A result file or a checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitFile {
    /// [`UNIT_FORMAT`] or [`CHECKPOINT_FORMAT`].
    pub format: String,
    /// The engine that simulated the deals (`vector` or `fast`).
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
    /// The one field comparisons ignore.
    #[serde(default)]
    pub timing: Option<Timing>,
}

/// The engine `poker camicia search` uses on this machine.
pub fn engine_name() -> &'static str {
    if VectorSimulator::new().is_vector() {
        "vector"
    } else {
        "fast"
    }
}

/// Parses a decimal index field.
pub fn index_field(name: &str, text: &str) -> anyhow::Result<u128> {
    let value: u128 = text
        .parse()
        .with_context(|| format!("`{name}` is `{text}`, not a decimal index"))?;
    if value > DEAL_COUNT {
        bail!("`{name}` is {value}, past the last index {DEAL_COUNT}");
    }
    Ok(value)
}

impl UnitFile {
    /// The record of `report` for the unit `start..end`: a result file if
    /// `next` is `None`, else a checkpoint up to `next`.
    pub fn new(
        report: &Report,
        (start, end): (u128, u128),
        next: Option<u128>,
        shard: Option<(Shard, u128, u128)>,
        timing: Timing,
    ) -> UnitFile {
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
            timing: Some(timing),
        }
    }

    /// Reads and parses `path` (either kind).
    pub fn read(path: &Path) -> anyhow::Result<UnitFile> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let file: UnitFile = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a Camicia unit file (damaged?)", path.display()))?;
        if file.format != UNIT_FORMAT && file.format != CHECKPOINT_FORMAT {
            bail!(
                "{}: format `{}` is not {UNIT_FORMAT} or {CHECKPOINT_FORMAT}",
                path.display(),
                file.format
            );
        }
        Ok(file)
    }

    /// `(start, end)`.
    pub fn range(&self) -> anyhow::Result<(u128, u128)> {
        let start = index_field("start", &self.start)?;
        let end = index_field("end", &self.end)?;
        if start > end {
            bail!("`start` {start} is after `end` {end}");
        }
        Ok((start, end))
    }

    /// The report as written (games as claimed, not re-simulated), with
    /// its internal consistency checked: counts against the range, the
    /// histogram and the lists; every game inside the range.
    pub fn report(&self) -> anyhow::Result<Report> {
        let (start, end) = self.range()?;
        let done_to = match &self.next {
            Some(next) => index_field("next", next)?,
            None => end,
        };
        if !(start..=end).contains(&done_to) {
            bail!("`next` {done_to} is outside {start}..{end}");
        }
        let c = &self.counts;
        if u128::from(c.deals) != done_to - start {
            bail!(
                "counts {} deals, but {start}..{done_to} holds {}",
                c.deals,
                done_to - start
            );
        }
        if c.finished.checked_add(c.loops) != Some(c.deals) {
            bail!(
                "{} finished and {} loops do not add up to {} deals",
                c.finished,
                c.loops,
                c.deals
            );
        }
        if self.lengths.bin_cards != LENGTH_BIN {
            bail!(
                "length bins of {} cards, not {LENGTH_BIN}",
                self.lengths.bin_cards
            );
        }
        let binned = self
            .lengths
            .counts
            .iter()
            .try_fold(0u64, |s, &n| s.checked_add(n));
        if binned != Some(c.finished) || self.lengths.counts.last() == Some(&0) {
            bail!(
                "the length histogram does not hold the {} finished games",
                c.finished
            );
        }
        if self.loops.len() as u64 != c.loops {
            bail!("counts {} loops but lists {}", c.loops, self.loops.len());
        }
        if self.best.len() != self.top.min(c.finished as usize) {
            bail!(
                "lists {} best games, not {} (top {} of {} finished)",
                self.best.len(),
                self.top.min(c.finished as usize),
                self.top,
                c.finished
            );
        }
        let checksum = u64::from_str_radix(&self.checksum, 16)
            .ok()
            .filter(|_| self.checksum.len() == 16)
            .with_context(|| format!("checksum `{}` is not 16 hex digits", self.checksum))?;
        let mut report = Report::new(self.top);
        report.deals = c.deals;
        report.checksum = checksum;
        report.lengths = self.lengths.counts.clone();
        for (list, status, name) in [
            (&self.best, Status::Finished, "best game"),
            (&self.loops, Status::Loop, "loop"),
        ] {
            for record in list {
                let game = record.claimed().with_context(|| format!("a {name}"))?;
                if !(start..done_to).contains(&game.index) {
                    bail!(
                        "{name} {} is outside the indices covered, {start}..{done_to}",
                        game.index
                    );
                }
                if game.outcome.status != status {
                    bail!("{name} {} has status {}", game.index, record.status);
                }
                if status == Status::Loop {
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
            bail!("the best games are not in order (most cards first)");
        }
        if !report.loops.is_sorted_by_key(|g| g.index) {
            bail!("the loops are not in index order");
        }
        Ok(report)
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
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        write_atomically(path, &self.to_bytes())
    }
}

/// Writes `bytes` to `path` through a synced temporary file and a rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .with_context(|| format!("{} is not a file name", path.display()))?;
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
    result.with_context(|| format!("cannot write {}", path.display()))
}
