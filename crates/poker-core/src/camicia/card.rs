//! Camicia cards and the deck notation: exercism tokens (`2`..`10`, `J`, `Q`,
//! `K`, `A`), `T` for ten, and the record hunters' `-` runs (`---K--`).

use std::fmt;

/// One player of a Camicia game. A always plays first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The first player (`player_a`).
    A,
    /// The second player (`player_b`).
    B,
}

impl Player {
    /// 0 for A, 1 for B.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::A => Player::B,
            Player::B => Player::A,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::A => "A",
            Player::B => "B",
        })
    }
}

/// A Camicia card. Suits play no part in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Card {
    /// A number card: `Some(2..=10)`, or `None` for "some number card"
    /// (written `-`), whose value does not matter to the game.
    Number(Option<u8>),
    /// Jack: the opponent pays 1 card.
    Jack,
    /// Queen: the opponent pays 2 cards.
    Queen,
    /// King: the opponent pays 3 cards.
    King,
    /// Ace: the opponent pays 4 cards.
    Ace,
}

impl Card {
    /// The number of cards the opponent must pay: 0 for a number card,
    /// 1 (J), 2 (Q), 3 (K), 4 (A). This is all the simulator looks at.
    pub fn penalty(self) -> u8 {
        match self {
            Card::Number(_) => 0,
            Card::Jack => 1,
            Card::Queen => 2,
            Card::King => 3,
            Card::Ace => 4,
        }
    }

    /// The card with this penalty, number cards as `-`; `None` above 4.
    pub fn from_penalty(penalty: u8) -> Option<Card> {
        Some(match penalty {
            0 => Card::Number(None),
            1 => Card::Jack,
            2 => Card::Queen,
            3 => Card::King,
            4 => Card::Ace,
            _ => return None,
        })
    }

    /// Parses one single-card token (case-insensitive): `2`..`10`, `T`,
    /// `J`, `Q`, `K`, `A` or `-`.
    pub fn from_token(token: &str) -> Option<Card> {
        Self::from_token_bytes(token.as_bytes())
    }

    fn from_token_bytes(token: &[u8]) -> Option<Card> {
        Some(match token {
            b"10" | b"T" | b"t" => Card::Number(Some(10)),
            [d @ b'2'..=b'9'] => Card::Number(Some(d - b'0')),
            b"-" => Card::Number(None),
            [c] => Self::from_letter(*c)?,
            _ => return None,
        })
    }

    /// A payment card letter (case-insensitive) or `-`.
    fn from_letter(c: u8) -> Option<Card> {
        Some(match c.to_ascii_uppercase() {
            b'-' => Card::Number(None),
            b'J' => Card::Jack,
            b'Q' => Card::Queen,
            b'K' => Card::King,
            b'A' => Card::Ace,
            _ => return None,
        })
    }
}

impl fmt::Display for Card {
    /// Exercism's form (`2`..`10`, `J`, `Q`, `K`, `A`), `-` for an
    /// unspecified number card.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Card::Number(Some(n)) => write!(f, "{n}"),
            Card::Number(None) => f.write_str("-"),
            Card::Jack => f.write_str("J"),
            Card::Queen => f.write_str("Q"),
            Card::King => f.write_str("K"),
            Card::Ace => f.write_str("A"),
        }
    }
}

/// A token that is not a card, and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Whose deck string holds it.
    pub player: Player,
    /// 0-based number of the whitespace-separated token in that string.
    pub token_index: usize,
    /// Byte offset of the token's first byte in that string.
    pub byte_offset: usize,
    /// The token as written (lossily decoded if it is not UTF-8).
    pub token: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "player {}: '{}' is not a card (token {}, byte {}, both counted from 0); cards are \
             2..10, T, J, Q, K, A, or runs of -, J, Q, K, A such as ---K--",
            self.player, self.token, self.token_index, self.byte_offset
        )
    }
}

impl std::error::Error for ParseError {}

/// Parses one player's deck, top card first.
///
/// The string is a whitespace-separated list of tokens, case-insensitive.
/// A token is one card (`2`..`10`, `T` for ten, `J`, `Q`, `K`, `A`, or `-`
/// for "some number card"), or a run of several one-character cards from
/// `-`, `J`, `Q`, `K`, `A` written together (`---K---Q-KQAJ--`). An empty or
/// blank string is an empty deck.
pub fn parse_deck(text: &str, player: Player) -> Result<Vec<Card>, ParseError> {
    parse_deck_bytes(text.as_bytes(), player)
}

/// [`parse_deck`] over bytes (as they come from C); non-ASCII bytes are
/// never part of a card.
pub fn parse_deck_bytes(text: &[u8], player: Player) -> Result<Vec<Card>, ParseError> {
    let mut cards = Vec::new();
    let mut token_index = 0;
    let mut i = 0;
    while i < text.len() {
        if text[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < text.len() && !text[i].is_ascii_whitespace() {
            i += 1;
        }
        let token = &text[start..i];
        if let Some(card) = Card::from_token_bytes(token) {
            cards.push(card);
        } else if token.iter().all(|&c| Card::from_letter(c).is_some()) {
            cards.extend(token.iter().filter_map(|&c| Card::from_letter(c)));
        } else {
            return Err(ParseError {
                player,
                token_index,
                byte_offset: start,
                token: String::from_utf8_lossy(token).into_owned(),
            });
        }
        token_index += 1;
    }
    Ok(cards)
}

/// The penalties (0..=4) of `cards`, in order.
pub fn penalties(cards: &[Card]) -> Vec<u8> {
    cards.iter().map(|c| c.penalty()).collect()
}

/// Writes penalties in the record notation: `-` for number cards, then
/// `J`, `Q`, `K`, `A`, all together (`---K---Q-KQAJ`). Values above 4 print
/// as `?`.
pub fn notation(penalties: &[u8]) -> String {
    penalties
        .iter()
        .map(|&p| match p {
            0 => '-',
            1 => 'J',
            2 => 'Q',
            3 => 'K',
            4 => 'A',
            _ => '?',
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_is_one_token_and_t_is_ten() {
        let deck = parse_deck("10 t T", Player::A).unwrap();
        assert_eq!(deck, vec![Card::Number(Some(10)); 3]);
    }

    #[test]
    fn dash_runs_expand_to_one_card_per_character() {
        let deck = parse_deck("--k- a", Player::A).unwrap();
        assert_eq!(penalties(&deck), vec![0, 0, 3, 0, 4]);
    }

    #[test]
    fn bad_token_reports_its_number_and_offset() {
        let err = parse_deck("2  3 1 J", Player::B).unwrap_err();
        assert_eq!(
            (
                err.player,
                err.token_index,
                err.byte_offset,
                err.token.as_str()
            ),
            (Player::B, 2, 5, "1")
        );
    }

    // "2 X 3": X is the second token (1 from 0) and starts at byte 2 (from
    // 0); the message counts both as CamiciaError's fields do.
    #[test]
    fn a_token_error_counts_token_and_byte_alike() {
        let err = parse_deck("2 X 3", Player::A).unwrap_err();
        assert_eq!((err.token_index, err.byte_offset), (1, 2));
        assert!(
            err.to_string()
                .starts_with("player A: 'X' is not a card (token 1, byte 2, both counted from 0);"),
            "{err}"
        );
    }
}
