//! `poker interact` (a judge's interactor, the package's output validator)
//! and `poker validate-deck` (its input validator).
//!
//! Both follow the Kattis output/input validator conventions: exit status
//! 42 accepts, 43 rejects; any other status is a judge error.

use anyhow::Context;
use poker::contest::{ContestDeck, Game};
use poker::evaluator::decks;
use poker::evaluator::manager::{Ending, serve};
use poker::evaluator::process::SigpipeIgnored;
use poker::protocol::Transport;
use std::io::Read;
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Kattis' "accepted" exit status for validators.
pub const ACCEPT: u8 = 42;
/// Kattis' "wrong answer" exit status for validators.
pub const REJECT: u8 = 43;

/// How long the interactor waits for the submission's next message. The
/// judge enforces the real time limit (it kills the submission, which
/// closes the channel); this only bounds a judge that does not.
const PATIENCE: Duration = Duration::from_secs(600);

/// Play one game with a submission over standard input and output, as a
/// judge's interactor (Kattis/problemtools, DOMjudge).
///
/// INPUT holds the deck (one line of 24 cards). The submission's requests
/// arrive on standard input and the replies leave on standard output; the
/// rules are checked and the board scored exactly as by `poker eval`.
/// Exit 42 with FEEDBACK_DIR/score.txt holding the game's total (0..32)
/// when the 20th card is placed; exit 43 (wrong answer) for a broken rule,
/// a message the protocol does not know, or a submission that stops before
/// its 20th placement, with the reason in FEEDBACK_DIR/judgemessage.txt.
/// Any other status (an unreadable INPUT or FEEDBACK_DIR) is a judge error.
#[derive(clap::Args)]
pub struct Args {
    /// The test's input file: one deck.
    input: PathBuf,
    /// The test's answer file (not used: the deck is the whole test).
    answer: PathBuf,
    /// The folder for judgemessage.txt and score.txt.
    feedback_dir: PathBuf,
}

/// Runs `poker interact`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let deck = read_one_deck(&args.input)?;
    let feedback = &args.feedback_dir;
    anyhow::ensure!(
        feedback.is_dir(),
        "feedback folder {} does not exist",
        feedback.display()
    );
    let mut game = Game::new(deck);
    let ending = {
        let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
        let mut channel = Transport::new(stdin.as_fd(), stdout.as_fd());
        // The submission may go at any moment: a reply to it must fail
        // with EPIPE, never kill the interactor.
        let _sigpipe = SigpipeIgnored::new();
        serve(&mut channel, &mut game, Instant::now() + PATIENCE, None)
    };
    let placed: u32 = game.board().heights().iter().map(|&h| u32::from(h)).sum();
    let (verdict, message) = match ending {
        Ending::Finished(total) => {
            write_feedback(feedback, "score.txt", &format!("{total}\n"))?;
            let message = format!(
                "20 cards placed, total {total}; deck {}\n{}",
                game.deck(),
                game.board().report()
            );
            (ACCEPT, message)
        }
        Ending::Violation(error) => (REJECT, format!("{error}\n")),
        Ending::Protocol(what) => (
            REJECT,
            format!(
                "the submission sent {what} after {placed} placements \
                 (did it print to standard output without the contest's client files?)\n"
            ),
        ),
        Ending::Closed | Ending::Exited => (
            REJECT,
            format!("incomplete: the submission stopped after {placed} of 20 placements\n"),
        ),
        Ending::TimedOut => (
            REJECT,
            format!(
                "no message from the submission for {} s after {placed} placements\n",
                PATIENCE.as_secs()
            ),
        ),
        Ending::Failed(what) => {
            anyhow::bail!("the channel failed on the interactor's side: {what}")
        }
    };
    write_feedback(feedback, "judgemessage.txt", &message)?;
    Ok(ExitCode::from(verdict))
}

fn write_feedback(dir: &Path, name: &str, text: &str) -> anyhow::Result<()> {
    let path = dir.join(name);
    std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// The one deck of a test's input file.
fn read_one_deck(path: &Path) -> anyhow::Result<ContestDeck> {
    let mut found = decks::read_deck_file(path).map_err(anyhow::Error::msg)?;
    anyhow::ensure!(
        found.len() == 1,
        "{}: a test holds one deck, found {}",
        path.display(),
        found.len()
    );
    Ok(found.remove(0))
}

/// Check a test's input on standard input, as a judge's input validator.
///
/// A valid input is exactly one line: the 24 cards of the contest deck
/// (9, T, J, Q, K, A of S, H, D, C, each once), as upper-case two-letter
/// tokens separated by single spaces, ending with one newline and nothing
/// after it. Exit 42 when valid, 43 with the reason on standard error
/// otherwise.
#[derive(clap::Args)]
pub struct ValidateArgs {}

/// The largest input read; a deck line is 72 bytes.
const MAX_INPUT: u64 = 4096;

/// Runs `poker validate-deck`.
pub fn validate(_args: ValidateArgs) -> anyhow::Result<ExitCode> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(MAX_INPUT + 1)
        .read_to_end(&mut bytes)
        .context("cannot read standard input")?;
    Ok(match check_deck_input(&bytes) {
        Ok(()) => ExitCode::from(ACCEPT),
        Err(reason) => {
            eprintln!("invalid test input: {reason}");
            ExitCode::from(REJECT)
        }
    })
}

/// Why `bytes` are not exactly one canonical deck line.
pub fn check_deck_input(bytes: &[u8]) -> Result<(), String> {
    if bytes.len() as u64 > MAX_INPUT {
        return Err(format!("longer than {MAX_INPUT} bytes"));
    }
    let text = std::str::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())?;
    let line = text
        .strip_suffix('\n')
        .ok_or("the input does not end with a newline")?;
    if line.contains('\n') {
        return Err("more than one line".into());
    }
    let deck = ContestDeck::parse(line).map_err(|e| e.to_string())?;
    if deck.to_string() != line {
        return Err(format!(
            "not in the exact format: expected {:?}",
            deck.to_string()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_canonical_line_is_valid() {
        let line = "9S TS JS QS KS AS 9H TH JH QH KH AH 9D TD JD QD KD AD 9C TC JC QC KC AC";
        assert_eq!(check_deck_input(format!("{line}\n").as_bytes()), Ok(()));
        for bad in [
            line.to_string(),
            format!("{line}\n\n"),
            format!("{line} \n"),
            format!(" {line}\n"),
            format!("{}\n", line.to_lowercase()),
            format!("{}\n", line.replace("AC", "AS")),
            format!("{}\n", line.replace(" AC", "")),
            format!("{}\n", line.replace(' ', "  ")),
            format!("{line}\r\n"),
            "\n".to_string(),
            String::new(),
        ] {
            assert!(check_deck_input(bad.as_bytes()).is_err(), "{bad:?}");
        }
        assert!(check_deck_input(b"\xff\n").is_err());
        assert!(check_deck_input(&[b'9'; 5000]).is_err());
    }
}
