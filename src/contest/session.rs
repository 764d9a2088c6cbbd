//! What the contest functions do inside a contestant's process.
//!
//! Practice mode (run directly): a local [`Game`] over a deck from
//! `POKER_DECK`, `POKER_SEED` or a fresh seed. Evaluation mode (started by
//! `poker eval`, which sets [`CHANNEL_ENV`]): a thin stub that forwards each
//! call to the evaluator and never holds a card before it is turned. The
//! mode is chosen at the first call of any contest function.

use super::{DeckSource, Game, Progress, RuleError, card_code};
use crate::protocol::{CHANNEL_ENV, MAX_LINE, Reply, Request, send_all};
use std::os::fd::RawFd;

/// Exit status after a broken rule.
pub const EXIT_VIOLATION: i32 = 3;
/// Exit status when practice mode cannot make its deck (bad `POKER_DECK` or
/// `POKER_SEED`).
pub const EXIT_BAD_SETUP: i32 = 2;
/// Exit status when the evaluator's channel fails.
pub const EXIT_CHANNEL: i32 = 4;

/// What the caller must do after a call.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    /// Return to the contestant; for `p_look`, with the card's code.
    Continue(Option<(i32, i32)>),
    /// End the process: print `stdout` and `stderr` (each may be empty)
    /// after flushing the host's output, then exit with `code`.
    Exit {
        /// Exit status.
        code: i32,
        /// Text for standard output (the practice report).
        stdout: String,
        /// Text for standard error (a one-line reason).
        stderr: String,
    },
}

fn exit(code: i32, stdout: String, stderr: String) -> Step {
    Step::Exit {
        code,
        stdout,
        stderr,
    }
}

/// The contest functions' state in this process.
#[derive(Debug, Default)]
pub enum Session {
    /// No contest function called yet.
    #[default]
    Fresh,
    /// Practice mode: the game and where its deck came from.
    Practice(Box<Game>, DeckSource),
    /// Evaluation mode: the channel's file descriptor.
    Evaluated(RawFd),
}

impl Session {
    /// Handles one contest call (`Request::LookNull` for `p_look(NULL, ..)`).
    pub fn handle(&mut self, request: Request) -> Step {
        if let Session::Fresh = self {
            match Session::from_env() {
                Ok(session) => *self = session,
                Err(message) => return exit(EXIT_BAD_SETUP, String::new(), message),
            }
        }
        match self {
            Session::Practice(game, source) => practice(game, *source, request),
            Session::Evaluated(fd) => evaluated(*fd, request),
            Session::Fresh => unreachable!("session initialised above"),
        }
    }

    fn from_env() -> Result<Session, String> {
        if let Some(value) = std::env::var_os(CHANNEL_ENV) {
            let fd = value
                .to_str()
                .and_then(|v| v.parse::<RawFd>().ok())
                .filter(|&fd| fd >= 0)
                .ok_or_else(|| {
                    format!("poker: {CHANNEL_ENV}={value:?} is not a file descriptor\n")
                })?;
            return Ok(Session::Evaluated(fd));
        }
        let (deck, source) = DeckSource::from_env().map_err(|e| format!("poker: {e}\n"))?;
        Ok(Session::Practice(Box::new(Game::new(deck)), source))
    }
}

fn violation(error: RuleError) -> Step {
    exit(EXIT_VIOLATION, String::new(), format!("poker: {error}\n"))
}

fn practice(game: &mut Game, source: DeckSource, request: Request) -> Step {
    let result = match request {
        Request::StartGame => game.start().map(|()| None),
        Request::Look => game.look().map(card_code),
        Request::LookNull => Err(game.look_with_null_pointer()),
        Request::Place(column) => match game.place(column) {
            Ok(Progress::Continue) => Ok(None),
            Ok(Progress::Finished(_)) => return exit(0, report(game, source), String::new()),
            Err(e) => Err(e),
        },
    };
    match result {
        Ok(code) => Step::Continue(code),
        Err(e) => violation(e),
    }
}

fn report(game: &Game, source: DeckSource) -> String {
    let origin = match source {
        DeckSource::Given => "POKER_DECK".to_string(),
        DeckSource::Seed(seed) => format!("POKER_SEED={seed}"),
    };
    format!(
        "poker: 20 cards placed; deck {} ({origin})\n{}",
        game.deck(),
        game.board().report()
    )
}

fn evaluated(fd: RawFd, request: Request) -> Step {
    let channel_error = |what: &str| {
        exit(
            EXIT_CHANNEL,
            String::new(),
            format!("poker: lost the evaluator's channel ({what})\n"),
        )
    };
    if let Err(e) = send_all(fd, request.encode().as_bytes()) {
        return channel_error(&e.to_string());
    }
    let line = match receive_line(fd) {
        Ok(line) => line,
        Err(e) => return channel_error(&e.to_string()),
    };
    match (Reply::decode(&line), request) {
        (Some(Reply::Ok), Request::StartGame | Request::Place(_)) => Step::Continue(None),
        (Some(Reply::Card(value, color)), Request::Look) => Step::Continue(Some((value, color))),
        (Some(Reply::End(_)), Request::Place(_)) => exit(0, String::new(), String::new()),
        (Some(Reply::Violation(message)), _) => {
            exit(EXIT_VIOLATION, String::new(), format!("poker: {message}\n"))
        }
        _ => channel_error(&format!("unexpected reply {line:?}")),
    }
}

/// Reads one reply line. The manager answers each request with exactly one
/// line and sends nothing unasked, so reading up to the newline never
/// swallows part of a later reply.
fn receive_line(fd: RawFd) -> std::io::Result<String> {
    let mut line = Vec::with_capacity(32);
    let mut buf = [0u8; MAX_LINE];
    loop {
        // SAFETY: `buf` is a valid writable buffer of its length.
        let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 {
            let err = std::io::Error::last_os_error();
            if err.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        if n == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "closed by the evaluator",
            ));
        }
        line.extend_from_slice(&buf[..n as usize]);
        if let Some(end) = line.iter().position(|&b| b == b'\n') {
            line.truncate(end);
            return String::from_utf8(line).map_err(|_| {
                std::io::Error::new(std::io::ErrorKind::InvalidData, "reply is not text")
            });
        }
        if line.len() > MAX_LINE {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "reply too long",
            ));
        }
    }
}
