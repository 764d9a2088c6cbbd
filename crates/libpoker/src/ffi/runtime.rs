//! What the contest functions do inside a contestant's process: the C
//! library's per-process runtime behind `p_startgame`, `p_look`, `p_place`.
//!
//! Practice mode (run directly): a local [`Game`] over a deck from
//! `POKER_DECK`, `POKER_SEED` or a fresh seed. Evaluation mode (started by
//! `poker eval` or a judge, which sets [`CHANNEL_ENV`]): a thin stub that
//! forwards each call to the evaluator and never holds a card before it is
//! turned. The mode is chosen at the first call of any contest function.

use super::contest_exit::{POKER_EXIT_BAD_SETUP, POKER_EXIT_CHANNEL, POKER_EXIT_VIOLATION};
pub use super::deck_env_error::DeckEnvError;
use crate::contest::{ContestDeck, Game, PLACEMENTS, RuleError};
use poker_protocol::{CHANNEL_ENV, ChannelFds, Received, Reply, Request, Transport};
use std::os::fd::OwnedFd;

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

/// Where a practice game's deck came from, for the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeckSource {
    /// Given as `POKER_DECK`.
    Given,
    /// Shuffled from this seed (from `POKER_SEED`, or drawn at random).
    Seed(u64),
}

/// The channel of evaluation mode, over descriptors the process inherited.
pub type StubChannel = Transport<OwnedFd>;

/// The contest functions' state in this process.
#[derive(Debug, Default)]
pub enum Session {
    /// No contest function called yet.
    #[default]
    Fresh,
    /// Practice mode: the game and where its deck came from.
    Practice(Box<Game>, DeckSource),
    /// Evaluation mode: the channel to the evaluator.
    Evaluated(StubChannel),
}

impl Session {
    /// Handles one contest call (`Request::LookNull` for `p_look(NULL, ..)`).
    pub fn handle(&mut self, request: Request) -> Step {
        if let Session::Fresh = self {
            match Session::from_env() {
                Ok(session) => *self = session,
                Err(message) => return exit(POKER_EXIT_BAD_SETUP, String::new(), message),
            }
        }
        match self {
            Session::Practice(game, source) => practice(game, *source, request),
            Session::Evaluated(channel) => evaluated(channel, request),
            Session::Fresh => unreachable!("session initialised above"),
        }
    }

    fn from_env() -> Result<Session, String> {
        if let Some(value) = std::env::var_os(CHANNEL_ENV) {
            let fds = value.to_str().and_then(ChannelFds::parse).ok_or_else(|| {
                let shown: String = value.to_string_lossy().chars().take(40).collect();
                format!(
                    "poker: {CHANNEL_ENV}={shown:?} is not a file descriptor (N or READ,WRITE)\n"
                )
            })?;
            let lost = |e: std::io::Error| format!("poker: {CHANNEL_ENV}: {e}\n");
            let (read, write) = super::inherited::take(fds).ok_or_else(|| {
                format!("poker: {CHANNEL_ENV}: the channel is already in use in this process\n")
            })?;
            let write = match write {
                Some(write) => write,
                None => read.try_clone().map_err(lost)?,
            };
            return Ok(Session::Evaluated(Transport::new(read, write)));
        }
        let (deck, source) = deck_from_env().map_err(|e| format!("poker: {e}\n"))?;
        Ok(Session::Practice(Box::new(Game::new(deck)), source))
    }
}

/// Practice mode's deck, from the environment: `POKER_DECK` (24 tokens)
/// wins over `POKER_SEED` (a u64); with neither, a random seed is drawn so
/// the report can still name it. Errors ([`DeckEnvError`]) name the variable.
pub fn deck_from_env() -> Result<(ContestDeck, DeckSource), DeckEnvError> {
    if let Some(text) = std::env::var_os("POKER_DECK") {
        let text = text.into_string().map_err(|_| DeckEnvError::DeckNotUtf8)?;
        let deck = ContestDeck::parse(&text).map_err(DeckEnvError::BadDeck)?;
        return Ok((deck, DeckSource::Given));
    }
    let seed = match std::env::var_os("POKER_SEED") {
        Some(text) => text
            .to_str()
            .and_then(|t| t.trim().parse::<u64>().ok())
            .ok_or_else(|| {
                DeckEnvError::BadSeed(text.to_string_lossy().chars().take(40).collect())
            })?,
        None => rand::random(),
    };
    Ok((ContestDeck::shuffled(seed), DeckSource::Seed(seed)))
}

fn violation(error: RuleError) -> Step {
    exit(
        POKER_EXIT_VIOLATION,
        String::new(),
        format!("poker: {error}\n"),
    )
}

/// A practice call: the manager's own dispatch, played in this process.
fn practice(game: &mut Game, source: DeckSource, request: Request) -> Step {
    match poker_protocol::apply(game, request) {
        Ok(Reply::Card(value, color)) => Step::Continue(Some((value, color))),
        Ok(Reply::End(_)) => exit(0, report(game, source), String::new()),
        // `Reply::Ok` (a broken rule is the error, never a reply).
        Ok(_) => Step::Continue(None),
        Err(e) => violation(e),
    }
}

/// The practice report. It starts with a newline of its own: the program
/// may have left a partial line, which the library cannot see.
fn report(game: &Game, source: DeckSource) -> String {
    let origin = match source {
        DeckSource::Given => "POKER_DECK".to_string(),
        DeckSource::Seed(seed) => format!("POKER_SEED={seed}"),
    };
    // Tokens as POKER_DECK, deck files and replay lines write them (ten as
    // `T`), so that the line can be pasted back.
    let deck: Vec<String> = game.deck().cards().iter().map(|c| c.to_string()).collect();
    format!(
        "\npoker: 20 cards placed; deck {} ({origin})\n{}",
        deck.join(" "),
        game.board().report()
    )
}

impl Session {
    /// What practice mode says when the program ends before its 20th
    /// placement without breaking a rule (from an `atexit` hook); `None` in
    /// every other case.
    pub fn unfinished_message(&self) -> Option<String> {
        match self {
            Session::Practice(game, _)
                if game.violation().is_none() && game.placements() < PLACEMENTS =>
            {
                Some(format!(
                    "poker: game ended after {} of {PLACEMENTS} placements; the evaluator scores it 0\n",
                    game.placements()
                ))
            }
            _ => None,
        }
    }
}

fn evaluated(channel: &mut StubChannel, request: Request) -> Step {
    let channel_error = |what: &str| {
        exit(
            POKER_EXIT_CHANNEL,
            String::new(),
            format!("poker: lost the evaluator's channel ({what})\n"),
        )
    };
    if let Err(e) = channel.send(request.encode().as_bytes()) {
        return channel_error(&e.to_string());
    }
    // The manager answers each request with exactly one line and sends
    // nothing unasked, so one line is the whole answer.
    let line = match channel.receive(None, None) {
        Received::Line(line) => line,
        Received::Closed => return channel_error("closed by the evaluator"),
        Received::Breach(breach) => return channel_error(&breach.to_string()),
        other => return channel_error(&format!("{other:?}")),
    };
    match (Reply::decode(&line), request) {
        (Some(Reply::Ok), Request::StartGame | Request::Place(_)) => Step::Continue(None),
        (Some(Reply::Card(value, color)), Request::Look) => Step::Continue(Some((value, color))),
        (Some(Reply::End(_)), Request::Place(_)) => exit(0, String::new(), String::new()),
        (Some(Reply::Violation(message)), _) => exit(
            POKER_EXIT_VIOLATION,
            String::new(),
            format!("poker: {message}\n"),
        ),
        _ => {
            let shown: String = line.chars().take(40).collect();
            channel_error(&format!("unexpected reply {shown:?}"))
        }
    }
}
