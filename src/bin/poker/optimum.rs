//! `poker optimum`: the hindsight optimum of decks (issue 7).

use anyhow::Context;
use poker::contest::ContestDeck;
use poker::evaluator::decks;
use poker::optimum::{Optimum, deck_optimum};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `poker optimum`.
#[derive(clap::Args)]
pub struct Args {
    /// A deck: 24 card tokens in dealing order (`TS 9h AC ...`), as one
    /// quoted argument or as 24 arguments.
    #[arg(conflicts_with = "decks", required_unless_present = "decks")]
    deck: Vec<String>,
    /// A file of decks, one per line (24 tokens); blank lines and lines
    /// starting with `#` are ignored.
    #[arg(long, value_name = "FILE")]
    decks: Option<PathBuf>,
}

/// Runs `poker optimum`: for each deck, the best total any balanced
/// placement of its 20 dealt cards reaches, and one placement reaching it.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let decks = match &args.decks {
        Some(path) => decks::read_deck_file(path).map_err(anyhow::Error::msg)?,
        None => {
            let text = args.deck.join(" ");
            vec![ContestDeck::parse(&text).with_context(|| format!("deck {text:?}"))?]
        }
    };
    let numbered = decks.len() > 1;
    let mut sum = 0u32;
    for (i, deck) in decks.iter().enumerate() {
        let best = deck_optimum(deck);
        sum += u32::from(best.total);
        if i > 0 {
            println!();
        }
        print_optimum(numbered.then_some(i + 1), deck, &best);
    }
    if decks.len() > 1 {
        println!(
            "\nmean best possible: {:.2} over {} decks",
            f64::from(sum) / decks.len() as f64,
            decks.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints one deck's optimum; `number` is the deck's 1-based place in a
/// file (as `poker eval` numbers them).
fn print_optimum(number: Option<usize>, deck: &ContestDeck, best: &Optimum) {
    if let Some(number) = number {
        println!("deck {number}: {deck}");
    } else {
        println!("deck: {deck}");
    }
    println!("best possible: {}", best.total);
    let columns: Vec<String> = best
        .columns
        .chunks(4)
        .map(|block| block.iter().map(|c| c.to_string()).collect())
        .collect();
    println!("columns (card by card): {}", columns.join(" "));
    print!("{}", best.board().report());
}
