//! Searching many 52-card deals for long games: over an index range
//! (exhaustive, a self-contained work unit) or over seeded random deals.
//!
//! Work is cut into blocks that each give a [`Report`]; reports merge, so
//! callers can spread blocks over threads or machines and combine them in
//! any order with the same result. [`Search::run`] does that over a pool of
//! threads; [`scan_range`] and [`scan_random`] are single blocks. Whatever
//! simulates the deals is an [`Engine`], handed batches of deals;
//! [`Simulator`](super::Simulator) is one.

mod driver;
mod engine;
mod extension;
mod game;
mod shard;

pub use driver::{Partial, Search, SearchError, Work};
pub use engine::Engine;
pub use extension::{Extended, Extending, ExtensionWork, Spent, time_extension_with};
pub use game::{Game, LENGTH_BIN};
pub use shard::{Shard, ShardError};

use super::index::{DEAL_COUNT, Deal};
use super::{GameEnd, Outcome};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What a search over some deals found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Deals simulated.
    pub deals: u64,
    /// The longest finished games, best first: most cards, then most
    /// tricks, then smallest index. At most `top` of them.
    pub best: Vec<Game>,
    /// Every game that loops, by index.
    pub loops: Vec<Game>,
    /// How many best games to keep.
    pub top: usize,
    /// Finished games by length: `lengths[i]` games of
    /// `LENGTH_BIN * i .. LENGTH_BIN * (i + 1)` cards (no trailing zeros).
    pub lengths: Vec<u64>,
    /// Order-independent checksum of every simulated deal's outcome: the
    /// wrapping sum of [`outcome_hash`] over the deals, so reports of
    /// disjoint parts add up to the report of the whole.
    pub checksum: u64,
    /// What backward extension did (nothing in a uniform search).
    pub extension: ExtensionWork,
}

/// SplitMix64's finaliser: a bijective mix of 64 bits.
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The hash of one deal's outcome that [`Report::checksum`] sums: of the
/// deal's `key` (its index in a range search; its draw number,
/// `block * BLOCK + k`, in a random search), status, cards and tricks.
/// Chained SplitMix64 finalisers over the four words: any change of one
/// outcome changes the sum.
pub fn outcome_hash(key: u128, outcome: &Outcome) -> u64 {
    let status = u64::from(outcome.status == GameEnd::Loop);
    let mut h = mix(key as u64 ^ 0x6a09_e667_f3bc_c908);
    h = mix(h ^ (key >> 64) as u64);
    h = mix(h ^ outcome.cards);
    mix(h ^ (outcome.tricks << 1 | status))
}

fn better(x: &Game, y: &Game) -> bool {
    (
        x.outcome.cards,
        x.outcome.tricks,
        std::cmp::Reverse(x.index),
    ) > (
        y.outcome.cards,
        y.outcome.tricks,
        std::cmp::Reverse(y.index),
    )
}

impl Report {
    /// An empty report keeping the `top` best games.
    pub fn new(top: usize) -> Report {
        Report {
            top,
            ..Report::default()
        }
    }

    /// An empty report keeping the `top` best games and the `top` longest
    /// extended deals, extending games as `extending` says (`None`:
    /// uniform).
    pub fn extending(top: usize, extending: Option<Extending>) -> Report {
        let mut report = Report::new(top);
        report.extension.extending = extending;
        report
    }

    /// Counts one deal (its `key` as in [`outcome_hash`]) and keeps it if
    /// it loops or ranks among the best. `index` is only called for deals
    /// that are kept.
    pub fn add(&mut self, key: u128, deal: &Deal, outcome: Outcome, index: impl FnOnce() -> u128) {
        self.deals += 1;
        self.checksum = self.checksum.wrapping_add(outcome_hash(key, &outcome));
        if outcome.status == GameEnd::Loop {
            self.loops.push(Game {
                index: index(),
                deal: *deal,
                outcome,
            });
            return;
        }
        game::count(&mut self.lengths, outcome.cards, 1);
        if self.extension.extending.is_none() {
            // The uniform search's path: nothing more per deal.
            return self.keep(deal, outcome, index);
        }
        let mut index = Lazy(Some(index), None);
        self.extension.add(deal, outcome, || index.get(), self.top);
        self.keep(deal, outcome, || index.get());
    }

    /// Keeps a finished game if it ranks among the best.
    #[inline(always)]
    fn keep(&mut self, deal: &Deal, outcome: Outcome, index: impl FnOnce() -> u128) {
        if self.top == 0 {
            return;
        }
        if self.best.len() == self.top {
            let worst = &self.best[self.top - 1].outcome;
            if (outcome.cards, outcome.tricks) < (worst.cards, worst.tricks) {
                return;
            }
        }
        self.insert(Game {
            index: index(),
            deal: *deal,
            outcome,
        });
    }

    fn insert(&mut self, game: Game) {
        let at = self.best.partition_point(|g| !better(&game, g));
        if at < self.top {
            self.best.insert(at, game);
            self.best.truncate(self.top);
        }
    }

    /// Adds another report's deals, best games and loops to this one.
    pub fn merge(&mut self, other: Report) {
        self.deals += other.deals;
        self.checksum = self.checksum.wrapping_add(other.checksum);
        if other.lengths.len() > self.lengths.len() {
            self.lengths.resize(other.lengths.len(), 0);
        }
        for (mine, theirs) in self.lengths.iter_mut().zip(&other.lengths) {
            *mine += theirs;
        }
        for game in other.best {
            self.insert(game);
        }
        self.loops.extend(other.loops);
        self.loops.sort_by_key(|g| g.index);
        self.extension.merge(other.extension, self.top);
    }
}

/// A value computed at most once, when first asked for.
struct Lazy<F>(Option<F>, Option<u128>);

impl<F: FnOnce() -> u128> Lazy<F> {
    fn get(&mut self) -> u128 {
        if let Some(f) = self.0.take() {
            self.1 = Some(f());
        }
        self.1.expect("computed on the first call")
    }
}

/// Deals per work block: a block is the unit handed to a worker thread
/// (its engine sees it in batches of [`BATCH`] deals).
pub const BLOCK: u64 = 1 << 14;

/// Deals per engine batch: [`scan_range`] and [`scan_random`] hand their
/// engine at most this many deals at a time.
/// A whole block: an engine that plays many games at once idles as a
/// batch's last games finish, so batches are long.
pub const BATCH: usize = BLOCK as usize;

/// Runs `engine` over `deals` and adds each to `report`; `key(k)` is the
/// checksum key of `deals[k]` and `index(k, deal)` its index, asked only
/// for deals the report keeps.
fn run_batch<E: Engine + ?Sized>(
    engine: &mut E,
    deals: &[Deal],
    outcomes: &mut Vec<Outcome>,
    report: &mut Report,
    key: impl Fn(usize) -> u128,
    index: impl Fn(usize, &Deal) -> u128,
) {
    outcomes.clear();
    outcomes.resize(deals.len(), Outcome::new(GameEnd::Finished, 0, 0));
    engine.run_batch(deals, outcomes);
    for (k, (deal, &outcome)) in deals.iter().zip(outcomes.iter()).enumerate() {
        report.add(key(k), deal, outcome, || index(k, deal));
    }
}

/// Simulates the deals with indices `start .. start + count` (clipped to
/// [`DEAL_COUNT`]) with `engine`, in order, keeping the `top` best games.
pub fn scan_range<E: Engine + ?Sized>(
    engine: &mut E,
    start: u128,
    count: u64,
    top: usize,
) -> Report {
    scan_range_into(engine, start, count, Report::new(top))
}

/// [`scan_range`] adding to `report` (empty, its `top` and extension set).
pub(crate) fn scan_range_into<E: Engine + ?Sized>(
    engine: &mut E,
    start: u128,
    count: u64,
    mut report: Report,
) -> Report {
    let Some(mut deal) = Deal::unrank(start) else {
        return report;
    };
    let end = start.saturating_add(u128::from(count)).min(DEAL_COUNT);
    let (mut deals, mut outcomes) = (Vec::with_capacity(BATCH), Vec::with_capacity(BATCH));
    let mut first = start;
    while first < end {
        let n = (end - first).min(BATCH as u128) as usize;
        deals.clear();
        for _ in 0..n {
            deals.push(deal);
            // At the last deal this is a no-op.
            deal.advance();
        }
        run_batch(
            engine,
            &deals,
            &mut outcomes,
            &mut report,
            |k| first + k as u128,
            |k, _| first + k as u128,
        );
        first += n as u128;
    }
    report
}

/// A uniform random integer in `0..n` (Lemire's multiply-and-reject: exact).
fn below(rng: &mut ChaCha8Rng, n: u32) -> usize {
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as usize
}

/// A uniformly random deal: the 16 payment cards' places are drawn by a
/// partial Fisher-Yates shuffle of the 52 places (the first four drawn get
/// the aces, then kings, queens, jacks), which makes every arrangement
/// equally likely with 16 draws instead of 51.
pub fn random_deal(rng: &mut ChaCha8Rng) -> Deal {
    // All draws first, then the swaps: the same draws in the same order,
    // but the swaps' chain of loads and stores no longer waits on the
    // generator.
    let draws: [usize; 16] = std::array::from_fn(|i| i + below(rng, (52 - i) as u32));
    let mut places: [u8; 52] = std::array::from_fn(|i| i as u8);
    let mut cards = [0u8; 52];
    for (i, &j) in draws.iter().enumerate() {
        places.swap(i, j);
        cards[places[i] as usize] = 4 - (i / 4) as u8;
    }
    Deal::from_permutation(cards)
}

/// Block `block` of the random search with this seed: `count` deals from
/// [`random_deal`], driven by ChaCha8 seeded with `seed` on stream `block`,
/// simulated by `engine`, keeping the `top` best games. The same seed and
/// block always give the same deals, whatever runs them.
pub fn scan_random<E: Engine + ?Sized>(
    engine: &mut E,
    seed: u64,
    block: u64,
    count: u64,
    top: usize,
) -> Report {
    scan_random_into(engine, seed, block, count, Report::new(top))
}

/// [`scan_random`] adding to `report` (empty, its `top` and extension set).
pub(crate) fn scan_random_into<E: Engine + ?Sized>(
    engine: &mut E,
    seed: u64,
    block: u64,
    count: u64,
    mut report: Report,
) -> Report {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(block);
    let (mut deals, mut outcomes) = (Vec::with_capacity(BATCH), Vec::with_capacity(BATCH));
    let mut remaining = count;
    let mut drawn = u128::from(block) * u128::from(BLOCK);
    while remaining > 0 {
        let n = remaining.min(BATCH as u64) as usize;
        deals.clear();
        deals.extend((0..n).map(|_| random_deal(&mut rng)));
        run_batch(
            engine,
            &deals,
            &mut outcomes,
            &mut report,
            |k| drawn + k as u128,
            |_, deal| deal.rank(),
        );
        drawn += n as u128;
        remaining -= n as u64;
    }
    report
}

/// `count` random deals from `seed` (ChaCha8), for benchmarks and tests.
pub fn random_deals(seed: u64, count: usize) -> Vec<Deal> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count).map(|_| random_deal(&mut rng)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camicia::Simulator;

    #[test]
    fn random_deals_hold_four_of_each_payment_card_spread_evenly() {
        // Each place holds an ace with probability 4/52: 4000 of 52,000.
        let mut aces_on_top = 0;
        for deal in random_deals(3, 52_000) {
            assert!(Deal::new(deal.a(), deal.b()).is_ok());
            aces_on_top += usize::from(deal.a()[0] == 4);
        }
        assert!((3600..4400).contains(&aces_on_top), "{aces_on_top}");
    }

    #[test]
    fn a_range_scan_visits_consecutive_indices() {
        let mut sim = Simulator::new();
        let report = scan_range(&mut sim, 1000, 500, 500);
        assert_eq!(report.deals, 500);
        let mut seen: Vec<u128> = report.best.iter().map(|g| g.index).collect();
        seen.sort();
        assert_eq!(seen, (1000..1500).collect::<Vec<_>>());
    }

    #[test]
    fn merged_reports_keep_the_best_games_in_order() {
        let mut sim = Simulator::new();
        let mut whole = scan_range(&mut sim, 0, 2000, 5);
        let mut parts = scan_range(&mut sim, 1000, 1000, 5);
        parts.merge(scan_range(&mut sim, 0, 1000, 5));
        assert_eq!(parts, {
            whole.top = 5;
            whole
        });
    }
}
