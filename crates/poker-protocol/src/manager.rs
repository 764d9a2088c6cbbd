//! The manager side of the channel: holds the deck, answers the stub's
//! requests one at a time through the same dispatch ([`apply`]) and
//! [`Game`] rule checker the practice mode uses, and decides how the game
//! ended.

use crate::{Received, Reply, Request, Transport, apply};
use poker_core::contest::{Game, RuleError};
use std::os::fd::{AsFd, BorrowedFd};
use std::time::Instant;

/// How the conversation with a contestant ended, as far as the channel shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChannelEnding {
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

/// What the manager needs from a channel: the contestant's next line, and a
/// way to answer it. [`Transport`] is one (see [`serve`]); the judge's
/// interactor core plays over bytes in memory with another.
pub trait Link {
    /// The next whole line from the contestant, or why there is none.
    fn receive(&mut self) -> Received;
    /// Sends one reply line (newline included).
    fn send(&mut self, line: &[u8]) -> std::io::Result<()>;
}

/// A [`Transport`] with the game's deadline and exit watch.
struct Timed<'a, 'w, F: AsFd> {
    channel: &'a mut Transport<F>,
    deadline: Instant,
    exit_watch: Option<BorrowedFd<'w>>,
}

impl<F: AsFd> Link for Timed<'_, '_, F> {
    fn receive(&mut self) -> Received {
        self.channel.receive(Some(self.deadline), self.exit_watch)
    }

    fn send(&mut self, line: &[u8]) -> std::io::Result<()> {
        self.channel.send(line)
    }
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
) -> ChannelEnding {
    let mut link = Timed {
        channel,
        deadline,
        exit_watch,
    };
    serve_link(&mut link, game)
}

/// Serves one game over any [`Link`] until it ends: each line decoded as a
/// request, applied to `game` (the one rule checker), and answered; the
/// decisive reply (the total, or the broken rule) is sent before returning.
pub fn serve_link(link: &mut impl Link, game: &mut Game) -> ChannelEnding {
    loop {
        let line = match link.receive() {
            Received::Line(line) => line,
            Received::Breach(breach) => return ChannelEnding::Protocol(breach.to_string()),
            Received::Closed => return ChannelEnding::Closed,
            Received::Exited => return ChannelEnding::Exited,
            Received::TimedOut => return ChannelEnding::TimedOut,
            Received::Failed(what) => return ChannelEnding::Failed(what),
        };
        let Some(request) = Request::decode(&line) else {
            let shown: String = line.chars().take(40).collect();
            return ChannelEnding::Protocol(format!("an unintelligible message {shown:?}"));
        };
        let (reply, ending) = match apply(game, request) {
            Ok(Reply::End(total)) => (Reply::End(total), Some(ChannelEnding::Finished(total))),
            Ok(reply) => (reply, None),
            Err(error) => (
                Reply::Violation(error.to_string()),
                Some(ChannelEnding::Violation(error)),
            ),
        };
        let sent = link.send(reply.encode().as_bytes());
        match (ending, sent) {
            // After the decisive reply, a failed send changes nothing.
            (Some(ending), _) => return ending,
            (None, Err(_)) => return ChannelEnding::Closed,
            (None, Ok(())) => {}
        }
    }
}
