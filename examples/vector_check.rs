//! Scratch: vector engine vs fast engine on random deals.
#[path = "../benches/common/mod.rs"]
mod common;
use common::thread_cpu_time;
use poker::camicia::search::Engine;
use poker::camicia::{Outcome, Simulator, Status, VectorSimulator, search};

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200_000);
    let deals = search::random_deals(52, n);
    let mut fast = Simulator::new();
    let mut vector = VectorSimulator::new();
    println!("vector path: {}", vector.is_vector());
    for d in deals.iter().take(1000) {
        let (x, y) = (fast.run_unchecked(d.a(), d.b()), vector.run(d));
        assert_eq!(x, y, "{d}");
    }
    let mut out = vec![Outcome::new(Status::Finished, 0, 0); deals.len()];
    vector.run_batch(&deals, &mut out);
    for (d, o) in deals.iter().zip(&out) {
        assert_eq!(fast.run_unchecked(d.a(), d.b()), *o, "batch {d}");
    }
    println!("all {n} agree");
    let (mut best_f, mut best_v) = (0f64, 0f64);
    for _ in 0..7 {
        let t = thread_cpu_time();
        let mut s = 0;
        for d in &deals {
            s += fast.run_unchecked(d.a(), d.b()).cards;
        }
        let tf = (thread_cpu_time() - t).as_secs_f64();
        let t = thread_cpu_time();
        let mut out = vec![Outcome::new(Status::Finished, 0, 0); deals.len()];
        vector.run_batch(&deals, &mut out);
        let s2: u64 = out.iter().map(|o| o.cards).sum();
        let tv = (thread_cpu_time() - t).as_secs_f64();
        assert_eq!(s, s2);
        best_f = best_f.max(n as f64 / tf);
        best_v = best_v.max(n as f64 / tv);
    }
    println!("best: fast {best_f:.0} deals/s, vector {best_v:.0} deals/s, ratio {:.3}", best_v / best_f);
}
