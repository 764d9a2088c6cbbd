//! Deal numbering for the 52-card game (26 cards each, number cards alike):
//! the camicia.dev distributed search's index.
//!
//! A deal is the 52-symbol string `a + b` over `A`, `K`, `Q`, `J` (4 each)
//! and `-` (36). Its index is its lexicographic rank among all
//! [`DEAL_COUNT`] such strings, ordered `A < K < Q < J < -`: index 0 is
//! `AAAAKKKKQQQQJJJJ` followed by 36 `-`.

use super::card::notation;
use std::fmt;

/// Cards in a standard deal.
pub(crate) const DEAL_CARDS: usize = 52;
/// Cards per player in a standard deal.
pub(crate) const HAND_CARDS: usize = 26;
/// Number of distinct 52-card deals: 52! / (4!^4 36!) =
/// 653,534,134,886,878,245,000.
pub const DEAL_COUNT: u128 = 653_534_134_886_878_245_000;

/// How many of each penalty a standard deal holds (index = penalty).
const COUNTS: [u32; 5] = [36, 4, 4, 4, 4];

/// A standard deal: 52 penalties (0 = number card, 1 = J, 2 = Q, 3 = K,
/// 4 = A); the first 26 are A's deck, the last 26 B's, top cards first.
/// Always holds exactly four of each payment card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deal([u8; DEAL_CARDS]);

/// Why a penalty list is not a standard deal.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DealError {
    /// A deck does not hold 26 cards: `(a's length, b's length)`.
    Lengths(usize, usize),
    /// Not exactly four of each payment card: counts of number cards, J, Q,
    /// K, A as found.
    Counts([u32; 5]),
    /// A penalty above 4.
    Penalty(u8),
}

impl fmt::Display for DealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DealError::Lengths(a, b) => write!(
                f,
                "a numbered deal has 26 cards per player, not {a} and {b}"
            ),
            DealError::Penalty(p) => write!(f, "penalty {p} is not 0..=4"),
            DealError::Counts([n, j, q, k, a]) => write!(
                f,
                "a numbered deal has 4 each of J, Q, K, A and 36 number cards, \
                 not {j} J, {q} Q, {k} K, {a} A and {n} number cards"
            ),
        }
    }
}

impl std::error::Error for DealError {}

/// `BINOM[n][k]` = n choose k, for n <= 52.
static BINOM: [[u128; DEAL_CARDS + 1]; DEAL_CARDS + 1] = {
    let mut t = [[0u128; DEAL_CARDS + 1]; DEAL_CARDS + 1];
    let mut n = 0;
    while n <= DEAL_CARDS {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// Arrangements of a multiset with these counts.
fn arrangements(counts: &[u32; 5]) -> u128 {
    let mut n = 0usize;
    let mut total = 1u128;
    for &c in counts {
        n += c as usize;
        total *= BINOM[n][c as usize];
    }
    total
}

/// Symbol order A < K < Q < J < -, i.e. penalties 4, 3, 2, 1, 0.
const ORDER: [u8; 5] = [4, 3, 2, 1, 0];

impl Deal {
    /// Index 0: `AAAAKKKKQQQQJJJJ` followed by 36 `-`.
    pub const FIRST: Deal = {
        let mut d = [0u8; DEAL_CARDS];
        let mut i = 0;
        while i < 16 {
            d[i] = 4 - (i / 4) as u8;
            i += 1;
        }
        Deal(d)
    };

    /// The deal `a + b`; both decks must hold 26 cards and together four
    /// of each payment card.
    pub fn new(a: &[u8], b: &[u8]) -> Result<Deal, DealError> {
        if a.len() != HAND_CARDS || b.len() != HAND_CARDS {
            return Err(DealError::Lengths(a.len(), b.len()));
        }
        let mut counts = [0u32; 5];
        for &p in a.iter().chain(b) {
            match counts.get_mut(p as usize) {
                Some(count) => *count += 1,
                None => return Err(DealError::Penalty(p)),
            }
        }
        if counts != COUNTS {
            return Err(DealError::Counts(counts));
        }
        let mut d = [0u8; DEAL_CARDS];
        d[..HAND_CARDS].copy_from_slice(a);
        d[HAND_CARDS..].copy_from_slice(b);
        Ok(Deal(d))
    }

    /// A permutation of [`Deal::FIRST`]'s penalties (not checked).
    pub(crate) fn from_permutation(cards: [u8; DEAL_CARDS]) -> Deal {
        Deal(cards)
    }

    /// All 52 penalties, A's deck then B's.
    pub fn penalties(&self) -> &[u8; DEAL_CARDS] {
        &self.0
    }

    /// A's 26 penalties, top first.
    pub fn a(&self) -> &[u8] {
        &self.0[..HAND_CARDS]
    }

    /// B's 26 penalties, top first.
    pub fn b(&self) -> &[u8] {
        &self.0[HAND_CARDS..]
    }

    /// The deal's index, 0 ..= [`DEAL_COUNT`] - 1.
    pub fn rank(&self) -> u128 {
        let mut counts = COUNTS;
        let mut rank = 0u128;
        for &p in &self.0 {
            for &smaller in ORDER.iter().take_while(|&&s| s != p) {
                if counts[smaller as usize] > 0 {
                    counts[smaller as usize] -= 1;
                    rank += arrangements(&counts);
                    counts[smaller as usize] += 1;
                }
            }
            counts[p as usize] -= 1;
        }
        rank
    }

    /// The deal with this index; `None` if `index >= DEAL_COUNT`.
    pub fn unrank(mut index: u128) -> Option<Deal> {
        if index >= DEAL_COUNT {
            return None;
        }
        let mut counts = COUNTS;
        let mut d = [0u8; DEAL_CARDS];
        for slot in d.iter_mut() {
            for &p in &ORDER {
                if counts[p as usize] == 0 {
                    continue;
                }
                counts[p as usize] -= 1;
                let block = arrangements(&counts);
                if index < block {
                    *slot = p;
                    break;
                }
                index -= block;
                counts[p as usize] += 1;
            }
        }
        Some(Deal(d))
    }

    /// Steps to the deal with the next index; false (and unchanged) at the
    /// last one. Amortised a few steps per call, for exhaustive ranges.
    pub fn advance(&mut self) -> bool {
        // Next permutation in symbol order: larger symbol = smaller penalty.
        let s = &mut self.0;
        let Some(i) = (0..DEAL_CARDS - 1).rev().find(|&i| s[i] > s[i + 1]) else {
            return false;
        };
        let j = (i + 1..DEAL_CARDS)
            .rev()
            .find(|&j| s[j] < s[i])
            .unwrap_or(i);
        s.swap(i, j);
        s[i + 1..].reverse();
        true
    }
}

impl fmt::Display for Deal {
    /// `a b` in the record notation, e.g. `---K---Q-KQAJ----- ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", notation(self.a()), notation(self.b()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deal_count_is_the_multinomial() {
        assert_eq!(arrangements(&COUNTS), DEAL_COUNT);
    }

    #[test]
    fn first_and_last_deals_have_indices_zero_and_count_minus_one() {
        assert_eq!(Deal::FIRST.rank(), 0);
        let last = Deal::unrank(DEAL_COUNT - 1).unwrap();
        assert_eq!(&last.penalties()[..36], &[0; 36]);
        assert_eq!(&last.penalties()[36..40], &[1; 4]);
        assert_eq!(&last.penalties()[48..], &[4; 4]);
        assert_eq!(Deal::unrank(DEAL_COUNT), None);
        let mut last = last;
        assert!(!last.advance());
    }

    #[test]
    fn advance_steps_the_index_by_one() {
        for start in [0u128, 12345, 447247122283566119055, DEAL_COUNT - 1000] {
            let mut d = Deal::unrank(start).unwrap();
            for k in 1..200u128 {
                if !d.advance() {
                    break;
                }
                assert_eq!(d.rank(), start + k);
            }
        }
    }
}
