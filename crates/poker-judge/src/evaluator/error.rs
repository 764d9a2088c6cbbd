//! Why an evaluation cannot start, why a contestant cannot run, and why a
//! deck file is refused.

use poker_core::cards::CardError;
pub use poker_sandbox::LaunchError;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a contestant plays no game ([`super::Contestant::program`]). The
/// message (its `Display`) is what reports show as `not_run`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotRun {
    /// The source file does not exist: its path as given.
    Missing(std::path::PathBuf),
    /// The compiler refused the source: its diagnostics, at most
    /// [`super::contestant::DIAGNOSTIC_LINES`] lines.
    DoesNotCompile(String),
    /// The compilation was stopped by a limit (time, memory, processes,
    /// file size): which.
    CompileLimit(String),
    /// The file is not a program the evaluator can run (not executable, a
    /// compiled program over 64 MiB...): why.
    NotAProgram(String),
    /// The evaluator could not prepare it (a build folder, the compiler's
    /// start, the sandbox's private image of it): why.
    Setup(String),
}

impl fmt::Display for NotRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotRun::Missing(path) => write!(f, "{} does not exist", path.display()),
            NotRun::DoesNotCompile(why)
            | NotRun::CompileLimit(why)
            | NotRun::NotAProgram(why)
            | NotRun::Setup(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for NotRun {}

/// Why a deck file was refused ([`super::decks::read_deck_file`],
/// [`super::decks::parse_deck_file`]). Read from a file, each message
/// starts with the file's path.
#[derive(Debug)]
#[non_exhaustive]
pub enum DeckFileError {
    /// The file cannot be opened or read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file is larger than a deck file can be (16 MiB).
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The largest size read, in bytes.
        limit: u64,
    },
    /// The file is not UTF-8 text.
    NotText {
        /// The file.
        path: PathBuf,
    },
    /// A line is not a contest deck.
    BadLine {
        /// The file, when read from one.
        path: Option<PathBuf>,
        /// 1-based line number.
        line: usize,
        /// What is wrong with its cards.
        error: CardError,
    },
    /// No line holds a deck.
    Empty {
        /// The file, when read from one.
        path: Option<PathBuf>,
    },
}

impl DeckFileError {
    /// The same error, said of the file at `path`.
    pub(crate) fn in_file(self, file: &Path) -> DeckFileError {
        match self {
            DeckFileError::BadLine { line, error, .. } => DeckFileError::BadLine {
                path: Some(file.to_path_buf()),
                line,
                error,
            },
            DeckFileError::Empty { .. } => DeckFileError::Empty {
                path: Some(file.to_path_buf()),
            },
            other => other,
        }
    }
}

impl fmt::Display for DeckFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let prefix = |f: &mut fmt::Formatter<'_>, path: &Option<PathBuf>| match path {
            Some(path) => write!(f, "{}: ", path.display()),
            None => Ok(()),
        };
        match self {
            DeckFileError::Unreadable { path, source } => {
                write!(f, "cannot read deck file {}: {source}", path.display())
            }
            DeckFileError::TooLarge { path, limit } => write!(
                f,
                "{}: larger than {} MiB, not a deck file",
                path.display(),
                limit >> 20
            ),
            DeckFileError::NotText { path } => {
                write!(f, "{}: not UTF-8 text, not a deck file", path.display())
            }
            DeckFileError::BadLine { path, line, error } => {
                prefix(f, path)?;
                write!(f, "line {line}: {error}")
            }
            DeckFileError::Empty { path } => {
                prefix(f, path)?;
                f.write_str("no decks found")
            }
        }
    }
}

impl std::error::Error for DeckFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DeckFileError::Unreadable { source, .. } => Some(source),
            DeckFileError::BadLine { error, .. } => Some(error),
            _ => None,
        }
    }
}
