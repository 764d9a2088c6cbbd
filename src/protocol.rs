//! The private channel between the evaluator (the manager) and the library
//! linked into a contestant (the stub), in the manner of CMS "communication"
//! tasks: the manager holds the deck and answers one request at a time, so
//! the contestant's process never holds a card before it is turned.
//!
//! The evaluator starts the contestant with one end of a Unix socket pair
//! and names its file descriptor in [`CHANNEL_ENV`] (the variable carries no
//! deck). Messages are single ASCII lines of at most [`MAX_LINE`] bytes:
//!
//! | stub -> manager | meaning | manager -> stub |
//! |---|---|---|
//! | `S` | `p_startgame()` | `OK` |
//! | `L` | `p_look(&v, &c)` | `C <value> <color>` |
//! | `N` | `p_look` with a NULL pointer | `V <message>` |
//! | `P <column>` | `p_place(column)` | `OK`, or `END <total>` after the 20th |
//!
//! Any broken rule is answered `V <message>`: the stub prints the message
//! and exits; the manager has already scored the game 0.

/// The environment variable holding the stub's channel file descriptor.
pub const CHANNEL_ENV: &str = "POKER_MANAGER_FD";

/// The longest line either side sends or accepts, newline included.
pub const MAX_LINE: usize = 256;

/// Writes all of `bytes` to the socket `fd`, retrying on interruption.
/// `MSG_NOSIGNAL` turns a closed peer into an `EPIPE` error instead of a
/// SIGPIPE that would kill the writer.
pub fn send_all(fd: std::os::fd::RawFd, bytes: &[u8]) -> std::io::Result<()> {
    let mut sent = 0;
    while sent < bytes.len() {
        let rest = &bytes[sent..];
        // SAFETY: `rest` is a valid buffer of its length.
        let n = unsafe { libc::send(fd, rest.as_ptr().cast(), rest.len(), libc::MSG_NOSIGNAL) };
        if n < 0 {
            let err = std::io::Error::last_os_error();
            if err.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        sent += n as usize;
    }
    Ok(())
}

/// A request from the stub, one per contest call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    /// `p_startgame()`.
    StartGame,
    /// `p_look(&value, &color)` with valid pointers.
    Look,
    /// `p_look` with a NULL pointer.
    LookNull,
    /// `p_place(column)`, the column exactly as passed.
    Place(i32),
}

/// The manager's answer to a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The call was accepted.
    Ok,
    /// The turned card, in the contest encoding (value 1..6, color 1..4).
    Card(i32, i32),
    /// The 20th placement was accepted; the game's total.
    End(u8),
    /// A broken rule, as one line of text; the game is over.
    Violation(String),
}

impl Request {
    /// The request as a line, newline included.
    pub fn encode(self) -> String {
        match self {
            Request::StartGame => "S\n".into(),
            Request::Look => "L\n".into(),
            Request::LookNull => "N\n".into(),
            Request::Place(column) => format!("P {column}\n"),
        }
    }

    /// Parses a line (without its newline); `None` for anything else.
    pub fn decode(line: &str) -> Option<Request> {
        match line {
            "S" => Some(Request::StartGame),
            "L" => Some(Request::Look),
            "N" => Some(Request::LookNull),
            _ => line
                .strip_prefix("P ")
                .and_then(|n| n.parse().ok())
                .map(Request::Place),
        }
    }
}

impl Reply {
    /// The reply as a line, newline included; a violation message is cut to
    /// fit [`MAX_LINE`] and any newline in it is replaced.
    pub fn encode(&self) -> String {
        match self {
            Reply::Ok => "OK\n".into(),
            Reply::Card(value, color) => format!("C {value} {color}\n"),
            Reply::End(total) => format!("END {total}\n"),
            Reply::Violation(message) => {
                let mut line: String = message.replace('\n', " ");
                while line.len() > MAX_LINE - 3 {
                    line.pop();
                }
                format!("V {line}\n")
            }
        }
    }

    /// Parses a line (without its newline); `None` for anything else.
    pub fn decode(line: &str) -> Option<Reply> {
        if line == "OK" {
            return Some(Reply::Ok);
        }
        if let Some(message) = line.strip_prefix("V ") {
            return Some(Reply::Violation(message.to_string()));
        }
        if let Some(total) = line.strip_prefix("END ") {
            return total.parse().ok().map(Reply::End);
        }
        let rest = line.strip_prefix("C ")?;
        let (value, color) = rest.split_once(' ')?;
        Some(Reply::Card(value.parse().ok()?, color.parse().ok()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_round_trip() {
        for r in [
            Request::StartGame,
            Request::Look,
            Request::LookNull,
            Request::Place(-7),
            Request::Place(4),
        ] {
            assert_eq!(Request::decode(r.encode().trim_end()), Some(r));
        }
        for junk in ["", "P", "P x", "LL", "s", "P 99999999999"] {
            assert_eq!(Request::decode(junk), None, "{junk:?}");
        }
    }

    #[test]
    fn replies_round_trip() {
        for r in [
            Reply::Ok,
            Reply::Card(6, 4),
            Reply::End(32),
            Reply::Violation("column 9 is outside 1..4".into()),
        ] {
            assert_eq!(Reply::decode(r.encode().trim_end()), Some(r.clone()));
        }
        let long = Reply::Violation("x".repeat(1000)).encode();
        assert!(long.len() <= MAX_LINE);
    }
}
