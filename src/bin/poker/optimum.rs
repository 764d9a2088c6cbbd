//! `poker optimum`: the hindsight optimum of decks (issue 7).

use anyhow::{Context, bail};
use poker::contest::ContestDeck;
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
        Some(path) => read_decks(path)?,
        None => {
            let text = args.deck.join(" ");
            let deck = ContestDeck::parse(&text).with_context(|| format!("deck {text:?}"))?;
            vec![(None, deck)]
        }
    };
    let mut sum = 0u32;
    for (i, (line, deck)) in decks.iter().enumerate() {
        let best = deck_optimum(deck);
        sum += u32::from(best.total);
        if i > 0 {
            println!();
        }
        print_optimum(*line, deck, &best);
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

fn print_optimum(line: Option<usize>, deck: &ContestDeck, best: &Optimum) {
    if let Some(line) = line {
        println!("line {line}: {deck}");
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

/// The decks of a file with their 1-based line numbers.
fn read_decks(path: &PathBuf) -> anyhow::Result<Vec<(Option<usize>, ContestDeck)>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut decks = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match ContestDeck::parse(line) {
            Ok(deck) => decks.push((Some(i + 1), deck)),
            Err(e) => bail!("{}, line {}: {e}", path.display(), i + 1),
        }
    }
    if decks.is_empty() {
        bail!("{}: no decks", path.display());
    }
    Ok(decks)
}
