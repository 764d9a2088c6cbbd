//! The textbook shuffle-and-deal of a 52-card deck (a C textbook's case
//! study), done right.
//!
//! The case study fills a 4 x 13 table by drawing random cells and retrying
//! taken ones, which can be postponed indefinitely. Here the deck is
//! shuffled in place by Fisher-Yates (`rand`'s [`SliceRandom::shuffle`]):
//! exactly one draw per card, no retries, every one of the 52! orders
//! equally likely. The generator is ChaCha8 seeded with `seed_from_u64`, a
//! named algorithm, so a seed gives the same deal on every machine and rand
//! release; the contest's 24-card deck
//! ([`crate::contest::ContestDeck::shuffled`]) is shuffled the same way.
//!
//! ```
//! use poker_core::shuffle::ShuffledDeck;
//! let deck = ShuffledDeck::new(7);
//! assert_eq!(deck, ShuffledDeck::new(7));
//! println!("{}", deck.cards()[0].long_name()); // e.g. "Queen of Hearts"
//! ```

use crate::cards::{Card, standard_deck};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// Cards in the deck.
pub const DECK_SIZE: usize = 52;

/// Shuffles `items` uniformly in place, reproducibly from `seed` (ChaCha8,
/// Fisher-Yates). Any slice: the 52-card deck, the contest's 24 cards, ...
pub fn shuffle_seeded<T>(items: &mut [T], seed: u64) {
    items.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
}

/// A 52-card deck in shuffled order, with the seed that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShuffledDeck {
    seed: u64,
    cards: [Card; DECK_SIZE],
}

impl ShuffledDeck {
    /// The standard deck ([`standard_deck`]) shuffled from `seed`.
    ///
    /// ```
    /// use poker_core::cards::standard_deck;
    /// use poker_core::shuffle::ShuffledDeck;
    ///
    /// let deck = ShuffledDeck::new(2024);
    /// assert_eq!(deck.seed(), 2024);
    /// assert_eq!(deck, ShuffledDeck::new(2024)); // the same on every machine
    /// // A permutation: every card of the deck exactly once.
    /// let mut sorted = deck.cards().to_vec();
    /// sorted.sort_by_key(|c| c.index());
    /// let mut standard = standard_deck();
    /// standard.sort_by_key(|c| c.index());
    /// assert_eq!(sorted, standard);
    /// ```
    pub fn new(seed: u64) -> ShuffledDeck {
        let mut cards: [Card; DECK_SIZE] = standard_deck()
            .try_into()
            .expect("the standard deck has 52 cards");
        shuffle_seeded(&mut cards, seed);
        ShuffledDeck { seed, cards }
    }

    /// A deck shuffled from a fresh random seed (see [`ShuffledDeck::seed`]
    /// to repeat it).
    pub fn random() -> ShuffledDeck {
        ShuffledDeck::new(rand::random())
    }

    /// The seed it was shuffled from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The cards in dealing order (index 0 is dealt first).
    pub fn cards(&self) -> &[Card; DECK_SIZE] {
        &self.cards
    }

    /// The deal printed the case study's way: "Face of Suit", two cards per
    /// line (the 1st and 2nd dealt on line 1, and so on), the face
    /// right-aligned and the suit left-aligned as its `"%5s of %-8s"` did.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for pair in self.cards.chunks(2) {
            let cells: Vec<String> = pair
                .iter()
                .map(|c| format!("{:>5} of {:<8}", c.rank.name(), c.suit.name()))
                .collect();
            text.push_str(cells.join("    ").trim_end());
            text.push('\n');
        }
        text
    }
}
