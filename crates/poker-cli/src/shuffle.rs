//! `poker shuffle`: the textbook shuffle-and-deal of a 52-card deck.

use anyhow::Context;
use poker_core::shuffle::ShuffledDeck;
use serde::Serialize;
use std::io::{self, Write};
use std::process::ExitCode;

/// Shuffle a 52-card deck and print it in dealing order: 26 lines of two
/// cards, the 1st and 2nd dealt on line 1 and so on, each named like
/// "Queen of Hearts" (or, with --json, one JSON object).
#[derive(clap::Args)]
#[command(after_help = "\
Output: 26 lines, two cards each in dealing order (cards 1 and 2 on line 1),
face right-aligned and suit left-aligned, as the textbook program prints:
   King of Diamonds      Ace of Spades

The deck is shuffled by Fisher-Yates (every order equally likely) driven by
ChaCha8 from the seed, so a seed deals the same cards on every machine.
Without --seed a random seed is drawn and named on standard error.

Example:
  poker shuffle --seed 42          the 52 cards, two per line, \"Ace of Hearts\"")]
pub struct Args {
    /// Seed (0..18446744073709551615) to repeat a shuffle.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,

    /// Print JSON: the seed and the cards in dealing order, as tokens (QH)
    /// and names ("Queen of Hearts").
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct DeckJson {
    seed: u64,
    cards: Vec<String>,
    names: Vec<String>,
}

/// Runs `poker shuffle`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let deck = match args.seed {
        Some(seed) => ShuffledDeck::new(seed),
        None => {
            let deck = ShuffledDeck::random();
            eprintln!(
                "poker: shuffled with seed {0} (repeat with --seed {0})",
                deck.seed()
            );
            deck
        }
    };
    let text = if args.json {
        let record = DeckJson {
            seed: deck.seed(),
            cards: deck.cards().iter().map(|c| c.to_string()).collect(),
            names: deck.cards().iter().map(|c| c.long_name()).collect(),
        };
        serde_json::to_string(&record)? + "\n"
    } else {
        deck.to_text()
    };
    // A closed pipe never shows here: main restores SIGPIPE's default.
    io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .context("writing to standard output")?;
    Ok(ExitCode::SUCCESS)
}
