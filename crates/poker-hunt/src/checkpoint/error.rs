//! Why a unit's run failed: its checkpoint (unreadable, damaged, another
//! unit's), its files, its signal handlers, or the search itself.

use crate::chain::Chain;
use crate::unit::{RecordError, UnitError};
use poker_core::camicia::search::SearchError;
use std::fmt;
use std::path::PathBuf;

/// Why a unit's run (or a [`crate::hunt::Hunt`]) failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum RunError {
    /// Its checkpoint could not be read, or a checkpoint or its result
    /// file could not be written.
    File(UnitError),
    /// The checkpoint given is a finished unit's result file.
    NotACheckpoint {
        /// The file.
        path: PathBuf,
    },
    /// The checkpoint says something that cannot be.
    Damaged {
        /// The checkpoint.
        path: PathBuf,
        /// What.
        error: RecordError,
    },
    /// The checkpoint is another unit's: another range, shard, `top`, seed
    /// or extension setting.
    OtherUnit {
        /// The checkpoint.
        path: PathBuf,
        /// Its unit's first index, as written.
        start: String,
        /// One past its last index, as written.
        end: String,
        /// Its `top`.
        top: usize,
        /// The length its games are extended from (`None`: not extended).
        extension_from: Option<u64>,
    },
    /// The checkpoint's deals are not a whole number of blocks (and not
    /// the whole unit): no search stops there.
    NotWholeBlocks {
        /// The checkpoint.
        path: PathBuf,
        /// Its deals.
        deals: u64,
    },
    /// The SIGTERM and SIGINT handlers could not be installed.
    Signals(std::io::Error),
    /// The finished unit's checkpoint could not be removed.
    Remove {
        /// The checkpoint.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The search could not run.
    Search(SearchError),
    /// Another engine than the CPU's failed (the GPU engine: its device,
    /// or a result the CPU's checks refused), with its message.
    Engine(String),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::File(e) => write!(f, "{e}"),
            RunError::NotACheckpoint { path } => write!(
                f,
                "{} is a finished unit's result, not a checkpoint",
                path.display()
            ),
            RunError::Damaged { path, error } => {
                write!(f, "checkpoint {}: {error}", path.display())
            }
            RunError::OtherUnit {
                path,
                start,
                end,
                top,
                extension_from,
            } => write!(
                f,
                "checkpoint {} is for another unit ({start}..{end}, top {top}, extension {}): \
                 remove it or give its arguments",
                path.display(),
                extension_from.map_or("off".to_string(), |from| format!("from {from} cards"))
            ),
            RunError::NotWholeBlocks { path, deals } => write!(
                f,
                "checkpoint {}: {deals} deals is not a whole number of blocks",
                path.display()
            ),
            RunError::Signals(e) => write!(f, "cannot handle SIGTERM: {}", Chain(e)),
            RunError::Remove { path, source } => {
                write!(f, "cannot remove {}: {}", path.display(), Chain(source))
            }
            RunError::Search(e) => write!(f, "{}", Chain(e)),
            RunError::Engine(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for RunError {}

impl From<UnitError> for RunError {
    fn from(e: UnitError) -> Self {
        RunError::File(e)
    }
}

impl From<SearchError> for RunError {
    fn from(e: SearchError) -> Self {
        RunError::Search(e)
    }
}
