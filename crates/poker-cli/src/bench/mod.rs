//! `poker bench`: one contestant over many random decks, with statistics.

mod play;
mod report;
mod stats;
mod tally;

use crate::run_options::RunOptions;
use anyhow::Context;
use poker_judge::evaluator::{self, SandboxMode};
use std::path::PathBuf;
use std::process::ExitCode;

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
/// fresh process per game. What the program did before p_startgame is
/// charged to every game's CPU time, as a fresh process spends it in each;
/// a server whose game could leave something for the next (memory mapped
/// shared, a file in /tmp, ...: see docs/protocol.md) is given up, and the
/// remaining games are played in fresh processes. The summary says which
/// games ran where, and why. --fresh-processes starts one process per game
/// instead, as a contest does.
/// Games played when `--games` is not given.
const DEFAULT_GAMES: u32 = 10_000;

#[derive(clap::Args)]
pub struct Args {
    /// The contestant: an executable linked against libpoker, or a .c,
    /// .cpp (.cc, .cxx, .C), .pas or .py file (as for poker eval).
    #[arg(value_name = "CONTESTANT")]
    contestant: PathBuf,

    /// Number of games (random decks).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_GAMES,
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

    /// Start a fresh process for every game, as poker eval and the
    /// contest do, instead of the default fork server (the program starts
    /// once per job and its library forks a child per game; see
    /// docs/protocol.md for how its games are kept apart): a contest-exact
    /// run.
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

/// Runs `poker bench`: plays the games, sums them up, and reports.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut config = args.run.config(SandboxMode::Auto)?;
    config.jobs = crate::jobs::bounded(args.jobs)?;
    config.fork_server = !args.fresh_processes;
    if let Some(path) = &args.html {
        crate::output_file::check_writable(path)?;
    }
    let supervisor = evaluator::become_supervisor().context("cannot set up the evaluator")?;
    if let Some(warning) = &config.warning {
        eprintln!("poker: warning: {warning}");
    }
    // Held from the compilation to the last game.
    let _lease = crate::lease::take(&config)?;
    let toolchain = args.run.toolchain(&config)?;
    let contestant = toolchain.prepare(&supervisor, &args.contestant);
    let program = contestant.program.clone().map_err(anyhow::Error::msg)?;
    let plan = play::Plan {
        games: args.games as usize,
        games_default: args.games == DEFAULT_GAMES,
        seed: args.seed,
        quiet: args.quiet,
    };
    let played = play::play(&supervisor, &program, &config, &plan)?;
    if let Some(warning) = played.tally.load.warning() {
        eprintln!("poker: warning: {warning}");
    }
    let summary = stats::Summary::of(&played, &plan);
    let bench = report::Bench {
        name: &contestant.name,
        path: &args.contestant,
        config: &config,
        plan: &plan,
        played: &played,
        summary: &summary,
    };
    // The report first: should the page fail after all, it is not lost.
    if args.json {
        println!("{}", report::json(&bench));
    } else {
        print!("{}", report::text(&bench));
    }
    if let Some(path) = &args.html {
        std::fs::write(path, report::html(&bench)?)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if summary.failed == plan.games as u64 {
        eprintln!("poker: error: every game failed");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
