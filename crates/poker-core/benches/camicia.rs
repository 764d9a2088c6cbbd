//! Camicia speed: random 52-card deals (26/26, fixed seed), exact loop
//! detection on. Criterion's "thrpt" line is deals per second on one core.
//! The "(CPU time)" variants time with the thread's CPU clock instead of the
//! wall clock, so the figure stays per core on a busy machine.
//!
//! Before the criterion groups it prints ratios measured by alternating the
//! contenders on the same deals (thread CPU time, best of several rounds):
//! the plain C simulator of `benches/plain_camicia.c` (card by card, a
//! hashed loop check; this benchmark compiles it with `cc -O2`, no
//! `-march=native`, and checks its outcomes against the library's), the
//! fast engine, the vector engine (both of its paths), and search blocks
//! (random deals and index ranges, as `poker camicia search` runs them)
//! with the fast and the vector engine.
//!
//! Run: `cargo bench --features bench --bench camicia`.

#[path = "../../../benches/common/mod.rs"]
mod common;
use common::thread_cpu_time;
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use poker_core::camicia::search::Engine;
use poker_core::camicia::{
    Card, Deal, GameEnd, Outcome, Simulator, VectorSimulator, reference, search,
};
use std::hint::black_box;
use std::time::Duration;

type PlainCamicia = unsafe extern "C" fn(*const u8, i32, *const u8, i32, *mut u64, *mut u64) -> i32;

/// Compiles benches/plain_camicia.c and loads its `plain_camicia`.
fn plain_c_simulator() -> PlainCamicia {
    let function = common::plain_c_function("plain_camicia.c", c"plain_camicia");
    // SAFETY: the C function has this signature.
    unsafe { std::mem::transmute::<*mut libc::c_void, PlainCamicia>(function) }
}

fn plain_c_outcome(plain_c: PlainCamicia, deal: &Deal) -> Outcome {
    let (a, b) = (deal.a(), deal.b());
    let (mut cards, mut tricks) = (0, 0);
    // SAFETY: two live slices with their lengths, two live out-pointers.
    let status = unsafe {
        plain_c(
            a.as_ptr(),
            a.len() as i32,
            b.as_ptr(),
            b.len() as i32,
            &mut cards,
            &mut tricks,
        )
    };
    let status = if status == 0 {
        GameEnd::Finished
    } else {
        GameEnd::Loop
    };
    Outcome::new(status, cards, tricks)
}

/// A named contender: plays the deals (or a search block of as many deals)
/// and returns a checksum of what it found.
type Contender<'a> = (&'static str, Box<dyn FnMut(&[Deal]) -> u64 + 'a>);

/// Thread CPU time per deal of each contender, alternating them in rounds,
/// best round of each; ratios against the first.
fn ratios(title: &str, deals: &[Deal], mut list: Vec<Contender>) {
    let mut best = vec![Duration::MAX; list.len()];
    let mut sums = vec![0; list.len()];
    for _ in 0..7 {
        for (i, (_, run)) in list.iter_mut().enumerate() {
            let start = thread_cpu_time();
            sums[i] = black_box(run(deals));
            best[i] = best[i].min(thread_cpu_time() - start);
        }
    }
    let base = best[0].as_secs_f64();
    for (((name, _), time), sum) in list.iter().zip(&best).zip(&sums) {
        eprintln!(
            "ratio {title}: {name:>28}: {:7.0} deals per CPU-second, {:5.2}x {} (checksum {sum})",
            deals.len() as f64 / time.as_secs_f64(),
            base / time.as_secs_f64(),
            list[0].0,
        );
    }
}

fn total_cards(outcomes: &[Outcome]) -> u64 {
    outcomes.iter().map(|o| o.cards).sum()
}

/// The engines on the benchmark's deals and the search blocks.
fn engine_ratios(plain_c: PlainCamicia) {
    let deals = search::random_deals(SEED, 50_000);
    let mut fast = Simulator::new();
    for deal in &deals {
        assert_eq!(
            plain_c_outcome(plain_c, deal),
            fast.run_unchecked(deal.a(), deal.b()),
            "the plain C simulator disagrees on {deal}"
        );
    }
    let engine = |mut sim: VectorSimulator| {
        move |d: &[Deal]| {
            let mut out = vec![Outcome::new(GameEnd::Finished, 0, 0); d.len()];
            sim.run_batch(d, &mut out);
            total_cards(&out)
        }
    };
    let mut fast = Simulator::new();
    ratios(
        "random deals",
        &deals,
        vec![
            (
                "plain C simulator",
                Box::new(|d: &[Deal]| d.iter().map(|x| plain_c_outcome(plain_c, x).cards).sum()),
            ),
            (
                "fast engine",
                Box::new(move |d: &[Deal]| {
                    d.iter()
                        .map(|x| fast.run_unchecked(x.a(), x.b()).cards)
                        .sum()
                }),
            ),
            (
                "vector engine, plain path",
                Box::new(engine(VectorSimulator::with_vector(false))),
            ),
            ("vector engine", Box::new(engine(VectorSimulator::new()))),
        ],
    );
    // Search blocks as `poker camicia search` runs them (deals drawn or
    // stepped through, reports kept): the deals only set the count.
    let block = &deals[..search::BLOCK as usize];
    let random = |mut engine: Box<dyn Engine>| {
        let mut i = 0;
        move |d: &[Deal]| {
            i += 1;
            search::scan_random(engine.as_mut(), SEED, i, d.len() as u64, 10).best[0]
                .outcome
                .cards
        }
    };
    let range = |start: u128, mut engine: Box<dyn Engine>| {
        move |d: &[Deal]| {
            search::scan_range(engine.as_mut(), start, d.len() as u64, 10).best[0]
                .outcome
                .cards
        }
    };
    ratios(
        "search, random deals",
        block,
        vec![
            ("fast engine", Box::new(random(Box::new(Simulator::new())))),
            (
                "vector engine",
                Box::new(random(Box::new(VectorSimulator::new()))),
            ),
        ],
    );
    // A range anywhere, and the range that starts at the longest known
    // game (one of A's decks, B's varying at the end only: short, much
    // alike games, where the fast engine's branch predictor learns the
    // patterns).
    for (title, start) in [
        ("search, index range", 300_000_000_000_000_000_000u128),
        (
            "search, index range at the 8344-card record",
            447_247_122_283_566_119_055,
        ),
    ] {
        ratios(
            title,
            block,
            vec![
                (
                    "fast engine",
                    Box::new(range(start, Box::new(Simulator::new()))),
                ),
                (
                    "vector engine",
                    Box::new(range(start, Box::new(VectorSimulator::new()))),
                ),
            ],
        );
    }
}

const DEALS: usize = 10_000;

const SEED: u64 = 52;

fn simulate(c: &mut Criterion) {
    engine_ratios(plain_c_simulator());
    let deals = search::random_deals(SEED, DEALS);
    let mut group = c.benchmark_group("camicia");
    group.throughput(Throughput::Elements(DEALS as u64));
    group.bench_function("fast simulator, 10k random deals", |bench| {
        let mut sim = Simulator::new();
        bench.iter(|| {
            let mut cards = 0u64;
            for deal in &deals {
                cards += sim.run_unchecked(deal.a(), deal.b()).cards;
            }
            black_box(cards)
        })
    });
    group.bench_function("fast simulator, 10k random deals (CPU time)", |bench| {
        let mut sim = Simulator::new();
        bench.iter_custom(|iters| {
            let start = thread_cpu_time();
            for _ in 0..iters {
                for deal in &deals {
                    black_box(sim.run_unchecked(deal.a(), deal.b()));
                }
            }
            thread_cpu_time() - start
        })
    });
    group.bench_function("vector simulator, 10k random deals (CPU time)", |bench| {
        let mut sim = VectorSimulator::new();
        let mut out = vec![Outcome::new(GameEnd::Finished, 0, 0); deals.len()];
        bench.iter_custom(|iters| {
            let start = thread_cpu_time();
            for _ in 0..iters {
                sim.run_batch(&deals, &mut out);
                black_box(&out);
            }
            thread_cpu_time() - start
        })
    });
    group.bench_function(
        "random deal + fast simulator, search block (CPU time)",
        |bench| {
            let mut sim = Simulator::new();
            let mut block = 0;
            bench.iter_custom(|iters| {
                let start = thread_cpu_time();
                for _ in 0..iters {
                    block += 1;
                    black_box(search::scan_random(&mut sim, SEED, block, DEALS as u64, 10));
                }
                thread_cpu_time() - start
            })
        },
    );
    group.bench_function("random deal + fast simulator (search block)", |bench| {
        let mut sim = Simulator::new();
        let mut block = 0;
        bench.iter(|| {
            block += 1;
            black_box(search::scan_random(&mut sim, SEED, block, DEALS as u64, 10))
        })
    });
    group.bench_function(
        "exhaustive range + fast simulator (search block)",
        |bench| {
            let mut sim = Simulator::new();
            let start = 447_247_122_283_566_119_055u128;
            bench.iter(|| black_box(search::scan_range(&mut sim, start, DEALS as u64, 10)))
        },
    );
    group.finish();

    let mut group = c.benchmark_group("camicia-reference");
    let few: Vec<(Vec<Card>, Vec<Card>)> = deals[..200]
        .iter()
        .map(|d| {
            let cards = |p: &[u8]| -> Vec<Card> {
                p.iter().map(|&x| Card::from_penalty(x).unwrap()).collect()
            };
            (cards(d.a()), cards(d.b()))
        })
        .collect();
    group.throughput(Throughput::Elements(few.len() as u64));
    group.sample_size(10);
    group.bench_function("reference simulator, 200 random deals", |bench| {
        bench.iter(|| {
            few.iter()
                .map(|(a, b)| reference::simulate(a, b).cards)
                .sum::<u64>()
        })
    });
    group.finish();

    let mut group = c.benchmark_group("camicia-index");
    group.throughput(Throughput::Elements(1));
    group.bench_function("rank", |bench| {
        bench.iter_batched(
            || deals[7],
            |d: Deal| black_box(d.rank()),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("unrank", |bench| {
        bench.iter(|| black_box(Deal::unrank(black_box(447_247_122_283_566_119_055))))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = simulate
}
criterion_main!(benches);
