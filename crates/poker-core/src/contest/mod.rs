//! The "Poker American" contest: the 24-card deck, the game and
//! its rules, the board and its scoring.
//!
//! One rule checker ([`Game`]) and one scorer ([`Board::score`]) serve the
//! practice-mode C library, the evaluator and the embeddable game API alike.

mod board;
mod deck;
mod encoding;
mod game;

pub use board::{Board, ColumnScore, Score};
pub use deck::ContestDeck;
pub use encoding::{card_code, card_from_code, decode_card};
pub use game::{Call, Game, Progress, RuleError, Violation};

/// Cards in the contest deck: 9, 10, J, Q, K, A in four suits.
pub const DECK_SIZE: usize = 24;
/// Columns on the board.
pub const COLUMNS: usize = 4;
/// Cards per column at the end of a game.
pub(crate) const COLUMN_HEIGHT: usize = 5;
/// Placements in a game (4 columns x 5 cards); the last 4 cards are never seen.
pub const PLACEMENTS: usize = COLUMNS * COLUMN_HEIGHT;
