//! The contest module's own work per game: 1 p_startgame + 20 p_look +
//! 20 p_place, including the round trips to the evaluator over the socket
//! pair (the stub in one thread, the manager in another), versus practice
//! mode (no channel). The contest allows the module 0.1 s per game.

use criterion::{Criterion, criterion_group, criterion_main};
use poker::contest::{ContestDeck, Game};
use poker::ffi::{Session, Step};
use poker_protocol::manager::{self, ChannelEnding};
use poker_protocol::{Request, Transport};
use std::os::fd::OwnedFd;
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

/// One round-robin game through the stub; panics unless it finishes.
fn play_stub(session: &mut Session) {
    let mut step = session.handle(Request::StartGame);
    for i in 0..20 {
        assert!(matches!(
            session.handle(Request::Look),
            Step::Continue(Some(_))
        ));
        step = session.handle(Request::Place(i % 4 + 1));
    }
    assert!(matches!(step, Step::Exit { code: 0, .. }));
}

fn evaluated_game(c: &mut Criterion) {
    let deck = ContestDeck::shuffled(1);
    c.bench_function("module: one game through the evaluator channel", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let (manager_end, stub_end) = UnixStream::pair().unwrap();
                let server = std::thread::spawn(move || {
                    let mut channel = Transport::socket(OwnedFd::from(manager_end)).unwrap();
                    let mut game = Game::new(deck);
                    let deadline = Instant::now() + Duration::from_secs(5);
                    manager::serve(&mut channel, &mut game, deadline, None)
                });
                let stub_end = Transport::socket(OwnedFd::from(stub_end)).unwrap();
                let mut session = Session::Evaluated(stub_end);
                let start = Instant::now();
                play_stub(&mut session);
                total += start.elapsed();
                assert!(matches!(server.join().unwrap(), ChannelEnding::Finished(_)));
            }
            total
        })
    });
}

fn practice_game(c: &mut Criterion) {
    // SAFETY: set before any thread of this benchmark reads the environment.
    unsafe { std::env::set_var("POKER_SEED", "1") };
    c.bench_function("module: one game in practice mode", |b| {
        b.iter(|| {
            let mut session = Session::Fresh;
            play_stub(&mut session);
        })
    });
}

criterion_group!(benches, evaluated_game, practice_game);
criterion_main!(benches);
