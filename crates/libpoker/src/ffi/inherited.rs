//! The channel descriptors the evaluator handed this process (named by
//! `POKER_MANAGER_FD`), owned once: by the fork server or by the game's
//! session, whichever takes them first. A second owner would close them a
//! second time, or close whatever file has taken their number since.

use poker_protocol::ChannelFds;
use std::os::fd::{FromRawFd, OwnedFd};
use std::sync::atomic::{AtomicBool, Ordering};

static TAKEN: AtomicBool = AtomicBool::new(false);

/// The channel's descriptors, now owned by the caller: the read one, and
/// the write one when it is another descriptor. `None` when they were
/// taken before in this process (a fork server's game child inherits that:
/// the server's channel is not the game's).
pub(crate) fn take(fds: ChannelFds) -> Option<(OwnedFd, Option<OwnedFd>)> {
    if TAKEN.swap(true, Ordering::SeqCst) {
        return None;
    }
    // SAFETY: the evaluator handed these descriptors to this process for
    // the library's use, and the flag above makes this the only owner.
    let read = unsafe { OwnedFd::from_raw_fd(fds.read) };
    // SAFETY: as above, for a second descriptor.
    let write = (fds.write != fds.read).then(|| unsafe { OwnedFd::from_raw_fd(fds.write) });
    Some((read, write))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::{AsRawFd, IntoRawFd};

    #[test]
    fn the_channel_is_owned_once_per_process() {
        // The only test of this process that takes the channel.
        let (read, write) = rustix::pipe::pipe().unwrap();
        let fds = ChannelFds {
            read: read.into_raw_fd(),
            write: write.into_raw_fd(),
        };
        let (read, write) = take(fds).expect("the first taker owns the channel");
        assert_eq!(read.as_raw_fd(), fds.read);
        assert_eq!(write.as_ref().map(AsRawFd::as_raw_fd), Some(fds.write));
        assert!(take(fds).is_none(), "a second owner would close them twice");
    }
}
