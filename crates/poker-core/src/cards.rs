//! Playing cards: ranks, suits, cards and their text tokens.
//!
//! A card token is a rank (`2`..`9`, `T` or `10`, `J`, `Q`, `K`, `A`) followed
//! by a suit letter (`S`, `H`, `D`, `C`), case-insensitive: `TS`, `10s`, `ah`.
//! Cards print with ten as `T` (`Display`) or as `10` ([`Card::token_with_ten`]).

use std::fmt;
use std::str::FromStr;

/// A suit. The order (clubs, diamonds, hearts, spades) is Microsoft FreeCell's
/// card-index order; each format that needs another order converts explicitly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// Clubs (`C`).
    Clubs,
    /// Diamonds (`D`).
    Diamonds,
    /// Hearts (`H`).
    Hearts,
    /// Spades (`S`).
    Spades,
}

impl Suit {
    /// The four suits in index order: clubs, diamonds, hearts, spades.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// Index 0..=3 in the order of [`Suit::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The suit's letter: `C`, `D`, `H` or `S`.
    pub const fn letter(self) -> char {
        ['C', 'D', 'H', 'S'][self.index()]
    }

    /// The suit's English name, plural as in "Ace of Spades": `Clubs`, ...
    pub fn name(self) -> &'static str {
        ["Clubs", "Diamonds", "Hearts", "Spades"][self.index()]
    }

    /// Parses a suit letter, case-insensitive.
    pub(crate) fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'C' => Some(Suit::Clubs),
            'D' => Some(Suit::Diamonds),
            'H' => Some(Suit::Hearts),
            'S' => Some(Suit::Spades),
            _ => None,
        }
    }
}

/// A rank, valued 2 (deuce) to 14 (ace): aces are high except in the wheel
/// straight A-2-3-4-5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// Deuce (2).
    pub(crate) const TWO: Rank = Rank(2);
    /// Nine (9), the lowest rank of the contest deck.
    pub const NINE: Rank = Rank(9);
    /// Ten (10).
    pub const TEN: Rank = Rank(10);
    /// Jack (11).
    pub const JACK: Rank = Rank(11);
    /// Queen (12).
    pub const QUEEN: Rank = Rank(12);
    /// King (13).
    pub const KING: Rank = Rank(13);
    /// Ace (14).
    pub const ACE: Rank = Rank(14);

    /// The rank with value 2..=14, or `None` outside that range.
    pub fn new(value: u8) -> Option<Rank> {
        (2..=14).contains(&value).then_some(Rank(value))
    }

    /// The value 2..=14 (ace = 14).
    pub fn value(self) -> u8 {
        self.0
    }

    /// The 13 ranks from deuce to ace.
    pub fn all() -> impl Iterator<Item = Rank> {
        (2..=14).map(Rank)
    }

    /// The rank's symbol with ten as `T`: `2`..`9`, `T`, `J`, `Q`, `K`, `A`.
    // const, as are `Suit::letter` and `Card::from_index`: the C library
    // builds its card tokens from them at compile time.
    pub const fn symbol(self) -> &'static str {
        [
            "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A",
        ][(self.0 - 2) as usize]
    }

    /// The rank's English name as in "Deuce of Clubs": `Ace`, `Deuce`, ... `King`.
    pub fn name(self) -> &'static str {
        [
            "Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack",
            "Queen", "King", "Ace",
        ][usize::from(self.0 - 2)]
    }

    /// Parses a rank symbol: `2`..`9`, `T` or `10`, `J`, `Q`, `K`, `A` (any case).
    pub(crate) fn from_symbol(s: &str) -> Option<Rank> {
        let value = match s.to_ascii_uppercase().as_str() {
            "T" | "10" => 10,
            "J" => 11,
            "Q" => 12,
            "K" => 13,
            "A" => 14,
            d if d.len() == 1 => d.parse::<u8>().ok().filter(|v| (2..=9).contains(v))?,
            _ => return None,
        };
        Some(Rank(value))
    }
}

/// A playing card: a rank and a suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card {
    /// The card's rank.
    pub rank: Rank,
    /// The card's suit.
    pub suit: Suit,
}

impl Card {
    /// The card of this rank and suit.
    pub fn new(rank: Rank, suit: Suit) -> Card {
        Card { rank, suit }
    }

    /// The token with ten written `10` (as in the contest text's worked
    /// example: `10C`); other ranks as in `Display`.
    pub fn token_with_ten(self) -> String {
        if self.rank == Rank::TEN {
            format!("10{}", self.suit.letter())
        } else {
            self.to_string()
        }
    }

    /// The case study's long name: "Ace of Hearts", "Deuce of Clubs", ...
    pub fn long_name(self) -> String {
        format!("{} of {}", self.rank.name(), self.suit.name())
    }

    /// Microsoft FreeCell's card index 0..=51: `rank * 4 + suit` with the ace
    /// low (A = 0, 2 = 1, ..., K = 12) and suits C, D, H, S. So 0 is the ace
    /// of clubs and 51 the king of spades (Microsoft FreeCell's order). The C API uses it for
    /// every card it passes as a number.
    pub fn index(self) -> u8 {
        let value = self.rank.value();
        let rank = if value == 14 { 0 } else { value - 1 };
        rank * 4 + self.suit as u8
    }

    /// The card with Microsoft index `index` (see [`Card::index`]), or `None`
    /// for an index above 51.
    pub const fn from_index(index: u8) -> Option<Card> {
        if index > 51 {
            return None;
        }
        let rank = index / 4;
        let value = if rank == 0 { 14 } else { rank + 1 };
        Some(Card {
            rank: Rank(value),
            suit: Suit::ALL[(index % 4) as usize],
        })
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank.symbol(), self.suit.letter())
    }
}

/// Why a card token or a list of cards was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CardError {
    /// A token that is not a rank followed by a suit letter; `position` is
    /// its 1-based place in the list.
    BadToken {
        /// The offending token as written.
        token: String,
        /// 1-based position of the token in its list.
        position: usize,
        /// Whether the list was of the contest's 24-card deck (the message
        /// then names its ranks, 9 to A).
        contest: bool,
    },
    /// A card given as numbers outside their encoding (a contest value
    /// outside 1..6 or color outside 1..4, a card index above 51).
    OutOfRange {
        /// 1-based position of the card in its list.
        position: usize,
        /// What was given, e.g. `value 7 color 1`.
        given: String,
        /// What a card is in that encoding, e.g. `a contest card (value
        /// 1..6, color 1..4)`.
        range: &'static str,
    },
    /// The same card twice in a list.
    Duplicate {
        /// The repeated card.
        card: Card,
    },
    /// A valid card that the deck in use does not hold (e.g. a `2` in the
    /// contest's 24-card deck).
    NotInDeck {
        /// The card.
        card: Card,
    },
    /// A list of the wrong length.
    WrongCount {
        /// How many cards were expected.
        expected: usize,
        /// How many were given.
        found: usize,
    },
}

impl fmt::Display for CardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CardError::BadToken {
                token,
                position,
                contest: false,
            } => write!(
                f,
                "card {position}: '{}' is not a card (rank 2-9, T or 10, J, Q, K, A followed by suit S, H, D or C)",
                shown(token)
            ),
            CardError::BadToken {
                token,
                position,
                contest: true,
            } => write!(
                f,
                "card {position}: '{}' is not a card of the contest's deck (rank 9, 10 or T, J, Q, K, A followed by suit S, H, D or C)",
                shown(token)
            ),
            CardError::OutOfRange {
                position,
                given,
                range,
            } => write!(f, "card {position}: {given} is not {range}"),
            CardError::Duplicate { card } => write!(f, "card {card} appears more than once"),
            CardError::NotInDeck { card } => write!(
                f,
                "card {card} is not in this deck (the contest's 24 cards: ranks 9, 10 or T, J, Q, K, A)"
            ),
            CardError::WrongCount { expected, found } => {
                write!(f, "expected {expected} cards, found {found}")
            }
        }
    }
}

impl std::error::Error for CardError {}

/// A token as an error message shows it: control characters escaped, and
/// cut after 24 characters.
fn shown(token: &str) -> String {
    let mut text: String = token
        .chars()
        .take(24)
        .flat_map(char::escape_debug)
        .collect();
    if token.chars().count() > 24 {
        text.push_str("...");
    }
    text
}

impl FromStr for Card {
    type Err = CardError;

    /// Parses one token; a failure reports position 1.
    fn from_str(token: &str) -> Result<Card, CardError> {
        parse_token(token, 1)
    }
}

pub(crate) fn parse_token(token: &str, position: usize) -> Result<Card, CardError> {
    let bad = || CardError::BadToken {
        token: token.to_string(),
        position,
        contest: false,
    };
    let mut chars = token.chars();
    let suit = chars
        .next_back()
        .and_then(Suit::from_letter)
        .ok_or_else(bad)?;
    let rank = Rank::from_symbol(chars.as_str()).ok_or_else(bad)?;
    Ok(Card { rank, suit })
}

/// The 52 cards of a standard deck, ordered by rank (deuce first) then suit
/// (clubs, diamonds, hearts, spades).
pub fn standard_deck() -> Vec<Card> {
    Rank::all()
        .flat_map(|rank| Suit::ALL.map(|suit| Card { rank, suit }))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card_list::parse_cards;

    #[test]
    fn tokens_parse_in_every_spelling() {
        let ten_spades = Card::new(Rank::TEN, Suit::Spades);
        for token in ["TS", "ts", "10S", "10s", "tS"] {
            assert_eq!(token.parse::<Card>(), Ok(ten_spades), "{token}");
        }
        assert_eq!("ah".parse::<Card>(), Ok(Card::new(Rank::ACE, Suit::Hearts)));
        assert_eq!("2c".parse::<Card>().unwrap().to_string(), "2C");
    }

    #[test]
    fn malformed_tokens_are_rejected_with_their_position() {
        for token in ["", "1S", "11S", "TX", "T", "S", "ZZ", "9SS", "0S"] {
            assert!(
                token.parse::<Card>().is_err(),
                "{token:?} should be rejected"
            );
        }
        assert_eq!(
            parse_cards("AS KX"),
            Err(CardError::BadToken {
                token: "KX".into(),
                position: 2,
                contest: false,
            })
        );
    }

    #[test]
    fn duplicates_are_rejected() {
        assert_eq!(
            parse_cards("AS 9h as"),
            Err(CardError::Duplicate {
                card: Card::new(Rank::ACE, Suit::Spades)
            })
        );
    }

    #[test]
    fn names_follow_the_case_study() {
        assert_eq!(
            Card::new(Rank::KING, Suit::Clubs).long_name(),
            "King of Clubs"
        );
        assert_eq!(
            Card::new(Rank::TWO, Suit::Diamonds).long_name(),
            "Deuce of Diamonds"
        );
        assert_eq!(Card::new(Rank::TEN, Suit::Clubs).token_with_ten(), "10C");
    }

    #[test]
    fn microsoft_indices_follow_seed_000() {
        // Seed 000: 0 = AC, 1 = AD, 2 = AH, 3 = AS, 4 = 2C, ..., 51 = KS.
        for (index, token) in [
            (0, "AC"),
            (1, "AD"),
            (3, "AS"),
            (4, "2C"),
            (37, "TD"),
            (51, "KS"),
        ] {
            let card: Card = token.parse().unwrap();
            assert_eq!(card.index(), index, "{token}");
            assert_eq!(Card::from_index(index), Some(card));
        }
        assert_eq!(Card::from_index(52), None);
        for i in 0..52 {
            assert_eq!(Card::from_index(i).unwrap().index(), i);
        }
    }

    #[test]
    fn standard_deck_has_52_distinct_cards() {
        let deck = standard_deck();
        assert_eq!(deck.len(), 52);
        let mut sorted = deck.clone();
        sorted.dedup();
        assert_eq!(sorted.len(), 52);
    }
}
