//! `poker hand`: name a five-card hand's category.

use anyhow::Context;
use poker_core::cards::Rank;
use poker_core::hand::{categorize, parse_hand};
use std::process::ExitCode;

/// Arguments of `poker hand`.
#[derive(clap::Args)]
#[command(after_help = "\
Categories, strongest first: straight flush, four of a kind, full house,
flush, straight (A-2-3-4-5 counts), three of a kind, two pair, one pair,
high card. For a hand of the contest's 24-card deck (9 to A) the points
it scores as a Poker American column are added; there a flush (7) beats
four of a kind (6) and a full house (5).

Examples:
  poker hand \"AS KS QS JS TS\"      straight flush (8 points as a Poker American column)
  poker hand 10h 10d 4c 4s 4h      full house")]
pub struct Args {
    /// Five distinct cards, as one quoted argument or five: a rank (2-9, T or
    /// 10, J, Q, K, A) then a suit (C, D, H, S), any case.
    #[arg(value_name = "CARDS", required = true)]
    cards: Vec<String>,

    /// Print one JSON object: {"cards": [...], "category": "full house",
    /// "contest_points": 5} (contest_points is null for a hand with a card
    /// below 9).
    #[arg(long)]
    json: bool,
}

/// Runs `poker hand`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let text = args.cards.join(" ");
    let hand = parse_hand(&text).with_context(|| format!("not a five-card hand: '{text}'"))?;
    let category = categorize(&hand);
    let contest = hand.iter().all(|c| c.rank >= Rank::NINE);
    if args.json {
        let cards: Vec<String> = hand.iter().map(|c| c.to_string()).collect();
        let points = contest.then(|| category.contest_points());
        println!(
            "{}",
            serde_json::json!({
                "cards": cards,
                "category": category.to_string(),
                "contest_points": points,
            })
        );
    } else if contest {
        // A hand of the contest's 24-card deck: say what a column scores.
        let points = category.contest_points();
        let unit = if points == 1 { "point" } else { "points" };
        println!("{category} ({points} {unit} as a Poker American column)");
    } else {
        println!("{category}");
    }
    Ok(ExitCode::SUCCESS)
}
