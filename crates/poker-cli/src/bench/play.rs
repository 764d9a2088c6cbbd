//! Playing the benchmark's games: all at once, or a sample first to tell
//! the user how long a long run will take.

use super::tally::Tally;
use anyhow::Context;
use poker_core::contest::ContestDeck;
use poker_core::numbers::count;
use poker_judge::evaluator::{self, GameResult, Program, RunConfig, Supervisor};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Runs of at least this many games get a time estimate first.
const LONG_RUN: usize = 1000;

/// Which games to play.
pub struct Plan {
    /// How many games (random decks).
    pub games: usize,
    /// Whether that is the default (`--games` not given, or given the
    /// default): the time estimate then says `--games` plays fewer.
    pub games_default: bool,
    /// Base seed: deck i (1-based) is the practice deck of seed + i.
    pub seed: u64,
    /// Hide the progress bar.
    pub quiet: bool,
}

impl Plan {
    /// Deck `i` (1-based) of the run.
    pub fn deck(&self, i: usize) -> ContestDeck {
        ContestDeck::shuffled(self.seed_of(i))
    }

    /// The practice seed (`POKER_SEED`) that replays deck `i`.
    pub fn seed_of(&self, i: usize) -> u64 {
        self.seed.wrapping_add(i as u64)
    }
}

/// How the games' processes were started.
pub struct Processes {
    /// Games played by children of a fork server.
    pub forked: usize,
    /// Games played in processes of their own.
    pub fresh: usize,
    /// Why the fork server was given up for the remaining games, if it was.
    pub fallback: Option<String>,
    /// The CPU time the program used before `p_startgame` in its fork
    /// server (the most of any job's), counted in every forked game.
    pub startup_cpu: Option<Duration>,
}

/// The games, played.
pub struct Played {
    /// What the games scored and how they failed.
    pub tally: Tally,
    /// How their processes were started.
    pub processes: Processes,
    /// Wall-clock seconds of the whole run.
    pub wall: f64,
}

/// Plays the plan's games through the evaluator, with a progress bar.
pub fn play(
    supervisor: &Supervisor,
    program: &Program,
    config: &RunConfig,
    plan: &Plan,
) -> anyhow::Result<Played> {
    let games = plan.games;
    let bar = crate::progress::bar(games as u64, "games", plan.quiet);
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
    let first = sample_size(games, config);
    let deck = |i: usize| plan.deck(i);
    let mut processes = evaluator::play_many(supervisor, program, first, deck, config, record(0))
        .context("cannot run the games")?;
    if first < games {
        let per_game = start.elapsed().as_secs_f64() / first as f64;
        let hint = if plan.games_default {
            " (--games N plays fewer)"
        } else {
            ""
        };
        bar.suspend(|| {
            eprintln!(
                "poker: {} games, {} at a time: about {} for the games, at the pace of the first {}{hint}",
                count(games),
                config.jobs,
                duration(per_game * games as f64),
                count(first),
            )
        });
        let rest = evaluator::play_many(
            supervisor,
            program,
            games - first,
            |i| plan.deck(first + i),
            config,
            record(first),
        )
        .context("cannot run the games")?;
        processes.add(rest);
    }
    let wall = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    Ok(Played {
        tally: tally.into_inner().unwrap_or_else(|p| p.into_inner()),
        processes: Processes {
            forked: processes.forked,
            fresh: processes.fresh,
            fallback: processes.fallback,
            startup_cpu: processes.startup_cpu,
        },
        wall,
    })
}

/// The games played first: all of a short run; a few per job of a long
/// one, to estimate its duration (more through fork servers, whose start
/// would otherwise dominate).
fn sample_size(games: usize, config: &RunConfig) -> usize {
    let sample = if config.fork_server { 200 } else { 4 };
    if games >= LONG_RUN {
        (sample * config.jobs).min(games)
    } else {
        games
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_told_in_the_unit_a_reader_expects() {
        assert_eq!(duration(12.4), "12 s");
        assert_eq!(duration(180.0), "3 min");
        assert_eq!(duration(5400.0), "1.5 h");
    }
}
