//! The manager side of the channel: holds the deck, answers the stub's
//! requests one at a time through the same [`Game`] rule checker the
//! practice mode uses, and decides how the game ended.

use crate::contest::{Game, Progress, RuleError, card_code};
use crate::protocol::{MAX_LINE, Reply, Request, send_all};
use std::os::fd::RawFd;
use std::time::Instant;

/// How the conversation with a contestant ended, as far as the channel shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The 20th placement was accepted; the score is final.
    Finished(u8),
    /// A rule was broken (the stub was told).
    Violation(RuleError),
    /// A message the protocol does not know, or one sent out of turn.
    Protocol(String),
    /// The contestant closed its end of the channel.
    Closed,
    /// The watched process exited (its pidfd became readable).
    Exited,
    /// The deadline passed.
    TimedOut,
    /// The channel failed on the manager's side.
    Failed(String),
}

/// Serves one game over the connected socket `fd` until it ends.
///
/// `exit_watch` is a pidfd (or any fd that becomes readable when the
/// contestant's main process exits): the manager then stops at once even if
/// a child of the contestant still holds the channel.
pub fn serve(fd: RawFd, game: &mut Game, deadline: Instant, exit_watch: Option<RawFd>) -> Ending {
    let mut pending: Vec<u8> = Vec::with_capacity(MAX_LINE);
    let mut buf = [0u8; MAX_LINE];
    loop {
        let now = Instant::now();
        if now >= deadline {
            return Ending::TimedOut;
        }
        let wait_ms = (deadline - now).as_millis().min(i32::MAX as u128) as i32;
        let mut fds = [
            libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: exit_watch.unwrap_or(-1),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // SAFETY: `fds` is a valid array of two pollfd; a negative fd is ignored.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, wait_ms.max(1)) };
        if ready < 0 {
            let err = std::io::Error::last_os_error();
            if err.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Ending::Failed(format!("poll: {err}"));
        }
        if fds[0].revents != 0 {
            // SAFETY: `buf` is a valid writable buffer of its length.
            let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
            if n < 0 {
                let err = std::io::Error::last_os_error();
                if err.kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                // A reset connection is a contestant that went away.
                return Ending::Closed;
            }
            if n == 0 {
                return Ending::Closed;
            }
            pending.extend_from_slice(&buf[..n as usize]);
            if let Some(ending) = answer_pending(fd, game, &mut pending) {
                return ending;
            }
            continue;
        }
        if fds[1].revents != 0 {
            return Ending::Exited;
        }
    }
}

/// Answers the one complete request in `pending`, if any.
fn answer_pending(fd: RawFd, game: &mut Game, pending: &mut Vec<u8>) -> Option<Ending> {
    let Some(end) = pending.iter().position(|&b| b == b'\n') else {
        return (pending.len() >= MAX_LINE)
            .then(|| Ending::Protocol(format!("a message longer than {MAX_LINE} bytes")));
    };
    if end + 1 != pending.len() {
        return Some(Ending::Protocol(
            "a message out of turn (sent before the previous one was answered)".into(),
        ));
    }
    let line = String::from_utf8_lossy(&pending[..end]).into_owned();
    pending.clear();
    let Some(request) = Request::decode(&line) else {
        let shown: String = line.chars().take(40).collect();
        return Some(Ending::Protocol(format!(
            "an unintelligible message {shown:?}"
        )));
    };
    let (reply, ending) = match apply(game, request) {
        Ok(Reply::End(total)) => (Reply::End(total), Some(Ending::Finished(total))),
        Ok(reply) => (reply, None),
        Err(error) => (
            Reply::Violation(error.to_string()),
            Some(Ending::Violation(error)),
        ),
    };
    match send_all(fd, reply.encode().as_bytes()) {
        // After the decisive reply, a failed send changes nothing.
        Err(_) if ending.is_some() => ending,
        Err(_) => Some(Ending::Closed),
        Ok(()) => ending,
    }
}

/// Applies one request to the game and shapes the reply; `Reply::End` once
/// the 20th placement is accepted.
fn apply(game: &mut Game, request: Request) -> Result<Reply, RuleError> {
    match request {
        Request::StartGame => game.start().map(|()| Reply::Ok),
        Request::Look => game.look().map(|card| {
            let (value, color) = card_code(card).expect("contest cards have a code");
            Reply::Card(value, color)
        }),
        Request::LookNull => Err(game.look_with_null_pointer()),
        Request::Place(column) => game.place(column).map(|progress| match progress {
            Progress::Continue => Reply::Ok,
            Progress::Finished(score) => Reply::End(score.total),
        }),
    }
}
