//! The hindsight optimum of a contest deck: the best total any balanced
//! placement of its 20 dealt cards could reach if all of them were known in
//! advance.
//!
//! The balance rule sends each block of 4 consecutive cards (block `k` is
//! cards `4k..4k+3`) one to each column, in any order. Columns are
//! interchangeable, so we may name them after block 0: column `j` is the one
//! that holds block 0's card `j`. A placement is then a choice, for each of
//! the blocks 1..4, of which card goes to which column: `24^4 = 331,776`
//! placements, each a partition of the 20 cards into four hands.
//!
//! The search splits the columns into two pairs. For columns {1, 2} it
//! records, for every way of taking two cards from each of the blocks 1..4
//! (`6^4 = 1296` ways), the best points the pair can score with them;
//! likewise for columns {3, 4}. The optimum is the best sum over
//! complementary ways. That is about 2 x 20,736 table look-ups per deck
//! (tens of microseconds), and exact.

use crate::card_list::CardList;
use crate::cards::{Card, CardError, Rank};
use crate::contest::{Board, COLUMN_HEIGHT, COLUMNS, ContestDeck, PLACEMENTS};
use std::sync::OnceLock;

/// Blocks of four cards among the placed ones.
const BLOCKS: usize = PLACEMENTS / COLUMNS;

/// A best placement of a deal and its total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Optimum {
    /// The best total any balanced placement reaches, 0..=32.
    pub total: u8,
    /// One placement reaching it: `columns[i]` is the column, 1..=4, of the
    /// `i`-th card dealt (0-based). Each block of 4 cards uses each column
    /// once, so placing the cards in dealing order keeps the balance rule.
    pub columns: [u8; PLACEMENTS],
    cards: [Card; PLACEMENTS],
}

impl Optimum {
    /// The board of this placement (columns filled in dealing order), for
    /// [`Board::score`] or [`Board::report`].
    pub fn board(&self) -> Board {
        let mut columns = [[self.cards[0]; COLUMN_HEIGHT]; COLUMNS];
        for (i, (&card, &column)) in self.cards.iter().zip(&self.columns).enumerate() {
            columns[usize::from(column - 1)][i / COLUMNS] = card;
        }
        Board::from_columns(columns)
    }

    /// The cards dealt, in order.
    pub fn cards(&self) -> &[Card; PLACEMENTS] {
        &self.cards
    }
}

/// The hindsight optimum of a deck: only its first 20 cards are dealt.
///
/// The ordered deck deals `9C 9D 9H 9S TC ...`: one suit to each column,
/// 9 to K, gives four straight flushes, the most a board can score (4 x 8).
///
/// ```
/// use poker_core::contest::ContestDeck;
/// use poker_core::optimum::deck_optimum;
///
/// let best = deck_optimum(&ContestDeck::ordered());
/// assert_eq!(best.total, 32);
/// assert_eq!(best.board().score().map(|s| s.total), Some(32));
/// ```
pub fn deck_optimum(deck: &ContestDeck) -> Optimum {
    let dealt: [Card; PLACEMENTS] = deck.cards()[..PLACEMENTS]
        .try_into()
        .expect("a contest deck holds more than 20 cards");
    optimum_of_dealt(&dealt)
}

/// The hindsight optimum of 20 or 24 cards in dealing order (with 24, the
/// last 4 are never dealt and do not count). Every card must be one of the
/// contest deck's 24 (9..A) and appear once.
pub fn optimum(cards: &[Card]) -> Result<Optimum, CardError> {
    optimum_of_entries(cards.iter().copied().map(Ok))
}

/// [`optimum`] of decoded entries (see [`CardList::validate`]): the list is
/// checked by [`CardList::CONTEST_DEAL`], once.
pub fn optimum_of_entries<I>(entries: I) -> Result<Optimum, CardError>
where
    I: IntoIterator<Item = Result<Card, CardError>>,
{
    let cards = CardList::CONTEST_DEAL.validate(entries)?;
    let dealt: [Card; PLACEMENTS] = cards[..PLACEMENTS]
        .try_into()
        .expect("CardList::CONTEST_DEAL holds 20 or 24 cards");
    Ok(optimum_of_dealt(&dealt))
}

/// Contest points of five cards given as codes `rank * 4 + suit` (rank
/// 0..=5 for 9..A, suit 0..=3): the same table as
/// [`crate::hand::Category::contest_points`], computed directly.
fn points(codes: [u8; 5]) -> u8 {
    let mut counts = [0u8; 6];
    let mut rank_bits = 0u8;
    for &c in &codes {
        counts[usize::from(c >> 2)] += 1;
        rank_bits |= 1 << (c >> 2);
    }
    let flush = codes.iter().all(|&c| c & 3 == codes[0] & 3);
    // In 9..A the only straights are 9-K and T-A.
    let straight = rank_bits == 0b01_1111 || rank_bits == 0b11_1110;
    let max = counts.iter().copied().max().unwrap_or(0);
    let pairs = counts.iter().filter(|&&n| n == 2).count();
    match (straight, flush, max, pairs) {
        (true, true, _, _) => 8,
        (_, true, _, _) => 7,
        (_, _, 4, _) => 6,
        (_, _, 3, 1) => 5,
        (true, _, _, _) => 4,
        (_, _, 3, _) => 3,
        (_, _, _, 2) => 2,
        (_, _, _, 1) => 1,
        _ => 0,
    }
}

/// The code `rank * 4 + suit` of a contest card (9..A, as validated).
fn code(card: Card) -> u8 {
    (card.rank.value() - Rank::NINE.value()) * 4 + card.suit.index() as u8
}

/// Index 0..6 of the unordered pair {a, b} of distinct positions 0..4 in a
/// block, ordered so that the complementary pair has index `5 - index`.
const PAIR: [[u16; 4]; 4] = [[9, 0, 1, 2], [0, 9, 3, 4], [1, 3, 9, 5], [2, 4, 5, 9]];
/// Ways to take two cards from each of the blocks 1..4.
const WAYS: usize = 6 * 6 * 6 * 6;

/// Every pair of disjoint choices `(t0, t1)` for two columns, with the way
/// (0..1296) in which together they take two cards from each of blocks
/// 1..4. A choice `t` picks card `(t >> 2(k-1)) & 3` of block `k` for `k`
/// in 1..=4. There are `(4 * 3)^4 = 20,736` such pairs.
fn disjoint_pairs() -> &'static [(u8, u8, u16)] {
    static PAIRS: OnceLock<Vec<(u8, u8, u16)>> = OnceLock::new();
    PAIRS.get_or_init(|| {
        let mut pairs = Vec::with_capacity(20_736);
        for t0 in 0..256usize {
            for t1 in 0..256usize {
                let x = t0 ^ t1;
                // Disjoint when the two choices differ in every block.
                if (x | x >> 1) & 0b0101_0101 != 0b0101_0101 {
                    continue;
                }
                let mut way = 0u16;
                for k in (0..BLOCKS - 1).rev() {
                    way = way * 6 + PAIR[(t0 >> (2 * k)) & 3][(t1 >> (2 * k)) & 3];
                }
                pairs.push((t0 as u8, t1 as u8, way));
            }
        }
        pairs
    })
}

/// For one pair of columns (`first`, `first + 1`): for every way of taking
/// two cards from each of blocks 1..4, the best points of the two hands
/// and the two choices reaching it (every way is reachable).
fn best_pairs(table: &[[u8; 256]; COLUMNS], first: usize) -> ([u8; WAYS], [(u8, u8); WAYS]) {
    let mut best = [0u8; WAYS];
    let mut argbest = [(0u8, 0u8); WAYS];
    let mut seen = [false; WAYS];
    let (a, b) = (&table[first], &table[first + 1]);
    for &(t0, t1, way) in disjoint_pairs() {
        let way = usize::from(way);
        let total = a[usize::from(t0)] + b[usize::from(t1)];
        if !seen[way] || total > best[way] {
            seen[way] = true;
            best[way] = total;
            argbest[way] = (t0, t1);
        }
    }
    (best, argbest)
}

/// The optimum of 20 distinct contest cards (checked by the callers: a
/// [`ContestDeck`] by construction, [`optimum`] by [`CardList`]).
fn optimum_of_dealt(dealt: &[Card; PLACEMENTS]) -> Optimum {
    let codes = dealt.map(code);
    // table[j][t]: points of the hand of block 0's card j with choice t.
    let mut table = [[0u8; 256]; COLUMNS];
    for (j, row) in table.iter_mut().enumerate() {
        for (t, cell) in row.iter_mut().enumerate() {
            let mut hand = [codes[j]; 5];
            for k in 1..BLOCKS {
                hand[k] = codes[4 * k + ((t >> (2 * (k - 1))) & 3)];
            }
            *cell = points(hand);
        }
    }
    let (low, low_arg) = best_pairs(&table, 0);
    let (high, high_arg) = best_pairs(&table, 2);
    let mut best_way = 0;
    for way in 0..WAYS {
        if low[way] + high[WAYS - 1 - way] > low[best_way] + high[WAYS - 1 - best_way] {
            best_way = way;
        }
    }
    let total = low[best_way] + high[WAYS - 1 - best_way];
    let (t0, t1) = low_arg[best_way];
    let (t2, t3) = high_arg[WAYS - 1 - best_way];
    let mut columns = [0u8; PLACEMENTS];
    for (j, t) in [t0, t1, t2, t3].into_iter().enumerate() {
        let column = j as u8 + 1;
        columns[j] = column;
        for k in 1..BLOCKS {
            columns[4 * k + usize::from((t >> (2 * (k - 1))) & 3)] = column;
        }
    }
    Optimum {
        total,
        columns,
        cards: *dealt,
    }
}

/// The contest card with `code = rank * 4 + suit` (internal order), for tests.
#[cfg(test)]
fn card_of(code: u8) -> Card {
    Card::new(
        Rank::new(9 + code / 4).unwrap(),
        crate::cards::Suit::ALL[usize::from(code % 4)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hand::categorize;

    #[test]
    fn points_agree_with_categorize_on_every_contest_hand() {
        let mut checked = 0;
        for a in 0..24u8 {
            for b in a + 1..24 {
                for c in b + 1..24 {
                    for d in c + 1..24 {
                        for e in d + 1..24 {
                            let codes = [a, b, c, d, e];
                            let cards = codes.map(card_of);
                            assert_eq!(
                                points(codes),
                                categorize(&cards).contest_points(),
                                "{cards:?}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 42_504);
    }

    #[test]
    fn complementary_pairs_have_complementary_indices() {
        for (a, row) in PAIR.iter().enumerate() {
            for (b, &index) in row.iter().enumerate() {
                if a == b {
                    continue;
                }
                let rest: Vec<usize> = (0..4).filter(|&x| x != a && x != b).collect();
                assert_eq!(index, PAIR[b][a]);
                assert_eq!(index + PAIR[rest[0]][rest[1]], 5);
            }
        }
    }
}
