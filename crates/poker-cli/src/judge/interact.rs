//! `poker interact` (a judge's interactor, the package's output validator)
//! and `poker validate-deck` (its input validator).
//!
//! Both follow the Kattis output/input validator conventions: exit status
//! 42 accepts, 43 rejects; any other status is a judge error.

use super::kattis::{ACCEPT, JudgeVerdict, PATIENCE, REJECT, validate_input, verdict};
use anyhow::Context;
use poker_core::contest::{ContestDeck, Game};
use poker_judge::evaluator::decks;
use poker_protocol::Transport;
use poker_protocol::manager::serve;
use std::io::Read;
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

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
        // The submission may go at any moment: a reply to it over the pipe
        // must fail with EPIPE, never kill the interactor. (This process
        // is the interactor alone: its output is the channel.)
        // SAFETY: sets a disposition; no handler code runs.
        unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
        serve(&mut channel, &mut game, Instant::now() + PATIENCE, None)
    };
    let (code, message) = match verdict(ending, &game) {
        JudgeVerdict::Accepted { total, message } => {
            write_feedback(feedback, "score.txt", &format!("{total}\n"))?;
            (ACCEPT, message)
        }
        JudgeVerdict::Rejected(message) => (REJECT, message),
        JudgeVerdict::JudgeError(what) => {
            anyhow::bail!("the channel failed on the interactor's side: {what}")
        }
    };
    write_feedback(feedback, "judgemessage.txt", &message)?;
    Ok(ExitCode::from(code))
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

/// Runs `poker validate-deck`.
pub fn validate(_args: ValidateArgs) -> anyhow::Result<ExitCode> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(super::kattis::MAX_INPUT + 1)
        .read_to_end(&mut bytes)
        .context("cannot read standard input")?;
    Ok(match validate_input(&bytes) {
        Ok(_) => ExitCode::from(ACCEPT),
        Err(reason) => {
            eprintln!("invalid test input: {reason}");
            ExitCode::from(REJECT)
        }
    })
}
