//! Backward extension in the search, side by side with the uniform search
//! on one core: random 52-card deals, the same deals for every arm in each
//! round, arms alternating, timed with the thread's CPU clock. For each arm
//! it prints deals per CPU-second, the extension's share of the CPU time,
//! and distinct games of at least 3000 and 4000 cards found per CPU-minute
//! (a search's own games, and with extension the longer deals it found),
//! with ratios against the uniform search.
//!
//! Run: `cargo bench -p poker-core --bench camicia_extension`; each arm
//! gets `CAMICIA_BENCH_SECONDS` CPU-seconds (default 60).

#[path = "../../../benches/common/mod.rs"]
mod common;
use common::thread_cpu_time;
use poker_core::camicia::VectorSimulator;
use poker_core::camicia::extend::Depth;
use poker_core::camicia::search::{BLOCK, Extending, Report, Work, time_extension_with};
use std::collections::BTreeMap;
use std::time::Duration;

/// Long games kept per block, as `poker camicia search` keeps by default
/// (far more than a block of 16,384 deals holds of 3000+ cards).
const TOP: usize = 10;

/// Blocks per arm per round.
const ROUND_BLOCKS: u64 = 32;

const SEED: u64 = 2026;

struct Arm {
    name: String,
    extend: Option<Extending>,
    /// Every distinct long deal found: own games and extended deals, by
    /// index.
    found: BTreeMap<u128, u64>,
    /// CPU time spent extending.
    extending: Duration,
    cpu: Duration,
}

impl Arm {
    /// Adds a block's long games and extended deals.
    fn add(&mut self, block: &Report) {
        for g in &block.best {
            self.found.insert(g.index, g.outcome.cards);
        }
        for e in &block.extension.extended {
            self.found.insert(e.game.index, e.game.outcome.cards);
        }
        self.extending += block.extension.spent.0;
    }

    /// Distinct deals of at least `cards` cards found.
    fn found(&self, cards: u64) -> usize {
        self.found.values().filter(|&&c| c >= cards).count()
    }

    fn longest(&self) -> u64 {
        self.found.values().copied().max().unwrap_or(0)
    }
}

fn main() {
    time_extension_with(thread_cpu_time);
    // `cargo bench` passes `--bench`; nothing else is taken.
    let seconds: f64 = std::env::var("CAMICIA_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60.0);
    let budget = Duration::from_secs_f64(seconds);
    let arm = |name: &str, extend| Arm {
        name: name.into(),
        extend,
        found: BTreeMap::new(),
        extending: Duration::ZERO,
        cpu: Duration::ZERO,
    };
    let from = |cards| {
        Some(Extending {
            from: cards,
            depth: Depth::FirstTricks(10),
        })
    };
    let mut arms = vec![
        arm("uniform", None),
        arm("extension from 1500", from(1500)),
        arm("extension from 2000", from(2000)),
        arm("extension from 2500", from(2500)),
    ];
    let work = Work::Random {
        seed: SEED,
        count: u64::MAX / 2,
    };
    let mut engine = VectorSimulator::new();
    let mut round = 0;
    while arms.iter().any(|a| a.cpu < budget) {
        for arm in arms.iter_mut() {
            let mut blocks = Vec::with_capacity(ROUND_BLOCKS as usize);
            let start = thread_cpu_time();
            for i in round * ROUND_BLOCKS..(round + 1) * ROUND_BLOCKS {
                blocks.push(work.block_extending(&mut engine, i, TOP, arm.extend));
            }
            arm.cpu += thread_cpu_time() - start;
            blocks.iter().for_each(|b| arm.add(b));
        }
        round += 1;
    }
    let deals = round * ROUND_BLOCKS * BLOCK;
    eprintln!(
        "{deals} random deals per arm (seed {SEED}), arms alternating on one core, thread CPU time"
    );
    let base = &arms[0];
    let (b3, b4) = (
        base.found(3000) as f64 / base.cpu.as_secs_f64() * 60.0,
        base.found(4000) as f64 / base.cpu.as_secs_f64() * 60.0,
    );
    let base_rate = deals as f64 / base.cpu.as_secs_f64();
    for arm in &arms {
        let minutes = arm.cpu.as_secs_f64() / 60.0;
        let (g3, g4) = (
            arm.found(3000) as f64 / minutes,
            arm.found(4000) as f64 / minutes,
        );
        let rate = deals as f64 / arm.cpu.as_secs_f64();
        eprintln!(
            "{:>20}: {:9.0} deals per CPU-second ({:.3}x uniform), extension {:4.1}% of the CPU; \
             3000+ cards: {} ({:.1} per CPU-minute, {:.2}x), 4000+ cards: {} ({:.2} per \
             CPU-minute, {:.2}x); longest {}",
            arm.name,
            rate,
            rate / base_rate,
            100.0 * arm.extending.as_secs_f64() / arm.cpu.as_secs_f64(),
            arm.found(3000),
            g3,
            g3 / b3,
            arm.found(4000),
            g4,
            g4 / b4.max(f64::MIN_POSITIVE),
            arm.longest()
        );
    }
}
