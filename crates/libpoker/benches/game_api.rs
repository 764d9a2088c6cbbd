//! Games per second through the embeddable game API (poker_game_*), with
//! the round-robin policy: one game = new + 20 looks + 20 places + score +
//! free, each deck shuffled from its own seed.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use poker::ffi::game::*;
use std::hint::black_box;

fn round_robin_game(seed: u64) -> i32 {
    let game = poker_game_new(seed);
    let (mut v, mut c) = (0, 0);
    // SAFETY: a live handle, writable ints, freed once at the end.
    unsafe {
        for i in 0..20 {
            poker_game_look(game, &mut v, &mut c);
            poker_game_place(game, i % 4 + 1);
        }
        let total = poker_game_score(game, std::ptr::null_mut());
        poker_game_free(game);
        total
    }
}

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("game API");
    group.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    group.bench_function(
        "one round-robin game (new, 20 look+place, score, free)",
        |b| {
            b.iter(|| {
                seed = seed.wrapping_add(1);
                assert!(black_box(round_robin_game(black_box(seed))) >= 0);
            })
        },
    );
    group.finish();
}

criterion_group!(benches, games);
criterion_main!(benches);
