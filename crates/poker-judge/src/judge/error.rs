//! Why a test's input is not one deck in the package's format.

use poker_core::cards::CardError;
use std::fmt;

/// Why the input validator rejects a test's input
/// ([`super::validate_input`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputError {
    /// Longer than [`super::MAX_INPUT`] bytes.
    TooLong,
    /// Not UTF-8 text.
    NotUtf8,
    /// The last line has no newline.
    NoFinalNewline,
    /// More than one line.
    MoreThanOneLine,
    /// The line is not the contest's 24 cards.
    BadDeck(CardError),
    /// The cards are a deck but not written exactly as the package writes
    /// it: the line that was expected.
    NotExact {
        /// The deck as the package writes it.
        expected: String,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::TooLong => write!(f, "longer than {} bytes", super::MAX_INPUT),
            InputError::NotUtf8 => f.write_str("not UTF-8 text"),
            InputError::NoFinalNewline => f.write_str("the input does not end with a newline"),
            InputError::MoreThanOneLine => f.write_str("more than one line"),
            InputError::BadDeck(e) => write!(f, "{e}"),
            InputError::NotExact { expected } => {
                write!(f, "not in the exact format: expected {expected:?}")
            }
        }
    }
}

impl std::error::Error for InputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InputError::BadDeck(e) => Some(e),
            _ => None,
        }
    }
}
