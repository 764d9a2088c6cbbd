//! `poker decks`: deal test decks into a deck file for `poker eval --decks`.

use crate::report::canonical_decks;
use poker_judge::evaluator::decks;
use std::process::ExitCode;

/// Deal contest decks (24 cards each) as a deck file on standard output.
///
/// Without --seed the decks are secret: a fresh random base seed is drawn
/// (and written in the file's header comment, so the organiser can deal them
/// again). `poker decks --seed 19940808` prints the 10 built-in decks.
/// `poker decks --canonical FILE` prints the canonical text of a deck file
/// instead: the text whose SHA-256 the audit of `poker eval --decks FILE`
/// gives (`poker decks --canonical FILE | sha256sum`).
#[derive(clap::Args)]
pub struct Args {
    /// Print the canonical text of the deck file FILE: one deck a line, its 24 cards as poker decks writes them
    /// (upper case, tens as T, single spaces), no comments or blank
    /// lines. Its SHA-256 is the audit's decks hash.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["seed", "count", "json"])]
    canonical: Option<std::path::PathBuf>,

    /// Base seed: deck i is shuffled from seed + i (default: a fresh random
    /// seed, named in the file's header comment).
    #[arg(long, value_name = "SEED")]
    seed: Option<u64>,

    /// How many decks.
    #[arg(long, value_name = "N", default_value_t = decks::BUILTIN_COUNT as u32,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    count: u32,

    /// Print one JSON object instead of a deck file: {"seed": S, "decks":
    /// [["JS", "TD", ...], ...]}, each deck's 24 tokens in dealing order.
    #[arg(long)]
    json: bool,
}

/// Runs `poker decks`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(file) = &args.canonical {
        let read = decks::read_deck_file(file).map_err(anyhow::Error::msg)?;
        print!("{}", canonical_decks(&read));
        return Ok(ExitCode::SUCCESS);
    }
    let seed = args.seed.unwrap_or_else(rand::random);
    let dealt = decks::generate(seed, args.count as usize);
    if args.json {
        let tokens: Vec<Vec<String>> = dealt
            .iter()
            .map(|deck| deck.cards().iter().map(|c| c.to_string()).collect())
            .collect();
        println!("{}", serde_json::json!({ "seed": seed, "decks": tokens }));
    } else {
        print!("{}", decks::deck_file(seed, &dealt));
    }
    Ok(ExitCode::SUCCESS)
}
