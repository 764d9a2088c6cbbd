//! The fork server's part of the protocol (version 2): the lines between
//! the evaluator and a contestant's process that forks one child per game,
//! and the socket calls that pass descriptors and credentials with them.
//!
//! The evaluator asks for it by setting [`PROTOCOL_ENV`]`=2` beside the
//! channel; a library that knows version 2, on a socket channel, answers
//! the first `p_startgame` with [`ServerLine::Hello`] instead of `S`. An
//! older library ignores the variable and plays one game as in version 1,
//! which the evaluator sees from its first line.
//!
//! | server -> evaluator | meaning | evaluator -> server |
//! |---|---|---|
//! | `HELLO 2` | ready to fork games | `GAME` (+ 2 descriptors) or `DONE` |
//! | `EXITED <code>` | the last game's child exited | `GAME` or `DONE` |
//! | `KILLED <signal>` | it was killed by a signal | `GAME` or `DONE` |
//! | `GONE` | it could not be waited for | `GAME` or `DONE` |
//!
//! `GAME` carries, as `SCM_RIGHTS`, a fresh socket for the game's channel
//! and the pipe the game's standard error goes to. The server forks; the
//! child makes the socket its channel and the pipe its fd 2, and plays the
//! game exactly as a version 1 process (`S`, `L`, `P`..., the 20th `P`
//! ends it). The evaluator learns the child's pid from the kernel
//! (`SCM_CREDENTIALS` on the game socket) with its `S`, and answers `OK`
//! only once the child is in the game's cgroup and under its limits. On
//! `DONE` the server exits with status 0.

use rustix::net::{
    RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags, SendAncillaryBuffer,
    SendAncillaryMessage, SendFlags, recvmsg, sendmsg,
};
use std::io::{IoSlice, IoSliceMut};
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::time::Instant;

/// The environment variable the evaluator announces the fork server in.
pub const PROTOCOL_ENV: &str = "POKER_PROTOCOL";

/// The protocol version with the fork server.
pub const FORK_SERVER_VERSION: u32 = 2;

/// A line from the fork server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ServerLine {
    /// `HELLO <version>`: the server is ready for its first game.
    Hello(u32),
    /// `EXITED <code>`: the last game's child exited with this status.
    Exited(i32),
    /// `KILLED <signal>`: the last game's child was killed by this signal.
    Killed(i32),
    /// `GONE`: the last game's child could not be waited for.
    Gone,
}

/// The evaluator's answer to a [`ServerLine`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// `GAME`: fork a child for one more game (with its two descriptors).
    Game,
    /// `DONE`: no more games; exit.
    Done,
}

impl ServerLine {
    /// The line, newline included.
    pub fn encode(self) -> String {
        match self {
            ServerLine::Hello(version) => format!("HELLO {version}\n"),
            ServerLine::Exited(code) => format!("EXITED {code}\n"),
            ServerLine::Killed(signal) => format!("KILLED {signal}\n"),
            ServerLine::Gone => "GONE\n".into(),
        }
    }

    /// Parses a line without its newline; `None` for anything else.
    pub fn decode(line: &str) -> Option<ServerLine> {
        if line == "GONE" {
            return Some(ServerLine::Gone);
        }
        let (word, number) = line.split_once(' ')?;
        match word {
            "HELLO" => number.parse().ok().map(ServerLine::Hello),
            "EXITED" => number.parse().ok().map(ServerLine::Exited),
            "KILLED" => number.parse().ok().map(ServerLine::Killed),
            _ => None,
        }
    }
}

impl Order {
    /// The line, newline included.
    pub fn encode(self) -> &'static str {
        match self {
            Order::Game => "GAME\n",
            Order::Done => "DONE\n",
        }
    }

    /// Parses a line without its newline.
    pub fn decode(line: &str) -> Option<Order> {
        match line {
            "GAME" => Some(Order::Game),
            "DONE" => Some(Order::Done),
            _ => None,
        }
    }
}

/// Sends `line` whole on a socket with `fds` attached to its first byte
/// (`SCM_RIGHTS`); never raises SIGPIPE.
pub fn send_with_fds(
    socket: BorrowedFd<'_>,
    line: &[u8],
    fds: &[BorrowedFd<'_>],
) -> std::io::Result<()> {
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(2))];
    let mut control = SendAncillaryBuffer::new(&mut space);
    if !fds.is_empty() && !control.push(SendAncillaryMessage::ScmRights(fds)) {
        return Err(std::io::Error::other(
            "too many descriptors for one message",
        ));
    }
    let mut sent = 0;
    while sent < line.len() {
        let iov = [IoSlice::new(&line[sent..])];
        match sendmsg(socket, &iov, &mut control, SendFlags::NOSIGNAL) {
            Ok(n) => {
                sent += n;
                // The descriptors went with the first bytes.
                control.clear();
            }
            Err(rustix::io::Errno::INTR) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// What [`receive_line`] got besides the line.
#[derive(Debug, Default)]
pub struct Attached {
    /// Descriptors passed with the line (`SCM_RIGHTS`), in order.
    pub fds: Vec<OwnedFd>,
    /// The sender's pid as the kernel gave it in this process's pid
    /// namespace (`SCM_CREDENTIALS`, when the socket has `SO_PASSCRED`).
    pub pid: Option<i32>,
}

/// Reads one line (at most [`super::MAX_LINE`] bytes) from a socket, one
/// byte at a time so that nothing after its newline is consumed, with what
/// came attached. Waits until `deadline` (forever with `None`): then an
/// error of kind `TimedOut`; `Ok(None)` when the peer closed first.
pub fn receive_line(
    socket: impl AsFd,
    deadline: Option<Instant>,
) -> std::io::Result<Option<(String, Attached)>> {
    let mut line = Vec::new();
    let mut attached = Attached::default();
    loop {
        if deadline.is_some() && crate::wait::until_readable(&[socket.as_fd()], deadline)?.is_none()
        {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        let mut byte = [0u8; 1];
        let mut space =
            [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(4), ScmCredentials(1))];
        let mut control = RecvAncillaryBuffer::new(&mut space);
        let mut iov = [IoSliceMut::new(&mut byte)];
        let received = match recvmsg(&socket, &mut iov, &mut control, RecvFlags::CMSG_CLOEXEC) {
            Ok(r) => r,
            Err(rustix::io::Errno::INTR) => continue,
            Err(rustix::io::Errno::CONNRESET) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        for message in control.drain() {
            match message {
                RecvAncillaryMessage::ScmRights(fds) => attached.fds.extend(fds),
                RecvAncillaryMessage::ScmCredentials(cred) => {
                    attached.pid.get_or_insert(cred.pid.as_raw_nonzero().get());
                }
                _ => {}
            }
        }
        if received.bytes == 0 {
            return Ok(None);
        }
        if byte[0] == b'\n' {
            let text = String::from_utf8(line)
                .map_err(|_| std::io::Error::other("a message that is not text"))?;
            return Ok(Some((text, attached)));
        }
        line.push(byte[0]);
        if line.len() >= super::MAX_LINE {
            return Err(std::io::Error::other(format!(
                "a message longer than {} bytes",
                super::MAX_LINE
            )));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::net::UnixStream;

    #[test]
    fn lines_round_trip() {
        for line in [
            ServerLine::Hello(2),
            ServerLine::Exited(0),
            ServerLine::Exited(3),
            ServerLine::Killed(11),
            ServerLine::Gone,
        ] {
            assert_eq!(ServerLine::decode(line.encode().trim_end()), Some(line));
        }
        for junk in ["", "HELLO", "HELLO x", "S", "EXITED", "KILLED -"] {
            assert_eq!(ServerLine::decode(junk), None, "{junk:?}");
        }
        assert_eq!(Order::decode("GAME"), Some(Order::Game));
        assert_eq!(Order::decode("DONE"), Some(Order::Done));
        assert_eq!(Order::decode("OK"), None);
    }

    #[test]
    fn descriptors_and_the_senders_pid_come_with_a_line() {
        let (a, b) = UnixStream::pair().unwrap();
        rustix::net::sockopt::set_socket_passcred(&b, true).unwrap();
        let (x, _y) = UnixStream::pair().unwrap();
        send_with_fds(a.as_fd(), b"GAME\n", &[x.as_fd()]).unwrap();
        send_with_fds(a.as_fd(), b"S\n", &[]).unwrap();
        let (line, attached) = receive_line(&b, None).unwrap().unwrap();
        assert_eq!(line, "GAME");
        assert_eq!(attached.fds.len(), 1);
        assert_eq!(attached.pid, Some(std::process::id() as i32));
        // The next line is left whole for the next read.
        assert_eq!(receive_line(&b, None).unwrap().unwrap().0, "S");
        drop(a);
        assert!(receive_line(&b, None).unwrap().is_none());
    }
}
