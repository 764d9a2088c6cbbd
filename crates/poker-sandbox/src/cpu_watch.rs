//! A run's CPU-time limit enforced by its cgroup's measure, beside
//! `RLIMIT_CPU`.
//!
//! The kernel's per-process limit was seen to miss on a loaded virtual
//! machine: a program at 2 s of CPU time under a 1 s soft and 2 s hard
//! limit, never signalled, played on. It also counts each process on its
//! own, so a program that ignores SIGXCPU gets one second more. One thread
//! of the evaluator watches every run given to it: every [`PERIOD`] it
//! reads each run's cgroup (all the run's processes) and kills the run's
//! main process once that reaches the limit; the run then ends as any
//! killed run does and is judged on the same measure (`cpu_time`). One
//! thread for all runs, so a game costs a list entry, not a thread (a fork
//! server plays a game in about a millisecond).

use crate::CpuMeter;
use rustix::process::{Signal, pidfd_send_signal};
use std::os::fd::{AsFd, OwnedFd};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Duration;

/// How often the watch reads the meters: what a run may use past its
/// limit before it is killed, per CPU it runs on.
pub const PERIOD: Duration = Duration::from_millis(50);

/// A run being watched.
struct Watched {
    /// Its main process (a duplicate of the caller's pidfd).
    pidfd: OwnedFd,
    meter: CpuMeter,
    limit: Duration,
}

/// The runs being watched, and the watch's wake-up when the first comes.
static WATCHED: Mutex<Vec<Watched>> = Mutex::new(Vec::new());
static ADDED: Condvar = Condvar::new();

/// Whether a run's CPU-time limit is watched, as its report tells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Watch {
    /// The watch reads the run's cgroup and kills it at the limit;
    /// `RLIMIT_CPU` is a backstop above it.
    Running,
    /// Nothing to watch (no cgroup counts the run's CPU time):
    /// `RLIMIT_CPU` holds the limit, per process.
    Absent,
    /// The watch could not start, and why: `RLIMIT_CPU`'s backstop and the
    /// judge's measure after the run hold the limit.
    Failed(String),
}

/// Watches the process behind `pidfd` (a duplicate is kept until it has
/// ended): once `meter` reads `limit` or more, SIGKILL through the pidfd
/// (never to a reused pid). [`Watch::Failed`] when the meter cannot be
/// read now, the pidfd cannot be duplicated or the watch's thread cannot
/// be started: the run then goes unwatched.
pub fn start(pidfd: &OwnedFd, meter: CpuMeter, limit: Duration) -> Watch {
    match watch_too(pidfd, meter, limit) {
        Ok(()) => Watch::Running,
        Err(e) => Watch::Failed(e.to_string()),
    }
}

fn watch_too(pidfd: &OwnedFd, meter: CpuMeter, limit: Duration) -> std::io::Result<()> {
    if meter.read().is_none() {
        return Err(std::io::Error::other(
            "the cgroup's CPU time cannot be read",
        ));
    }
    static THREAD: OnceLock<Result<(), String>> = OnceLock::new();
    THREAD
        .get_or_init(|| {
            std::thread::Builder::new()
                .name("poker-cpu-watch".into())
                .spawn(watch)
                .map(drop)
                .map_err(|e| e.to_string())
        })
        .clone()
        .map_err(|e| std::io::Error::other(format!("no thread for the watch: {e}")))?;
    let pidfd = pidfd
        .try_clone()
        .map_err(|e| std::io::Error::other(format!("cannot keep the run's pidfd: {e}")))?;
    let mut watched = WATCHED.lock().unwrap_or_else(|e| e.into_inner());
    watched.push(Watched {
        pidfd,
        meter,
        limit,
    });
    if watched.len() == 1 {
        ADDED.notify_one();
    }
    Ok(())
}

/// The watch's thread: checks every run each period while there are any,
/// and waits for one otherwise.
fn watch() {
    let mut watched = WATCHED.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        watched = if watched.is_empty() {
            ADDED.wait(watched).unwrap_or_else(|e| e.into_inner())
        } else {
            let waited = ADDED.wait_timeout(watched, PERIOD);
            waited.unwrap_or_else(|e| e.into_inner()).0
        };
        watched.retain(still_running_within_limit);
    }
}

/// Whether `run` is to be watched further: false once it has ended, or
/// once it reached its limit (then it is killed).
fn still_running_within_limit(run: &Watched) -> bool {
    if crate::wait::is_readable(run.pidfd.as_fd()) {
        // Ended: its pidfd is readable.
        return false;
    }
    if run.meter.read().is_some_and(|used| used >= run.limit) {
        let _ = pidfd_send_signal(&run.pidfd, Signal::KILL);
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watch_whose_meter_cannot_be_read_fails_to_start_and_says_why() {
        // A meter over a cgroup folder that does not exist, as one removed
        // under a run would be.
        let meter = CpuMeter::unreadable_for_tests();
        let me = rustix::process::pidfd_open(
            rustix::process::getpid(),
            rustix::process::PidfdFlags::empty(),
        )
        .unwrap();
        assert_eq!(
            start(&me, meter, Duration::from_secs(1)),
            Watch::Failed("the cgroup's CPU time cannot be read".into())
        );
    }
}
