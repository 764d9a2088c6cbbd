//! The HTML evaluation report (`poker eval --html FILE`).

use super::{BoardView, environment};
use crate::report::shell::command_line;
use crate::report::{Report, escape, failures};
use poker_core::cards::Card;
use poker_core::contest::ContestDeck;
use poker_core::optimum::deck_optimum;
use poker_judge::evaluator::GameStatus;
use serde::Serialize;

#[derive(Serialize)]
struct Page<'a> {
    version: &'static str,
    sandbox: &'static str,
    mode: &'static str,
    decks_source: String,
    decks: usize,
    decks_sha256: Option<&'a str>,
    limits: Vec<String>,
    warnings: Vec<String>,
    ranking: Vec<RankRow>,
    contestants: Vec<ContestantView>,
    compile: Vec<CompileView>,
}

#[derive(Serialize)]
struct RankRow {
    rank: u32,
    name: String,
    total: u32,
    scaled: u32,
    anchor: String,
}

#[derive(Serialize)]
struct CompileView {
    contestant: String,
    practice: String,
    command: String,
}

#[derive(Serialize)]
struct ContestantView {
    name: String,
    path: String,
    anchor: String,
    not_run: Vec<String>,
    total: u32,
    best: u32,
    games: Vec<GameView>,
}

#[derive(Serialize)]
struct GameView {
    deck: usize,
    score: u8,
    status: &'static str,
    ok: bool,
    reason: String,
    stderr: Vec<String>,
    repeated: bool,
    first: usize,
    played: BoardView,
    best: BoardView,
    best_total: u8,
    replay: Vec<String>,
    /// Its timing: wall and CPU time, others' CPU time beside it, what
    /// held its CPU limit.
    timing: String,
}

/// A game's timing as the page tells it: `wall 0.412 s · CPU 0.287 s ·
/// others 0.031 s · CPU limit held by watch`.
fn timing(t: &poker_judge::evaluator::GameResult) -> String {
    let seconds = |s: Option<f64>| s.map_or("-".to_string(), |s| format!("{s:.3} s"));
    let mut text = format!(
        "wall {:.3} s · CPU {} · others {}",
        t.seconds,
        seconds(t.cpu_seconds),
        seconds(t.others_cpu_seconds)
    );
    if let Some(held) = t.cpu_limit_held_by {
        text.push_str(&format!(" · CPU limit held by {}", held.as_str()));
    }
    if let Some(why) = &t.cpu_watch_error {
        text.push_str(&format!(
            " (the CPU watch could not start: {})",
            escape(why)
        ));
    }
    text
}

/// One self-contained page for `report` over `decks` (read from
/// `decks_source`): the ranking, each game's board drawn next to the
/// hindsight-best board of its deck, failures with the end of their
/// stderr, the limits and the audit.
pub fn eval_page(report: &Report, decks: &[ContestDeck], decks_source: &str) -> String {
    let optima: Vec<_> = decks.iter().map(deck_optimum).collect();
    let mut ranking: Vec<RankRow> = report
        .run
        .contestants
        .iter()
        .enumerate()
        .map(|(i, r)| RankRow {
            rank: r.rank,
            name: escape(&r.name),
            total: r.total,
            scaled: r.scaled,
            anchor: format!("contestant-{}", i + 1),
        })
        .collect();
    ranking.sort_by(|a, b| a.rank.cmp(&b.rank).then(a.name.cmp(&b.name)));
    let contestants = report
        .run
        .contestants
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let failures = failures(&r.tests);
            let games = r
                .tests
                .iter()
                .map(|t| {
                    let played: [Vec<Card>; 4] = std::array::from_fn(|c| {
                        t.board[c].iter().filter_map(|s| s.parse().ok()).collect()
                    });
                    let best = optima.get(t.deck - 1);
                    // A failure shared by several games is told once, at
                    // the first of them.
                    let failure = failures.iter().find(|f| f.decks.contains(&t.deck));
                    // Its stderr is "as on deck N above" only when deck N
                    // showed that same, non-empty stderr.
                    let repeated = failure.is_some_and(|f| {
                        f.decks[0] != t.deck
                            && !t.stderr.trim().is_empty()
                            && r.tests
                                .iter()
                                .any(|o| o.deck == f.decks[0] && o.stderr == t.stderr)
                    });
                    GameView {
                        deck: t.deck,
                        score: t.score,
                        status: t.status.as_str(),
                        ok: t.status == GameStatus::Ok,
                        reason: escape(t.reason.as_deref().unwrap_or("")),
                        stderr: t
                            .stderr_tail(crate::report::STDERR_LINES)
                            .iter()
                            .map(|l| escape(l))
                            .collect(),
                        repeated,
                        first: failure.map_or(t.deck, |f| f.decks[0]),
                        played: BoardView::new(&played),
                        best: best.map_or_else(
                            || BoardView::new(&Default::default()),
                            |o| BoardView::of_board(&o.board()),
                        ),
                        best_total: best.map_or(0, |o| o.total),
                        timing: timing(t),
                        replay: report
                            .audit
                            .as_ref()
                            .and_then(|a| a.replay_of(&r.name, t.deck))
                            // Shell lines, one line each already: only
                            // HTML-escaped (by the template).
                            .map_or_else(Vec::new, |rep| rep.commands.clone()),
                    }
                })
                .collect();
            ContestantView {
                name: escape(&r.name),
                path: escape(&r.path),
                anchor: format!("contestant-{}", i + 1),
                not_run: r
                    .not_run
                    .as_deref()
                    .map_or_else(Vec::new, |why| why.lines().map(escape).collect()),
                total: r.total,
                best: r.best_possible,
                games: if r.not_run.is_some() {
                    Vec::new()
                } else {
                    games
                },
            }
        })
        .collect();
    let page = Page {
        version: env!("CARGO_PKG_VERSION"),
        sandbox: report.run.sandbox,
        mode: report.run.mode,
        decks_source: escape(decks_source),
        decks: decks.len(),
        decks_sha256: report.audit.as_ref().map(|a| a.decks_sha256.as_str()),
        limits: report.run.limits.iter().map(ToString::to_string).collect(),
        warnings: report.run.warnings.iter().map(|w| escape(w)).collect(),
        ranking,
        contestants,
        compile: report.audit.as_ref().map_or_else(Vec::new, |a| {
            a.compile
                .iter()
                .map(|c| CompileView {
                    contestant: escape(&c.contestant),
                    practice: c.practice.clone(),
                    command: command_line(&[], &c.command),
                })
                .collect()
        }),
    };
    environment()
        .get_template("eval.html")
        .and_then(|t| t.render(page))
        .expect("the eval template renders")
}
