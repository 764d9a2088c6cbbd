//! The contest's 24-card deck: parsing and uniform seeded shuffling.

use super::DECK_SIZE;
use crate::card_list::{CardList, parse_card_list};
use crate::cards::{Card, CardError, Rank, Suit};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::fmt;

/// A full contest deck: the 24 cards 9..A of four suits in dealing order
/// (index 0 is turned first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContestDeck([Card; DECK_SIZE]);

impl ContestDeck {
    /// The 24 cards in a fixed order (rank 9 first, then suits C, D, H, S).
    pub fn ordered() -> ContestDeck {
        let mut cards = [Card::new(Rank::NINE, Suit::Clubs); DECK_SIZE];
        for (i, card) in cards.iter_mut().enumerate() {
            *card = Card::new(Rank::new(9 + (i / 4) as u8).unwrap(), Suit::ALL[i % 4]);
        }
        ContestDeck(cards)
    }

    /// A uniformly shuffled deck, reproducible from `seed`: Fisher-Yates
    /// (`rand`'s `SliceRandom::shuffle`) over [`ContestDeck::ordered`],
    /// driven by ChaCha8 seeded with `seed_from_u64(seed)`.
    pub fn shuffled(seed: u64) -> ContestDeck {
        let mut deck = ContestDeck::ordered();
        deck.0.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        deck
    }

    /// Parses 24 whitespace-separated tokens (`TS`, `10s`, `9h`, ...): every
    /// card of the contest deck exactly once.
    pub fn parse(text: &str) -> Result<ContestDeck, CardError> {
        ContestDeck::from_list(parse_card_list(text, CardList::CONTEST_DECK)?)
    }

    /// A deck from 24 decoded entries in dealing order (see
    /// [`CardList::validate`]): every card of the contest deck exactly once.
    pub fn from_entries<I>(entries: I) -> Result<ContestDeck, CardError>
    where
        I: IntoIterator<Item = Result<Card, CardError>>,
    {
        ContestDeck::from_list(CardList::CONTEST_DECK.validate(entries)?)
    }

    /// A deck from 24 cards in dealing order: every card of the contest deck
    /// exactly once.
    pub fn from_cards(cards: &[Card]) -> Result<ContestDeck, CardError> {
        ContestDeck::from_list(CardList::CONTEST_DECK.validate_cards(cards)?)
    }

    /// The deck of a list that [`CardList::CONTEST_DECK`] accepted.
    fn from_list(cards: Vec<Card>) -> Result<ContestDeck, CardError> {
        let found = cards.len();
        <[Card; DECK_SIZE]>::try_from(cards)
            .map(ContestDeck)
            .map_err(|_| CardError::WrongCount {
                expected: DECK_SIZE,
                found,
            })
    }

    /// The cards in dealing order.
    pub fn cards(&self) -> &[Card; DECK_SIZE] {
        &self.0
    }
}

impl fmt::Display for ContestDeck {
    /// The deck as 24 space-separated tokens, ten as `T`; parses back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, card) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{card}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_deck_holds_every_contest_card_once() {
        let text = ContestDeck::ordered().to_string();
        assert_eq!(ContestDeck::parse(&text), Ok(ContestDeck::ordered()));
        assert!(text.starts_with("9C 9D 9H 9S TC"));
    }

    #[test]
    fn shuffles_are_permutations_and_depend_on_the_seed() {
        let a = ContestDeck::shuffled(1);
        let mut sorted = a.0;
        sorted.sort();
        let mut ordered = ContestDeck::ordered().0;
        ordered.sort();
        assert_eq!(sorted, ordered);
        assert_eq!(a, ContestDeck::shuffled(1));
        assert_ne!(a, ContestDeck::shuffled(2));
    }

    #[test]
    fn bad_decks_are_rejected() {
        let full = ContestDeck::ordered().to_string();
        let short = full.rsplit_once(' ').unwrap().0;
        assert_eq!(
            ContestDeck::parse(short),
            Err(CardError::WrongCount {
                expected: 24,
                found: 23
            })
        );
        let with_eight = short.to_string() + " 8S";
        assert!(matches!(
            ContestDeck::parse(&with_eight),
            Err(CardError::NotInDeck { .. })
        ));
        let twice = short.to_string() + " 9C";
        assert!(matches!(
            ContestDeck::parse(&twice),
            Err(CardError::Duplicate { .. })
        ));
    }
}
