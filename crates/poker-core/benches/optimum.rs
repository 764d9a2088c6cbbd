//! The hindsight optimum's speed (the target: under 1 ms per deck).

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use poker_core::contest::ContestDeck;
use poker_core::optimum::deck_optimum;

fn optimum(c: &mut Criterion) {
    let decks: Vec<ContestDeck> = (0..64).map(ContestDeck::shuffled).collect();
    let mut i = 0;
    c.bench_function("deck_optimum", |b| {
        b.iter(|| {
            i = (i + 1) % decks.len();
            deck_optimum(black_box(&decks[i]))
        })
    });
}

criterion_group!(benches, optimum);
criterion_main!(benches);
