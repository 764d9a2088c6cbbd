//! Time per `freecell_deal` (target: under 100 ns) in each deal range, and
//! the cost of the reverse search per million deal numbers.
//!
//! Run: `cargo bench --bench freecell`. The full-range `--find` is timed
//! with the release binary instead (see docs/dealing.md).

mod common;
use common::thread_cpu_time;
use criterion::{BatchSize, Criterion, black_box, criterion_group, criterion_main};
use poker::ffi::freecell::freecell_deal;
use poker::freecell::{Deal, DealNumber, find_deals_between};

fn deal(c: &mut Criterion) {
    let mut group = c.benchmark_group("freecell_deal");
    for (name, n) in [
        ("microsoft", 11982i64),
        ("fcpro_or8000", 3_000_000_000),
        ("fcpro_16bit_plus1", 8_589_934_591),
    ] {
        group.bench_function(name, |b| {
            let mut cards = [0u8; 52];
            b.iter(|| unsafe { freecell_deal(black_box(n), cards.as_mut_ptr()) });
        });
    }
    // CPU time of this thread only: on a machine shared with other builds,
    // wall-clock samples include time spent descheduled.
    group.bench_function("varying_numbers_thread_cpu_time", |b| {
        b.iter_custom(|iters| {
            let mut n = 1i64;
            let mut cards = [0u8; 52];
            let start = thread_cpu_time();
            for _ in 0..iters {
                n = n % 8_589_934_591 + 7_919;
                unsafe { freecell_deal(black_box(n), cards.as_mut_ptr()) };
            }
            thread_cpu_time() - start
        });
    });
    group.bench_function("varying_numbers", |b| {
        let mut n = 1i64;
        let mut cards = [0u8; 52];
        b.iter(|| {
            n = n % 8_589_934_591 + 7_919;
            unsafe { freecell_deal(black_box(n), cards.as_mut_ptr()) }
        });
    });
    group.finish();
}

fn find(c: &mut Criterion) {
    let mut group = c.benchmark_group("find");
    group.sample_size(10);
    let board = Deal::new(DealNumber::new(8_589_934_591).unwrap()).cards();
    group.bench_function("scan_16M_numbers", |b| {
        b.iter_batched(
            || board,
            |board| {
                find_deals_between(
                    &board,
                    DealNumber::new(1 << 32).unwrap(),
                    DealNumber::new((1 << 32) + (1 << 24) - 1).unwrap(),
                )
            },
            BatchSize::SmallInput,
        );
    });
    group.finish();
}

criterion_group!(benches, deal, find);
criterion_main!(benches);
