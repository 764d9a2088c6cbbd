//! The benchmark told three ways: JSON, text for a terminal, and an HTML
//! page (drawn by [`crate::render`]).

use super::play::{Plan, Played};
use super::stats::Summary;
use crate::render;
use crate::report::escape;
use poker_core::numbers::count;
use poker_judge::evaluator::RunConfig;
use serde_json::json;
use std::fmt::Write;
use std::path::Path;

/// Everything a renderer reads.
pub struct Bench<'a> {
    /// The contestant's name.
    pub name: &'a str,
    /// The contestant as given on the command line.
    pub path: &'a Path,
    /// How the games ran.
    pub config: &'a RunConfig,
    /// Which games.
    pub plan: &'a Plan,
    /// The games, played.
    pub played: &'a Played,
    /// Their figures.
    pub summary: &'a Summary,
}

/// The figures as one JSON object.
pub fn json(bench: &Bench) -> serde_json::Value {
    let (s, processes) = (bench.summary, &bench.played.processes);
    json!({
        "contestant": bench.name,
        "games": bench.plan.games,
        "seed": bench.plan.seed,
        "mean": s.mean.value, "sd": s.sd, "standard_error": s.mean.error,
        "min": s.min.total, "min_seed": s.min.seed, "max": s.max.total, "max_seed": s.max.seed,
        "seconds_per_game": s.seconds_per_game,
        "wall_seconds": bench.played.wall,
        "failed": s.failed,
        "mean_best_possible": s.optimum.value,
        "sandbox": bench.config.launcher.name(),
        "mode": bench.config.mode_name(),
        "games_forked": processes.forked,
        "games_fresh": processes.fresh,
        "fresh_seeds": fresh_seeds(bench),
        "fallback": processes.fallback,
        "startup_cpu_seconds": processes.startup_cpu.map(|t| t.as_secs_f64()),
        "limits": bench.config.limit_reports(),
        "warnings": warnings(bench),
    })
}

/// What `poker eval` would warn of too: the sandbox chosen, a busy machine.
fn warnings(bench: &Bench) -> Vec<String> {
    let load = bench.played.tally.load.warning();
    bench.config.warning.iter().cloned().chain(load).collect()
}

/// The figures for a terminal, one line per subject, then the failures.
pub fn text(bench: &Bench) -> String {
    let (s, config, plan) = (bench.summary, bench.config, bench.plan);
    let mut out = String::new();
    // Writing to a String cannot fail.
    let mut line = |text: String| {
        let _ = writeln!(out, "{text}");
    };
    line(format!(
        "contestant: {} ({})",
        escape(bench.name),
        escape(&bench.path.display().to_string())
    ));
    line(format!("sandbox:    {}", config.launcher.name()));
    for (label, text) in process_lines(bench) {
        line(format!("{:<12}{text}", format!("{label}:")));
    }
    line(format!(
        "games:      {} (the decks of POKER_SEED={} to {}: --seed {} plus 1 to {}), {} at a time, {:.1} s",
        count(plan.games),
        plan.seed_of(1),
        plan.seed_of(plan.games),
        plan.seed,
        count(plan.games),
        config.jobs,
        bench.played.wall
    ));
    line(format!(
        "score:      mean {:.3} ± {:.3} (standard error), sd {:.3}",
        s.mean.value, s.mean.error, s.sd
    ));
    line(format!(
        "            min {} (replay: POKER_SEED={}), max {} (replay: POKER_SEED={})",
        s.min.total, s.min.seed, s.max.total, s.max.seed
    ));
    line(format!(
        "time:       {:.2} ms per game ({})",
        s.seconds_per_game * 1000.0,
        if config.fork_server {
            "fork to 20th placement"
        } else {
            "spawn to 20th placement"
        }
    ));
    line(format!(
        "optimum:    mean {:.3} ± {:.3} (the hindsight optimum of the same decks)",
        s.optimum.value, s.optimum.error
    ));
    line(format!("failed:     {} games", count(s.failed)));
    out + &failures(bench)
}

/// The practice seeds of the first games played in fresh processes.
fn fresh_seeds(bench: &Bench) -> Vec<u64> {
    let decks = &bench.played.tally.fresh_decks;
    decks.iter().map(|&d| bench.plan.seed_of(d)).collect()
}

/// How far the games are a contest's, as (label, text) lines: where each
/// game was played, why a fork server was given up, and what its start-up
/// cost every forked game.
fn process_lines(bench: &Bench) -> Vec<(&'static str, String)> {
    let processes = &bench.played.processes;
    if !bench.config.fork_server {
        return vec![(
            "processes",
            "fresh: one process per game, as a contest plays them".into(),
        )];
    }
    let games = |n: usize| match n {
        1 => "1 game".to_string(),
        n => format!("{} games", count(n)),
    };
    let mut lines = Vec::new();
    lines.push((
        "processes",
        match processes.fresh {
            0 => format!(
                "fork server for all {} (one child per game; --fresh-processes plays as a \
                 contest does)",
                games(processes.forked)
            ),
            fresh => {
                let seeds: Vec<String> = fresh_seeds(bench).iter().map(u64::to_string).collect();
                let more = match fresh.saturating_sub(seeds.len()) {
                    0 => String::new(),
                    n => format!(" and {} more", count(n)),
                };
                format!(
                    "fork server for {}, fresh processes for {} (POKER_SEED={}{more})",
                    games(processes.forked),
                    games(fresh),
                    seeds.join(", ")
                )
            }
        },
    ));
    if let Some(why) = &processes.fallback {
        lines.push(("fallback", format!("fork server given up: {}", escape(why))));
    }
    if let Some(startup) = processes.startup_cpu {
        lines.push((
            "start-up",
            format!(
                "{:.3} s of CPU time before p_startgame, counted in every forked game's CPU time",
                startup.as_secs_f64()
            ),
        ));
    }
    lines
}

/// Games failing alike, told once: the first decks, then how many more.
fn failures(bench: &Bench) -> String {
    let mut out = String::new();
    for kind in bench.played.tally.failures.iter().take(5) {
        let failure = &kind.failure;
        let seeds: Vec<String> = failure
            .decks
            .iter()
            .map(|&d| bench.plan.seed_of(d).to_string())
            .collect();
        let more = match kind.count {
            n if n > failure.decks.len() as u64 => {
                format!(" and {} more", count(n - failure.decks.len() as u64))
            }
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "            {} {}: {} (POKER_SEED={}{more})",
            count(kind.count),
            if kind.count == 1 { "game" } else { "games" },
            failure.status.as_str(),
            seeds.join(", "),
        );
        let _ = writeln!(out, "              {}", escape(&failure.reason));
        for line in failure.stderr.iter().rev().take(3).rev() {
            let _ = writeln!(out, "              stderr: {}", escape(line));
        }
    }
    out
}

/// The HTML page: both histograms and the headline figures.
pub fn html(bench: &Bench) -> anyhow::Result<String> {
    let s = bench.summary;
    let page = render::BenchPage {
        contestant: escape(bench.name),
        games: bench.plan.games,
        seed: bench.plan.seed,
        sandbox: bench.config.launcher.name(),
        mode: bench.config.mode_name(),
        processes: process_lines(bench)
            .into_iter()
            .map(|(label, text)| format!("{label}: {text}"))
            .collect(),
        mean: s.mean.value,
        mean_error: s.mean.error,
        best_mean: s.optimum.value,
        best_mean_error: s.optimum.error,
        failed: s.failed as usize,
        min: (s.min.total, s.min.seed),
        max: (s.max.total, s.max.seed),
        totals: bench.played.tally.totals.histogram,
        optima: s.optima.histogram,
    };
    render::bench_page(&page)
}
