//! Microsoft FreeCell deals by number (the Rosetta Code algorithm, with FreeCell Pro's range).
//!
//! A deal number `n` in 1..=8,589,934,591 (2^33 - 1) seeds the Microsoft C
//! linear congruential generator `state <- 214013 * state + 2531011 (mod 2^32)`;
//! 52 draws pick the cards from a shrinking deck (the drawn card's place is
//! filled by the deck's last card). Card `k` of the deal goes to column
//! `k % 8`, row `k / 8`. How a draw is read from the state depends on the
//! deal number's [`DealRange`]: Microsoft's own 1..2^31-1, and the two
//! FreeCell Pro extensions up to 2^33-1, bit for bit as pysol-cards and
//! fc-solve deal them. Other numbers (0, negatives, 2^33 and above) have no
//! deal: [`DealNumber::new`] rejects them instead of wrapping them round.
//!
//! ```
//! use poker_core::freecell::{Deal, DealNumber, Layout, Tens};
//! let deal = Deal::new(DealNumber::new(1).unwrap());
//! let text = deal.format(Layout::Columns, Tens::T);
//! assert!(text.starts_with("JD KD 2S 4C 3S 6D 6S\n"));
//! ```

mod batch;
mod board;
mod find;
mod format;
mod invert;

pub use batch::{deal_range, deal_range_with, vector_path_enabled};
pub use board::{BoardError, parse_board, parse_partial_board};
pub use find::{
    find_deals, find_deals_between, find_deals_with_progress, scan_deals, scan_prefix_between,
};
pub use format::{Layout, Tens};
pub use invert::{Matches, find_prefix, find_prefix_indices};

use crate::cards::Card;
use std::fmt;
use std::str::FromStr;

/// Cards in a deal.
pub const CARDS: usize = 52;
/// Columns of the board: card `k` of a deal goes to column `k % COLUMNS`.
pub const COLUMNS: usize = 8;
/// The first deal number.
pub const MIN_DEAL: u64 = 1;
/// The last deal number: 2^33 - 1 (FreeCell Pro's extended range).
pub const MAX_DEAL: u64 = (1 << 33) - 1;

const LCG_MUL: u32 = 214013;
const LCG_ADD: u32 = 2531011;

/// The three rules for reading a draw from the generator's state; which one
/// applies depends on the deal number only (spec table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DealRange {
    /// 1..=2^31-1, Microsoft's deals: seed `n`, draw `(state >> 16) & 0x7FFF`.
    Microsoft,
    /// 2^31..=2^32-1, FreeCell Pro: seed `n`, draw
    /// `((state >> 16) & 0x7FFF) | 0x8000`.
    ProOr8000,
    /// 2^32..=2^33-1, FreeCell Pro: seed `n - 2^32`, draw
    /// `((state >> 16) & 0xFFFF) + 1`.
    Pro16BitPlus1,
}

impl DealRange {
    /// The three ranges, lowest deal numbers first.
    pub const ALL: [DealRange; 3] = [
        DealRange::Microsoft,
        DealRange::ProOr8000,
        DealRange::Pro16BitPlus1,
    ];

    /// The first and last deal number of the range.
    pub fn bounds(self) -> (u64, u64) {
        match self {
            DealRange::Microsoft => (1, (1 << 31) - 1),
            DealRange::ProOr8000 => (1 << 31, (1 << 32) - 1),
            DealRange::Pro16BitPlus1 => (1 << 32, MAX_DEAL),
        }
    }

    /// A short name: `microsoft`, `fcpro-or8000`, `fcpro-16bit-plus1`.
    pub fn name(self) -> &'static str {
        match self {
            DealRange::Microsoft => "microsoft",
            DealRange::ProOr8000 => "fcpro-or8000",
            DealRange::Pro16BitPlus1 => "fcpro-16bit-plus1",
        }
    }
}

impl fmt::Display for DealRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A deal number known to be in 1..=[`MAX_DEAL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DealNumber(u64);

/// Why a deal number was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DealNumberError {
    /// A number with no deal: 0, negative, or 2^33 and above.
    OutOfRange(i128),
    /// Text that is not a whole number.
    NotANumber(String),
}

impl fmt::Display for DealNumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DealNumberError::OutOfRange(n) => write!(
                f,
                "deal {n} does not exist: deal numbers run from {MIN_DEAL} to {MAX_DEAL} (2^33 - 1)"
            ),
            DealNumberError::NotANumber(text) => write!(
                f,
                "'{text}' is not a deal number (a whole number from {MIN_DEAL} to {MAX_DEAL})"
            ),
        }
    }
}

impl std::error::Error for DealNumberError {}

impl DealNumber {
    /// The smallest deal number, 1.
    pub const MIN: DealNumber = DealNumber(MIN_DEAL);
    /// The largest deal number, 2^33 - 1.
    pub const MAX: DealNumber = DealNumber(MAX_DEAL);

    /// `n` if it is in 1..=2^33-1, else [`DealNumberError::OutOfRange`].
    pub fn new(n: i64) -> Result<DealNumber, DealNumberError> {
        if (MIN_DEAL as i64..=MAX_DEAL as i64).contains(&n) {
            Ok(DealNumber(n as u64))
        } else {
            Err(DealNumberError::OutOfRange(i128::from(n)))
        }
    }

    /// The number.
    pub fn get(self) -> u64 {
        self.0
    }

    /// Which rule deals it.
    pub fn range(self) -> DealRange {
        if self.0 < 1 << 31 {
            DealRange::Microsoft
        } else if self.0 < 1 << 32 {
            DealRange::ProOr8000
        } else {
            DealRange::Pro16BitPlus1
        }
    }

    /// The generator's initial state: `n`, or `n - 2^32` in the top range.
    fn seed(self) -> u32 {
        self.0 as u32 // == n - 2^32 when n >= 2^32, since n < 2^33
    }
}

impl fmt::Display for DealNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for DealNumber {
    type Err = DealNumberError;

    /// Parses a decimal number (surrounding spaces and `_` separators allowed).
    fn from_str(text: &str) -> Result<DealNumber, DealNumberError> {
        let digits: String = text.trim().chars().filter(|&c| c != '_').collect();
        match digits.parse::<i128>() {
            Ok(n) => i64::try_from(n)
                .map_err(|_| DealNumberError::OutOfRange(n))
                .and_then(DealNumber::new),
            Err(_) => Err(DealNumberError::NotANumber(text.to_string())),
        }
    }
}

impl TryFrom<i64> for DealNumber {
    type Error = DealNumberError;
    fn try_from(n: i64) -> Result<DealNumber, DealNumberError> {
        DealNumber::new(n)
    }
}

impl TryFrom<u64> for DealNumber {
    type Error = DealNumberError;
    fn try_from(n: u64) -> Result<DealNumber, DealNumberError> {
        i64::try_from(n)
            .map_err(|_| DealNumberError::OutOfRange(i128::from(n)))
            .and_then(DealNumber::new)
    }
}

/// `(a^k, c * (a^(k-1) + ... + 1))` mod 2^32 for k = 1..=52: the state after
/// k steps is `JUMP[k-1].0 * seed + JUMP[k-1].1`, so the 52 draws do not
/// wait on each other.
const JUMP: [(u32, u32); CARDS] = {
    let mut table = [(0u32, 0u32); CARDS];
    let (mut mul, mut add) = (LCG_MUL, LCG_ADD);
    let mut k = 0;
    while k < CARDS {
        table[k] = (mul, add);
        mul = mul.wrapping_mul(LCG_MUL);
        add = add.wrapping_mul(LCG_MUL).wrapping_add(LCG_ADD);
        k += 1;
    }
    table
};

/// `floor(2^32 / d) + 1` for d = 1..=52 (index d - 1): with it,
/// `x / d == (x * M) >> 32` for every draw x < 2^17, so no division runs.
const DIV_MAGIC: [u64; CARDS] = {
    let mut table = [0u64; CARDS];
    let mut d = 1;
    while d <= CARDS {
        table[d - 1] = (1u64 << 32) / d as u64 + 1;
        d += 1;
    }
    table
};

/// `x % d` for `x < 2^17`, `1 <= d <= 52`, by multiplication.
#[inline(always)]
fn small_mod(x: u32, d: usize) -> usize {
    let q = ((u64::from(x) * DIV_MAGIC[d - 1]) >> 32) as u32;
    (x - q * d as u32) as usize
}

/// The draw (before `% cards left`) that state `s` gives in a range.
#[inline(always)]
fn draw<const RANGE: u8>(s: u32) -> u32 {
    match RANGE {
        0 => (s >> 16) & 0x7FFF,
        1 => ((s >> 16) & 0x7FFF) | 0x8000,
        _ => ((s >> 16) & 0xFFFF) + 1,
    }
}

#[inline(always)]
fn deal_seeded<const RANGE: u8>(seed: u32) -> [u8; CARDS] {
    // First every pick (independent of each other, so they overlap), then
    // the swap-with-last walk through the deck.
    let mut picks = [0u8; CARDS];
    for (k, pick) in picks.iter_mut().enumerate() {
        let (mul, add) = JUMP[k];
        let state = mul.wrapping_mul(seed).wrapping_add(add);
        *pick = small_mod(draw::<RANGE>(state), CARDS - k) as u8;
    }
    // 256 entries so that a u8 index needs no bounds check; 52 are used.
    let mut deck = DECK_START;
    let mut dealt = [0u8; CARDS];
    for k in 0..CARDS {
        let j = usize::from(picks[k]);
        let last = CARDS - 1 - k;
        dealt[k] = deck[j];
        deck[j] = deck[last];
    }
    dealt
}

/// The deck before dealing: card `i` at place `i` (0 = AC .. 51 = KS).
const DECK_START: [u8; 256] = {
    let mut deck = [0u8; 256];
    let mut i = 0;
    while i < CARDS {
        deck[i] = i as u8;
        i += 1;
    }
    deck
};

/// The 52 cards of deal `n` in dealing order, as Microsoft card indices
/// (see [`Card::index`]: `rank * 4 + suit`, 0 = AC, 51 = KS). The fast path
/// under [`Deal::new`] and the C function `freecell_deal`.
pub fn deal_indices(n: DealNumber) -> [u8; CARDS] {
    let seed = n.seed();
    match n.range() {
        DealRange::Microsoft => deal_seeded::<0>(seed),
        DealRange::ProOr8000 => deal_seeded::<1>(seed),
        DealRange::Pro16BitPlus1 => deal_seeded::<2>(seed),
    }
}

/// One FreeCell deal: its number and its 52 cards in dealing order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deal {
    number: DealNumber,
    indices: [u8; CARDS],
}

impl Deal {
    /// Deals game `number`.
    ///
    /// Deal 617 as pysol-cards deals it (an independent implementation):
    ///
    /// ```
    /// use poker_core::freecell::{Deal, DealNumber, Layout, Tens, parse_board};
    ///
    /// let deal = Deal::new(DealNumber::new(617)?);
    /// let order: Vec<String> = deal.cards().iter().map(|c| c.to_string()).collect();
    /// assert_eq!(order[..8], ["7D", "AD", "5C", "3S", "5S", "8C", "2D", "AH"]);
    /// // The fc-solve layout: one line per column, deepest card first.
    /// let columns = deal.format(Layout::Columns, Tens::T);
    /// assert!(columns.starts_with("7D TD TH KD 4C 4S JD\nAD 7S QC 5H QS TS KS\n"));
    /// // And back: the board parser gives the dealing order.
    /// assert_eq!(parse_board(&columns)?, deal.cards());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(number: DealNumber) -> Deal {
        Deal {
            number,
            indices: deal_indices(number),
        }
    }

    /// The deal's number.
    pub fn number(&self) -> DealNumber {
        self.number
    }

    /// The cards in dealing order as Microsoft indices 0..=51.
    pub fn indices(&self) -> &[u8; CARDS] {
        &self.indices
    }

    /// The cards in dealing order (card `k` goes to column `k % 8`).
    pub fn cards(&self) -> [Card; CARDS] {
        self.indices.map(index_to_card)
    }

    /// The eight columns left to right, each from its deepest card (dealt
    /// first) to its exposed one: columns 1-4 hold 7 cards, 5-8 hold 6.
    pub fn columns(&self) -> [Vec<Card>; COLUMNS] {
        let cards = self.cards();
        std::array::from_fn(|c| cards.iter().skip(c).step_by(COLUMNS).copied().collect())
    }

    /// The seven rows of the seed's layout: six of 8 cards, then 4.
    pub fn rows(&self) -> Vec<Vec<Card>> {
        self.cards().chunks(COLUMNS).map(<[Card]>::to_vec).collect()
    }
}

/// Index 0..=51 (always valid here) to its card.
fn index_to_card(index: u8) -> Card {
    Card::from_index(index).expect("deal indices are below 52")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's algorithm written out step by step (sequential LCG, `%`).
    fn reference(n: u64) -> [u8; CARDS] {
        let mut state: u32 = if n >= 1 << 32 {
            (n - (1 << 32)) as u32
        } else {
            n as u32
        };
        let mut deck: Vec<u8> = (0..52).collect();
        let mut dealt = [0u8; CARDS];
        for slot in dealt.iter_mut() {
            state = state.wrapping_mul(214013).wrapping_add(2531011);
            let r = if n < 1 << 31 {
                (state >> 16) & 0x7FFF
            } else if n < 1 << 32 {
                ((state >> 16) & 0x7FFF) | 0x8000
            } else {
                ((state >> 16) & 0xFFFF) + 1
            } as usize;
            let j = r % deck.len();
            *slot = deck[j];
            deck.swap_remove(j);
        }
        dealt
    }

    #[test]
    fn fast_deal_matches_the_step_by_step_algorithm() {
        let mut n: u64 = 1;
        while n <= MAX_DEAL {
            assert_eq!(deal_indices(DealNumber(n)), reference(n), "deal {n}");
            n = n * 3 + 7;
        }
        for n in [1u64 << 31, (1 << 31) - 1, (1 << 32) - 1, 1 << 32, MAX_DEAL] {
            assert_eq!(deal_indices(DealNumber(n)), reference(n), "deal {n}");
        }
    }

    #[test]
    fn small_mod_is_exact_for_every_draw() {
        for d in 1..=CARDS {
            for x in 0..(1u32 << 17) {
                assert_eq!(small_mod(x, d), x as usize % d);
            }
        }
    }

    #[test]
    fn ranges_split_at_powers_of_two() {
        let range = |n: i64| DealNumber::new(n).unwrap().range();
        assert_eq!(range(1), DealRange::Microsoft);
        assert_eq!(range((1 << 31) - 1), DealRange::Microsoft);
        assert_eq!(range(1 << 31), DealRange::ProOr8000);
        assert_eq!(range((1 << 32) - 1), DealRange::ProOr8000);
        assert_eq!(range(1 << 32), DealRange::Pro16BitPlus1);
        assert_eq!(range((1 << 33) - 1), DealRange::Pro16BitPlus1);
    }

    #[test]
    fn numbers_outside_the_ranges_are_rejected() {
        for n in [0, -1, -4, 1 << 33, i64::MAX, i64::MIN] {
            assert!(DealNumber::new(n).is_err(), "{n}");
        }
        assert!("99999999999999999999999".parse::<DealNumber>().is_err());
        assert!("x".parse::<DealNumber>().is_err());
        assert_eq!("1_000_000".parse::<DealNumber>().unwrap().get(), 1_000_000);
    }
}
