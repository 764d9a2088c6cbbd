//! The interactor's game without I/O: the submission's bytes in, the
//! replies out, and the verdict. The rules and the replies are the
//! evaluator's own ([`serve_link`]); this adds only a channel over bytes in
//! memory and the judge's verdict with its message.

use poker_core::contest::{ContestDeck, Game};
use poker_protocol::manager::{ChannelEnding, Link, serve_link};
use poker_protocol::{LineAssembler, MAX_LINE, Received};
use std::time::Duration;

/// How long the interactor waits for the submission's next message. The
/// judge enforces the real time limit (it kills the submission, which
/// closes the channel); this only bounds a judge that does not.
pub const PATIENCE: Duration = Duration::from_secs(600);

/// How the judge scores one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JudgeVerdict {
    /// The 20th card was placed: the total (0..=32) is the test's score.
    Accepted {
        /// The board's total, 0..=32.
        total: u8,
        /// The feedback: the deck, the board and each column's hand.
        message: String,
    },
    /// Wrong answer: a broken rule, a message the protocol does not know, or
    /// a submission that stopped before its 20th placement.
    Rejected(String),
    /// The channel failed on the interactor's side (a judge error).
    JudgeError(String),
}

/// The verdict on a game that ended with `ending` (what [`serve_link`] or
/// [`poker_protocol::manager::serve`] returned for `game`). Each message
/// is the judge's feedback, one or more lines ending with a newline.
pub fn verdict(ending: ChannelEnding, game: &Game) -> JudgeVerdict {
    let placed = game.placements();
    let rejected = |message: String| JudgeVerdict::Rejected(message);
    match ending {
        ChannelEnding::Finished(total) => JudgeVerdict::Accepted {
            total,
            message: format!(
                "20 cards placed, total {total}; deck {}\n{}",
                game.deck(),
                game.board().report()
            ),
        },
        ChannelEnding::Violation(error) => rejected(format!("{error}\n")),
        ChannelEnding::Protocol(what) => rejected(format!(
            "the submission sent {what} after {placed} placements \
             (did it print to standard output without the contest's client files?)\n"
        )),
        ChannelEnding::Closed | ChannelEnding::Exited => rejected(format!(
            "incomplete: the submission stopped after {placed} of 20 placements\n"
        )),
        ChannelEnding::TimedOut => rejected(format!(
            "no message from the submission for {} s after {placed} placements\n",
            PATIENCE.as_secs()
        )),
        ChannelEnding::Failed(what) => JudgeVerdict::JudgeError(what),
    }
}

/// A channel over bytes in memory: the submission's output arrives in the
/// given chunks (their boundaries stand for timing), read as the
/// interactor reads its standard input (at most [`MAX_LINE`] bytes at a
/// time); the replies are kept in order. The end of the chunks is the
/// submission closing its output.
pub struct MemoryLink<'a, I: Iterator<Item = &'a [u8]>> {
    chunks: I,
    current: &'a [u8],
    lines: LineAssembler,
    /// Every reply sent, each one line with its newline.
    pub replies: Vec<String>,
}

impl<'a, I: Iterator<Item = &'a [u8]>> MemoryLink<'a, I> {
    /// A link reading `chunks`, with no reply sent yet.
    pub fn new(chunks: I) -> Self {
        MemoryLink {
            chunks,
            current: &[],
            lines: LineAssembler::new(),
            replies: Vec::new(),
        }
    }
}

impl<'a, I: Iterator<Item = &'a [u8]>> Link for MemoryLink<'a, I> {
    fn receive(&mut self) -> Received {
        loop {
            while self.current.is_empty() {
                match self.chunks.next() {
                    Some(chunk) => self.current = chunk,
                    None => return Received::Closed,
                }
            }
            let (read, rest) = self.current.split_at(self.current.len().min(MAX_LINE));
            self.current = rest;
            match self.lines.feed(read) {
                Ok(Some(line)) => return Received::Line(line),
                Ok(None) => {}
                Err(breach) => return Received::Breach(breach),
            }
        }
    }

    fn send(&mut self, line: &[u8]) -> std::io::Result<()> {
        self.replies
            .push(String::from_utf8_lossy(line).into_owned());
        Ok(())
    }
}

/// One game played over bytes in memory.
#[derive(Clone, Debug)]
pub struct Interaction {
    /// How the judge scores it.
    pub verdict: JudgeVerdict,
    /// The interactor's replies in order, each one line with its newline.
    pub replies: Vec<String>,
    /// The game as it ended (board, placements, calls).
    #[allow(
        dead_code,
        reason = "read by the fuzz checks (fuzz/checks.rs) and the tests"
    )]
    pub game: Game,
}

/// Plays one game on `deck` with a submission whose output is `chunks`,
/// exactly as `poker interact` plays it over standard input and output
/// (bytes left unread when the game ends are ignored, as the judge does).
///
/// (A round-robin submission on the contest's worked example: see the
/// tests.)
pub fn interact<'a>(deck: ContestDeck, chunks: impl IntoIterator<Item = &'a [u8]>) -> Interaction {
    let mut game = Game::new(deck);
    let mut link = MemoryLink::new(chunks.into_iter());
    let ending = serve_link(&mut link, &mut game);
    Interaction {
        verdict: verdict(ending, &game),
        replies: link.replies,
        game,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_on_the_worked_example_scores_11_one_line_at_a_time() {
        // The contest's worked example (see `Game`).
        let deck = ContestDeck::parse(
            "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH",
        )
        .unwrap();
        let mut output = String::from("S\n");
        for i in 0..20 {
            output += &format!("L\nP {}\n", i % 4 + 1);
        }
        let played = interact(deck, [output.as_bytes()]);
        // The whole output in one chunk: the interactor reads one line,
        // answers it, and finds the next already sent, out of turn.
        assert!(matches!(played.verdict, JudgeVerdict::Rejected(_)));
        // One line at a time, as a client sends, it is a whole game.
        let played = interact(deck, output.split_inclusive('\n').map(str::as_bytes));
        assert!(matches!(
            played.verdict,
            JudgeVerdict::Accepted { total: 11, .. }
        ));
        // JC: value 3 (J), color 4 (clubs).
        assert_eq!(played.replies[..2], ["OK\n", "C 3 4\n"]);
        assert_eq!(played.replies.last().unwrap(), "END 11\n");
        assert_eq!(played.game.placements(), 20);
    }

    /// The ordered deck `9C 9D 9H 9S TC ...` placed round robin puts one suit
    /// in each column, 9 to K: four straight flushes, 8 points each (the
    /// contest's table), 32 in all.
    #[test]
    fn a_round_robin_game_in_small_chunks_is_accepted_with_32() {
        let mut script = b"S\n".to_vec();
        for i in 0..20 {
            script.extend_from_slice(format!("L\nP {}\n", i % 4 + 1).as_bytes());
        }
        // One line at a time, each cut in two (timing), as a client sends.
        let lines: Vec<&[u8]> = script.split_inclusive(|&b| b == b'\n').collect();
        let chunks = lines.iter().flat_map(|l| {
            let (a, b) = l.split_at(1);
            [a, b]
        });
        let played = interact(ContestDeck::ordered(), chunks);
        match &played.verdict {
            JudgeVerdict::Accepted { total, message } => {
                assert_eq!(*total, 32);
                assert!(message.starts_with("20 cards placed, total 32; deck 9C 9D"));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(played.replies.len(), 41);
        // POKER.H: value 1..6 = 9..A, color 1..4 = spades, hearts, diamonds,
        // clubs; the first card, 9C, is value 1, color 4.
        assert_eq!(played.replies[1], "C 1 4\n");
        assert_eq!(played.replies.last().unwrap(), "END 32\n");
    }

    #[test]
    fn two_lines_in_one_chunk_are_out_of_turn() {
        let played = interact(ContestDeck::ordered(), [&b"S\nL\n"[..]]);
        assert_eq!(
            played.verdict,
            JudgeVerdict::Rejected(
                "the submission sent a message out of turn (sent before the previous one \
                 was answered) after 0 placements (did it print to standard output \
                 without the contest's client files?)\n"
                    .into()
            )
        );
        assert!(played.replies.is_empty());
    }

    #[test]
    fn stopping_early_and_breaking_a_rule_are_rejected() {
        let played = interact(ContestDeck::ordered(), [&b"S\n"[..], b"L\n", b"P 1\n"]);
        assert_eq!(
            played.verdict,
            JudgeVerdict::Rejected(
                "incomplete: the submission stopped after 1 of 20 placements\n".into()
            )
        );
        assert_eq!(played.replies, ["OK\n", "C 1 4\n", "OK\n"]);
        let played = interact(
            ContestDeck::ordered(),
            [&b"S\n"[..], b"L\n", b"P 5\n", b"L\n"],
        );
        assert_eq!(
            played.verdict,
            JudgeVerdict::Rejected(
                "rule broken at card 1 (call 3, p_place): column 5 is outside 1..4\n".into()
            )
        );
        assert_eq!(played.replies.len(), 3);
        assert!(played.replies[2].starts_with("V rule broken at card 1"));
    }
}
