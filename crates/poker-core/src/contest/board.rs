//! The board of four columns, its scoring, and the printed report.

use super::{COLUMN_HEIGHT, COLUMNS};
use crate::cards::{Card, Rank, Suit};
use crate::hand::{Category, categorize};
use std::fmt::Write;

/// Four columns of up to five cards each; column 1 is index 0, and within a
/// column the first card placed is at index 0 (the top row of the report).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    cards: [[Card; COLUMN_HEIGHT]; COLUMNS],
    heights: [u8; COLUMNS],
}

/// One column's hand and its contest points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnScore {
    /// The five-card category of the column.
    pub category: Category,
    /// Its points, 0..=8 (see [`Category::contest_points`]).
    pub points: u8,
}

/// The score of a full board: each column's, and the total 0..=32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// Columns 1..4 in order.
    pub columns: [ColumnScore; COLUMNS],
    /// The sum of the columns' points, 0..=32.
    pub total: u8,
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    /// An empty board.
    pub fn new() -> Board {
        Board {
            cards: [[Card::new(Rank::NINE, Suit::Clubs); COLUMN_HEIGHT]; COLUMNS],
            heights: [0; COLUMNS],
        }
    }

    /// A full board from its four columns (each 5 cards, first placed first).
    pub fn from_columns(columns: [[Card; COLUMN_HEIGHT]; COLUMNS]) -> Board {
        Board {
            cards: columns,
            heights: [COLUMN_HEIGHT as u8; COLUMNS],
        }
    }

    /// The cards of column `index` (0-based), first placed first.
    pub fn column(&self, index: usize) -> &[Card] {
        &self.cards[index][..usize::from(self.heights[index])]
    }

    /// The number of cards in each column.
    pub fn heights(&self) -> [u8; COLUMNS] {
        self.heights
    }

    /// Whether every column holds five cards.
    pub(crate) fn is_full(&self) -> bool {
        self.heights
            .iter()
            .all(|&h| usize::from(h) == COLUMN_HEIGHT)
    }

    /// Puts `card` on column `index` (0-based). The caller checks the rules;
    /// this only refuses a full column (returns false).
    pub(crate) fn push(&mut self, index: usize, card: Card) -> bool {
        let height = usize::from(self.heights[index]);
        if height == COLUMN_HEIGHT {
            return false;
        }
        self.cards[index][height] = card;
        self.heights[index] += 1;
        true
    }

    /// The contest score of a full board, or `None` while a column is short.
    pub fn score(&self) -> Option<Score> {
        if !self.is_full() {
            return None;
        }
        let columns = self.cards.map(|hand| {
            let category = categorize(&hand);
            ColumnScore {
                category,
                points: category.contest_points(),
            }
        });
        let total = columns.iter().map(|c| c.points).sum();
        Some(Score { columns, total })
    }

    /// The board as the contest text prints it: one row per line, top row
    /// first, column 1 on the left, each card as its token (ten written `T`,
    /// as in deck files and replay lines); then, for a full board,
    /// each column's category and points and a last line `total: N`.
    pub fn report(&self) -> String {
        let mut out = String::new();
        for row in 0..COLUMN_HEIGHT {
            for column in 0..COLUMNS {
                let cell = self
                    .column(column)
                    .get(row)
                    .map_or("--".to_string(), |c| c.to_string());
                let _ = write!(out, "{cell:>4}");
            }
            out.push('\n');
        }
        if let Some(score) = self.score() {
            for (i, column) in score.columns.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "column {}: {} ({} {})",
                    i + 1,
                    column.category,
                    column.points,
                    if column.points == 1 {
                        "point"
                    } else {
                        "points"
                    }
                );
            }
            let _ = writeln!(out, "total: {}", score.total);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card_list::parse_cards;

    /// The contest text's worked example, rows top to bottom, with
    /// its suits T=clubs, C=hearts, P=spades, R=diamonds translated.
    fn seed_example() -> Board {
        let rows = [
            "JC 10H 9H QS",
            "9S 10D AS QD",
            "KC 10C KS KD",
            "KH AC 9C QH",
            "JD AD JH 9D",
        ];
        let mut board = Board::new();
        for row in rows {
            for (column, card) in parse_cards(row).unwrap().into_iter().enumerate() {
                assert!(board.push(column, card));
            }
        }
        board
    }

    #[test]
    fn seed_worked_example_scores_eleven() {
        let score = seed_example().score().unwrap();
        let points: Vec<u8> = score.columns.iter().map(|c| c.points).collect();
        assert_eq!(points, [2, 5, 1, 3]);
        assert_eq!(score.total, 11);
    }

    #[test]
    fn report_shows_rows_categories_and_total() {
        let report = seed_example().report();
        let lines: Vec<&str> = report.lines().collect();
        assert_eq!(lines[0], "  JC  TH  9H  QS");
        assert_eq!(lines[5], "column 1: two pair (2 points)");
        assert_eq!(lines[7], "column 3: one pair (1 point)");
        assert_eq!(lines.last(), Some(&"total: 11"));
    }

    #[test]
    fn partial_board_has_no_score() {
        let mut board = Board::new();
        board.push(0, "AS".parse().unwrap());
        assert_eq!(board.score(), None);
        assert!(board.report().starts_with("  AS  --"));
    }
}
