//! Camicia speed: random 52-card deals (26/26, fixed seed), exact loop
//! detection on. Criterion's "thrpt" line is deals per second on one core.
//! The "(CPU time)" variants time with the thread's CPU clock instead of the
//! wall clock, so the figure stays per core on a busy machine.
//!
//! Run: `cargo bench --bench camicia`.

mod common;
use common::thread_cpu_time;
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use poker::camicia::{Card, Deal, Simulator, reference, search};
use std::hint::black_box;

const DEALS: usize = 10_000;

const SEED: u64 = 52;

fn simulate(c: &mut Criterion) {
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
