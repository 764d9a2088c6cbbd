//! Waiting for a process to end through its pidfd, with a deadline.

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::io::Errno;
use std::os::fd::BorrowedFd;
use std::time::Instant;

/// Waits until `fd` is readable (an exited process's pidfd, data, end of
/// file) or `deadline` passes: whether it is. An interrupted wait resumes;
/// an error polling it counts as readable (nothing more to wait for).
pub(crate) fn until_readable(fd: BorrowedFd<'_>, deadline: Instant) -> bool {
    loop {
        let wait = deadline.saturating_duration_since(Instant::now());
        let timeout = Timespec {
            tv_sec: wait.as_secs() as i64,
            tv_nsec: i64::from(wait.subsec_nanos()),
        };
        let mut polled = [PollFd::new(&fd, PollFlags::IN)];
        match poll(&mut polled, Some(&timeout)) {
            Ok(0) if wait.is_zero() => return false,
            Ok(0) | Err(Errno::INTR) => continue,
            Ok(_) | Err(_) => return true,
        }
    }
}

/// Whether `fd` is readable now, without waiting (as [`until_readable`]).
pub(crate) fn is_readable(fd: BorrowedFd<'_>) -> bool {
    until_readable(fd, Instant::now())
}
