//! `poker bench`: one contestant over many random decks, with statistics.

use crate::render;
use crate::run_options::RunOptions;
use anyhow::{Context, bail};
use poker::evaluator::report::{escape, failures};
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
/// Deck i, for i = 1..=N, is the deck a practice run gets with
/// POKER_SEED=SEED+i, so two contestants benchmarked with the same --seed
/// play the same decks, and any game can be replayed by hand.
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
    /// Also write an HTML page to FILE: the histogram of the contestant's
    /// game totals next to the hindsight optimum's over the same decks.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,

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
    // A long run first plays a few games to estimate its duration.
    let first = if args.games >= LONG_RUN {
        (4 * jobs).min(deck_list.len())
    } else {
        deck_list.len()
    };
    let mut results =
        evaluator::play_many(&supervisor, &program, &deck_list[..first], &config, |_| {
            bar.inc(1)
        })
        .context("cannot run the games")?;
    if first < deck_list.len() {
        let per_game = start.elapsed().as_secs_f64() / first as f64;
        bar.suspend(|| {
            eprintln!(
                "poker: {} games, {jobs} at a time: about {} in all (fewer with --games)",
                args.games,
                duration(per_game * deck_list.len() as f64)
            )
        });
        let rest =
            evaluator::play_many(&supervisor, &program, &deck_list[first..], &config, |_| {
                bar.inc(1)
            })
            .context("cannot run the games")?;
        results.extend(rest.into_iter().map(|mut r| {
            r.deck += first;
            r
        }));
    }
    let wall = start.elapsed().as_secs_f64();
    bar.finish_and_clear();

    let scores: Vec<f64> = results.iter().map(|r| f64::from(r.score)).collect();
    let (mean, sd, se) = stats(&scores);
    // The first deck reaching the min and the max, as a practice seed.
    let seed_of = |deck: usize| args.seed.wrapping_add(deck as u64);
    let min_game = results.iter().min_by_key(|r| (r.score, r.deck));
    let max_game = results
        .iter()
        .max_by_key(|r| (r.score, std::cmp::Reverse(r.deck)));
    let min = min_game.map_or(0, |r| r.score);
    let max = max_game.map_or(0, |r| r.score);
    let min_seed = min_game.map_or(0, |r| seed_of(r.deck));
    let max_seed = max_game.map_or(0, |r| seed_of(r.deck));
    let game_seconds: Vec<f64> = results.iter().map(|r| r.seconds).collect();
    let (mean_time, _, _) = stats(&game_seconds);
    let failed: Vec<_> = results.iter().filter(|r| r.status != Status::Ok).collect();
    let optimum_totals: Vec<u8> = deck_list
        .par_iter()
        .map(|deck| deck_optimum(deck).total)
        .collect();
    let optima: Vec<f64> = optimum_totals.iter().map(|&t| f64::from(t)).collect();
    let (mean_best, _, se_best) = stats(&optima);
    if let Some(path) = &args.html {
        let page = render::BenchPage {
            contestant: escape(&contestant.name),
            games: results.len(),
            seed: args.seed,
            sandbox: config.launcher.name(),
            mean,
            mean_error: se,
            best_mean: mean_best,
            best_mean_error: se_best,
            failed: failed.len(),
            min: (min, min_seed),
            max: (max, max_seed),
            totals: results.iter().map(|r| r.score).collect(),
            optima: optimum_totals.clone(),
        };
        std::fs::write(path, render::bench_page(&page)?)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }

    if args.json {
        println!(
            "{}",
            json!({
                "contestant": contestant.name,
                "games": args.games,
                "seed": args.seed,
                "mean": mean, "sd": sd, "standard_error": se,
                "min": min, "min_seed": min_seed, "max": max, "max_seed": max_seed,
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
            "games:      {} (deck i is the deck of POKER_SEED={}+i, i = 1..={}), {jobs} at a time, {wall:.1} s",
            args.games, args.seed, args.games
        );
        println!("score:      mean {mean:.3} ± {se:.3} (standard error), sd {sd:.3}");
        println!(
            "            min {min} (replay: POKER_SEED={min_seed}), max {max} (replay: POKER_SEED={max_seed})"
        );
        println!(
            "time:       {:.2} ms per game (spawn to 20th placement)",
            mean_time * 1000.0
        );
        println!(
            "optimum:    mean {mean_best:.3} ± {se_best:.3} (the hindsight optimum of the same decks)"
        );
        println!("failed:     {} games", failed.len());
        // Games failing alike are told once: the first decks, then how many.
        for failure in failures(&results).iter().take(5) {
            let seeds: Vec<String> = failure
                .decks
                .iter()
                .take(5)
                .map(|&d| format!("{}", seed_of(d)))
                .collect();
            let more = match failure.decks.len() {
                n if n > 5 => format!(" and {} more", n - 5),
                _ => String::new(),
            };
            println!(
                "            {} {}: {} (POKER_SEED={}{more})",
                failure.decks.len(),
                if failure.decks.len() == 1 {
                    "game"
                } else {
                    "games"
                },
                failure.status.as_str(),
                seeds.join(", "),
            );
            println!("              {}", escape(&failure.reason));
            for line in failure.stderr.iter().rev().take(3).rev() {
                println!("              stderr: {}", escape(line));
            }
        }
    }
    if failed.len() == results.len() {
        eprintln!("poker: error: every game failed");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs of at least this many games get a time estimate first.
const LONG_RUN: u32 = 1000;

/// `seconds` as `12 s`, `3 min` or `1.5 h`.
fn duration(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{seconds:.0} s")
    } else if seconds < 5400.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}
