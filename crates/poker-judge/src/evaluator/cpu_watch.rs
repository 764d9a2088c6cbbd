//! A run's CPU-time limit enforced by its cgroup's measure, beside
//! `RLIMIT_CPU`.
//!
//! The kernel's per-process limit was seen to miss on a loaded virtual
//! machine: a program at 2 s of CPU time under a 1 s soft and 2 s hard
//! limit, never signalled, played on. It also counts each process on its
//! own, so a program that ignores SIGXCPU gets one second more. A watch
//! thread per run reads the cgroup's CPU time (all the run's processes)
//! every [`PERIOD`] until the run ends, and kills the run's main process
//! once it reaches the limit; the run then ends as any killed run does and
//! is judged on the same measure (`cpu_time`).

use crate::sandbox::CpuMeter;
use rustix::process::{Signal, pidfd_send_signal};
use std::os::fd::{AsFd, OwnedFd};
use std::time::{Duration, Instant};

/// How often the watch reads the meter: what a run may use past its limit
/// before it is killed, per CPU it runs on.
const PERIOD: Duration = Duration::from_millis(50);

/// Watches the process behind `pidfd` (a duplicate is kept) on a thread of
/// its own: once `meter` reads `limit` or more, SIGKILL through the pidfd
/// (never to a reused pid). The thread ends with the process.
///
/// Errors: the pidfd cannot be duplicated or no thread can be started;
/// then `RLIMIT_CPU` and the judge's measure alone stand for the limit.
pub(crate) fn start(pidfd: &OwnedFd, meter: CpuMeter, limit: Duration) -> std::io::Result<()> {
    let pidfd = pidfd.try_clone()?;
    std::thread::Builder::new()
        .name("poker-cpu-watch".into())
        .spawn(move || watch(&pidfd, &meter, limit))?;
    Ok(())
}

fn watch(pidfd: &OwnedFd, meter: &CpuMeter, limit: Duration) {
    loop {
        let deadline = Instant::now() + PERIOD;
        match poker_protocol::wait::until_readable(&[pidfd.as_fd()], Some(deadline)) {
            // Still running at the deadline.
            Ok(None) => {}
            // It ended (its pidfd is readable), or it cannot be waited on.
            Ok(Some(_)) | Err(_) => return,
        }
        if meter.read().is_some_and(|used| used >= limit) {
            let _ = pidfd_send_signal(pidfd, Signal::KILL);
            return;
        }
    }
}
