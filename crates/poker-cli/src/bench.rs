//! `poker bench`: one contestant over many random decks, with statistics.

use crate::render;
use crate::run_options::RunOptions;
use crate::tally::{Tally, Totals};
use anyhow::{Context, bail};
use poker_core::contest::ContestDeck;
use poker_core::optimum::deck_optimum;
use poker_judge::evaluator::report::escape;
use poker_judge::evaluator::{self, GameResult, SandboxMode};
use rayon::prelude::*;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

/// Play one contestant on many random decks through the evaluator and print
/// its mean score, standard deviation, standard error, min, max and time per
/// game, and the mean hindsight optimum of the same decks.
///
/// Deck i, for i = 1..=N, is the deck a practice run gets with
/// POKER_SEED=SEED+i, so two contestants benchmarked with the same --seed
/// play the same decks, and any game can be replayed by hand.
///
/// By default the contestant runs as a fork server: started once per job,
/// its library forks a child for each game, which is much faster than a
/// fresh process per game. Its games share what the program did before
/// p_startgame (memory mapped shared, its /tmp, System V objects, open
/// descriptors): an honest program scores as in fresh processes, one that
/// carries work across games scores what it would not in a contest (see
/// docs/protocol.md). --fresh-processes starts one process per game
/// instead, as a contest does.
#[derive(clap::Args)]
pub struct Args {
    /// The contestant: an executable linked against libpoker, or a .c,
    /// .cpp (.cc, .cxx, .C), .pas or .py file (as for `poker eval`).
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

    /// Start a fresh process for every game, as `poker eval` and the
    /// contest do, instead of the default fork server (the program starts
    /// once per job and its library forks a child per game; see
    /// docs/protocol.md for what games then share).
    #[arg(long)]
    fresh_processes: bool,

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
    config.fork_server = !args.fresh_processes;
    let supervisor = evaluator::become_supervisor().context("cannot set up the evaluator")?;
    if let Some(warning) = &config.warning {
        eprintln!("poker: warning: {warning}");
    }
    let toolchain = args.run.toolchain(&config)?;
    let contestant = toolchain.prepare(&supervisor, &args.contestant);
    let program = contestant.program.clone().map_err(anyhow::Error::msg)?;
    let games = args.games as usize;
    let deck = |i: usize| ContestDeck::shuffled(args.seed.wrapping_add(i as u64));

    let bar = crate::progress::bar(u64::from(args.games), "games", args.quiet);
    let start = Instant::now();
    let tally = Mutex::new(Tally::default());
    let record = |offset: usize| {
        let (tally, bar) = (&tally, &bar);
        move |mut game: GameResult| {
            game.deck += offset;
            tally.lock().unwrap_or_else(|p| p.into_inner()).add(&game);
            bar.inc(1);
        }
    };
    // A long run first plays a few games to estimate its duration: more
    // through fork servers, whose start would otherwise dominate.
    let sample = if config.fork_server { 200 } else { 4 };
    let first = if args.games >= LONG_RUN {
        (sample * jobs).min(games)
    } else {
        games
    };
    let mut processes =
        evaluator::play_many(&supervisor, &program, first, deck, &config, record(0))
            .context("cannot run the games")?;
    if first < games {
        let per_game = start.elapsed().as_secs_f64() / first as f64;
        bar.suspend(|| {
            eprintln!(
                "poker: {} games, {jobs} at a time: about {} in all (fewer with --games)",
                args.games,
                duration(per_game * games as f64)
            )
        });
        let rest = evaluator::play_many(
            &supervisor,
            &program,
            games - first,
            |i| deck(first + i),
            &config,
            record(first),
        )
        .context("cannot run the games")?;
        processes.add(rest);
    }
    let wall = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let tally = tally.into_inner().unwrap_or_else(|p| p.into_inner());

    let (mean, sd, se) = tally.totals.stats();
    // The lowest deck reaching the min and the max, as a practice seed.
    let seed_of = |deck: usize| args.seed.wrapping_add(deck as u64);
    let (min, min_seed) = tally.min.map_or((0, 0), |(s, d)| (s, seed_of(d)));
    let (max, max_seed) = tally.max.map_or((0, 0), |(s, d)| (s, seed_of(d)));
    let mean_time = tally.seconds / games as f64;
    let failed = tally.failed;
    let optima = (1..=games)
        .into_par_iter()
        .fold(Totals::default, |mut t, i| {
            t.add(deck_optimum(&deck(i)).total);
            t
        })
        .reduce(Totals::default, |mut a, b| {
            a.merge(&b);
            a
        });
    let (mean_best, _, se_best) = optima.stats();
    let mode = config.mode_name();
    if let Some(path) = &args.html {
        let page = render::BenchPage {
            contestant: escape(&contestant.name),
            games,
            seed: args.seed,
            sandbox: config.launcher.name(),
            mode,
            mean,
            mean_error: se,
            best_mean: mean_best,
            best_mean_error: se_best,
            failed: failed as usize,
            min: (min, min_seed),
            max: (max, max_seed),
            totals: tally.totals.histogram,
            optima: optima.histogram,
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
                "wall_seconds": wall,
                "failed": failed,
                "mean_best_possible": mean_best,
                "sandbox": config.launcher.name(),
                "mode": mode,
                "games_forked": processes.forked,
                "games_fresh": processes.fresh,
                "fallback": processes.fallback,
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
        match (&processes.fallback, config.fork_server) {
            (_, false) => println!("processes:  fresh (one process per game)"),
            (None, true) => println!("processes:  fork server (one child per game)"),
            (Some(why), true) => println!(
                "processes:  fork server for {} games, fresh for {}: {}",
                processes.forked,
                processes.fresh,
                escape(why)
            ),
        }
        println!(
            "games:      {} (deck i is the deck of POKER_SEED={}+i, i = 1..={}), {jobs} at a time, {wall:.1} s",
            args.games, args.seed, args.games
        );
        println!("score:      mean {mean:.3} ± {se:.3} (standard error), sd {sd:.3}");
        println!(
            "            min {min} (replay: POKER_SEED={min_seed}), max {max} (replay: POKER_SEED={max_seed})"
        );
        println!(
            "time:       {:.2} ms per game ({})",
            mean_time * 1000.0,
            if config.fork_server {
                "fork to 20th placement"
            } else {
                "spawn to 20th placement"
            }
        );
        println!(
            "optimum:    mean {mean_best:.3} ± {se_best:.3} (the hindsight optimum of the same decks)"
        );
        println!("failed:     {failed} games");
        // Games failing alike are told once: the first decks, then how many.
        for kind in tally.failures.iter().take(5) {
            let failure = &kind.failure;
            let seeds: Vec<String> = failure
                .decks
                .iter()
                .map(|&d| format!("{}", seed_of(d)))
                .collect();
            let more = match kind.count {
                n if n > failure.decks.len() as u64 => {
                    format!(" and {} more", n - failure.decks.len() as u64)
                }
                _ => String::new(),
            };
            println!(
                "            {} {}: {} (POKER_SEED={}{more})",
                kind.count,
                if kind.count == 1 { "game" } else { "games" },
                failure.status.as_str(),
                seeds.join(", "),
            );
            println!("              {}", escape(&failure.reason));
            for line in failure.stderr.iter().rev().take(3).rev() {
                println!("              stderr: {}", escape(line));
            }
        }
    }
    if failed == games as u64 {
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
