//! `poker bench`: one contestant over many random decks, with statistics.

use crate::run_options::RunOptions;
use anyhow::{Context, bail};
use poker::evaluator::report::escape;
use poker::evaluator::{self, SandboxMode, Status, decks};
use poker::optimum::deck_optimum;
use rayon::prelude::*;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Play one contestant on many random decks through the evaluator and print
/// its mean score, standard deviation, standard error, min, max and time per
/// game, and the mean hindsight optimum of the same decks.
///
/// Deck i, for i = 1..=N, is `ContestDeck::shuffled(SEED + i)` (the deck a
/// practice run gets with POKER_SEED=SEED+i), so two contestants benchmarked
/// with the same --seed play the same decks.
#[derive(clap::Args)]
pub struct Args {
    /// The contestant: an executable linked against libpoker, or a .c, .pas
    /// or .py file (as for `poker eval`).
    #[arg(value_name = "CONTESTANT")]
    contestant: PathBuf,

    /// Number of games (random decks).
    #[arg(long, value_name = "N", default_value_t = 10_000,
          value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    games: u32,

    /// Base seed of the decks.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,

    /// Games played at once (default: one per core; at most 4 per core).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,

    /// Print the statistics as JSON.
    #[arg(long)]
    json: bool,

    /// Hide the progress bar.
    #[arg(long)]
    quiet: bool,

    #[command(flatten)]
    run: RunOptions,
}

/// Mean, standard deviation and standard error of the mean.
fn stats(values: &[f64]) -> (f64, f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = if values.len() > 1 {
        values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    (mean, var.sqrt(), (var / n).sqrt())
}

/// Runs `poker bench`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut config = args.run.config(SandboxMode::Auto)?;
    let jobs = args.jobs.unwrap_or_else(rayon::current_num_threads);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if jobs == 0 || jobs > 4 * cores {
        bail!(
            "--jobs must be from 1 to {} (4 per core on this machine), not {jobs}",
            4 * cores
        );
    }
    config.jobs = jobs;
    let supervisor = evaluator::become_supervisor().context("cannot set up the evaluator")?;
    if let Some(warning) = &config.warning {
        eprintln!("poker: warning: {warning}");
    }
    let toolchain = args.run.toolchain(&config)?;
    let contestant = toolchain.prepare(&supervisor, &args.contestant);
    let program = contestant.program.clone().map_err(anyhow::Error::msg)?;
    let deck_list = decks::generate(args.seed, args.games as usize);

    let bar = crate::progress::bar(u64::from(args.games), "games", args.quiet);
    let start = Instant::now();
    let results = evaluator::play_many(&supervisor, &program, &deck_list, &config, |_| bar.inc(1))
        .context("cannot run the games")?;
    let wall = start.elapsed().as_secs_f64();
    bar.finish_and_clear();

    let scores: Vec<f64> = results.iter().map(|r| f64::from(r.score)).collect();
    let (mean, sd, se) = stats(&scores);
    let min = results.iter().map(|r| r.score).min().unwrap_or(0);
    let max = results.iter().map(|r| r.score).max().unwrap_or(0);
    let game_seconds: Vec<f64> = results.iter().map(|r| r.seconds).collect();
    let (mean_time, _, _) = stats(&game_seconds);
    let failed: Vec<_> = results.iter().filter(|r| r.status != Status::Ok).collect();
    let optima: Vec<f64> = deck_list
        .par_iter()
        .map(|deck| f64::from(deck_optimum(deck).total))
        .collect();
    let (mean_best, _, se_best) = stats(&optima);

    if args.json {
        println!(
            "{}",
            json!({
                "contestant": contestant.name,
                "games": args.games,
                "seed": args.seed,
                "mean": mean, "sd": sd, "stderr": se, "min": min, "max": max,
                "seconds_per_game": mean_time,
                "failed": failed.len(),
                "mean_best_possible": mean_best,
                "sandbox": config.launcher.name(),
                "limits": config.limit_reports(),
            })
        );
    } else {
        println!(
            "contestant: {} ({})",
            escape(&contestant.name),
            escape(&args.contestant.display().to_string())
        );
        println!("sandbox:    {}", config.launcher.name());
        println!(
            "games:      {} (deck i = ContestDeck::shuffled({} + i), i = 1..={}, {jobs} at a time, {wall:.1} s)",
            args.games, args.seed, args.games
        );
        println!(
            "score:      mean {mean:.3} +- {se:.3} (standard error), sd {sd:.3}, min {min}, max {max}"
        );
        println!(
            "time:       {:.2} ms per game (spawn to 20th placement)",
            mean_time * 1000.0
        );
        println!(
            "optimum:    mean {mean_best:.3} +- {se_best:.3} (the hindsight optimum of the same decks)"
        );
        println!("failed:     {} games", failed.len());
        for r in failed.iter().take(5) {
            println!(
                "            deck {}: {} {}",
                r.deck,
                r.status.as_str(),
                escape(r.reason.as_deref().unwrap_or(""))
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
