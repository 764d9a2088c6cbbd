//! Why practice mode's deck cannot be had from the environment.

use crate::cards::CardError;
use std::fmt;

/// Why `POKER_DECK` or `POKER_SEED` was refused
/// ([`super::runtime::deck_from_env`]); each message names the variable.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DeckEnvError {
    /// `POKER_DECK` is not valid UTF-8.
    DeckNotUtf8,
    /// `POKER_DECK` is not the contest's 24 cards.
    BadDeck(CardError),
    /// `POKER_SEED` is not a whole number in `0..=u64::MAX`: its value (at
    /// most 40 characters of it).
    BadSeed(String),
}

impl fmt::Display for DeckEnvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeckEnvError::DeckNotUtf8 => f.write_str("POKER_DECK is not valid UTF-8"),
            DeckEnvError::BadDeck(e) => write!(f, "POKER_DECK: {e}"),
            DeckEnvError::BadSeed(shown) => write!(
                f,
                "POKER_SEED: {shown:?} is not a whole number in 0..={}",
                u64::MAX
            ),
        }
    }
}

impl std::error::Error for DeckEnvError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DeckEnvError::BadDeck(e) => Some(e),
            _ => None,
        }
    }
}
