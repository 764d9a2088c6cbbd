//! `poker`: the contest kit's command line.

mod bench;
mod camicia;
mod decks;
mod doctor;
mod eval;
mod freecell;
mod hand;
mod jobs;
mod judge;
mod lease;
mod manual;
mod optimum;
mod output_file;
mod progress;
mod ranges;
mod render;
mod report;
mod run_options;
mod shuffle;
mod time_option;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// libpoker's contest kit: evaluate contestants, deal FreeCell and shuffled
/// decks, score hands, simulate Camicia.
#[derive(Parser)]
#[command(name = "poker", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run contestants over the 10 fixed test decks (or --decks) and rank them.
    Eval(eval::Args),
    /// Play one contestant on many random decks and print its statistics.
    Bench(bench::Args),
    /// Deal contest decks into a deck file (e.g. secret decks for --decks).
    Decks(decks::Args),
    /// Check this machine for fair judging and say what to fix.
    Doctor(doctor::Args),
    /// Print Microsoft FreeCell deals by number, or find a board's number.
    Freecell(freecell::Args),
    /// Shuffle a 52-card deck and print it in dealing order, two cards a line ("Ace of Hearts").
    Shuffle(shuffle::Args),
    /// Name the category of a five-card poker hand.
    Hand(hand::Args),
    /// Simulate a Camicia (Beggar-My-Neighbour) game, or search for long ones.
    Camicia(camicia::Args),
    /// Print the best total any placement reaches knowing the whole deck.
    Optimum(optimum::Args),
    /// Write the contest as a problem package for Kattis and DOMjudge (the
    /// Kattis format, with DOMjudge's domjudge-problem.ini).
    Package(judge::package::Args),
    /// Play one game as a judge's interactor over standard input and output.
    Interact(judge::interact::Args),
    /// Check one test's input (a deck, on standard input) as a judge's input
    /// validator: exit 42 if it is valid, 43 with the reason if not.
    ValidateDeck(judge::interact::ValidateArgs),
    /// Rank contestants from their totals (lines "name total", in a file or
    /// "-" for standard input).
    Rank(judge::rank::Args),
    /// Write the manual pages (poker.1, poker-eval.1, ...) into a folder.
    #[command(hide = true)]
    Man(manual::ManArgs),
    /// Print a shell completion script (bash, zsh, fish, ...).
    #[command(hide = true)]
    Completions(manual::CompletionsArgs),
}

fn main() -> ExitCode {
    // Like other Unix filters, stop quietly when the reader of our output
    // goes away (`poker decks --count 1000000 | head`) instead of panicking
    // on EPIPE. Contestants' channels use MSG_NOSIGNAL and are unaffected.
    // SAFETY: setting a signal disposition at start-up, before any thread.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    // One error prefix for every error, clap's usage errors included.
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let text = error.render().to_string();
            if !text.starts_with("error:") {
                error.exit(); // help, version
            }
            eprint!("poker: {text}");
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Eval(args) => eval::run(args),
        Command::Decks(args) => decks::run(args),
        Command::Doctor(args) => doctor::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Freecell(args) => freecell::run(args),
        Command::Shuffle(args) => shuffle::run(args),
        Command::Hand(args) => hand::run(args),
        Command::Camicia(args) => camicia::run(args),
        Command::Optimum(args) => optimum::run(args),
        Command::Package(args) => judge::package::run(args),
        Command::Interact(args) => judge::interact::run(args),
        Command::ValidateDeck(args) => judge::interact::validate(args),
        Command::Rank(args) => judge::rank::run(args),
        Command::Man(args) => manual::man(args),
        Command::Completions(args) => manual::completions(args),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("poker: error: {error:#}");
            ExitCode::from(2)
        }
    }
}
