//! FreeCell dealing and finding, each against its reference in the same run:
//!
//! - `deal_range`: the batch dealer (vector and plain paths), a loop of
//!   `freecell_deal`, and the plain C dealer of `benches/plain_dealer.c`,
//!   which this benchmark compiles itself (`cc -O2`, no `-march=native`),
//!   1,024 consecutive deals per sample, thread CPU time;
//! - `find`: `find_prefix` on full boards from the three ranges and on
//!   partial boards, against the scan of 2^24 numbers.
//!
//! Run: `cargo bench --features bench --bench freecell`. Before the criterion groups it
//! prints ratios measured by alternating the contenders (thread CPU time),
//! which hold up better than absolute times on a busy machine.

#[path = "../../../benches/common/mod.rs"]
mod common;
use common::thread_cpu_time;
use criterion::{Criterion, black_box, criterion_group, criterion_main};
use poker::ffi::freecell::freecell_deal;
use poker::freecell::{
    Deal, DealNumber, deal_range_with, find_deals_between, find_prefix, vector_path_enabled,
};
use std::time::Duration;

type PlainDealRange = unsafe extern "C" fn(i64, i64, *mut u8);

/// Compiles benches/plain_dealer.c and loads its `plain_deal_range`.
fn plain_c_dealer() -> PlainDealRange {
    let function = common::plain_c_function("plain_dealer.c", c"plain_deal_range");
    // SAFETY: the C function has this signature.
    unsafe { std::mem::transmute::<*mut libc::c_void, PlainDealRange>(function) }
}

const BATCH: usize = 1024;
const FIRSTS: [i64; 3] = [1_000_000, 3_000_000_000, 6_000_000_000];

/// The dealers, each dealing BATCH consecutive deals from `first`.
/// A named dealer of consecutive deals from a first number.
type Dealer = (&'static str, Box<dyn Fn(i64, &mut [[u8; 52]])>);

fn dealers(plain_c: PlainDealRange) -> Vec<Dealer> {
    let number = |n: i64| DealNumber::new(n).unwrap();
    let mut list: Vec<Dealer> = vec![
        (
            "plain_c",
            // SAFETY: `out` holds `out.len()` deals of 52 bytes each, as
            // the C function writes them.
            Box::new(move |first, out: &mut [[u8; 52]]| unsafe {
                plain_c(first, out.len() as i64, out.as_mut_ptr().cast())
            }),
        ),
        (
            "freecell_deal_loop",
            Box::new(|first, out: &mut [[u8; 52]]| {
                for (i, deal) in out.iter_mut().enumerate() {
                    // SAFETY: `deal` is 52 writable bytes.
                    unsafe { freecell_deal(first + i as i64, deal.as_mut_ptr()) };
                }
            }),
        ),
        (
            "deal_range_plain",
            Box::new(move |first, out: &mut [[u8; 52]]| {
                deal_range_with(number(first), out, false).unwrap()
            }),
        ),
    ];
    if vector_path_enabled() {
        list.push((
            "deal_range_vector",
            Box::new(move |first, out: &mut [[u8; 52]]| {
                deal_range_with(number(first), out, true).unwrap()
            }),
        ));
    }
    list
}

/// Thread CPU time per deal of each dealer, alternating them in rounds.
fn dealer_ratios(plain_c: PlainDealRange) {
    let list = dealers(plain_c);
    let mut out = vec![[0u8; 52]; BATCH];
    let mut spent = vec![Duration::ZERO; list.len()];
    let mut deals = 0u64;
    for round in 0..300 {
        let first = FIRSTS[round % 3] + (round as i64) * BATCH as i64;
        for (i, (_, dealer)) in list.iter().enumerate() {
            let start = thread_cpu_time();
            dealer(first, &mut out);
            black_box(&out);
            spent[i] += thread_cpu_time() - start;
        }
        deals += BATCH as u64;
    }
    let c = spent[0].as_secs_f64();
    for ((name, _), time) in list.iter().zip(&spent) {
        eprintln!(
            "ratio {name:>20}: {:6.1} ns/deal, {:5.2}x the plain C dealer's deals per CPU-second",
            time.as_secs_f64() * 1e9 / deals as f64,
            c / time.as_secs_f64()
        );
    }
}

/// Thread CPU time per search, against the scan of 2^24 numbers.
fn find_ratios() {
    let board = |n: i64| Deal::new(DealNumber::new(n).unwrap()).cards();
    let time = |f: &dyn Fn()| -> Duration {
        let start = thread_cpu_time();
        f();
        thread_cpu_time() - start
    };
    // The scan on one thread (a pool of one, so all its CPU time is counted
    // on that thread), scaled from 2^24 numbers to the whole range.
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let b = board(8_589_934_591);
    let scan = one.install(|| {
        time(&|| {
            black_box(find_deals_between(
                &b,
                DealNumber::new(1 << 32).unwrap(),
                DealNumber::new((1 << 32) + (1 << 24) - 1).unwrap(),
            ));
        })
    }) * 512;
    eprintln!(
        "find: the scan of the whole range, one core: {:.2} s CPU (2^24 numbers timed, x512)",
        scan.as_secs_f64()
    );
    let _ = find_prefix(&board(1)[..], 1); // the tables, built once per process
    for (name, n, len) in [
        ("full board, microsoft", 11982i64, 52usize),
        ("full board, fcpro-or8000", 3_000_000_000, 52),
        ("full board, fcpro-16bit-plus1", 8_589_934_591, 52),
        ("6 cards", 617, 6),
        ("5 cards", 617, 5),
        ("4 cards", 617, 4),
        ("3 cards", 617, 3),
        ("2 cards", 617, 2),
        ("1 card (count only)", 617, 1),
    ] {
        let b = board(n);
        let rounds = 5;
        let t = time(&|| {
            for _ in 0..rounds {
                black_box(find_prefix(&b[..len], if len == 1 { 0 } else { 100 }).unwrap());
            }
        }) / rounds;
        eprintln!(
            "find: {name:>30}: {:8.3} ms CPU (whole range), {:6.0}x faster than the scan",
            t.as_secs_f64() * 1e3,
            scan.as_secs_f64() / t.as_secs_f64()
        );
    }
}

fn deal(c: &mut Criterion) {
    let plain_c = plain_c_dealer();
    dealer_ratios(plain_c);
    find_ratios();
    let mut group = c.benchmark_group("deal_range");
    for (name, dealer) in dealers(plain_c) {
        group.bench_function(format!("{name}_thread_cpu_time_per_1024"), |b| {
            let mut out = vec![[0u8; 52]; BATCH];
            let mut round = 0usize;
            b.iter_custom(|iters| {
                let start = thread_cpu_time();
                for _ in 0..iters {
                    round += 1;
                    dealer(FIRSTS[round % 3] + (round % 1000) as i64 * 1024, &mut out);
                    black_box(&out);
                }
                thread_cpu_time() - start
            });
        });
    }
    group.finish();

    let mut group = c.benchmark_group("freecell_deal");
    group.bench_function("varying_numbers_thread_cpu_time", |b| {
        b.iter_custom(|iters| {
            let mut n = 1i64;
            let mut cards = [0u8; 52];
            let start = thread_cpu_time();
            for _ in 0..iters {
                n = n % 8_589_934_591 + 7_919;
                // SAFETY: `cards` is 52 writable bytes.
                unsafe { freecell_deal(black_box(n), cards.as_mut_ptr()) };
            }
            thread_cpu_time() - start
        });
    });
    group.finish();
}

fn find(c: &mut Criterion) {
    let mut group = c.benchmark_group("find");
    group.sample_size(10);
    for (name, n) in [
        ("full_board_microsoft", 11982i64),
        ("full_board_fcpro_16bit_plus1", 8_589_934_591),
    ] {
        let board = Deal::new(DealNumber::new(n).unwrap()).cards();
        group.bench_function(name, |b| b.iter(|| find_prefix(black_box(&board), 10)));
    }
    let board = Deal::new(DealNumber::new(617).unwrap()).cards();
    group.bench_function("four_cards", |b| {
        b.iter(|| find_prefix(black_box(&board[..4]), 10))
    });
    group.finish();
}

criterion_group!(benches, deal, find);
criterion_main!(benches);
