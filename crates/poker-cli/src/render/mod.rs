//! Pictures: the HTML evaluation and benchmark reports and the SVG drawings
//! of Camicia games and FreeCell deals. Pages are minijinja templates with
//! HTML auto-escaping (everything a contestant controls is escaped) and
//! inline CSS and SVG only: one file, no network.

mod charts;
mod eval;
mod hunt;

pub use charts::{BenchPage, bench_page, camicia_svg, freecell_svg};
pub use eval::eval_page;
pub use hunt::camicia_merge_page;

use minijinja::Environment;
use poker_core::cards::{Card, Rank, Suit};
use poker_core::contest::Board;
use serde::Serialize;

/// A card as drawn: its rank (`10` for ten), suit symbol and colour.
#[derive(Serialize)]
struct CardView {
    rank: String,
    suit: &'static str,
    red: bool,
    token: String,
    name: String,
}

impl CardView {
    fn new(card: Card) -> CardView {
        let rank = if card.rank == Rank::TEN {
            "10".to_string()
        } else {
            card.rank.symbol().to_string()
        };
        CardView {
            rank,
            suit: suit_symbol(card.suit),
            red: matches!(card.suit, Suit::Hearts | Suit::Diamonds),
            token: card.to_string(),
            name: card.long_name(),
        }
    }
}

/// The suit's symbol: ♠ ♥ ♦ ♣.
fn suit_symbol(suit: Suit) -> &'static str {
    match suit {
        Suit::Spades => "\u{2660}",
        Suit::Hearts => "\u{2665}",
        Suit::Diamonds => "\u{2666}",
        Suit::Clubs => "\u{2663}",
    }
}

/// A column as drawn: its cards and, when full, its hand and points.
#[derive(Serialize)]
struct ColumnView {
    cards: Vec<CardView>,
    hand: Option<&'static str>,
    points: Option<u8>,
}

/// A board as drawn, with its total when full.
#[derive(Serialize)]
struct BoardView {
    columns: Vec<ColumnView>,
    total: Option<u8>,
}

impl BoardView {
    /// The board of four columns of `columns`' cards (a full board is
    /// scored by the contest's own scorer).
    fn new(columns: &[Vec<Card>; 4]) -> BoardView {
        let score = <[[Card; 5]; 4]>::try_from(
            columns
                .iter()
                .map(|c| <[Card; 5]>::try_from(c.as_slice()).ok())
                .collect::<Option<Vec<_>>>()
                .unwrap_or_default(),
        )
        .ok()
        .and_then(|full| Board::from_columns(full).score());
        BoardView {
            columns: columns
                .iter()
                .enumerate()
                .map(|(i, cards)| ColumnView {
                    cards: cards.iter().map(|&c| CardView::new(c)).collect(),
                    hand: score.map(|s| s.columns[i].category.name()),
                    points: score.map(|s| s.columns[i].points),
                })
                .collect(),
            total: score.map(|s| s.total),
        }
    }

    fn of_board(board: &Board) -> BoardView {
        BoardView::new(&std::array::from_fn(|i| board.column(i).to_vec()))
    }
}

/// The pages' shared style sheet.
const STYLE: &str = include_str!("style.css");

/// The templates, HTML auto-escaped.
fn environment() -> Environment<'static> {
    let mut env = Environment::new();
    env.add_global("style", minijinja::Value::from_safe_string(STYLE.into()));
    // `{{ n|count }}`: a count as the text reports write it (`1,577,600`).
    env.add_filter("count", |n: u64| poker_core::numbers::count(n));
    env.add_template("eval.html", include_str!("eval.html"))
        .expect("the eval template is valid");
    env.add_template("bench.html", include_str!("bench.html"))
        .expect("the bench template is valid");
    env
}
