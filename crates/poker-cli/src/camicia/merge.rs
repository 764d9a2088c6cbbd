//! `poker camicia merge`: work units' result files combined after checking
//! them (see [`poker_hunt::merge`]), told as text, JSON or an HTML page.

use super::range::parse_range;
use anyhow::Context;
use poker_core::numbers::count;
use poker_hunt::merge::{Merged, Outcome, Request, merge};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `poker camicia merge`.
#[derive(clap::Args)]
pub struct Args {
    /// Result files of poker camicia search --output (any order).
    #[arg(required = true, value_name = "RESULT")]
    results: Vec<PathBuf>,
    /// The range the units must cover, each index exactly once, END
    /// exclusive (default: the range their --shard was cut from, else
    /// from the lowest to the highest index covered).
    #[arg(long, value_name = "START..END")]
    range: Option<String>,
    /// How many of the longest games to keep (default and most: the
    /// smallest --top of the units).
    #[arg(long, value_name = "K")]
    top: Option<usize>,
    /// Print the merged result as one JSON object.
    #[arg(long)]
    json: bool,
    /// Also write an HTML page to FILE: the game-length histogram (log
    /// scale) and the longest game's plot.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// The length to beat in the odds (cards; default: the longest known
    /// game). The odds are fitted on units of random deals only.
    #[arg(long, value_name = "CARDS")]
    target: Option<u64>,
}

/// Runs `poker camicia merge`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.html {
        crate::output_file::check_writable(path)?;
    }
    let request = Request {
        results: args.results,
        range: args.range.as_deref().map(parse_range).transpose()?,
        top: args.top,
        target: args.target,
    };
    let Outcome { merged, longest } = merge(&request)?;
    if let Some(path) = &args.html {
        let page = crate::render::camicia_merge_page(&merged, longest.as_ref())?;
        std::fs::write(path, page).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        println!("{}", serde_json::to_string(&merged)?);
    } else {
        print!("{}", text(&merged));
        print!("{}", extension_text(&merged));
        match &merged.odds {
            Some(o) => print!("{o}"),
            None if args.target.is_some() => println!(
                "no odds: they are fitted on units of random deals (--count with --seed) only; \
                 a range's neighbouring indices share most of their deal, so its length \
                 histogram is not a random sample"
            ),
            None => {}
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The extended deals and the setting that found them.
fn extension_text(m: &Merged) -> String {
    let mut out = format!("extension: {}\n", m.extension.join("; "));
    if !m.extended.is_empty() {
        out += "longest deals found by extension:\n";
    }
    for (i, e) in m.extended.iter().enumerate() {
        let g = &e.game;
        out += &format!(
            "{:>3}. index {:>21}  cards {:>5}  tricks {:>5}  {} {}  (+{} cards from index {}, \
             joining after trick {})\n",
            i + 1,
            g.index,
            count(g.cards),
            count(g.tricks),
            g.a,
            g.b,
            count(e.added),
            e.from,
            count(e.joins_trick)
        );
    }
    out
}

/// The merged result as text.
fn text(m: &Merged) -> String {
    let mut out = String::new();
    let c = &m.counts;
    if m.mode == "random" {
        out += &format!(
            "random deals: {}; {} games re-simulated and confirmed\n",
            poker_hunt::merge::random_coverage(m),
            count(m.verified_games)
        );
    } else {
        out += &format!(
            "range {}..{}: {} unit(s), every index covered once; {} games re-simulated and confirmed\n",
            m.start,
            m.end,
            count(m.units),
            count(m.verified_games)
        );
    }
    out += &format!(
        "{} deals: {} finished, {} loop(s); checksum {}; engine {}; version {}\n",
        count(c.deals),
        count(c.finished),
        count(c.loops),
        m.checksum,
        m.engines.join(", "),
        m.versions.join(", ")
    );
    for cost in &m.costs {
        out += &format!("cost per deal, {cost}\n");
    }
    out += "longest finished games:\n";
    for (i, g) in m.best.iter().enumerate() {
        out += &format!(
            "{:>3}. index {:>21}  cards {:>5}  tricks {:>5}  {} {}\n",
            i + 1,
            g.index,
            count(g.cards),
            count(g.tricks),
            g.a,
            g.b
        );
    }
    for g in &m.loops {
        let c = g.cycle.as_ref();
        out += &format!(
            "loop  index {:>21}  cards {:>5}  tricks {:>5}  cycle {} ({} tricks)\n",
            g.index,
            count(g.cards),
            count(g.tricks),
            c.map_or("?", |c| c.id.as_str()),
            count(c.map_or(0, |c| c.tricks))
        );
    }
    let s = &m.cycle_stats;
    out += &format!("distinct cycles: {}", count(s.distinct));
    for cy in &m.cycles {
        out += &format!(
            "\n  cycle {} (mirror {}): {} tricks, {} cards a turn, reached by {} deal(s)",
            cy.id,
            cy.mirror_id,
            count(cy.tricks),
            count(cy.cards),
            count(cy.deals)
        );
    }
    out += "\n";
    match (s.chao1, s.loop_rate_upper_95) {
        (Some(chao1), _) => {
            out += &format!(
                "Chao1 estimate of the cycles reachable: {chao1:.1} ({} singleton(s), {} doubleton(s))\n",
                count(s.singletons),
                count(s.doubletons)
            )
        }
        (None, Some(bound)) => {
            out += &format!(
                "no loop in {} deals: loop rate below {bound:.3e} (95%, rule of three)\n",
                count(c.deals)
            )
        }
        (None, None) => {
            let rate = match s.loop_rate {
                Some(rate) => format!("loop rate {rate:.3e}"),
                None => format!(
                    "{} loop(s) in {} deals of the range (a range is no random sample: no \
                     loop rate)",
                    count(c.loops),
                    count(c.deals)
                ),
            };
            out += &format!(
                "{rate}; no Chao1 estimate: it needs cycles seen once and twice ({} and {} here)\n",
                count(s.singletons),
                count(s.doubletons)
            )
        }
    }
    out
}
