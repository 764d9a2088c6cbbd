//! The contest module's own work per game: 1 p_startgame + 20 p_look +
//! 20 p_place, including the round trips to the evaluator over the socket
//! pair (the stub in one thread, the manager in another), versus practice
//! mode (no channel). The contest allows the module 0.1 s per game.

use criterion::{Criterion, criterion_group, criterion_main};
use poker::contest::session::{Session, Step};
use poker::contest::{ContestDeck, Game};
use poker::evaluator::manager::{self, Ending};
use poker::protocol::Request;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::time::{Duration, Instant};

fn socket_pair() -> (OwnedFd, OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for two descriptors.
    assert_eq!(
        unsafe {
            libc::socketpair(
                libc::AF_UNIX,
                libc::SOCK_STREAM | libc::SOCK_CLOEXEC,
                0,
                fds.as_mut_ptr(),
            )
        },
        0
    );
    // SAFETY: fresh descriptors, owned once each.
    unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) }
}

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
                let (manager_end, stub_end) = socket_pair();
                let server = std::thread::spawn(move || {
                    let mut game = Game::new(deck);
                    let deadline = Instant::now() + Duration::from_secs(5);
                    manager::serve(manager_end.as_raw_fd(), &mut game, deadline, None)
                });
                let mut session = Session::Evaluated(stub_end.as_raw_fd());
                let start = Instant::now();
                play_stub(&mut session);
                total += start.elapsed();
                assert!(matches!(server.join().unwrap(), Ending::Finished(_)));
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
