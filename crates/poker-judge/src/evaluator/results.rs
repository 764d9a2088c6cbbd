//! Results of games and contestants, and the contest's ranking ("DFCC"
//! scaling: the best total is worth 10 tests, the others proportionally,
//! rounded to the nearest integer).

use super::RunConfig;
use crate::sandbox::{Enforcement, LimitReport};
use serde::Serialize;

/// How a game ended for the contestant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum GameStatus {
    /// 20 cards placed; scored.
    Ok,
    /// A broken rule or a protocol breach: 0.
    Violation,
    /// Over the wall-time limit: 0.
    Timeout,
    /// Over the CPU-time limit: 0.
    CpuTime,
    /// Over the memory limit (the kernel's OOM count in the game's cgroup):
    /// 0.
    Memory,
    /// Killed by a signal before the 20th placement: 0.
    Crash,
    /// Exited or closed its channel before the 20th placement: 0.
    Incomplete,
    /// The evaluator could not run it (not found, not executable, did not
    /// compile): 0.
    Error,
}

impl GameStatus {
    /// The status as written in reports: `ok`, `violation`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Ok => "ok",
            GameStatus::Violation => "violation",
            GameStatus::Timeout => "timeout",
            GameStatus::CpuTime => "cpu_time",
            GameStatus::Memory => "memory",
            GameStatus::Crash => "crash",
            GameStatus::Incomplete => "incomplete",
            GameStatus::Error => "error",
        }
    }
}

/// Where a game was played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GameProcess {
    /// In a process of its own, started for it, as in a contest.
    #[default]
    Fresh,
    /// In a child forked by the contestant's fork server, after the games
    /// the server forked before it.
    Forked,
}

impl GameProcess {
    /// As written in reports: `fresh` or `forked`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameProcess::Fresh => "fresh",
            GameProcess::Forked => "forked",
        }
    }
}

/// What held a game's CPU-time limit, as reports name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum CpuLimitHolder {
    /// The evaluator's watch of the game's cgroup (the CPU time of all its
    /// processes), which kills the game at the limit; `RLIMIT_CPU` was a
    /// backstop above it.
    Watch,
    /// `RLIMIT_CPU`, per process, at the limit: no cgroup counted the
    /// game's CPU time.
    Rlimit,
    /// The watch could not start (see `cpu_watch_error`): `RLIMIT_CPU`'s
    /// backstop above the limit, and the judge's measure after the game.
    RlimitBackstop,
}

impl CpuLimitHolder {
    /// The holder as written in reports: `watch`, `rlimit`,
    /// `rlimit_backstop`.
    pub fn as_str(self) -> &'static str {
        match self {
            CpuLimitHolder::Watch => "watch",
            CpuLimitHolder::Rlimit => "rlimit",
            CpuLimitHolder::RlimitBackstop => "rlimit_backstop",
        }
    }
}

/// The share of the games' wall-clock time that other processes took on
/// their CPUs past which an evaluation warns: timing is then less fair
/// than it should be (each game's guard was extended by it, and its CPU
/// time measured apart, but caches and frequency are shared).
pub const NOTICEABLE_LOAD: f64 = 0.05;

/// A warning when other processes took more than [`NOTICEABLE_LOAD`] of
/// the wall-clock time of `games` on their CPUs (past one
/// [`PROC_STAT_TICK`] a game), with the figures.
pub fn load_warning<'a>(games: impl IntoIterator<Item = &'a GameResult>) -> Option<String> {
    let mut load = Load::default();
    games.into_iter().for_each(|game| load.add(game));
    load.warning()
}

/// The CPU time other processes took beside some games, and the games'
/// wall-clock time, summed as they end (for a run that keeps no games).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Load {
    /// Seconds of CPU time others took on the games' CPUs.
    pub others: f64,
    /// The part of `others` past one [`PROC_STAT_TICK`] a game: what
    /// `/proc/stat` can tell apart from its rounding.
    pub others_measurable: f64,
    /// Seconds of wall-clock time of the games together.
    pub wall: f64,
}

/// The resolution of `/proc/stat`'s busy times, in seconds: its clock tick
/// (`USER_HZ`, 100 a second on Linux, proc(5)). A game's others' time
/// within one tick is rounding: a 2 ms game can show 10 ms of others on
/// a quiet machine.
pub const PROC_STAT_TICK: f64 = 0.01;

impl Load {
    /// Adds one game.
    pub fn add(&mut self, game: &GameResult) {
        let others = game.others_cpu_seconds.unwrap_or(0.0);
        self.others += others;
        self.others_measurable += (others - PROC_STAT_TICK).max(0.0);
        self.wall += game.seconds;
    }

    /// A warning when others took more than [`NOTICEABLE_LOAD`] of the
    /// games' wall-clock time, with the figures.
    pub fn warning(&self) -> Option<String> {
        warning_of(*self)
    }
}

/// [`Load::warning`].
fn warning_of(
    Load {
        others,
        others_measurable,
        wall,
    }: Load,
) -> Option<String> {
    (wall > 0.0 && others_measurable > NOTICEABLE_LOAD * wall).then(|| {
        format!(
            "other processes took {others:.2} s of CPU time on the games' CPUs, {:.0}% of \
             their {wall:.2} s: each game's CPU time was measured apart and its guard \
             extended, but for fair timing run on quiet CPUs (see `poker doctor`, --cpus)",
            100.0 * others / wall
        )
    })
}

/// What an evaluation found ([`super::evaluate`]): how its programs were
/// confined and limited, every contestant's games and rank, and warnings
/// about the run itself. The one input of the `poker` command's reports;
/// its JSON form is their JSON form, less the audit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Evaluation {
    /// `"bubblewrap"` or `"off"`: how contestants were confined.
    pub sandbox: &'static str,
    /// The seccomp filters of every game and compilation, named by a hash
    /// of them (`poker-` and 12 hex digits), `null` without the sandbox.
    pub syscall_filter: Option<&'static str>,
    /// `"fresh-processes"` (a process per game, as in the contest) or
    /// `"fork-server"` (one process per contestant forking a child per
    /// game).
    pub mode: &'static str,
    /// Each game limit with its value and how it was enforced.
    pub limits: Vec<LimitReport>,
    /// Every contestant's games, total and rank.
    pub contestants: Vec<ContestantResult>,
    /// Warnings about the evaluation itself (no sandbox, a busy machine).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl Evaluation {
    /// The evaluation of `contestants` (ranked) under `config`. Its CPU
    /// limit is reported as it ran: a watched limit counts the games whose
    /// watch could not start.
    pub fn new(contestants: Vec<ContestantResult>, config: &RunConfig) -> Evaluation {
        let mut limits = config.limit_reports();
        count_unwatched(&mut limits, contestants.iter().flat_map(|c| &c.tests));
        Evaluation {
            sandbox: config.launcher.name(),
            syscall_filter: config.launcher.syscall_filter(),
            mode: config.mode_name(),
            limits,
            warnings: config
                .warning
                .iter()
                .cloned()
                .chain(load_warning(contestants.iter().flat_map(|c| &c.tests)))
                .collect(),
            contestants,
        }
    }
}

/// Sets, in a watched CPU limit of `limits`, how many of `games` were held
/// by `RLIMIT_CPU`'s backstop because their watch could not start.
fn count_unwatched<'a>(
    limits: &mut [LimitReport],
    games: impl IntoIterator<Item = &'a GameResult>,
) {
    let unwatched = games
        .into_iter()
        .filter(|t| t.cpu_limit_held_by == Some(CpuLimitHolder::RlimitBackstop))
        .count();
    for limit in limits {
        if let Enforcement::CgroupWatch {
            unwatched_games, ..
        } = &mut limit.enforcement
        {
            *unwatched_games = (unwatched > 0).then_some(unwatched);
        }
    }
}

/// One game of one contestant.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameResult {
    /// The deck's number, 1-based.
    pub deck: usize,
    /// Points 0..=32 (0 unless `status` is ok).
    pub score: u8,
    /// How the game ended.
    pub status: GameStatus,
    /// Why it scored 0 (absent when ok).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Cards placed, 0..=20.
    pub placements: usize,
    /// Wall-clock time of the game, in seconds.
    pub seconds: f64,
    /// Where it was played: `fresh` (a process of its own) or `forked` (by
    /// a fork server, whose CPU time before `p_startgame` is then part of
    /// `cpu_seconds`).
    pub process: GameProcess,
    /// CPU time of all the game's processes, in seconds, where the sandbox
    /// measured it (its cgroup); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_seconds: Option<f64>,
    /// CPU time other processes took on the game's CPUs while it was
    /// played, in seconds: those CPUs' busy time (`/proc/stat`) less the
    /// game's own and the evaluator's. It extended the game's wall-clock
    /// guard. Absent where it could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub others_cpu_seconds: Option<f64>,
    /// What held the game's CPU-time limit; absent for a game never
    /// started.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_limit_held_by: Option<CpuLimitHolder>,
    /// Why the CPU watch could not start, when it could not
    /// (`cpu_limit_held_by` is then `rlimit_backstop`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_watch_error: Option<String>,
    /// Peak memory of the game's processes, in bytes, where the sandbox
    /// measured it; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_memory: Option<u64>,
    /// The best total any placement could reach on this deck, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_possible: Option<u8>,
    /// The end of what the program wrote to standard error (at most
    /// [`STDERR_KEPT`] bytes, invalid UTF-8 replaced); empty when it wrote
    /// nothing.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub stderr: String,
    /// The board the program built, column 1 first, each column's cards in
    /// the order placed, as card tokens (`TS`, `9h` style, upper case); a
    /// game that never started has four empty columns.
    pub board: [Vec<String>; 4],
}

/// How many bytes of a game's standard error its result keeps: the last
/// ones, where the library's own message is.
pub const STDERR_KEPT: usize = 4096;

impl GameResult {
    /// A game on deck `deck` that was never played, scored 0 with status
    /// `error` and `reason`.
    pub fn not_run(deck: usize, reason: String) -> GameResult {
        GameResult {
            deck,
            score: 0,
            status: GameStatus::Error,
            reason: Some(reason),
            placements: 0,
            seconds: 0.0,
            process: GameProcess::Fresh,
            cpu_seconds: None,
            others_cpu_seconds: None,
            cpu_limit_held_by: None,
            cpu_watch_error: None,
            peak_memory: None,
            best_possible: None,
            stderr: String::new(),
            board: Default::default(),
        }
    }

    /// The last `lines` lines of the program's standard error (fewer when
    /// it wrote fewer), blank lines at the end left out.
    pub fn stderr_tail(&self, lines: usize) -> Vec<&str> {
        let all: Vec<&str> = self.stderr.trim_end().lines().collect();
        all[all.len().saturating_sub(lines)..].to_vec()
    }
}

/// All games of one contestant.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ContestantResult {
    /// The contestant's name: its file stem, or the shortest name that
    /// tells it from others sharing the stem (`greedy.c`, `a/greedy.c`).
    pub name: String,
    /// Its program or source path as given.
    pub path: String,
    /// Why it was never run (it does not compile, is not executable...):
    /// then every game is scored 0 with this reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_run: Option<String>,
    /// With `--fork-server`: why its fork server was given up, its
    /// remaining games then played in fresh processes (absent when every
    /// game went through the server, or without `--fork-server`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fork_server_fallback: Option<String>,
    /// With `--fork-server`: the CPU time, in seconds, its program used
    /// before `p_startgame` in its fork server, which is part of the
    /// `cpu_seconds` of every game the server forked, as a fresh process
    /// spends it in each game (absent when no server started).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fork_server_startup_cpu_seconds: Option<f64>,
    /// Sum of its game scores.
    pub total: u32,
    /// Its place in the ranking: 1 + the number of contestants with a
    /// higher total (equal totals share a place).
    pub rank: u32,
    /// Its ranking points 0..=10 (see [`scale`]).
    pub scaled: u32,
    /// The sum of the decks' hindsight optima: no contestant can total more.
    pub best_possible: u32,
    /// One entry per deck.
    pub tests: Vec<GameResult>,
}

impl ContestantResult {
    /// A contestant known only by its name and total (a judge's scoreboard
    /// line), unranked until [`rank`] fills in `rank` and `scaled`.
    pub fn from_total(name: String, total: u32) -> ContestantResult {
        ContestantResult {
            name,
            path: String::new(),
            not_run: None,
            fork_server_fallback: None,
            fork_server_startup_cpu_seconds: None,
            total,
            rank: 0,
            scaled: 0,
            best_possible: 0,
            tests: Vec::new(),
        }
    }
}

/// Ranking points: `round(10 * total / best)` with halves rounded up; all 0
/// when the best total is 0. Contest example: best 180, so 120 -> 7, 60 -> 3.
pub fn scale(total: u32, best: u32) -> u32 {
    if best == 0 {
        return 0;
    }
    let (total, best) = (u64::from(total), u64::from(best));
    ((20 * total + best) / (2 * best)) as u32
}

/// Fills in every contestant's `rank` and `scaled` from the totals.
pub fn rank(results: &mut [ContestantResult]) {
    let totals: Vec<u32> = results.iter().map(|r| r.total).collect();
    let best = totals.iter().copied().max().unwrap_or(0);
    for r in results.iter_mut() {
        r.rank = 1 + totals.iter().filter(|&&t| t > r.total).count() as u32;
        r.scaled = scale(r.total, best);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watched_cpu_limit_counts_the_games_whose_watch_did_not_start() {
        let watched = || LimitReport {
            name: "cpu",
            value: 5000,
            unit: "ms",
            enforcement: Enforcement::CgroupWatch {
                version: 2,
                unwatched_games: None,
            },
        };
        let held_by = |holder| GameResult {
            cpu_limit_held_by: Some(holder),
            ..GameResult::not_run(1, String::new())
        };
        let games = [
            held_by(CpuLimitHolder::Watch),
            held_by(CpuLimitHolder::RlimitBackstop),
            held_by(CpuLimitHolder::RlimitBackstop),
        ];
        let mut limits = [watched()];
        count_unwatched(&mut limits, &games);
        assert_eq!(
            limits[0].to_string(),
            "cpu 5 s: cgroup v2 watched, with an rlimit per process as a backstop above it \
             (the watch could not start in 2 game(s): the backstop held those)"
        );
        let json = serde_json::to_value(&limits[0]).unwrap();
        assert_eq!(json["enforcement"]["kind"], "cgroup_watch");
        assert_eq!(json["enforcement"]["unwatched_games"], 2);
        // Every game watched: the report as before the games.
        let mut limits = [watched()];
        count_unwatched(&mut limits, &games[..1]);
        assert_eq!(limits[0], watched());
        let json = serde_json::to_value(&limits[0]).unwrap();
        assert!(
            json["enforcement"].get("unwatched_games").is_none(),
            "{json}"
        );
    }

    #[test]
    fn scaling_follows_the_contest_examples() {
        // Contest text: best 180; 120 -> 6.666 -> 7; 60 -> 3.333 -> 3.
        assert_eq!(scale(180, 180), 10);
        assert_eq!(scale(120, 180), 7);
        assert_eq!(scale(60, 180), 3);
        assert_eq!(scale(0, 180), 0);
        assert_eq!(scale(0, 0), 0);
        // Halves round up: 10 * 9 / 20 = 4.5 -> 5.
        assert_eq!(scale(9, 20), 5);
    }

    #[test]
    fn equal_totals_share_a_place() {
        let contestant = |total| ContestantResult::from_total(String::new(), total);
        let mut results = vec![
            contestant(120),
            contestant(180),
            contestant(120),
            contestant(60),
        ];
        rank(&mut results);
        let places: Vec<(u32, u32)> = results.iter().map(|r| (r.rank, r.scaled)).collect();
        assert_eq!(places, [(2, 7), (1, 10), (2, 7), (4, 3)]);
    }

    #[test]
    fn load_warns_past_five_percent_of_the_games_wall_time() {
        let game = |seconds, others| GameResult {
            seconds,
            others_cpu_seconds: others,
            ..GameResult::not_run(1, String::new())
        };
        // 0.4 s of 10 s is 4%: no warning.
        let quiet = [game(4.0, Some(0.1)), game(6.0, Some(0.3)), game(0.0, None)];
        assert_eq!(load_warning(&quiet), None);
        // 100 games of 2 ms, each with one 10 ms tick of others: 1 s of
        // 0.2 s, but all within /proc/stat's rounding.
        let tiny = vec![game(0.002, Some(0.01)); 100];
        assert_eq!(load_warning(&tiny), None);
        // The same with 40 ms each: 3 s past the ticks, 1500% of 0.2 s.
        let tiny_busy = vec![game(0.002, Some(0.04)); 100];
        let warning = load_warning(&tiny_busy).expect("a warning");
        assert!(
            warning.starts_with("other processes took 4.00 s"),
            "{warning}"
        );
        // 0.6 s of 10 s is 6% (0.58 s past the ticks: 5.8%).
        let busy = [game(4.0, Some(0.2)), game(6.0, Some(0.4))];
        let warning = load_warning(&busy).expect("a warning");
        assert!(
            warning.starts_with("other processes took 0.60 s"),
            "{warning}"
        );
        assert!(warning.contains("6% of their 10.00 s"), "{warning}");
        // Summed one game at a time, the same.
        let mut load = Load::default();
        busy.iter().for_each(|g| load.add(g));
        assert_eq!(load.warning(), Some(warning));
        assert_eq!(Load::default().warning(), None);
    }
}
