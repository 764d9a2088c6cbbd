//! The fork server inside a contestant with a second thread that keeps
//! calling into libpoker: a thread that holds one of the library's locks
//! at `fork()` does not exist in the child, so a child that found a lock
//! held would wait for good. Each test plays 1,000 games through a real
//! fork server, this test acting as the evaluator (docs/protocol.md,
//! version 2), and requires every game's child to end.

use crate::common::{compile_c_file, scratch};
use poker_protocol::fork_server::{Order, ServerLine, receive_line, send_with_fds};
use rustix::io::{FdFlags, fcntl_setfd};
use rustix::net::{AddressFamily, SocketFlags, SocketType, socketpair};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GAMES: usize = 1000;

/// The second thread: the fork server's start (which takes the server's
/// lock, and does nothing once serving) and the thread's last error, in a
/// loop.
const CALLER: &str = r#"#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>
#include "poker.h"

static void *call_in_a_loop(void *unused) {
    char message[64];
    (void)unused;
    for (;;) {
        poker_fork_server_start();
        poker_last_error(message, sizeof message);
    }
    return NULL;
}

static void start_caller(void) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, call_in_a_loop, NULL) != 0) {
        abort();
    }
}
"#;

/// A C program: p_startgame forks its games (the library's own loop); the
/// second thread starts in the server after its first fork.
const THROUGH_STARTGAME: &str = r#"
static int started;

static void after_fork_in_server(void) {
    if (!started) {
        started = 1;
        start_caller();
    }
}

int main(void) {
    pthread_atfork(NULL, after_fork_in_server, NULL);
    p_startgame();
    return 0;
}
"#;

/// A binding's loop: the four calls around its own fork, with the second
/// thread running from the start of the server.
const FOUR_CALLS: &str = r#"
int main(void) {
    if (!poker_fork_server_start()) {
        return 9;
    }
    start_caller();
    for (;;) {
        pid_t pid;
        poker_fork_server_next();
        fflush(NULL);
        pid = fork();
        if (pid == 0) {
            poker_fork_server_child();
            break;
        }
        poker_fork_server_reap((int)pid);
    }
    p_startgame();
    return 0;
}
"#;

fn compile(name: &str, main: &str) -> std::path::PathBuf {
    let src = scratch(name).join(format!("{name}.c"));
    std::fs::write(&src, format!("{CALLER}{main}")).unwrap();
    compile_c_file(name, &src, &["-std=c99", "-pthread"])
}

/// Runs `exe` as a fork server and orders `GAMES` games, each with a game
/// channel this side closes at once: each child ends at its first call to
/// the evaluator (exit status 4, the channel failed). Panics if a game's
/// end is not reported within 30 seconds (a child waiting for a lock).
fn play_games(exe: &Path) {
    let (ours, theirs) = socketpair(
        AddressFamily::UNIX,
        SocketType::STREAM,
        SocketFlags::CLOEXEC,
        None,
    )
    .unwrap();
    let inherited = theirs.as_raw_fd();
    let mut command = Command::new(exe);
    command
        .env_clear()
        .env("POKER_PROTOCOL", "2")
        .env("POKER_MANAGER_FD", inherited.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0);
    // SAFETY: fcntl only, on a descriptor open in the parent: async-signal-safe.
    unsafe {
        command.pre_exec(move || {
            fcntl_setfd(BorrowedFd::borrow_raw(inherited), FdFlags::empty())?;
            Ok(())
        });
    }
    let mut server = command.spawn().unwrap();
    drop(theirs);
    let kill_all = |server: &mut std::process::Child| {
        let group = rustix::process::Pid::from_child(server);
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
        let _ = server.wait();
    };
    let patience = Duration::from_secs(30);
    let report = |server: &mut std::process::Child, what: &str| match receive_line(
        &ours,
        Some(Instant::now() + patience),
    ) {
        Ok(Some((line, _))) => line,
        other => {
            kill_all(server);
            panic!("{what}: no line from the fork server within {patience:?} ({other:?})");
        }
    };
    assert_eq!(
        ServerLine::decode(&report(&mut server, "hello")),
        Some(ServerLine::Hello(2))
    );
    let null = std::fs::File::options()
        .write(true)
        .open("/dev/null")
        .unwrap();
    for game in 1..=GAMES {
        let (evaluator_end, child_end) = socketpair(
            AddressFamily::UNIX,
            SocketType::STREAM,
            SocketFlags::CLOEXEC,
            None,
        )
        .unwrap();
        send_with_fds(
            ours.as_fd(),
            Order::Game.encode().as_bytes(),
            &[child_end.as_fd(), null.as_fd()],
        )
        .unwrap();
        drop((evaluator_end, child_end));
        let line = report(&mut server, &format!("game {game} of {GAMES}"));
        assert_eq!(
            ServerLine::decode(&line),
            Some(ServerLine::Exited(4)),
            "game {game}: {line}"
        );
    }
    send_with_fds(ours.as_fd(), Order::Done.encode().as_bytes(), &[]).unwrap();
    let status = server.wait().unwrap();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn forks_from_p_startgame_beside_a_calling_thread_never_leave_a_child_waiting() {
    play_games(&compile("fork_threads_startgame", THROUGH_STARTGAME));
}

#[test]
fn forks_from_the_four_calls_beside_a_calling_thread_never_leave_a_child_waiting() {
    play_games(&compile("fork_threads_four_calls", FOUR_CALLS));
}
