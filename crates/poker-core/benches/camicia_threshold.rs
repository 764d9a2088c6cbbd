//! Which length should a search start extending games from? Thresholds of
//! 1000, 1500, 2000 and 2500 cards compared on the same random deals, by
//! paired counts of games of 3500+ and 4000+ cards found per CPU-hour.
//!
//! Every deal is simulated once (the vector engine, blocks of 16,384 deals
//! as `poker camicia search` draws them) and every finished game of 1000+
//! cards is extended once (the search's depth, the first 10 tricks), each
//! call timed with the thread's CPU clock. Threshold `T` then costs the
//! simulation plus the extensions of the games of `T`+ cards, and finds the
//! distinct deals of `X`+ cards among the games themselves and the deals
//! extended from games of `T`+ cards: the arms differ only in which games
//! they extend, so their counts are paired. Each rate has a Poisson 95%
//! interval; each difference from 2000 cards a 95% interval from batch
//! means (batches of 64 blocks). Games of 1000..1500 cards, which cost
//! most, are extended in every fifth batch only, and the 1000 arm is
//! measured (and paired with 2000) on those batches.
//!
//! Run: `CAMICIA_BENCH_SECONDS=1200 cargo bench -p poker-core --bench
//! camicia_threshold` (CPU-seconds in all; default 60;
//! `CAMICIA_BENCH_WALL_SECONDS` stops it sooner on a busy machine). Prints
//! a Markdown table.

#[path = "../../../benches/common/mod.rs"]
mod common;
use common::thread_cpu_time;
use poker_core::camicia::extend::{Depth, extend_deal};
use poker_core::camicia::search::{BLOCK, Engine, random_deal};
use poker_core::camicia::{GameEnd, Outcome, VectorSimulator};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use std::collections::BTreeMap;
use std::time::Duration;

const SEED: u64 = 2027;
const THRESHOLDS: [u64; 4] = [1000, 1500, 2000, 2500];
const LENGTHS: [u64; 2] = [3500, 4000];
const BATCH_BLOCKS: u64 = 64;
/// Games of 1000..1500 cards cost most (about 80% of the CPU time at
/// 1000) and matter only to the 1000 arm: they are extended in one batch
/// of this many, and the 1000 arm is compared on those batches alone.
const LOWEST_EVERY: usize = 5;

/// A game of 1000+ cards that is, or extends to, a deal of 3500+ cards.
struct Long {
    batch: usize,
    index: u128,
    cards: u64,
    /// The longest deal of its basin, if longer: index and cards.
    extended: Option<(u128, u64)>,
}

/// What the deals cost and found.
struct Run {
    /// Per batch: simulation CPU time.
    sim: Vec<Duration>,
    /// Per batch and threshold: CPU time extending the games of that
    /// threshold's length or more.
    extension: Vec<[Duration; THRESHOLDS.len()]>,
    /// Games of 1000+ cards extended.
    extended: u64,
    long: Vec<Long>,
    deals: u64,
}

fn run(budget: Duration, wall: Duration) -> Run {
    let started = std::time::Instant::now();
    let mut engine = VectorSimulator::new();
    let mut run = Run {
        sim: Vec::new(),
        extension: Vec::new(),
        extended: 0,
        long: Vec::new(),
        deals: 0,
    };
    let mut outcomes = vec![Outcome::new(GameEnd::Finished, 0, 0); BLOCK as usize];
    let mut spent = Duration::ZERO;
    let mut block = 0u64;
    while (spent < budget && started.elapsed() < wall) || !block.is_multiple_of(BATCH_BLOCKS) {
        let batch = (block / BATCH_BLOCKS) as usize;
        if run.sim.len() == batch {
            run.sim.push(Duration::ZERO);
            run.extension.push([Duration::ZERO; THRESHOLDS.len()]);
            eprint!("\rbatch {batch}, {:.0} CPU-s", spent.as_secs_f64());
        }
        let start = thread_cpu_time();
        let mut rng = ChaCha8Rng::seed_from_u64(SEED);
        rng.set_stream(block);
        let deals: Vec<_> = (0..BLOCK).map(|_| random_deal(&mut rng)).collect();
        engine.run_batch(&deals, &mut outcomes);
        let sim = thread_cpu_time() - start;
        run.sim[batch] += sim;
        spent += sim;
        for (deal, outcome) in deals.iter().zip(&outcomes) {
            let lowest = batch.is_multiple_of(LOWEST_EVERY);
            let least = if lowest { THRESHOLDS[0] } else { THRESHOLDS[1] };
            if outcome.status != GameEnd::Finished || outcome.cards < least {
                continue;
            }
            let start = thread_cpu_time();
            let found = extend_deal(deal, Depth::FirstTricks(10)).expect("a finished game");
            let cost = thread_cpu_time() - start;
            spent += cost;
            run.extended += 1;
            for (t, &from) in THRESHOLDS.iter().enumerate() {
                if outcome.cards >= from {
                    run.extension[batch][t] += cost;
                }
            }
            if found.outcome.cards >= LENGTHS[0] {
                run.long.push(Long {
                    batch,
                    index: deal.rank(),
                    cards: outcome.cards,
                    extended: found
                        .extends()
                        .then(|| (found.deal.rank(), found.outcome.cards)),
                });
            }
        }
        run.deals += BLOCK;
        block += 1;
    }
    eprintln!();
    run
}

/// One arm's distinct deals of `length`+ cards per batch (each counted in
/// the first batch it was found in), and its CPU time per batch; for
/// `lowest`, only the batches that extended games of 1000+ cards count.
fn arm(run: &Run, from: Option<u64>, length: u64, lowest: bool) -> (Vec<f64>, Vec<f64>) {
    let mut first: BTreeMap<u128, usize> = BTreeMap::new();
    let t = from.and_then(|f| THRESHOLDS.iter().position(|&x| x == f));
    let cpu: Vec<f64> = run
        .sim
        .iter()
        .zip(&run.extension)
        .map(|(s, e)| s.as_secs_f64() + t.map_or(0.0, |t| e[t].as_secs_f64()))
        .collect();
    for g in &run.long {
        let extends = from.is_some_and(|f| g.cards >= f);
        if g.cards >= length {
            first.entry(g.index).or_insert(g.batch);
        }
        if let (true, Some((index, cards))) = (extends, g.extended) {
            if cards >= length {
                first.entry(index).or_insert(g.batch);
            }
        }
    }
    let mut found = vec![0.0; cpu.len()];
    for batch in first.into_values() {
        found[batch] += 1.0;
    }
    let kept = |(i, x): (usize, f64)| (!lowest || i.is_multiple_of(LOWEST_EVERY)).then_some(x);
    (
        found.into_iter().enumerate().filter_map(kept).collect(),
        cpu.into_iter().enumerate().filter_map(kept).collect(),
    )
}

fn main() {
    let seconds: f64 = std::env::var("CAMICIA_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60.0);
    let wall: f64 = std::env::var("CAMICIA_BENCH_WALL_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1e9);
    let run = run(
        Duration::from_secs_f64(seconds),
        Duration::from_secs_f64(wall),
    );
    let batches = run.sim.len();
    let sim: f64 = run.sim.iter().map(Duration::as_secs_f64).sum();
    println!(
        "{} random deals (seed {SEED}, {batches} batches of {BATCH_BLOCKS} blocks), \
         {:.0} CPU-seconds of simulation, {} games of {}+ cards extended",
        run.deals, sim, run.extended, THRESHOLDS[0]
    );
    println!();
    println!(
        "| extension from | deals per CPU-second | extension's CPU | 3500+ games per CPU-hour | \
         vs 2000 | 4000+ games per CPU-hour | vs 2000 |"
    );
    println!("|---|---|---|---|---|---|---|");
    let arms: Vec<Option<u64>> = std::iter::once(None).chain(THRESHOLDS.map(Some)).collect();
    for &from in &arms {
        let lowest = from == Some(THRESHOLDS[0]);
        let mut row = vec![
            from.map_or("off".to_string(), |f| f.to_string()),
            String::new(),
            String::new(),
        ];
        for length in LENGTHS {
            let (found, cpu) = arm(&run, from, length, lowest);
            let (n, hours) = (found.iter().sum::<f64>(), cpu.iter().sum::<f64>() / 3600.0);
            let batches = found.len();
            let (deals, sim) = if lowest {
                let kept = batches as f64 / run.sim.len() as f64;
                (run.deals as f64 * kept, {
                    let s = run.sim.iter().step_by(LOWEST_EVERY);
                    s.map(Duration::as_secs_f64).sum::<f64>()
                })
            } else {
                (run.deals as f64, sim)
            };
            row[1] = format!("{:.2} M", deals / (hours * 3600.0) / 1e6);
            row[2] = format!("{:.1}%", 100.0 * (1.0 - sim / (hours * 3600.0)));
            let half = 1.96 * n.sqrt();
            row.push(format!(
                "{:.0} ({:.0}..{:.0}; {n} games)",
                n / hours,
                (n - half).max(0.0) / hours,
                (n + half) / hours
            ));
            // Paired with 2000 cards, batch by batch.
            let (base, base_cpu) = arm(&run, Some(2000), length, lowest);
            let (c, c0) = (
                cpu.iter().sum::<f64>() / 3600.0,
                base_cpu.iter().sum::<f64>() / 3600.0,
            );
            let d: Vec<f64> = found
                .iter()
                .zip(&base)
                .map(|(x, y)| x / c - y / c0)
                .collect();
            let total: f64 = d.iter().sum();
            let mean = total / batches as f64;
            let var =
                d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (batches as f64 - 1.0).max(1.0);
            let half = 1.96 * (batches as f64 * var).sqrt();
            row.push(if from == Some(2000) {
                "·".into()
            } else {
                format!("{total:+.0} ({:+.0}..{:+.0})", total - half, total + half)
            });
        }
        println!("| {} |", row.join(" | "));
    }
}
