//! `poker rank`: the contest's ranking from a judge's scoreboard.

use crate::report::ranking_table;
use anyhow::Context;
use poker_judge::evaluator::results::{ContestantResult, rank};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// Rank contestants from their totals, as `poker eval` ranks them.
///
/// FILE (`-` for standard input) holds one contestant a line: a name, then
/// whitespace, then the total (a whole number, e.g. a judge's score for
/// the problem). Blank lines and lines starting with `#` are ignored; a
/// name may contain spaces (the total is the last field). Prints the
/// ranking as `poker eval` does (rank, contestant, total, points): the best total is worth 10 points,
/// others `10 * total / best` rounded to the nearest integer (halves up).
/// A line without a total, a total that is not a whole number in
/// 0..=4294967295, a repeated name or an empty list is an error.
#[derive(clap::Args)]
pub struct Args {
    /// The scoreboard: lines "name total".
    file: PathBuf,
}

/// The largest scoreboard read (16 MiB).
const MAX_FILE: u64 = 16 << 20;

/// Runs `poker rank`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut bytes = Vec::new();
    let stdin = args.file.as_os_str() == "-";
    let shown = if stdin {
        "standard input".to_string()
    } else {
        args.file.display().to_string()
    };
    if stdin {
        std::io::stdin()
            .take(MAX_FILE + 1)
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
    } else {
        std::fs::File::open(&args.file)
            .and_then(|f| f.take(MAX_FILE + 1).read_to_end(&mut bytes))
            .with_context(|| format!("cannot read {shown}"))?;
    }
    anyhow::ensure!(
        bytes.len() as u64 <= MAX_FILE,
        "{shown}: larger than 16 MiB, not a scoreboard"
    );
    let text = String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{shown}: not UTF-8 text"))?;
    let mut results = parse(&text).map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
    rank(&mut results);
    print!("{}", ranking_table(&results));
    Ok(ExitCode::SUCCESS)
}

/// The contestants of a scoreboard, in file order; errors name the line.
fn parse(text: &str) -> Result<Vec<ContestantResult>, String> {
    let mut results: Vec<ContestantResult> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |what: String| format!("line {}: {what}", number + 1);
        let (name, total) = line
            .rsplit_once(char::is_whitespace)
            .ok_or_else(|| at("expected `name total`".into()))?;
        let name = name.trim_end();
        let total: u32 = total.parse().map_err(|_| {
            let shown: String = total.chars().take(40).collect();
            at(format!(
                "{shown:?} is not a whole number in 0..={}",
                u32::MAX
            ))
        })?;
        if name.chars().any(char::is_control) {
            return Err(at("the name holds a control character".into()));
        }
        if results.iter().any(|r| r.name == name) {
            return Err(at(format!("{name:?} appears twice")));
        }
        results.push(ContestantResult::from_total(name.to_string(), total));
    }
    if results.is_empty() {
        return Err("no contestants found".into());
    }
    Ok(results)
}
