//! `poker camicia`: simulate a Camicia (Beggar-My-Neighbour) game, search
//! many deals for long ones, and convert between deals and their indices.

mod engine;
mod extend;
mod merge;
mod range;
mod search;
mod status;
mod trace;

use anyhow::{Context, bail};
use poker_core::camicia::{self, DEAL_COUNT, Deal, Player, parse_deck, penalties, reference};
use serde_json::json;
use std::process::ExitCode;

const AFTER_HELP: &str = "\
Decks are written top card first, one argument per player, as tokens
2..10, T, J, Q, K, A (case-insensitive) or with - for any number card,
several written together: poker camicia ---K---Q-KQAJ-----AAJ--J-- ----------Q----KQ-J-----KA
A plays first. Rules and counting are exercism's \"camicia\" (see docs/camicia.md).

Examples:
  poker camicia '2 A 7 8 Q 10' '3 4 5 6 K 9 J'
  poker camicia --trace 'J 2 3' '4 J 5'
  poker camicia search --count 10000000 --top 5
  poker camicia search --count 100000000 --seed 7 --output random-7.json
  poker camicia extend K-KK----K-A-----JAA--Q--J- ---Q---Q-J-----J------AQ--
  poker camicia search --range 447247122283566119000..447247122283566120000 --json
  poker camicia search --range 0..100000000 --shard 3/10 --output unit-3.json --checkpoint unit-3.checkpoint
  poker camicia merge unit-*.json --range 0..100000000 --html hunt.html
  poker camicia status units/
  poker camicia index ---AJ--Q---------QAKQJJ-QK -----A----KJ-K--------A---
  poker camicia deal 447247122283566119055";

/// Arguments of `poker camicia`.
#[derive(clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = AFTER_HELP
)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: PlayArgs,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Simulate many 52-card deals (random or an index range) and report the
    /// longest games and every loop.
    Search(search::Args),
    /// Print the index of a 52-card deal (26 cards each, 4 of each J, Q, K, A).
    Index(IndexArgs),
    /// Print the 52-card deal with this index, as "A B" in - notation.
    Deal(DealArgs),
    /// Combine work units' result files after checking them: every index of
    /// the range covered once, every best game and loop re-simulated.
    Merge(merge::Args),
    /// Print the longest deal of a 52-card deal's basin (backward
    /// extension): the deal, its game, the cards it adds and where its game
    /// joins the deal's. Checked by playing it forward with both simulators.
    Extend(extend::Args),
    /// Show a distributed search's progress from a folder of result files
    /// and checkpoints: done, rate, time left, best game so far.
    Status(status::Args),
}

#[derive(clap::Args)]
struct PlayArgs {
    /// Player A's deck, top card first (A plays first).
    #[arg(allow_hyphen_values = true, required = true)]
    a: Option<String>,
    /// Player B's deck, top card first.
    #[arg(allow_hyphen_values = true, required = true)]
    b: Option<String>,
    /// Print one JSON object: {"status", "cards", "tricks"}.
    #[arg(long)]
    json: bool,
    /// Print the game round by round: the decks and pile after every card,
    /// and who owes how many cards.
    #[arg(long, conflicts_with = "json")]
    trace: bool,
    /// Also draw the game to FILE as an SVG chart: the cards each player
    /// holds after every trick, a loop's start marked.
    #[arg(long, value_name = "FILE")]
    svg: Option<std::path::PathBuf>,
}

#[derive(clap::Args)]
struct IndexArgs {
    /// Player A's 26 cards.
    #[arg(allow_hyphen_values = true)]
    a: String,
    /// Player B's 26 cards.
    #[arg(allow_hyphen_values = true)]
    b: String,
}

#[derive(clap::Args)]
struct DealArgs {
    /// The deal's index, 0 ..= 653534134886878244999.
    index: u128,
}

/// Runs `poker camicia`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Some(Command::Search(s)) => search::run(s),
        Some(Command::Index(i)) => {
            let (a, b) = (parse_deck(&i.a, Player::A)?, parse_deck(&i.b, Player::B)?);
            let deal = Deal::new(&penalties(&a), &penalties(&b))?;
            println!("{}", deal.rank());
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Merge(m)) => merge::run(m),
        Some(Command::Extend(e)) => extend::run(e),
        Some(Command::Status(s)) => status::run(s),
        Some(Command::Deal(d)) => {
            let Some(deal) = Deal::unrank(d.index) else {
                bail!("deal indices go up to {}", DEAL_COUNT - 1);
            };
            println!("{deal}");
            Ok(ExitCode::SUCCESS)
        }
        None => play(args.play),
    }
}

fn play(args: PlayArgs) -> anyhow::Result<ExitCode> {
    let a = parse_deck(args.a.as_deref().unwrap_or(""), Player::A)?;
    let b = parse_deck(args.b.as_deref().unwrap_or(""), Player::B)?;
    // Any hands are legal, but a deal meant as a full deck and mistyped
    // plays a different game: say so where the output cannot be mistaken
    // for part of the result.
    if let Err(why) = Deal::new(&penalties(&a), &penalties(&b)) {
        eprintln!("poker: warning: not a full deck ({why}); played as given");
    }
    if let Some(path) = &args.svg {
        std::fs::write(path, crate::render::camicia_svg(&reference::trace(&a, &b))?)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.trace {
        print!("{}", trace::text(&a, &b));
        return Ok(ExitCode::SUCCESS);
    }
    let outcome = camicia::simulate(&a, &b);
    if args.json {
        println!(
            "{}",
            json!({"status": outcome.status.to_string(), "cards": outcome.cards, "tricks": outcome.tricks})
        );
    } else {
        println!("status: {}", outcome.status);
        println!("cards: {}", poker_core::numbers::count(outcome.cards));
        println!("tricks: {}", poker_core::numbers::count(outcome.tricks));
    }
    Ok(ExitCode::SUCCESS)
}
