//! The manager side of the channel: holds the deck, answers the stub's
//! requests one at a time through the same [`Game`] rule checker the
//! practice mode uses, and decides how the game ended.

use crate::contest::{Game, Progress, RuleError, card_code};
use crate::protocol::{Received, Reply, Request, Transport};
use std::os::fd::{AsFd, BorrowedFd};
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

/// Serves one game over `channel` until it ends.
///
/// `exit_watch` is a pidfd (or any fd that becomes readable when the
/// contestant's main process exits): the manager then stops at once even if
/// a child of the contestant still holds the channel.
pub fn serve<F: AsFd>(
    channel: &mut Transport<F>,
    game: &mut Game,
    deadline: Instant,
    exit_watch: Option<BorrowedFd<'_>>,
) -> Ending {
    loop {
        let line = match channel.receive(Some(deadline), exit_watch) {
            Received::Line(line) => line,
            Received::Breach(breach) => return Ending::Protocol(breach.to_string()),
            Received::Closed => return Ending::Closed,
            Received::Exited => return Ending::Exited,
            Received::TimedOut => return Ending::TimedOut,
            Received::Failed(what) => return Ending::Failed(what),
        };
        let Some(request) = Request::decode(&line) else {
            let shown: String = line.chars().take(40).collect();
            return Ending::Protocol(format!("an unintelligible message {shown:?}"));
        };
        let (reply, ending) = match apply(game, request) {
            Ok(Reply::End(total)) => (Reply::End(total), Some(Ending::Finished(total))),
            Ok(reply) => (reply, None),
            Err(error) => (
                Reply::Violation(error.to_string()),
                Some(Ending::Violation(error)),
            ),
        };
        let sent = channel.send(reply.encode().as_bytes());
        match (ending, sent) {
            // After the decisive reply, a failed send changes nothing.
            (Some(ending), _) => return ending,
            (None, Err(_)) => return Ending::Closed,
            (None, Ok(())) => {}
        }
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
