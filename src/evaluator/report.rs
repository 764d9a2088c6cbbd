//! The evaluation report: what `poker eval` prints, as tables for a person
//! or (through its `Serialize` form) as JSON for tools.
//!
//! Everything a contestant controls (its file name, the reasons quoting its
//! messages, its stderr) is shown with control characters escaped, so a
//! contestant cannot write escape codes or fake lines onto the organiser's
//! terminal.

use super::{ContestantResult, RunConfig};
use crate::sandbox::LimitReport;
use serde::Serialize;
use std::fmt::Write;

/// A whole evaluation: one entry per contestant, in the order given.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// `"bubblewrap"` or `"off"`: how contestants were confined.
    pub sandbox: &'static str,
    /// Each game limit with its value and how it was enforced.
    pub limits: Vec<LimitReport>,
    /// Every contestant's games, total and rank.
    pub contestants: Vec<ContestantResult>,
    /// Warnings about the evaluation itself (e.g. no sandbox).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// `text` with every control character (newline, escape, ...) and every
/// backslash written as a Rust-style escape (`\n`, `\u{1b}`, `\\`): safe to
/// print on a terminal, still readable.
pub fn escape(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() || c == '\\' {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    shown
}

impl Report {
    /// The report of `contestants` evaluated under `config`.
    pub fn new(contestants: Vec<ContestantResult>, config: &RunConfig) -> Report {
        Report {
            sandbox: config.launcher.name(),
            limits: config.limit_reports(),
            contestants,
            warnings: config.warning.iter().cloned().collect(),
        }
    }

    /// The report as tables: warnings, the sandbox and limits, each
    /// contestant's games, then the ranking.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for warning in &self.warnings {
            let _ = writeln!(out, "warning: {warning}");
        }
        let _ = writeln!(out, "sandbox: {}", self.sandbox);
        for limit in &self.limits {
            let _ = writeln!(out, "  limit {limit}");
        }
        out.push('\n');
        for r in &self.contestants {
            contestant_table(&mut out, r);
        }
        ranking(&mut out, &self.contestants);
        out
    }
}

fn contestant_table(out: &mut String, r: &ContestantResult) {
    let _ = writeln!(out, "{} ({})", escape(&r.name), escape(&r.path));
    if let Some(why) = &r.not_run {
        let _ = writeln!(out, "  not run: {}", escape(why));
        let _ = writeln!(out, "  total: 0\n");
        return;
    }
    let _ = writeln!(
        out,
        "  deck  score  best  status      time      cpu  memory  reason"
    );
    for t in &r.tests {
        let _ = writeln!(
            out,
            "  {:>4}  {:>5}  {:>4}  {:<10} {:>6.3}s  {:>6}  {:>6}  {}",
            t.deck,
            t.score,
            t.best_possible.map_or("-".to_string(), |b| b.to_string()),
            t.status.as_str(),
            t.seconds,
            t.cpu_seconds.map_or("-".into(), |c| format!("{c:.3}s")),
            t.peak_memory.map_or("-".into(), |m| format!(
                "{:.1}M",
                m as f64 / f64::from(1 << 20)
            )),
            escape(t.reason.as_deref().unwrap_or(""))
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
    let _ = writeln!(out, "  total: {}{share}\n", r.total);
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
    let _ = writeln!(out, "ranking (the best total is worth 10 points)");
    let _ = writeln!(out, "  rank  {:<width$}  total  points", "contestant");
    for (r, name) in order.iter().zip(&names) {
        let _ = writeln!(
            out,
            "  {:>4}  {:<width$}  {:>5}  {:>6}",
            r.rank, name, r.total, r.scaled
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escape("a\nb\u{1b}[2J\\"), "a\\nb\\u{1b}[2J\\\\");
        assert_eq!(escape("plain é"), "plain é");
    }
}
