//! `poker optimum`: the hindsight optimum of decks.

use anyhow::{Context, bail};
use poker_core::card_list::{CardList, parse_card_list};
use poker_core::cards::Card;
use poker_core::optimum::{Optimum, deck_optimum, optimum};
use poker_judge::evaluator::decks;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `poker optimum`.
#[derive(clap::Args)]
#[command(after_help = "\
Give one deck as arguments, or a file of decks with --decks.

Examples:
  poker optimum \"JS TD KC QS 9C AD 9D QC JD KS TH JH 9S JC TS TC KD AH AC KH AS QD 9H QH\"
  poker optimum JS TD KC QS 9C AD 9D QC JD KS TH JH 9S JC TS TC KD AH AC KH
  poker optimum --decks data/decks.txt --json")]
pub struct Args {
    /// A deal: the 24 cards of a deck or its first 20 (the ones dealt), in
    /// dealing order ("TS 9h AC ..."), as one quoted argument or one
    /// argument per card.
    #[arg(value_name = "CARDS", conflicts_with = "decks")]
    deck: Vec<String>,
    /// A file of decks, one per line (24 tokens); blank lines and lines
    /// starting with "#" are ignored.
    #[arg(long, value_name = "FILE")]
    decks: Option<PathBuf>,
    /// Print one JSON object: {"decks": [{"deck", "cards", "best",
    /// "columns", "board"}, ...], "mean_best"}; columns is the column
    /// (1..4) of each dealt card, board the four columns' cards.
    #[arg(long)]
    json: bool,
}

/// Runs `poker optimum`: for each deck, the best total any balanced
/// placement of its 20 dealt cards reaches, and one placement reaching it.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // (the cards as given, their optimum)
    let deals: Vec<(Vec<Card>, Optimum)> = match &args.decks {
        Some(path) => decks::read_deck_file(path)
            .map_err(anyhow::Error::msg)?
            .iter()
            .map(|deck| (deck.cards().to_vec(), deck_optimum(deck)))
            .collect(),
        None if args.deck.is_empty() => {
            bail!("give a deal (24 or 20 cards, e.g. \"JS TD KC ...\") or --decks FILE")
        }
        None => {
            let text = args.deck.join(" ");
            let cards = parse_card_list(&text, CardList::CONTEST_DEAL)
                .with_context(|| format!("deal {text:?}"))?;
            let best = optimum(&cards).with_context(|| format!("deal {text:?}"))?;
            vec![(cards, best)]
        }
    };
    let sum: u32 = deals.iter().map(|(_, best)| u32::from(best.total)).sum();
    let mean = f64::from(sum) / deals.len() as f64;
    if args.json {
        let entries: Vec<serde_json::Value> = deals
            .iter()
            .enumerate()
            .map(|(i, (cards, best))| {
                let board = best.board();
                let columns: Vec<Vec<String>> = (0..4)
                    .map(|c| board.column(c).iter().map(Card::to_string).collect())
                    .collect();
                serde_json::json!({
                    "deck": i + 1,
                    "cards": cards.iter().map(Card::to_string).collect::<Vec<_>>(),
                    "best": best.total,
                    "columns": best.columns,
                    "board": columns,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::json!({ "decks": entries, "mean_best": mean })
        );
        return Ok(ExitCode::SUCCESS);
    }
    let numbered = deals.len() > 1;
    for (i, (cards, best)) in deals.iter().enumerate() {
        if i > 0 {
            println!();
        }
        print_optimum(numbered.then_some(i + 1), cards, best);
    }
    if numbered {
        let decks = poker_core::numbers::count(deals.len());
        println!("\nmean best possible: {mean:.2} over {decks} decks");
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints one deal's optimum; `number` is the deck's 1-based place in a
/// file (as `poker eval` numbers them).
fn print_optimum(number: Option<usize>, cards: &[Card], best: &Optimum) {
    let tokens: Vec<String> = cards.iter().map(Card::to_string).collect();
    match number {
        Some(number) => println!("deck {number}: {}", tokens.join(" ")),
        None => println!("deck: {}", tokens.join(" ")),
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
