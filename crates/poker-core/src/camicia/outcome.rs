//! How a game ended, and its length: the simulators' common result.

use std::fmt;

/// How a Camicia game ended (not a contest game's status, which is the
/// evaluator's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// One player holds every card.
    Finished,
    /// A round started in the same state as an earlier round: it never ends.
    Loop,
}

impl fmt::Display for GameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameEnd::Finished => "finished",
            GameEnd::Loop => "loop",
        })
    }
}

/// The result of a game: exercism's `status`, `cards` and `tricks`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Finished or loop.
    pub status: GameEnd,
    /// Cards put on the pile during the game (up to the first repeated
    /// round start, for a loop).
    pub cards: u64,
    /// Times the pile was collected (likewise).
    pub tricks: u64,
}

impl Outcome {
    /// An outcome from its three parts.
    pub fn new(status: GameEnd, cards: u64, tricks: u64) -> Outcome {
        Outcome {
            status,
            cards,
            tricks,
        }
    }
}

impl fmt::Display for Outcome {
    /// `finished, 13 cards, 1 tricks`; counts as [`crate::numbers::count`]
    /// writes them (`8,344 cards`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::numbers::count;
        write!(
            f,
            "{}, {} cards, {} tricks",
            self.status,
            count(self.cards),
            count(self.tricks)
        )
    }
}
