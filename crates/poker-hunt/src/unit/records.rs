//! The records a unit file is made of: games, loops' cycles, extended
//! deals, counts, histograms, the extension's and the shard's settings, and
//! the time spent.

use poker_core::camicia::cycle::Cycle;
use poker_core::camicia::extend::Depth;
use poker_core::camicia::search::{Extended, Game};
use poker_core::camicia::{DEAL_COUNT, Deal, GameEnd, Outcome, notation};
use serde::{Deserialize, Serialize};

use super::RecordError;

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
        let cycle = (game.outcome.status == GameEnd::Loop)
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
    ///
    /// # Errors
    ///
    /// [`RecordError::GameIndex`] if the index is not a decimal number,
    /// [`RecordError::PastLastDeal`] if no deal has it,
    /// [`RecordError::NotTheDeal`] if the cards written are not its deal's,
    /// [`RecordError::UnknownStatus`] if the status is neither `finished`
    /// nor `loop`.
    pub fn claimed(&self) -> Result<Game, RecordError> {
        let index: u128 = self
            .index
            .parse()
            .map_err(|source| RecordError::GameIndex {
                text: self.index.clone(),
                source,
            })?;
        let deal = Deal::unrank(index).ok_or(RecordError::PastLastDeal { index })?;
        if notation(deal.a()) != self.a || notation(deal.b()) != self.b {
            return Err(RecordError::NotTheDeal {
                index,
                a: self.a.clone(),
                b: self.b.clone(),
                deal: Box::new(deal),
            });
        }
        let status = match self.status.as_str() {
            "finished" => GameEnd::Finished,
            "loop" => GameEnd::Loop,
            other => {
                return Err(RecordError::UnknownStatus {
                    index,
                    status: other.into(),
                });
            }
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

/// A deal found by backward extension: the longest deal of the basin of
/// the searched deal `from`, `added` cards longer than its game, which it
/// joins after `joins_trick` of that game's tricks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtendedRecord {
    #[serde(flatten)]
    pub game: GameRecord,
    /// The searched deal's index (decimal string).
    pub from: String,
    pub added: u64,
    pub joins_trick: u64,
}

impl ExtendedRecord {
    pub fn of(e: &Extended) -> ExtendedRecord {
        ExtendedRecord {
            game: GameRecord::of(&e.game),
            from: e.from.to_string(),
            added: e.added,
            joins_trick: e.joins_trick,
        }
    }

    /// The extension as claimed (nothing simulated).
    ///
    /// # Errors
    ///
    /// As [`GameRecord::claimed`], and the [`index_field`] errors of
    /// `from`.
    pub fn claimed(&self) -> Result<Extended, RecordError> {
        Ok(Extended {
            game: self.game.claimed()?,
            from: index_field("from", &self.from)?,
            added: self.added,
            joins_trick: self.joins_trick,
        })
    }
}

/// How a unit extended its games: games of at least `from` cards, their
/// predecessor trees searched `depth` deep (`exact` or `first N tricks`);
/// how many games were extended, how many tree states examined, and the
/// cards gained by those that found a longer deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtensionRecord {
    pub from: u64,
    pub depth: String,
    pub games: u64,
    pub nodes: u64,
    pub gains: Lengths,
}

/// Parses the decimal index field `name`.
///
/// # Errors
///
/// [`RecordError::NotAnIndex`] if `text` is not a decimal number,
/// [`RecordError::PastLastIndex`] if it is past the last deal's index.
pub fn index_field(name: &str, text: &str) -> Result<u128, RecordError> {
    let value: u128 = text.parse().map_err(|source| RecordError::NotAnIndex {
        field: name.into(),
        text: text.into(),
        source,
    })?;
    if value > DEAL_COUNT {
        return Err(RecordError::PastLastIndex {
            field: name.into(),
            value,
        });
    }
    Ok(value)
}

/// `exact` or `first N tricks` as a [`Depth`].
///
/// # Errors
///
/// [`RecordError::Depth`] for any other text.
pub fn parse_depth(text: &str) -> Result<Depth, RecordError> {
    if text == "exact" {
        return Ok(Depth::Exact);
    }
    text.strip_prefix("first ")
        .and_then(|t| t.strip_suffix(" tricks"))
        .and_then(|n| n.parse().ok())
        .map(Depth::FirstTricks)
        .ok_or_else(|| RecordError::Depth { text: text.into() })
}

/// A unit of random deals: the seed of its draws.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RandomRecord {
    pub seed: u64,
}

/// The range a shard was cut from, and which slice it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardRecord {
    pub index: u64,
    pub count: u64,
    /// The range sliced: indices, or for random deals the whole run's
    /// draws `0..count`.
    pub start: String,
    pub end: String,
    /// For random deals: the run's blocks of 16,384 deals this slice took,
    /// `[first, end)` (its draws are `first·16384 .. min(end·16384, count)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocks: Option<[u64; 2]>,
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
    /// Of the CPU seconds, those spent extending games.
    #[serde(default)]
    pub extension_seconds: f64,
    /// GPU seconds of the runs on the GPU engine: the wall seconds they
    /// held their one GPU, as a cluster bills it (not the kernels' busy
    /// time). Absent for the CPU engines and in units written before
    /// the GPU engine counted them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_seconds: Option<f64>,
}
