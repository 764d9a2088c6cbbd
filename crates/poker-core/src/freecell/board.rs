//! Reading a board back from text, for the reverse search.

use super::{CARDS, COLUMNS};
use crate::card_list::CardList;
use crate::cards::Card;
use std::fmt;

/// Card counts per column (fc-solve layout) and per row (the seed's layout).
const COLUMN_LENGTHS: [usize; COLUMNS] = [7, 7, 7, 7, 6, 6, 6, 6];
const ROW_LENGTHS: [usize; 7] = [8, 8, 8, 8, 8, 8, 4];

/// What is wrong with a board's shape.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShapeProblem {
    /// One line of a column or row layout has the wrong number of cards.
    WrongLength {
        /// `"column"` (8-line layout) or `"row"` (7-line layout).
        kind: &'static str,
        /// 1-based column or row number.
        number: usize,
        /// Cards found on it.
        found: usize,
        /// Cards it should hold.
        expected: usize,
    },
    /// A number of card lines that is no layout at all (neither 8 columns,
    /// 7 rows nor one line of 52).
    LineCount(usize),
}

impl fmt::Display for ShapeProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeProblem::WrongLength {
                kind,
                number,
                found,
                expected,
            } => write!(f, "{kind} {number} has {found} cards, expected {expected}"),
            ShapeProblem::LineCount(n) => write!(
                f,
                "found {n} lines of cards, expected 8 columns (7,7,7,7,6,6,6,6 cards), \
                 7 rows (8,8,8,8,8,8,4 cards) or one line of 52 cards"
            ),
        }
    }
}

/// Why a text is not a FreeCell board.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoardError {
    /// A token that is not a card.
    BadToken {
        /// 1-based line number in the text.
        line: usize,
        /// 1-based position of the token on its line.
        position: usize,
        /// The token.
        token: String,
    },
    /// The cards are not a full deck, or not laid out as a deal.
    Invalid {
        /// Cards given more than once.
        duplicates: Vec<Card>,
        /// Cards of the deck not given.
        missing: Vec<Card>,
        /// Wrong column (or row) lengths.
        shape: Vec<ShapeProblem>,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::BadToken {
                line,
                position,
                token,
            } => write!(
                f,
                "line {line}, card {position}: '{token}' is not a card \
                 (rank A, 2-9, T or 10, J, Q, K followed by suit C, D, H or S)"
            ),
            BoardError::Invalid {
                duplicates,
                missing,
                shape,
            } => {
                let list = |cards: &[Card]| {
                    cards
                        .iter()
                        .map(Card::to_string)
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                let mut parts = Vec::new();
                if !duplicates.is_empty() {
                    parts.push(format!("duplicate cards: {}", list(duplicates)));
                }
                if !missing.is_empty() {
                    parts.push(format!("missing cards: {}", list(missing)));
                }
                if !shape.is_empty() {
                    let problems: Vec<String> = shape.iter().map(|p| p.to_string()).collect();
                    parts.push(format!("wrong layout: {}", problems.join(", ")));
                }
                write!(f, "not a FreeCell deal: {}", parts.join("; "))
            }
        }
    }
}

impl std::error::Error for BoardError {}

/// Parses a board and returns its 52 cards in dealing order.
///
/// Accepted: the fc-solve layout (8 lines, one per column, deepest card
/// first), the seed's layout (7 rows of 8, 8, 8, 8, 8, 8, 4) or the flat
/// dealing order on one line. Tens as `T` or `10`, any case. Blank lines,
/// `#` comments, a leading `:` on a line (fc-solve) and the brackets, quotes
/// and commas of the seed's array notation are ignored.
pub fn parse_board(text: &str) -> Result<[Card; CARDS], BoardError> {
    board_of_lines(card_lines(text)?)
}

/// Parses a whole board as [`parse_board`] does, or the start of one: fewer
/// than 52 cards on one line, in dealing order (the first card dealt
/// first). Returns the cards in dealing order. A card given twice in a
/// start is [`BoardError::Invalid`] with it among the duplicates.
pub fn parse_partial_board(text: &str) -> Result<Vec<Card>, BoardError> {
    let lines = card_lines(text)?;
    if lines.len() == 1 && lines[0].len() < CARDS {
        let duplicates = CardList::DECK.census(&lines[0]).duplicates;
        if !duplicates.is_empty() {
            return Err(BoardError::Invalid {
                duplicates,
                missing: Vec::new(),
                shape: Vec::new(),
            });
        }
        return Ok(lines.into_iter().next().unwrap_or_default());
    }
    board_of_lines(lines).map(|board| board.to_vec())
}

/// The cards of each line holding any, comments and notation removed.
fn card_lines(text: &str) -> Result<Vec<Vec<Card>>, BoardError> {
    let mut lines: Vec<Vec<Card>> = Vec::new();
    for (line_index, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("");
        let line = line.trim_start().trim_start_matches(':');
        let cleaned: String = line
            .chars()
            .map(|c| if "[]'\",".contains(c) { ' ' } else { c })
            .collect();
        let mut cards = Vec::new();
        for (i, token) in cleaned.split_whitespace().enumerate() {
            let card = token.parse::<Card>().map_err(|_| BoardError::BadToken {
                line: line_index + 1,
                position: i + 1,
                token: token.to_string(),
            })?;
            cards.push(card);
        }
        if !cards.is_empty() {
            lines.push(cards);
        }
    }
    Ok(lines)
}

/// A full board from its card lines, or what is wrong with it.
fn board_of_lines(lines: Vec<Vec<Card>>) -> Result<[Card; CARDS], BoardError> {
    let all: Vec<Card> = lines.iter().flatten().copied().collect();
    // Every card of the 52-card deck is in it, so the census finds none
    // outside.
    let census = CardList::DECK.census(&all);
    let shape = shape_problems(&lines);
    if !census.is_whole_deck() || !shape.is_empty() {
        return Err(BoardError::Invalid {
            duplicates: census.duplicates,
            missing: census.missing,
            shape,
        });
    }

    let mut order = [all[0]; CARDS];
    if lines.len() == COLUMNS {
        for (c, column) in lines.iter().enumerate() {
            for (row, &card) in column.iter().enumerate() {
                order[row * COLUMNS + c] = card;
            }
        }
    } else {
        for (k, &card) in lines.iter().flatten().enumerate() {
            order[k] = card;
        }
    }
    Ok(order)
}

fn shape_problems(lines: &[Vec<Card>]) -> Vec<ShapeProblem> {
    let check = |kind, expected: &[usize]| {
        lines
            .iter()
            .zip(expected)
            .enumerate()
            .filter(|(_, (line, want))| line.len() != **want)
            .map(|(i, (line, &want))| ShapeProblem::WrongLength {
                kind,
                number: i + 1,
                found: line.len(),
                expected: want,
            })
            .collect()
    };
    match lines.len() {
        COLUMNS => check("column", &COLUMN_LENGTHS),
        7 => check("row", &ROW_LENGTHS),
        1 if lines[0].len() == CARDS => Vec::new(),
        n => vec![ShapeProblem::LineCount(n)],
    }
}
