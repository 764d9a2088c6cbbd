//! The contest's integer encoding of cards (POKER.H): value 1..6 = 9, 10, J,
//! Q, K, A; color 1..4 = spades, hearts, diamonds, clubs.

use crate::cards::{Card, CardError, Rank, Suit};

const COLORS: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

/// The card's `(value, color)` in the contest's encoding, or `None` for a
/// card outside the 24-card deck (ranks 2..8).
pub fn card_code(card: Card) -> Option<(i32, i32)> {
    let value = i32::from(card.rank.value()) - 8;
    if !(1..=6).contains(&value) {
        return None;
    }
    let color = COLORS.iter().position(|&s| s == card.suit)? as i32 + 1;
    Some((value, color))
}

/// The card with contest `value` 1..6 and `color` 1..4, or `None` when
/// either is out of range.
pub fn card_from_code(value: i32, color: i32) -> Option<Card> {
    if !(1..=6).contains(&value) || !(1..=4).contains(&color) {
        return None;
    }
    let rank = Rank::new((value + 8) as u8)?;
    Some(Card::new(rank, COLORS[(color - 1) as usize]))
}

/// The card with contest `value` and `color`, as entry `position` (1-based)
/// of a list: [`CardError::OutOfRange`] when either is out of range.
pub fn decode_card(value: i32, color: i32, position: usize) -> Result<Card, CardError> {
    card_from_code(value, color).ok_or_else(|| CardError::OutOfRange {
        position,
        given: format!("value {value} color {color}"),
        range: "a contest card (value 1..6, color 1..4)",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_matches_poker_h() {
        // From the contest text: value 1 = nine, 6 = ace; color 1 = spades, 4 = clubs.
        assert_eq!(card_code("9S".parse().unwrap()), Some((1, 1)));
        assert_eq!(card_code("TH".parse().unwrap()), Some((2, 2)));
        assert_eq!(card_code("JD".parse().unwrap()), Some((3, 3)));
        assert_eq!(card_code("AC".parse().unwrap()), Some((6, 4)));
        assert_eq!(card_code("8C".parse().unwrap()), None);
        assert_eq!(card_from_code(5, 2), Some("KH".parse().unwrap()));
        assert_eq!(card_from_code(0, 1), None);
        assert_eq!(card_from_code(1, 5), None);
        assert!(matches!(
            decode_card(7, 1, 3),
            Err(CardError::OutOfRange { position: 3, .. })
        ));
    }
}
