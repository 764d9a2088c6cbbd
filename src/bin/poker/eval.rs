//! `poker eval`: contestants over the fixed test decks, scored and ranked.

use crate::run_options::RunOptions;
use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use poker::evaluator::{self, ContestantResult, Status, decks};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Run contestants over the contest's 10 fixed test decks and rank them.
///
/// Each game runs the contestant as its own process; the deck stays in the
/// evaluator, which hands out one card per p_look and checks every rule
/// itself. A game scores 0 for a broken rule, a crash, a timeout or an exit
/// before the 20th placement. The ranking gives the best total 10 points and
/// the others proportionally, rounded (the contest's DFCC scaling).
///
/// The built-in decks are public: for a real contest, deal secret decks with
/// `poker decks --count 10 > secret.txt` and pass `--decks secret.txt`.
#[derive(clap::Args)]
pub struct Args {
    /// Contestants: executables linked against libpoker, .c files (compiled
    /// with cc) or .pas files (compiled with fpc, `uses Poker;`) to build
    /// against it first, or .py scripts (run with python3 and the libpoker
    /// module). Default: every .c file in ./c_examples (or the installed
    /// examples).
    #[arg(value_name = "CONTESTANT")]
    contestants: Vec<PathBuf>,

    /// Deck file to use instead of the 10 built-in decks: one deck a line,
    /// 24 card tokens (e.g. `TS 9h AC ...`); blank lines and # comments ignored.
    #[arg(long, value_name = "FILE")]
    decks: Option<PathBuf>,

    /// Print the results as JSON instead of tables.
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    run: RunOptions,
}

/// Runs `poker eval`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let time_limit = args.run.time_limit()?;
    let decks = match &args.decks {
        Some(path) => decks::read_deck_file(path).map_err(anyhow::Error::msg)?,
        None => decks::builtin(),
    };
    let paths = if args.contestants.is_empty() {
        example_contestants()?
    } else {
        args.contestants.clone()
    };
    let toolchain = args.run.toolchain()?;
    let mut contestants: Vec<_> = paths.iter().map(|p| toolchain.prepare(p)).collect();
    // Two contestants with one file name are told apart by their paths.
    let names: Vec<String> = contestants.iter().map(|c| c.name.clone()).collect();
    for c in contestants.iter_mut() {
        if names.iter().filter(|n| **n == c.name).count() > 1 {
            c.name = c.source.display().to_string();
        }
    }
    for c in &contestants {
        if let Err(why) = &c.program {
            eprintln!("poker: warning: {} is not run (scored 0): {why}", c.name);
        }
    }

    let bar = ProgressBar::new((contestants.len() * decks.len()) as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}")
            .expect("valid progress template"),
    );
    let results = evaluator::evaluate(&contestants, &decks, time_limit, |contestant, game| {
        bar.set_message(format!("{} deck {}", contestant.name, game.deck));
        bar.inc(1);
    })
    .context("cannot set up the evaluator")?;
    bar.finish_and_clear();

    if args.json {
        println!("{}", json!({ "contestants": results }));
    } else {
        print_tables(&results);
    }
    Ok(ExitCode::SUCCESS)
}

/// Every .c file in the first of: ./c_examples, the installed examples
/// (PREFIX/share/libpoker/c_examples), the source tree's c_examples.
fn example_contestants() -> anyhow::Result<Vec<PathBuf>> {
    let installed = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("share/libpoker/c_examples")));
    let candidates = [
        Some(PathBuf::from("c_examples")),
        installed,
        Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("c_examples")),
    ];
    let dir = candidates
        .into_iter()
        .flatten()
        .find(|d| d.is_dir())
        .unwrap_or_else(|| PathBuf::from("c_examples"));
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .with_context(|| format!("no contestants given and cannot read {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    found.sort();
    if found.is_empty() {
        bail!("no contestants given and no .c files in {}", dir.display());
    }
    Ok(found)
}

fn print_tables(results: &[ContestantResult]) {
    for r in results {
        println!("{} ({})", r.name, r.path);
        let not_run = r.tests.iter().all(|t| t.status == Status::Error)
            && r.tests.windows(2).all(|w| w[0].reason == w[1].reason);
        if let (true, Some(first)) = (not_run, r.tests.first()) {
            println!("  not run: {}", first.reason.as_deref().unwrap_or(""));
            println!("  total: 0\n");
            continue;
        }
        println!("  deck  score  best  status      time    reason");
        for t in &r.tests {
            println!(
                "  {:>4}  {:>5}  {:>4}  {:<10} {:>6.3}s  {}",
                t.deck,
                t.score,
                t.best_possible.map_or("-".to_string(), |b| b.to_string()),
                t.status.as_str(),
                t.seconds,
                t.reason.as_deref().unwrap_or("")
            );
        }
        let share = if r.best_possible > 0 {
            format!(
                " ({:.0}% of the best possible {})",
                100.0 * f64::from(r.total) / f64::from(r.best_possible),
                r.best_possible
            )
        } else {
            String::new()
        };
        println!("  total: {}{share}\n", r.total);
    }
    let mut order: Vec<&ContestantResult> = results.iter().collect();
    order.sort_by(|a, b| a.rank.cmp(&b.rank).then(a.name.cmp(&b.name)));
    let width = order
        .iter()
        .map(|r| r.name.len())
        .max()
        .unwrap_or(10)
        .max(10);
    println!("ranking (the best total is worth 10 points)");
    println!("  rank  {:<width$}  total  points", "contestant");
    for r in order {
        println!(
            "  {:>4}  {:<width$}  {:>5}  {:>6}",
            r.rank, r.name, r.total, r.scaled
        );
    }
}
