//! The evaluator's channel over two pipes, as a judge system gives them: a
//! real C contestant plays with `POKER_MANAGER_FD=0,1` (its stdin and
//! stdout) against the evaluator's manager, and a manager writing to a
//! contestant that has gone gets an error, not a SIGPIPE.

use crate::common;

use poker_core::contest::{ContestDeck, Game};
use poker_protocol::Transport;
use poker_protocol::manager::{self, ChannelEnding};
use std::os::fd::OwnedFd;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Columns 1, 2, 3, 4, 1, ...: on the ordered deck (9C 9D 9H 9S TC ...)
/// every column holds one suit of 9..K, a straight flush (8 points) each.
const ROUND_ROBIN: &str = r#"
#include "poker.h"
int main(void) {
    int i, v, c;
    p_startgame();
    for (i = 0; i < 20; i++) { p_look(&v, &c); p_place(i % 4 + 1); }
    return 0;
}
"#;

#[test]
fn a_contestant_plays_over_two_pipes() {
    let exe = common::compile_c("pipes_round_robin", ROUND_ROBIN);
    let mut child = Command::new(&exe)
        .env("POKER_MANAGER_FD", "0,1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let to_stub = OwnedFd::from(child.stdin.take().unwrap());
    let from_stub = OwnedFd::from(child.stdout.take().unwrap());
    let mut channel = Transport::new(from_stub, to_stub);
    let mut game = Game::new(ContestDeck::ordered());
    let deadline = Instant::now() + Duration::from_secs(10);
    let ending = manager::serve(&mut channel, &mut game, deadline, None);
    assert_eq!(ending, ChannelEnding::Finished(32));
    assert!(child.wait().unwrap().success());
}

#[test]
fn writing_to_a_departed_contestant_over_a_pipe_is_an_error() {
    // A process serving over pipes ignores SIGPIPE (Rust programs start
    // so, and `poker interact` sets it), so the write below is an error.
    // SAFETY: sets a disposition; no handler code runs.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    // A "contestant" that sends one request and leaves without reading.
    let mut child = Command::new("/bin/sh")
        .args(["-c", "echo S"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let to_stub = OwnedFd::from(child.stdin.take().unwrap());
    let from_stub = OwnedFd::from(child.stdout.take().unwrap());
    child.wait().unwrap();
    let mut channel = Transport::new(from_stub, to_stub);
    let mut game = Game::new(ContestDeck::ordered());
    let deadline = Instant::now() + Duration::from_secs(10);
    // The reply to `S` goes to a closed pipe: the game ends as closed and
    // this process lives on.
    assert_eq!(
        manager::serve(&mut channel, &mut game, deadline, None),
        ChannelEnding::Closed
    );
}
