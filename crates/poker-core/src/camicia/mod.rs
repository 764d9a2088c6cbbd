//! Camicia, a Beggar-My-Neighbour variant (the exercism exercise
//! "camicia"): exact simulation with loop detection, deal numbering, and a
//! fast search for record games.
//!
//! # Rules (exercism)
//! - Two players, A and B, each hold a deck, top card first. **A plays first.**
//! - Players alternately put their top card on a central pile. After a number
//!   card (2..10) the turn passes to the other player.
//! - A payment card makes the opponent pay: J 1 card, Q 2, K 3, A 4. The
//!   payer plays that many cards one at a time; if one of them is a payment
//!   card, the payment stops and the other player now owes that card's
//!   penalty (it replaces the old debt).
//! - If the debt is paid in full with number cards, the player who laid the
//!   last payment card collects the pile under their deck (first played
//!   goes first) and starts the next round.
//! - If a player must play (paying or on their turn) but has no cards, the
//!   other player collects the pile.
//! - Each collection is a **trick**. If after a trick one player holds every
//!   card, the game is **finished**.
//! - The game is a **loop** as soon as a round starts in the same state as an
//!   earlier round start: the same penalty pattern in both decks (number
//!   cards all alike) and the same player to lead. The initial deal is the
//!   start of round 1.
//!
//! # Counting
//! `cards` counts cards put on the pile (a failed attempt by a player with
//! no cards is not a card); `tricks` counts collections, the last included.
//! For a loop both are counted up to the start of the first repeated round.
//!
//! # Empty decks
//! If A is dealt no cards, A cannot play the first card and B already holds
//! every card: the game is finished with 0 cards and 0 tricks (there is no
//! pile to collect). If only B is dealt no cards, A plays one card, B cannot
//! answer, and A collects it: finished, 1 card, 1 trick.
//!
//! # Entry points
//! - [`simulate`] / [`simulate_str`]: one game from cards or from text.
//! - [`Simulator`]: the fast engine over penalties (0 = number card, 1..4 =
//!   J, Q, K, A), reusable without allocation for many games.
//! - [`reference`](mod@reference): the card-by-card reference simulator and `--trace` table.
//! - [`index`]: the 52-card deal numbering (rank and unrank).
//! - [`search`]: scanning index ranges and random deals for long games.
//! - [`cycle`]: a loop's cycle in canonical form, with an id.
//! - [`predecessor`]: every round start one trick before a state.
//! - [`extend`]: backward extension, the longest deal of a game's basin.

mod card;
pub mod cycle;
pub mod extend;
mod fast;
pub mod index;
mod outcome;
pub mod predecessor;
pub mod reference;
pub mod search;
mod vector;

pub use card::{Card, ParseError, Player, notation, parse_deck, parse_deck_bytes, penalties};
pub use fast::{PenaltyError, Simulator};
pub use index::{DEAL_COUNT, Deal, DealError};
pub use outcome::{GameEnd, Outcome};
pub use vector::{ROUND_LIMIT, VectorSimulator};

/// Simulates the game of `a` against `b` (top cards first; A plays first)
/// with the fast engine. Any deck lengths and rank counts work.
pub fn simulate(a: &[Card], b: &[Card]) -> Outcome {
    Simulator::new().run_unchecked(&penalties(a), &penalties(b))
}

/// Parses both decks (see [`parse_deck`]) and simulates the game.
///
/// Marc Paulhus's 1999 record deal (R. P. Mann's list of records): 4791
/// cards, 670 tricks.
///
/// ```
/// use poker_core::camicia::{GameEnd, simulate_str};
///
/// let outcome = simulate_str("------------KAQ----J------", "-JQQK---K----JK--QA-A-JA--")?;
/// assert_eq!(outcome.status, GameEnd::Finished);
/// assert_eq!((outcome.cards, outcome.tricks), (4791, 670));
/// # Ok::<(), poker_core::camicia::ParseError>(())
/// ```
pub fn simulate_str(a: &str, b: &str) -> Result<Outcome, ParseError> {
    let a = parse_deck(a, Player::A)?;
    let b = parse_deck(b, Player::B)?;
    Ok(simulate(&a, &b))
}
