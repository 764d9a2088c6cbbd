//! Waiting until a descriptor is readable or a deadline passes: the one
//! poll loop the channel, the fork server's socket, the evaluator's exit
//! watch and its fork server share.

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::io::Errno;
use std::os::fd::BorrowedFd;
use std::time::Instant;

/// Waits until one of `fds` is readable (data, end of file, hang-up or an
/// exited process's pidfd) or `deadline` passes (forever with `None`).
/// Returns the position of the first ready descriptor, so the earlier
/// ones take priority; `Ok(None)` once the deadline has passed, checked
/// before each wait. An interrupted wait resumes.
pub fn until_readable(
    fds: &[BorrowedFd<'_>],
    deadline: Option<Instant>,
) -> std::io::Result<Option<usize>> {
    loop {
        let timeout = match deadline {
            None => None,
            Some(deadline) => {
                let wait = deadline.saturating_duration_since(Instant::now());
                if wait.is_zero() {
                    return Ok(None);
                }
                Some(Timespec {
                    tv_sec: wait.as_secs() as i64,
                    tv_nsec: i64::from(wait.subsec_nanos()),
                })
            }
        };
        let mut polled: Vec<PollFd<'_>> = fds
            .iter()
            .map(|fd| PollFd::new(fd, PollFlags::IN))
            .collect();
        match poll(&mut polled, timeout.as_ref()) {
            Ok(n) if n > 0 => return Ok(polled.iter().position(|p| !p.revents().is_empty())),
            Ok(_) | Err(Errno::INTR) => continue,
            Err(e) => return Err(e.into()),
        }
    }
}

/// Whether `fd` is readable now (data, end of file, hang-up or an exited
/// process's pidfd), without waiting. An error polling it counts as
/// readable: there is nothing more to wait for.
pub fn is_readable(fd: BorrowedFd<'_>) -> bool {
    let mut polled = [PollFd::new(&fd, PollFlags::IN)];
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    loop {
        match poll(&mut polled, Some(&now)) {
            Ok(0) => return false,
            Err(Errno::INTR) => continue,
            Ok(_) | Err(_) => return true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::fd::AsFd;
    use std::os::unix::net::UnixStream;
    use std::time::Duration;

    #[test]
    fn a_passed_deadline_ends_the_wait_without_waiting() {
        let (a, _b) = UnixStream::pair().unwrap();
        let past = Instant::now();
        assert_eq!(until_readable(&[a.as_fd()], Some(past)).unwrap(), None);
        let soon = Instant::now() + Duration::from_millis(20);
        assert_eq!(until_readable(&[a.as_fd()], Some(soon)).unwrap(), None);
        assert!(Instant::now() >= soon);
    }

    #[test]
    fn the_first_ready_descriptor_is_named() {
        let (quiet, _quiet_peer) = UnixStream::pair().unwrap();
        let (talking, mut talking_peer) = UnixStream::pair().unwrap();
        let (closed, closed_peer) = UnixStream::pair().unwrap();
        talking_peer.write_all(b"x").unwrap();
        drop(closed_peer);
        let fds = [quiet.as_fd(), talking.as_fd(), closed.as_fd()];
        assert_eq!(until_readable(&fds, None).unwrap(), Some(1));
        assert_eq!(until_readable(&fds[2..], None).unwrap(), Some(0));
    }

    #[test]
    fn readable_now_is_told_without_waiting() {
        let (a, mut b) = UnixStream::pair().unwrap();
        assert!(!is_readable(a.as_fd()));
        b.write_all(b"x").unwrap();
        assert!(is_readable(a.as_fd()));
        let (c, d) = UnixStream::pair().unwrap();
        drop(d);
        assert!(is_readable(c.as_fd()), "a hang-up is readable");
    }
}
