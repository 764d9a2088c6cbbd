//! `poker camicia extend`: the longest deal of a deal's basin (backward
//! extension), proved by forward play.

use anyhow::Context;
use poker_core::camicia::extend::{Extension, extend};
use poker_core::camicia::{
    Card, Deal, Outcome, Player, Simulator, parse_deck, penalties, reference,
};
use poker_core::numbers::count;
use poker_hunt::proof;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `poker camicia extend`.
#[derive(clap::Args)]
pub struct Args {
    /// Player A's 26 cards, top first (A plays first).
    #[arg(allow_hyphen_values = true)]
    a: String,
    /// Player B's 26 cards.
    #[arg(allow_hyphen_values = true)]
    b: String,
    /// Print one JSON object: the deal, the longest deal of its basin and
    /// how they meet.
    #[arg(long)]
    json: bool,
    /// Also draw the longest deal's game to FILE as an SVG chart.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

fn deal_json(deal: &Deal, outcome: &Outcome) -> serde_json::Value {
    json!({
        "index": deal.rank().to_string(),
        "a": poker_core::camicia::notation(deal.a()),
        "b": poker_core::camicia::notation(deal.b()),
        "status": outcome.status.to_string(),
        "cards": outcome.cards,
        "tricks": outcome.tricks,
    })
}

fn deal_line(deal: &Deal, outcome: &Outcome) -> String {
    format!("{deal} (index {}): {outcome}", deal.rank())
}

/// Runs `poker camicia extend`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let a = penalties(&parse_deck(&args.a, Player::A)?);
    let b = penalties(&parse_deck(&args.b, Player::B)?);
    let found: Extension = extend(&a, &b)?;
    let deal = Deal::new(&a, &b).expect("extend checked the deal");
    // The backward search found it; forward play proves it.
    let mut sim = Simulator::new();
    proof::replay(&mut sim, deal.a(), deal.b(), found.original).context("the deal")?;
    proof::replay(&mut sim, found.deal.a(), found.deal.b(), found.outcome)
        .context("the longest deal found")?;
    proof::joins(&deal, &found.deal, found.added, found.joins_trick)
        .context("the longest deal found")?;
    if let Some(path) = &args.svg {
        let cards = |p: &[u8]| -> Vec<Card> {
            p.iter()
                .map(|&x| Card::from_penalty(x).expect("penalties 0..=4"))
                .collect()
        };
        let trace = reference::trace(&cards(found.deal.a()), &cards(found.deal.b()));
        std::fs::write(path, crate::render::camicia_svg(&trace)?)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        println!(
            "{}",
            json!({
                "deal": deal_json(&deal, &found.original),
                "longest": deal_json(&found.deal, &found.outcome),
                "extends": found.extends(),
                "added": found.added,
                "joins_trick": found.joins_trick,
                "joins_card": found.joins_card,
                "before_join": found.before_join,
                "depth": "exact",
                "nodes": found.nodes,
                "checked": "forward play, fast engine and reference simulator",
            })
        );
        return Ok(ExitCode::SUCCESS);
    }
    println!("deal:    {}", deal_line(&deal, &found.original));
    if found.extends() {
        println!("longest: {}", deal_line(&found.deal, &found.outcome));
        println!(
            "added:   {} cards; its game plays {} cards, then joins this deal's game after \
             trick {} (card {})",
            count(found.added),
            count(found.before_join),
            count(found.joins_trick),
            count(found.joins_card)
        );
    } else {
        println!("longest: the deal itself: no deal of its basin plays longer");
    }
    println!(
        "checked: played forward by the fast engine and the reference simulator ({} states of \
         the predecessor trees searched)",
        count(found.nodes)
    );
    Ok(ExitCode::SUCCESS)
}
