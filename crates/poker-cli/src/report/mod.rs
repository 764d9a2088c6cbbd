//! The evaluation report: what `poker eval` prints, as tables for a person
//! or (through its `Serialize` form) as JSON for tools.
//!
//! Everything a contestant controls (its file name, the reasons quoting its
//! messages, its stderr) is shown with control and format characters
//! escaped ([`escape`]), so a contestant cannot write escape codes, fake
//! lines or reordered text onto the organiser's terminal. Commands are
//! shell lines from [`shell`], shown as they are: quoting them made
//! them one line of visible characters already.

pub mod names;
pub mod shell;
pub mod text;

use poker_core::contest::ContestDeck;
use poker_judge::doctor::{Finding, Status};
use poker_judge::evaluator::{Contestant, ContestantResult, Evaluation, GameResult, GameStatus};
use serde::Serialize;
use shell::command_line;
use std::fmt::Write;
pub use text::escape;

/// A whole evaluation as `poker eval` reports it: what the evaluator
/// found, with the audit that lets others check it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The evaluation: confinement, limits, contestants, warnings (its
    /// fields are the report's own in JSON).
    #[serde(flatten)]
    pub run: Evaluation,
    /// What an organiser publishes so others can check the evaluation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audit: Option<Audit>,
}

/// How many lines of a failed game's standard error the reports show.
pub const STDERR_LINES: usize = 6;

/// The record that lets anyone check an evaluation: which library judged
/// it, how each contestant was compiled, a fingerprint of the decks, and
/// how to replay every game by hand in practice mode.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Audit {
    /// libpoker's version.
    pub version: &'static str,
    /// Each compiled contestant's compile command, as run and as to type.
    pub compile: Vec<CompileRecord>,
    /// SHA-256 (hex) of the decks' canonical text ([`canonical_decks`]).
    pub decks_sha256: String,
    /// For each contestant and deck, the shell commands that replay the
    /// game in practice mode.
    pub replay: Vec<Replay>,
    /// The seed of the order the games were played in
    /// ([`poker_judge::evaluator::game_order`]); `poker eval --order-seed` plays them in the
    /// same order again.
    pub game_order_seed: u64,
    /// The machine as `poker doctor` found it before the games: what
    /// makes timing fair or not, each with its fix.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub environment: Vec<Finding>,
}

/// How one contestant was compiled.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompileRecord {
    /// The contestant's name.
    pub contestant: String,
    /// The command as the evaluator ran it (in its private build folder).
    pub command: Vec<String>,
    /// The same compiler and flags on the contestant's own source, as a
    /// line for bash ([`shell`]).
    pub practice: String,
}

/// How to replay one game by hand.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Replay {
    /// The contestant's name.
    pub contestant: String,
    /// The deck's number, 1-based.
    pub deck: usize,
    /// Lines for bash ([`shell`]): build the program (when it needs
    /// building), then run it on the deck with `POKER_DECK`.
    pub commands: Vec<String>,
}

/// The decks' canonical text, the one their SHA-256 is taken of: one deck a
/// line, its 24 cards as upper-case tokens (`9S TS JS QS KS AS ...`, ten as
/// `T`) separated by single spaces, each line ending in a newline. It is a
/// deck file (`--decks`) without comments, so an organiser can publish the
/// hash before a contest and the decks after it
/// (`grep -v '^#' decks.txt | sha256sum`).
pub fn canonical_decks(decks: &[ContestDeck]) -> String {
    decks.iter().map(|deck| format!("{deck}\n")).collect()
}

impl Audit {
    /// The audit of `contestants` run over `decks`, whose canonical text
    /// hashes to `decks_sha256`, in the game order of `game_order_seed`.
    pub fn new(
        contestants: &[Contestant],
        decks: &[ContestDeck],
        decks_sha256: String,
        game_order_seed: u64,
    ) -> Audit {
        let compile = contestants
            .iter()
            .filter(|c| !c.compile_command.is_empty())
            .map(|c| CompileRecord {
                contestant: c.name.clone(),
                command: c.compile_command.clone(),
                practice: command_line(&[], &c.practice_build),
            })
            .collect();
        let mut replay = Vec::new();
        for c in contestants.iter().filter(|c| c.program.is_ok()) {
            for (i, deck) in decks.iter().enumerate() {
                let mut commands = Vec::new();
                if !c.practice_build.is_empty() {
                    commands.push(command_line(&[], &c.practice_build));
                }
                let mut settings = vec![("POKER_DECK".to_string(), deck.to_string())];
                settings.extend(c.practice_env.iter().cloned());
                commands.push(command_line(&settings, &c.practice_run));
                replay.push(Replay {
                    contestant: c.name.clone(),
                    deck: i + 1,
                    commands,
                });
            }
        }
        Audit {
            version: env!("CARGO_PKG_VERSION"),
            compile,
            decks_sha256,
            replay,
            game_order_seed,
            environment: Vec::new(),
        }
    }

    /// The replay of `contestant`'s game on deck `deck`, if recorded.
    pub fn replay_of(&self, contestant: &str, deck: usize) -> Option<&Replay> {
        self.replay
            .iter()
            .find(|r| r.contestant == contestant && r.deck == deck)
    }

    fn text(&self, out: &mut String, decks: usize) {
        let _ = writeln!(out, "audit");
        let _ = writeln!(out, "  libpoker {}", self.version);
        let _ = writeln!(
            out,
            "  decks: {decks}, sha256 {} (of their canonical text: poker decks --canonical FILE)",
            self.decks_sha256
        );
        let _ = writeln!(
            out,
            "  games played in a shuffled order: --order-seed {}",
            self.game_order_seed
        );
        for record in &self.compile {
            let _ = writeln!(
                out,
                "  {} compile command: {}",
                escape(&record.contestant),
                record.practice
            );
        }
        let mut shown = std::collections::HashSet::new();
        for replay in &self.replay {
            if shown.insert(&replay.contestant) {
                let _ = writeln!(
                    out,
                    "  {} replays deck {}: {}",
                    escape(&replay.contestant),
                    replay.deck,
                    replay.commands.last().map_or("", String::as_str)
                );
            }
        }
        let _ = writeln!(out, "  (--json and --html give the replay of every game)");
        for finding in self.environment.iter().filter(|f| f.status != Status::Ok) {
            let status = match finding.status {
                Status::NotApplicable => "not applicable",
                Status::Problem => "problem",
                _ => "warning",
            };
            let _ = writeln!(
                out,
                "  machine {}: {status}: {}",
                finding.check, finding.detail
            );
        }
    }
}

impl Report {
    /// The report of `run`, without an audit.
    pub fn new(run: Evaluation) -> Report {
        Report { run, audit: None }
    }

    /// The report as tables: warnings, the sandbox and limits, each
    /// contestant's games, then the ranking.
    pub fn text(&self) -> String {
        let run = &self.run;
        let mut out = String::new();
        for warning in &run.warnings {
            let _ = writeln!(out, "warning: {warning}");
        }
        match run.syscall_filter {
            Some(filter) => {
                let _ = writeln!(out, "sandbox: {}, syscall filter {filter}", run.sandbox);
            }
            None => {
                let _ = writeln!(out, "sandbox: {}", run.sandbox);
            }
        }
        let _ = writeln!(out, "processes: {}", run.mode);
        for limit in &run.limits {
            let _ = writeln!(out, "  limit {limit}");
        }
        out.push('\n');
        for r in &run.contestants {
            contestant_table(&mut out, r);
        }
        ranking(&mut out, &run.contestants);
        if let Some(audit) = &self.audit {
            out.push('\n');
            let decks = run.contestants.first().map_or(0, |c| c.tests.len());
            audit.text(&mut out, decks);
        }
        out
    }
}

/// A failed game's explanation: its reason and the end of its stderr.
/// Games of one contestant that failed the same way share one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The decks (1-based) that failed this way.
    pub decks: Vec<usize>,
    /// The status they ended with.
    pub status: GameStatus,
    /// Why they scored 0.
    pub reason: String,
    /// The last lines of the program's standard error.
    pub stderr: Vec<String>,
}

impl Failure {
    /// A failed game as a failure of its deck alone; `None` for a game
    /// that ended ok.
    pub fn of(game: &GameResult) -> Option<Failure> {
        (game.status != GameStatus::Ok).then(|| Failure {
            decks: vec![game.deck],
            status: game.status,
            reason: game.reason.clone().unwrap_or_default(),
            stderr: game
                .stderr_tail(STDERR_LINES)
                .into_iter()
                .map(str::to_string)
                .collect(),
        })
    }

    /// Whether `other` failed the same way: the same status, reason and
    /// end of standard error.
    pub fn same_way(&self, other: &Failure) -> bool {
        self.status == other.status && self.reason == other.reason && self.stderr == other.stderr
    }
}

/// The distinct failures among `games`, in order of first appearance.
pub fn failures(games: &[GameResult]) -> Vec<Failure> {
    let mut found: Vec<Failure> = Vec::new();
    for failure in games.iter().filter_map(Failure::of) {
        match found.iter_mut().find(|f| f.same_way(&failure)) {
            Some(same) => same.decks.extend(failure.decks),
            None => found.push(failure),
        }
    }
    found
}

/// `decks` as a short list: `3`, `1, 4`, `1-10`.
pub(crate) fn deck_list(decks: &[usize]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < decks.len() {
        let mut j = i;
        while j + 1 < decks.len() && decks[j + 1] == decks[j] + 1 {
            j += 1;
        }
        parts.push(match j - i {
            0 => decks[i].to_string(),
            1 => format!("{}, {}", decks[i], decks[j]),
            _ => format!("{}-{}", decks[i], decks[j]),
        });
        i = j + 1;
    }
    parts.join(", ")
}

fn contestant_table(out: &mut String, r: &ContestantResult) {
    let _ = writeln!(out, "{} ({})", escape(&r.name), escape(&r.path));
    if let Some(why) = &r.not_run {
        let mut lines = why.lines();
        let _ = writeln!(out, "  not run: {}", escape(lines.next().unwrap_or("")));
        for line in lines {
            let _ = writeln!(out, "    {}", escape(line));
        }
        let _ = writeln!(out, "  total: 0\n");
        return;
    }
    if let Some(why) = &r.fork_server_fallback {
        let _ = writeln!(
            out,
            "  fork server given up, later games in fresh processes: {}",
            escape(why)
        );
    }
    if let Some(startup) = r.fork_server_startup_cpu_seconds {
        let _ = writeln!(
            out,
            "  fork server start-up: {startup:.3} s of CPU time before p_startgame, \
             counted in the cpu of every forked game"
        );
    }
    let failures = failures(&r.tests);
    let note = |deck: usize| {
        failures
            .iter()
            .position(|f| f.decks.contains(&deck))
            .map_or(String::new(), |i| format!("[{}]", i + 1))
    };
    // Times and sizes as the kit's other reports write them: `0.041 s`,
    // `0.9 MiB`.
    let _ = writeln!(
        out,
        "  deck  score  best  status        time      cpu   others  held by    memory  why"
    );
    let seconds = |s: Option<f64>| s.map_or("-".into(), |s| format!("{s:.3} s"));
    for t in &r.tests {
        let row = format!(
            "  {:>4}  {:>5}  {:>4}  {:<10} {:>7}  {:>7}  {:>7}  {:<7}  {:>8}  {}",
            t.deck,
            t.score,
            t.best_possible.map_or("-".to_string(), |b| b.to_string()),
            t.status.as_str(),
            seconds(Some(t.seconds)),
            seconds(t.cpu_seconds),
            seconds(t.others_cpu_seconds),
            t.cpu_limit_held_by.map_or("-", |h| h.as_str()),
            t.peak_memory.map_or("-".into(), |m| format!(
                "{:.1} MiB",
                m as f64 / f64::from(1 << 20)
            )),
            note(t.deck)
        );
        let _ = writeln!(out, "{}", row.trim_end());
    }
    for (i, failure) in failures.iter().enumerate() {
        let decks = match failure.decks.len() {
            1 => format!("deck {}", failure.decks[0]),
            _ => format!("decks {}", deck_list(&failure.decks)),
        };
        let _ = writeln!(out, "  [{}] {decks}: {}", i + 1, escape(&failure.reason));
        for line in &failure.stderr {
            let _ = writeln!(out, "      stderr: {}", escape(line));
        }
    }
    for t in &r.tests {
        if let Some(why) = &t.cpu_watch_error {
            let _ = writeln!(
                out,
                "  deck {}: the CPU watch could not start ({}); RLIMIT_CPU's backstop and the \
                 measure after the game held the limit",
                t.deck,
                escape(why)
            );
        }
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
    let _ = writeln!(out, "  total: {}{share}\n", r.total);
}

/// The ranking as `poker eval` and `poker rank` print it: a heading, then
/// one row per contestant (rank, name, total, ranking points), best first,
/// names escaped and padded to the widest, totals right-aligned.
pub fn ranking_table(results: &[ContestantResult]) -> String {
    let mut out = String::new();
    ranking(&mut out, results);
    out
}

fn ranking(out: &mut String, results: &[ContestantResult]) {
    let mut order: Vec<&ContestantResult> = results.iter().collect();
    order.sort_by(|a, b| a.rank.cmp(&b.rank).then(a.name.cmp(&b.name)));
    let names: Vec<String> = order.iter().map(|r| escape(&r.name)).collect();
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(10)
        .max(10);
    // A judge's totals may be longer than a contest's (at most 320).
    let total_width = order
        .iter()
        .map(|r| r.total.to_string().len())
        .max()
        .unwrap_or(5)
        .max(5);
    let _ = writeln!(out, "ranking (the best total is worth 10 points)");
    let _ = writeln!(
        out,
        "  rank  {:<width$}  {:>total_width$}  points",
        "contestant", "total"
    );
    for (r, name) in order.iter().zip(&names) {
        let _ = writeln!(
            out,
            "  {:>4}  {:<width$}  {:>total_width$}  {:>6}",
            r.rank, name, r.total, r.scaled
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failed(deck: usize, reason: &str, stderr: &str) -> GameResult {
        GameResult {
            status: GameStatus::Violation,
            stderr: stderr.to_string(),
            ..GameResult::not_run(deck, reason.to_string())
        }
    }

    #[test]
    fn games_failing_alike_are_told_once_with_their_stderr() {
        let games = [
            failed(1, "column 5", "a\nb\n"),
            GameResult {
                status: GameStatus::Ok,
                ..GameResult::not_run(2, String::new())
            },
            failed(3, "column 5", "a\nb\n"),
            failed(4, "column 5", "other\n"),
        ];
        let found = failures(&games);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].decks, [1, 3]);
        assert_eq!(found[0].stderr, ["a", "b"]);
        assert_eq!(found[1].decks, [4]);
        let result = ContestantResult {
            name: "x".into(),
            path: "x.c".into(),
            not_run: None,
            fork_server_fallback: None,
            fork_server_startup_cpu_seconds: None,
            total: 0,
            rank: 1,
            scaled: 0,
            best_possible: 0,
            tests: games.to_vec(),
        };
        let mut out = String::new();
        contestant_table(&mut out, &result);
        assert_eq!(out.matches("column 5").count(), 2, "{out}");
        assert!(out.contains("  [1] decks 1, 3: column 5\n      stderr: a\n      stderr: b\n  [2] deck 4: column 5\n"), "{out}");
        assert!(
            out.lines().all(|l| l == l.trim_end()),
            "trailing spaces: {out}"
        );
    }

    #[test]
    fn canonical_decks_are_a_deck_file_without_comments() {
        let decks = poker_judge::evaluator::decks::builtin();
        let file = include_str!("../../../../data/decks.txt");
        let expected: String = file
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(canonical_decks(&decks), expected);
    }

    #[test]
    fn deck_lists_join_runs() {
        assert_eq!(deck_list(&[3]), "3");
        assert_eq!(deck_list(&[1, 2]), "1, 2");
        assert_eq!(deck_list(&[1, 2, 3, 5, 7, 8, 9, 10]), "1-3, 5, 7-10");
    }
}
