//! Profiling driver for the fast Camicia simulator: runs N random 26/26
//! deals (the benchmark's seed) and prints averages. Use under callgrind:
//! `valgrind --tool=callgrind target/release/examples/camicia_profile 20000`.

#[path = "../../../benches/common/mod.rs"]
mod common;
use common::thread_cpu_time;
use poker_core::camicia::{GameEnd, Simulator, search};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let deals = search::random_deals(52, n);
    let mut sim = Simulator::new();
    let (mut cards, mut tricks, mut loops, mut max_tricks) = (0u64, 0u64, 0u64, 0u64);
    let start = std::time::Instant::now();
    let cpu_start = thread_cpu_time().as_secs_f64();
    for deal in &deals {
        let o = sim.run_unchecked(deal.a(), deal.b());
        cards += o.cards;
        tricks += o.tricks;
        max_tricks = max_tricks.max(o.tricks);
        loops += u64::from(o.status == GameEnd::Loop);
    }
    let secs = start.elapsed().as_secs_f64();
    let cpu = thread_cpu_time().as_secs_f64() - cpu_start;
    println!(
        "{n} deals: mean {:.1} cards, {:.1} tricks, max {max_tricks} tricks, {loops} loops, {:.0} deals/s (wall), {:.0} deals per CPU-second",
        cards as f64 / n as f64,
        tricks as f64 / n as f64,
        n as f64 / secs,
        n as f64 / cpu
    );
}
