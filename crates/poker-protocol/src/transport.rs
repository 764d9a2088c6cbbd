//! Lines over file descriptors: a socket (both directions on one
//! descriptor) or two pipes, with a deadline and a watch on the peer's exit.

use super::{Breach, LineAssembler, MAX_LINE};
use rustix::fs::{FileType, fstat};
use rustix::io::Errno;
use rustix::net::{SendFlags, send};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd, RawFd};
use std::time::Instant;

/// The descriptors a stub's channel is on, as named by
/// [`CHANNEL_ENV`](super::CHANNEL_ENV): `3` (one socket) or `0,1` (read,
/// write).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChannelFds {
    /// The descriptor replies are read from.
    pub read: RawFd,
    /// The descriptor requests are written to.
    pub write: RawFd,
}

impl ChannelFds {
    /// Parses `N` or `R,W` (non-negative descriptor numbers).
    pub fn parse(text: &str) -> Option<ChannelFds> {
        let number = |t: &str| t.parse::<RawFd>().ok().filter(|&fd| fd >= 0);
        match text.split_once(',') {
            None => number(text).map(|fd| ChannelFds {
                read: fd,
                write: fd,
            }),
            Some((r, w)) => Some(ChannelFds {
                read: number(r)?,
                write: number(w)?,
            }),
        }
    }
}

/// What [`Transport::receive`] got.
#[derive(Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Received {
    /// One whole line, without its newline.
    Line(String),
    /// The bytes broke the protocol.
    Breach(Breach),
    /// The peer closed its end (or reset the connection).
    Closed,
    /// The watched descriptor became readable: the peer's process exited.
    Exited,
    /// The deadline passed.
    TimedOut,
    /// Reading failed on this side.
    Failed(String),
}

/// One side of the channel.
#[derive(Debug)]
pub struct Transport<F: AsFd> {
    reader: F,
    writer: F,
    writer_is_socket: bool,
    lines: LineAssembler,
}

impl<F: AsFd> Transport<F> {
    /// A transport reading from `reader` and writing to `writer` (the same
    /// socket twice, or two pipes).
    ///
    /// Writing to a pipe whose reader has gone raises SIGPIPE: a process
    /// that must survive its peer over pipes (a judge system's interactor)
    /// ignores SIGPIPE; on a socket, `MSG_NOSIGNAL` makes it a plain error.
    pub fn new(reader: F, writer: F) -> Transport<F> {
        let writer_is_socket = fstat(&writer)
            .is_ok_and(|stat| FileType::from_raw_mode(stat.st_mode) == FileType::Socket);
        Transport {
            reader,
            writer,
            writer_is_socket,
            lines: LineAssembler::new(),
        }
    }

    /// Sends `line` (which ends with a newline) whole, retrying on
    /// interruption; a departed peer is an error (`EPIPE`), never a signal on
    /// a socket.
    pub fn send(&self, line: &[u8]) -> std::io::Result<()> {
        let mut sent = 0;
        while sent < line.len() {
            let rest = &line[sent..];
            let written = if self.writer_is_socket {
                send(&self.writer, rest, SendFlags::NOSIGNAL)
            } else {
                rustix::io::write(&self.writer, rest)
            };
            match written {
                Ok(n) => sent += n,
                Err(Errno::INTR) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
    }

    /// Waits for one whole line until `deadline` (or forever with `None`),
    /// stopping early when `exit_watch` (a pidfd) becomes readable.
    pub fn receive(
        &mut self,
        deadline: Option<Instant>,
        exit_watch: Option<BorrowedFd<'_>>,
    ) -> Received {
        let mut buf = [0u8; MAX_LINE];
        loop {
            let mut fds = vec![self.reader.as_fd()];
            fds.extend(exit_watch);
            let ready = match crate::wait::until_readable(&fds, deadline) {
                Ok(Some(ready)) => ready,
                Ok(None) => return Received::TimedOut,
                Err(e) => return Received::Failed(format!("poll: {e}")),
            };
            // The reader comes first: what the peer wrote before it exited
            // is read before its exit counts.
            if ready == 1 {
                return Received::Exited;
            }
            match rustix::io::read(&self.reader, &mut buf) {
                Ok(0) => return Received::Closed,
                Ok(n) => match self.lines.feed(&buf[..n]) {
                    Ok(Some(line)) => return Received::Line(line),
                    Ok(None) => continue,
                    Err(breach) => return Received::Breach(breach),
                },
                Err(Errno::INTR | Errno::AGAIN) => continue,
                // A reset connection is a peer that went away.
                Err(Errno::CONNRESET) => return Received::Closed,
                Err(e) => return Received::Failed(format!("read: {e}")),
            }
        }
    }
}

impl Transport<OwnedFd> {
    /// A transport over one connected socket, used in both directions.
    pub fn socket(fd: OwnedFd) -> std::io::Result<Transport<OwnedFd>> {
        let writer = fd.try_clone()?;
        Ok(Transport::new(fd, writer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::net::UnixStream;
    use std::time::Duration;

    #[test]
    fn channel_fds_parse() {
        assert_eq!(
            ChannelFds::parse("3"),
            Some(ChannelFds { read: 3, write: 3 })
        );
        assert_eq!(
            ChannelFds::parse("0,1"),
            Some(ChannelFds { read: 0, write: 1 })
        );
        for bad in ["", "-1", "x", "1,", ",1", "1,2,3", "3 "] {
            assert_eq!(ChannelFds::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn lines_cross_a_socket_and_two_pipes() {
        let (a, b) = UnixStream::pair().unwrap();
        let (a, mut b) = (
            Transport::socket(OwnedFd::from(a)).unwrap(),
            Transport::socket(OwnedFd::from(b)).unwrap(),
        );
        a.send(b"L\n").unwrap();
        assert_eq!(b.receive(None, None), Received::Line("L".into()));

        let (r, w) = rustix::pipe::pipe().unwrap();
        let (r2, w2) = rustix::pipe::pipe().unwrap();
        let mut left = Transport::new(r, w2);
        let right = Transport::new(r2, w);
        right.send(b"OK\n").unwrap();
        assert_eq!(left.receive(None, None), Received::Line("OK".into()));
    }

    #[test]
    fn a_closed_pipe_is_an_error_not_a_signal() {
        // SIGPIPE ignored, as the evaluator does while it serves games.
        // SAFETY: setting a signal disposition; no handler runs.
        unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
        let (r, w) = rustix::pipe::pipe().unwrap();
        drop(r);
        let (r2, _w2) = rustix::pipe::pipe().unwrap();
        let transport = Transport::new(r2, w);
        let err = transport.send(b"OK\n").unwrap_err();
        assert_eq!(
            err.raw_os_error(),
            Some(rustix::io::Errno::PIPE.raw_os_error())
        );
    }

    #[test]
    fn a_deadline_and_a_closed_peer_end_the_wait() {
        let (a, b) = UnixStream::pair().unwrap();
        let mut a = Transport::socket(OwnedFd::from(a)).unwrap();
        let soon = Instant::now() + Duration::from_millis(20);
        assert_eq!(a.receive(Some(soon), None), Received::TimedOut);
        drop(b);
        assert_eq!(a.receive(None, None), Received::Closed);
    }
}
