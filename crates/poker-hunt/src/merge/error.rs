//! Why units do not merge: every problem found in their files, their
//! coverage and their claims, or a request they cannot satisfy.

use crate::proof::ProofError;
use crate::unit::{CycleRecord, RecordError, UnitError};
use poker_core::camicia::Outcome;
use std::fmt;
use std::path::PathBuf;

/// Why a merge failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum MergeError {
    /// The units do not merge: every problem found, in the order found
    /// (each file's own, then coverage or seeds, then the claims
    /// replayed).
    Problems(Vec<Problem>),
    /// No result files given.
    NoResults,
    /// `--top` asks for more games than a unit kept.
    Top {
        /// The games asked for.
        asked: usize,
        /// The fewest any unit kept.
        kept: usize,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Problems(problems) => {
                write!(f, "the units do not merge ({} problem(s)):", problems.len())?;
                for problem in problems {
                    write!(f, "\n  {problem}")?;
                }
                Ok(())
            }
            MergeError::NoResults => f.write_str("no result files"),
            MergeError::Top { asked, kept } => write!(
                f,
                "--top {asked}: the units kept only their {kept} best games"
            ),
        }
    }
}

impl std::error::Error for MergeError {}

/// One problem found by a merge's checks.
#[derive(Debug)]
#[non_exhaustive]
pub enum Problem {
    /// A file could not be read as a unit file.
    Unreadable(UnitError),
    /// A checkpoint given as a result: its unit has not finished.
    Checkpoint {
        /// The file.
        path: PathBuf,
    },
    /// A file says something that cannot be.
    Invalid {
        /// The file.
        path: PathBuf,
        /// What.
        error: RecordError,
    },
    /// A file's shard names a range that is not indices (the message
    /// names the field).
    ShardIndex {
        /// The file.
        path: PathBuf,
        /// What is wrong with the field.
        error: RecordError,
    },
    /// A file covers another slice than the shard it claims to be.
    Shard {
        /// The file.
        path: PathBuf,
        /// The shard's index, `I` of `I/N`.
        index: u64,
        /// The shard count, `N` of `I/N`.
        count: u64,
        /// The range the shards are cut from.
        range: (u128, u128),
        /// The slice that shard is.
        slice: (u128, u128),
        /// What the file covers.
        covers: (u128, u128),
    },
    /// A shard of random deals whose `blocks` are not the blocks its
    /// slice takes.
    ShardBlocks {
        /// The file.
        path: PathBuf,
        /// The blocks written (`None`: none).
        claimed: Option<[u64; 2]>,
        /// The blocks of its slice.
        slice: [u64; 2],
    },
    /// Units of random deals and of index ranges given together.
    MixedModes,
    /// `--range` given for units of random deals.
    RangeWithRandom,
    /// Units of random deals with the same seed: they drew the same deals.
    SameSeed {
        /// The seed.
        seed: u64,
        /// The files.
        paths: Vec<PathBuf>,
    },
    /// A unit covers indices outside the range merged.
    Outside {
        /// For random deals: the seed (the range is its draws).
        seed: Option<u64>,
        /// The file.
        path: PathBuf,
        /// What it covers.
        covers: (u128, u128),
        /// The range merged.
        range: (u128, u128),
    },
    /// Indices no unit covers.
    Gap {
        /// For random deals: the seed (the indices are its draws).
        seed: Option<u64>,
        /// The first index not covered.
        start: u128,
        /// One past the last.
        end: u128,
        /// The unit before the gap (`None`: the gap starts the range).
        after: Option<PathBuf>,
        /// The unit after the gap (`None`: the gap ends the range).
        before: Option<PathBuf>,
    },
    /// Indices two units cover.
    Overlap {
        /// For random deals: the seed (the indices are its draws).
        seed: Option<u64>,
        /// The first index covered twice.
        start: u128,
        /// One past the last.
        end: u128,
        /// The unit starting first.
        first: PathBuf,
        /// The other.
        second: PathBuf,
    },
    /// Shards missing from a set of `N` (told beside a gap; at most 20).
    MissingShards {
        /// For random deals: the seed.
        seed: Option<u64>,
        /// `N`.
        count: u64,
        /// The indices `I` of the shards missing.
        missing: Vec<u64>,
    },
    /// A claimed game of a file that replays differently.
    Claim {
        /// The file.
        path: PathBuf,
        /// What is wrong with the claim.
        error: ClaimError,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Unreadable(e) => write!(f, "{e}"),
            Problem::Checkpoint { path } => write!(
                f,
                "{} is a checkpoint: its unit has not finished",
                path.display()
            ),
            Problem::Invalid { path, error } => write!(f, "{}: {error}", path.display()),
            Problem::ShardIndex { error, .. } => write!(f, "{error}"),
            Problem::Shard {
                path,
                index,
                count,
                range: (from, to),
                slice: (want_start, want_end),
                covers: (start, end),
            } => write!(
                f,
                "{}: claims shard {index}/{count} of {from}..{to}, which is \
                 {want_start}..{want_end}, but covers {start}..{end}",
                path.display()
            ),
            Problem::ShardBlocks {
                path,
                claimed,
                slice: [first, end],
            } => {
                write!(
                    f,
                    "{}: its shard takes blocks {first}..{end}, but ",
                    path.display()
                )?;
                match claimed {
                    Some([a, b]) => write!(f, "it says blocks {a}..{b}"),
                    None => f.write_str("it names no blocks"),
                }
            }
            Problem::MixedModes => {
                f.write_str("units of random deals and units of index ranges do not merge together")
            }
            Problem::RangeWithRandom => {
                f.write_str("--range: units of random deals cover no index range")
            }
            Problem::SameSeed { seed, paths } => {
                f.write_str("overlap: ")?;
                for (i, path) in paths.iter().enumerate() {
                    let and = if i == 0 { "" } else { " and " };
                    write!(f, "{and}{}", path.display())?;
                }
                write!(f, " all drew the random deals of seed {seed}")
            }
            Problem::Outside {
                seed,
                path,
                covers: (start, end),
                range: (from, to),
            } => write!(
                f,
                "{} covers {start}..{end}, outside the {} {from}..{to}",
                path.display(),
                match seed {
                    Some(seed) => format!("draws of seed {seed}"),
                    None => "range".into(),
                }
            ),
            Problem::Gap {
                seed,
                start,
                end,
                after,
                before,
            } => {
                write!(f, "gap: {} are in no unit (", what(*seed, *start, *end))?;
                match (after, before) {
                    (Some(after), _) => write!(f, "after {}", after.display())?,
                    (None, Some(_)) => f.write_str("at the range's start")?,
                    (None, None) => f.write_str("no unit covers any of the range")?,
                }
                if let Some(before) = before {
                    write!(f, ", before {}", before.display())?;
                }
                f.write_str(")")
            }
            Problem::Overlap {
                seed,
                start,
                end,
                first,
                second,
            } => write!(
                f,
                "overlap: {} are in both {} and {}",
                what(*seed, *start, *end),
                first.display(),
                second.display()
            ),
            Problem::MissingShards {
                seed,
                count,
                missing,
            } => {
                f.write_str("missing shards")?;
                if let Some(seed) = seed {
                    write!(f, " of seed {seed}")?;
                }
                f.write_str(": ")?;
                for (i, index) in missing.iter().enumerate() {
                    let comma = if i == 0 { "" } else { ", " };
                    write!(f, "{comma}{index}/{count}")?;
                }
                Ok(())
            }
            Problem::Claim { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

/// `indices START..END`, or for random deals `draws START..END of seed S`.
fn what(seed: Option<u64>, start: u128, end: u128) -> String {
    match seed {
        Some(seed) => format!("draws {start}..{end} of seed {seed}"),
        None => format!("indices {start}..{end}"),
    }
}

/// A claimed game that does not replay as claimed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClaimError {
    /// A best game or a loop that does not play as claimed.
    Replay {
        /// Its index.
        index: u128,
        /// How it plays instead.
        error: ProofError,
    },
    /// A game claiming a cycle that does not loop (the message names no
    /// index).
    NoCycle {
        /// Its index.
        index: u128,
    },
    /// A loop claiming another cycle than the one it loops into.
    WrongCycle {
        /// Its index.
        index: u128,
        /// The cycle claimed.
        claimed: Box<CycleRecord>,
        /// The cycle it loops into.
        actual: Box<CycleRecord>,
    },
    /// A loop listed without its cycle.
    MissingCycle {
        /// Its index.
        index: u128,
    },
    /// An extended deal whose claim does not hold.
    Extended {
        /// Its index.
        index: u128,
        /// What does not hold.
        error: ExtensionClaimError,
    },
}

impl fmt::Display for ClaimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClaimError::Replay { index, error } => write!(f, "index {index}: {error}"),
            ClaimError::NoCycle { .. } => f.write_str("a loop without a cycle"),
            ClaimError::WrongCycle {
                index,
                claimed,
                actual,
            } => write!(
                f,
                "index {index} claims cycle {} ({} tricks), but it loops into cycle {} ({} tricks)",
                claimed.id, claimed.tricks, actual.id, actual.tricks
            ),
            ClaimError::MissingCycle { index } => write!(f, "loop {index} has no cycle"),
            ClaimError::Extended { index, error } => {
                write!(f, "extended deal {index}: {error}")
            }
        }
    }
}

/// Why an extended deal's claim does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExtensionClaimError {
    /// The extended deal does not play as claimed.
    Replay(ProofError),
    /// The index it claims to come from is past the last deal.
    SourcePastLastDeal {
        /// That index.
        from: u128,
    },
    /// It does not play the cards claimed added to its source's game.
    Added {
        /// The cards claimed added.
        added: u64,
        /// Its source's index.
        from: u128,
        /// How its source plays.
        plays: Outcome,
    },
    /// Its game does not join its source's where claimed.
    Join {
        /// Its source's index.
        from: u128,
        /// What does not hold.
        error: ProofError,
    },
}

impl fmt::Display for ExtensionClaimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtensionClaimError::Replay(e) => write!(f, "{e}"),
            ExtensionClaimError::SourcePastLastDeal { .. } => {
                f.write_str("its source index is past the last deal")
            }
            ExtensionClaimError::Added { added, from, plays } => write!(
                f,
                "claims {added} cards added to index {from}, which plays {plays}: forged or \
                 damaged"
            ),
            ExtensionClaimError::Join { from, error } => {
                write!(f, "extended from index {from}: {error}")
            }
        }
    }
}

impl std::error::Error for Problem {}
impl std::error::Error for ClaimError {}
impl std::error::Error for ExtensionClaimError {}
