//! From the first cards of a board to its deal numbers, by inverting the
//! generator instead of scanning all 8,589,934,591 numbers.
//!
//! Deal `n` seeds the state `s0` (`n`, or `n - 2^32` in the top range) and
//! card `k` (0-based) is drawn from `s(k+1) = a * s(k) + c (mod 2^32)`. The
//! cards already matched fix the deck, so card `k` of a prefix fixes the
//! place `p(k)` it must be drawn from, i.e. `draw(s(k+1)) mod (52 - k)`.
//! Write `s1 = hi * 2^16 + lo`. The first card fixes `draw(hi) mod 52`
//! (about 630 or 1,260 values of `hi` per range). For the second card,
//! `s2 >> 16 = a * hi + g(lo) (mod 2^16)` with `g(lo) = (a * lo + c) >> 16`,
//! so for each `hi` and each top half `v` the second card allows, the `lo`
//! that fit are those with `g(lo) = v - a * hi`: a table of the 65,536 `lo`
//! sorted by `g(lo)` lists them at once (about 2 per value). Every surviving
//! `s1` is checked on the remaining cards, one step each, and the seed is
//! `(s1 - c) * a^-1 (mod 2^32)`. States are only ever needed mod 2^31 in the
//! two lower ranges, whose draws never read bit 31.

use super::{CARDS, DealNumber, LCG_ADD, LCG_MUL, MAX_DEAL};
use crate::card_list::CardList;
use crate::cards::{Card, CardError, Rank};
use std::sync::OnceLock;

/// The deal numbers whose first cards are a given prefix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matches {
    /// How many deal numbers in 1..=2^33-1 deal the prefix.
    pub total: u64,
    /// The smallest of them, ascending, at most the `max` asked for.
    pub deals: Vec<DealNumber>,
}

/// The prefix lengths accepted: 1 to 52 cards.
const PREFIX_COUNTS: [usize; CARDS] = {
    let mut counts = [0; CARDS];
    let mut i = 0;
    while i < CARDS {
        counts[i] = i + 1;
        i += 1;
    }
    counts
};

/// A prefix of a deal: 1 to 52 distinct cards of the 52-card deck.
const PREFIX: CardList = CardList {
    lowest: Rank::TWO,
    counts: &PREFIX_COUNTS,
};

/// `a^-1 (mod 2^32)` for the generator's multiplier (Newton's iteration).
const LCG_MUL_INVERSE: u32 = {
    let mut x = LCG_MUL; // correct to 3 bits, since a * a = 1 (mod 8)
    let mut i = 0;
    while i < 5 {
        x = x.wrapping_mul(2u32.wrapping_sub(LCG_MUL.wrapping_mul(x)));
        i += 1;
    }
    x
};
const _: () = assert!(LCG_MUL.wrapping_mul(LCG_MUL_INVERSE) == 1);

/// Every deal number whose first `prefix.len()` cards, in dealing order,
/// are `prefix` (1 to 52 distinct cards), over all of 1..=2^33-1: the total
/// and the `max` smallest, ascending.
///
/// 3 to 52 cards take about 15 ms of one core, 2 cards about 90 ms (about
/// 3.2 million deals share their first 2 cards, about 1,300 share 4, about
/// 27 share 5; from 6 on the deal is normally unique). A single card matches about 165 million deals:
/// its total is counted at once, but listing `max` of them scans about
/// `52 * max` numbers.
///
/// Errors, from the one card-list validator: [`CardError::Duplicate`] for a
/// card given twice, [`CardError::WrongCount`] for an empty prefix or more
/// than 52 cards.
pub fn find_prefix(prefix: &[Card], max: usize) -> Result<Matches, CardError> {
    let cards = PREFIX.validate_cards(prefix)?;
    let places = places(&cards);
    Ok(search(&places, max))
}

/// [`find_prefix`] for cards given as Microsoft card indices
/// (`rank * 4 + suit`, 0 = AC .. 51 = KS, as [`super::deal_indices`] writes
/// them). An index above 51 is [`CardError::OutOfRange`].
pub fn find_prefix_indices(prefix: &[u8], max: usize) -> Result<Matches, CardError> {
    let entries = prefix.iter().enumerate().map(|(i, &index)| {
        Card::from_index(index).ok_or_else(|| CardError::OutOfRange {
            position: i + 1,
            given: format!("index {index}"),
            range: "a card index (0..51)",
        })
    });
    let cards = PREFIX.validate(entries)?;
    Ok(search(&places(&cards), max))
}

/// The place in the shrinking deck each card must be drawn from: card `k`
/// from `0..52 - k`. The cards are distinct, so each is still in the deck.
fn places(cards: &[Card]) -> Vec<u32> {
    let mut deck: Vec<u8> = (0..CARDS as u8).collect();
    cards
        .iter()
        .map(|card| {
            let j = deck
                .iter()
                .position(|&d| d == card.index())
                .expect("distinct cards are still in the deck");
            deck.swap_remove(j);
            j as u32
        })
        .collect()
}

/// The 65,536 values of `lo` grouped by `g(lo) & mask`: the `lo` with
/// `g(lo) & mask == v` are `order[start[v]..start[v + 1]]`.
struct Buckets {
    start: Vec<u32>,
    order: Vec<u16>,
}

impl Buckets {
    fn new(mask: u32) -> Buckets {
        let size = mask as usize + 1;
        let g = |lo: u32| -> usize {
            (((u64::from(LCG_MUL) * u64::from(lo) + u64::from(LCG_ADD)) >> 16) as u32 & mask)
                as usize
        };
        let mut start = vec![0u32; size + 1];
        for lo in 0..1u32 << 16 {
            start[g(lo) + 1] += 1;
        }
        for v in 0..size {
            start[v + 1] += start[v];
        }
        let mut next = start.clone();
        let mut order = vec![0u16; 1 << 16];
        for lo in 0..1u32 << 16 {
            let slot = &mut next[g(lo)];
            order[*slot as usize] = lo as u16;
            *slot += 1;
        }
        Buckets { start, order }
    }

    fn get(&self, v: u32) -> &[u16] {
        let v = v as usize;
        &self.order[self.start[v] as usize..self.start[v + 1] as usize]
    }
}

/// The bucket tables for 15-bit (the two lower ranges) and 16-bit draws,
/// built once per process (a fraction of a millisecond).
fn buckets(mask: u32) -> &'static Buckets {
    static B15: OnceLock<Buckets> = OnceLock::new();
    static B16: OnceLock<Buckets> = OnceLock::new();
    if mask == 0x7FFF {
        B15.get_or_init(|| Buckets::new(0x7FFF))
    } else {
        B16.get_or_init(|| Buckets::new(0xFFFF))
    }
}

/// One range's rule as data: which bits of `s >> 16` it reads, and how the
/// draw follows from them.
#[derive(Clone, Copy)]
struct Rule {
    range: u8,
    mask: u32,
}

impl Rule {
    const ALL: [Rule; 3] = [
        Rule {
            range: 0,
            mask: 0x7FFF,
        },
        Rule {
            range: 1,
            mask: 0x7FFF,
        },
        Rule {
            range: 2,
            mask: 0xFFFF,
        },
    ];

    /// The draw from the top half `v` (already masked) of a state.
    #[inline(always)]
    fn draw(self, v: u32) -> u32 {
        match self.range {
            0 => v,
            1 => v | 0x8000,
            _ => v + 1,
        }
    }

    /// The deal number of the state after one step, `s1` (mod 2^31 in
    /// the lower ranges), or `None` for seed 0 of the Microsoft range.
    #[inline(always)]
    fn deal_of(self, s1: u32) -> Option<u64> {
        let seed = s1.wrapping_sub(LCG_ADD).wrapping_mul(LCG_MUL_INVERSE);
        match self.range {
            0 => match seed & 0x7FFF_FFFF {
                0 => None,
                s => Some(u64::from(s)),
            },
            1 => Some(u64::from(seed | 0x8000_0000)),
            _ => Some((1 << 32) + u64::from(seed)),
        }
    }

    /// Whether the states after `s2` draw cards `2..` from `places`.
    #[inline(always)]
    fn rest_matches(self, s2: u32, places: &[u32]) -> bool {
        let mut s = s2;
        for (k, &place) in places.iter().enumerate().skip(2) {
            s = s.wrapping_mul(LCG_MUL).wrapping_add(LCG_ADD);
            if self.draw((s >> 16) & self.mask) % (CARDS - k) as u32 != place {
                return false;
            }
        }
        true
    }
}

fn search(places: &[u32], max: usize) -> Matches {
    if places.len() == 1 {
        return first_card_only(places[0], max);
    }
    if max == 0 {
        let mut total = 0u64;
        for rule in Rule::ALL {
            enumerate(rule, places, |_| total += 1);
        }
        return Matches {
            total,
            deals: Vec::new(),
        };
    }
    let mut found: Vec<u64> = Vec::new();
    for rule in Rule::ALL {
        enumerate(rule, places, |n| found.push(n));
    }
    found.sort_unstable();
    let total = found.len() as u64;
    found.truncate(max);
    Matches {
        total,
        deals: found.into_iter().map(DealNumber).collect(),
    }
}

/// Calls `on_match` with every deal number of `rule`'s range that draws
/// `places` (at least 2 cards).
fn enumerate(rule: Rule, places: &[u32], mut on_match: impl FnMut(u64)) {
    let mask = rule.mask;
    let table = buckets(mask);
    // The top halves of s2 that draw the second card.
    let seconds: Vec<u32> = (0..=mask)
        .filter(|&v| rule.draw(v) % 51 == places[1])
        .collect();
    for hi in 0..=mask {
        if rule.draw(hi) % 52 != places[0] {
            continue;
        }
        let shift = LCG_MUL.wrapping_mul(hi);
        for &v in &seconds {
            for &lo in table.get(v.wrapping_sub(shift) & mask) {
                let s1 = (hi << 16) | u32::from(lo);
                let s2 = s1.wrapping_mul(LCG_MUL).wrapping_add(LCG_ADD);
                if rule.rest_matches(s2, places) {
                    if let Some(n) = rule.deal_of(s1) {
                        on_match(n);
                    }
                }
            }
        }
    }
}

/// One card: the total by counting (each top half `hi` that draws it
/// stands for 2^16 states), the list by scanning from deal 1 up.
fn first_card_only(place: u32, max: usize) -> Matches {
    let mut total = 0u64;
    for rule in Rule::ALL {
        let his = (0..=rule.mask)
            .filter(|&hi| rule.draw(hi) % 52 == place)
            .count() as u64;
        total += his << 16;
    }
    // Seed 0 is not a Microsoft deal.
    let seed0 = Rule::ALL[0].draw((LCG_ADD >> 16) & 0x7FFF);
    if seed0 % 52 == place {
        total -= 1;
    }
    let mut deals = Vec::new();
    let mut n = 1u64;
    while deals.len() < max && n <= MAX_DEAL {
        let rule = Rule::ALL[match n {
            n if n < 1 << 31 => 0,
            n if n < 1 << 32 => 1,
            _ => 2,
        }];
        let block_end = if n < 1 << 31 {
            1 << 31
        } else if n < 1 << 32 {
            1 << 32
        } else {
            MAX_DEAL + 1
        };
        let mut s1 = (n as u32).wrapping_mul(LCG_MUL).wrapping_add(LCG_ADD);
        while n < block_end && deals.len() < max {
            if rule.draw((s1 >> 16) & rule.mask) % 52 == place {
                deals.push(DealNumber(n));
            }
            s1 = s1.wrapping_add(LCG_MUL);
            n += 1;
        }
    }
    Matches { total, deals }
}
