//! Five-card hand categories, shared by full 52-card poker and the contest's
//! 24-card scoring.
//!
//! Categories follow standard poker (a straight is five consecutive ranks,
//! the wheel A-2-3-4-5 included; aces do not wrap round otherwise). The
//! contest ("Poker American") gives them points in its own order,
//! where a flush (7) outranks four of a kind (6): see [`Category::contest_points`].

use crate::card_list::{CardList, parse_card_list};
use crate::cards::{Card, CardError};
use std::fmt;

/// The category of a five-card hand, weakest first in standard poker order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// None of the below ("nimic" in the contest, 0 points).
    HighCard,
    /// Two cards of one rank ("o pereche", 1 point).
    OnePair,
    /// Two pairs ("două perechi", 2 points).
    TwoPair,
    /// Three of one rank, the other two differing from it and each other
    /// ("trei bucăți", 3 points).
    ThreeOfAKind,
    /// Five consecutive ranks, not all one suit ("chintă", 4 points).
    Straight,
    /// Five cards of one suit, not a straight ("culoare", 7 points).
    Flush,
    /// Three of a kind and a pair ("full", 5 points).
    FullHouse,
    /// Four of one rank ("careu", 6 points).
    FourOfAKind,
    /// A straight all of one suit; in the contest deck always 9-K or T-A,
    /// the "quintă regală" (8 points).
    StraightFlush,
}

impl Category {
    /// All nine categories, weakest first in standard poker order.
    pub const ALL: [Category; 9] = [
        Category::HighCard,
        Category::OnePair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
    ];

    /// Points per column in the contest text: straight flush 8,
    /// flush 7, four of a kind 6, full house 5, straight 4, three of a kind 3,
    /// two pair 2, one pair 1, nothing 0.
    pub fn contest_points(self) -> u8 {
        match self {
            Category::StraightFlush => 8,
            Category::Flush => 7,
            Category::FourOfAKind => 6,
            Category::FullHouse => 5,
            Category::Straight => 4,
            Category::ThreeOfAKind => 3,
            Category::TwoPair => 2,
            Category::OnePair => 1,
            Category::HighCard => 0,
        }
    }

    /// The category's English name: "straight flush", "two pair", ...
    pub fn name(self) -> &'static str {
        match self {
            Category::StraightFlush => "straight flush",
            Category::Flush => "flush",
            Category::FourOfAKind => "four of a kind",
            Category::FullHouse => "full house",
            Category::Straight => "straight",
            Category::ThreeOfAKind => "three of a kind",
            Category::TwoPair => "two pair",
            Category::OnePair => "one pair",
            Category::HighCard => "high card",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The category of five cards (any order). The cards are assumed distinct;
/// with repeated cards the result is still defined but meaningless.
///
/// The contest's points are the scoring table's (straight flush 8, full
/// house 5, ... nothing 0):
///
/// ```
/// use poker_core::hand::{Category, categorize, parse_hand};
///
/// let royal = categorize(&parse_hand("AS KS QS JS 10S")?);
/// assert_eq!(royal, Category::StraightFlush);
/// assert_eq!(royal.contest_points(), 8);
/// let full = categorize(&parse_hand("9h 9d 9c kh ks")?);
/// assert_eq!((full, full.contest_points()), (Category::FullHouse, 5));
/// assert_eq!(categorize(&parse_hand("2C 7D 9H JS KC")?), Category::HighCard);
/// # Ok::<(), poker_core::cards::CardError>(())
/// ```
pub fn categorize(cards: &[Card; 5]) -> Category {
    // Count cards per rank value (2..=14) and collect the rank bit set.
    let mut counts = [0u8; 15];
    let mut rank_bits: u16 = 0;
    for card in cards {
        let v = usize::from(card.rank.value());
        counts[v] += 1;
        rank_bits |= 1 << v;
    }
    let flush = cards.iter().all(|c| c.suit == cards[0].suit);
    let straight = is_straight(rank_bits);
    let mut max = 0;
    let mut pairs = 0;
    for &n in &counts {
        max = max.max(n);
        pairs += u8::from(n == 2);
    }
    match (straight, flush, max, pairs) {
        (true, true, _, _) => Category::StraightFlush,
        (_, _, 4, _) => Category::FourOfAKind,
        (_, _, 3, 1) => Category::FullHouse,
        (_, true, _, _) => Category::Flush,
        (true, _, _, _) => Category::Straight,
        (_, _, 3, _) => Category::ThreeOfAKind,
        (_, _, _, 2) => Category::TwoPair,
        (_, _, _, 1) => Category::OnePair,
        _ => Category::HighCard,
    }
}

/// Parses a five-card hand from the full 52-card deck: five distinct
/// whitespace-separated tokens (`AS KS QS JS TS`, `10h`, any case). Bad
/// tokens, duplicates and any other number of cards are errors.
pub fn parse_hand(text: &str) -> Result<[Card; 5], CardError> {
    let cards = parse_card_list(text, CardList::HAND)?;
    Ok(cards.try_into().expect("CardList::HAND holds five cards"))
}

/// Five distinct ranks in a row, bit `v` set for rank value `v`; the ace
/// (bit 14) also counts low for the wheel A-2-3-4-5.
fn is_straight(rank_bits: u16) -> bool {
    if rank_bits.count_ones() != 5 {
        return false;
    }
    let low = rank_bits.trailing_zeros();
    rank_bits == 0b11111 << low || rank_bits == (1 << 14) | (0b1111 << 2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card_list::parse_cards;

    fn category(text: &str) -> Category {
        let cards: [Card; 5] = parse_cards(text).unwrap().try_into().unwrap();
        categorize(&cards)
    }

    #[test]
    fn every_category_from_hand_made_hands() {
        assert_eq!(category("KS 9S QS TS JS"), Category::StraightFlush);
        assert_eq!(category("5D AD 3D 2D 4D"), Category::StraightFlush);
        assert_eq!(category("9S AS TS KS QS"), Category::Flush);
        assert_eq!(category("QS QH QD QC JS"), Category::FourOfAKind);
        assert_eq!(category("QS QH QD JC JS"), Category::FullHouse);
        assert_eq!(category("QC KD JH AS TC"), Category::Straight);
        assert_eq!(category("AC 2D 3H 4S 5C"), Category::Straight);
        assert_eq!(category("9S 9H 9D AS KC"), Category::ThreeOfAKind);
        assert_eq!(category("JS JH QD QS TC"), Category::TwoPair);
        assert_eq!(category("9S 9H AD KS QC"), Category::OnePair);
        assert_eq!(category("AS KS QS JS 9H"), Category::HighCard);
        // Aces do not wrap round: Q-K-A-2-3 is no straight.
        assert_eq!(category("QS KH AD 2S 3C"), Category::HighCard);
    }

    #[test]
    fn hands_parse_only_as_five_distinct_cards() {
        assert!(parse_hand("as ks qs js 10s").is_ok());
        assert_eq!(
            parse_hand("AS KS QS JS"),
            Err(CardError::WrongCount {
                expected: 5,
                found: 4
            })
        );
        assert!(matches!(
            parse_hand("AS KS QS JS AS"),
            Err(CardError::Duplicate { .. })
        ));
        assert!(matches!(
            parse_hand("AS KS QS JS 1S"),
            Err(CardError::BadToken { position: 5, .. })
        ));
    }

    #[test]
    fn contest_points_follow_the_seed_table() {
        let points: Vec<u8> = Category::ALL.iter().map(|c| c.contest_points()).collect();
        // HighCard, OnePair, TwoPair, Three, Straight, Flush, FullHouse, Four, StraightFlush
        assert_eq!(points, [0, 1, 2, 3, 4, 7, 5, 6, 8]);
    }
}
