//! Deals as text: the fc-solve column layout, the seed's rows, the flat order.

use super::{COLUMNS, Deal};
use crate::cards::Card;

/// How a deal is laid out as text. Every layout ends each line with `\n`
/// and separates cards with one space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Layout {
    /// fc-solve / PySol board: 8 lines, one per column left to right, each
    /// from the deepest card (dealt first) to the exposed one (7 cards in
    /// columns 1-4, 6 in 5-8). Deal 1 starts `JD KD 2S 4C 3S 6D 6S`.
    #[default]
    Columns,
    /// The seed's layout: 7 lines, six rows of 8 cards and a last of 4, in
    /// dealing order. Deal 1 starts `JD 2D 9H JC 5D 7H 7C 5H`.
    Rows,
    /// One line: the 52 cards in dealing order.
    Order,
}

/// How a ten is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Tens {
    /// `T` (`TS`), as fc-solve, PySol and the seed write it.
    #[default]
    T,
    /// `10` (`10S`).
    Ten,
}

impl Tens {
    /// A card's token with tens written this way.
    pub fn token(self, card: Card) -> String {
        match self {
            Tens::T => card.to_string(),
            Tens::Ten => card.token_with_ten(),
        }
    }
}

impl Deal {
    /// The deal as text in a layout; see [`Layout`].
    pub fn format(&self, layout: Layout, tens: Tens) -> String {
        format(self, layout, tens)
    }
}

fn format(deal: &Deal, layout: Layout, tens: Tens) -> String {
    let lines: Vec<Vec<Card>> = match layout {
        Layout::Columns => deal.columns().into_iter().collect(),
        Layout::Rows => deal.rows(),
        Layout::Order => vec![deal.cards().to_vec()],
    };
    let mut text = String::with_capacity(4 * 52 + COLUMNS);
    for line in lines {
        let tokens: Vec<String> = line.iter().map(|&c| tens.token(c)).collect();
        text.push_str(&tokens.join(" "));
        text.push('\n');
    }
    text
}
