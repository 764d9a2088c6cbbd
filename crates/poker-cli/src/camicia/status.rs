//! `poker camicia status FOLDER`: a distributed search's progress from its
//! result files and checkpoints, as they are.

use super::parse_range;
use anyhow::{Context, bail};
use poker_hunt::unit::UnitFile;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

/// Arguments of `poker camicia status`.
#[derive(clap::Args)]
pub struct Args {
    /// The folder holding the units' result files and checkpoints (other
    /// files are ignored).
    folder: PathBuf,
    /// The whole range of the search, END exclusive (default: the range
    /// the units' --shard was cut from).
    #[arg(long, value_name = "START..END")]
    range: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `poker camicia status`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut done_units = Vec::new();
    let mut checkpoints = Vec::new();
    let entries = std::fs::read_dir(&args.folder)
        .with_context(|| format!("cannot read the folder {}", args.folder.display()))?;
    for entry in entries {
        let path = entry?.path();
        if !path.is_file() {
            continue;
        }
        // Partial files being written and foreign files are not units.
        let Ok(file) = UnitFile::read(&path) else {
            continue;
        };
        // Units of random deals cover no part of a range.
        if file.report().is_err() || file.random.is_some() {
            continue;
        }
        if file.is_result() {
            done_units.push(file);
        } else {
            checkpoints.push(file);
        }
    }
    // A checkpoint left beside its unit's result counts once.
    checkpoints.retain(|c| {
        !done_units
            .iter()
            .any(|u| u.start == c.start && u.end == c.end)
    });
    let range = match &args.range {
        Some(r) => parse_range(r)?,
        None => {
            let of = done_units
                .iter()
                .chain(&checkpoints)
                .find_map(|u| u.shard.as_ref());
            match of {
                Some(s) => (s.start.parse()?, s.end.parse()?),
                None => bail!("no unit here says its whole range: give --range START..END"),
            }
        }
    };
    let total = range.1 - range.0;
    let finished: u128 = done_units.iter().map(|u| u128::from(u.counts.deals)).sum();
    let partial: u128 = checkpoints.iter().map(|u| u128::from(u.counts.deals)).sum();
    let done = finished + partial;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let timings = done_units
        .iter()
        .chain(&checkpoints)
        .filter_map(|u| u.timing.as_ref());
    let first_start = timings.clone().map(|t| t.started).filter(|&t| t > 0).min();
    let cpu: f64 = timings.map(|t| t.cpu_seconds).sum();
    let wall = first_start.map_or(0.0, |t| now.saturating_sub(t) as f64);
    let rate = if wall > 0.0 { done as f64 / wall } else { 0.0 };
    let left = total.saturating_sub(done);
    let eta = (rate > 0.0).then(|| left as f64 / rate);
    let best = done_units
        .iter()
        .chain(&checkpoints)
        .flat_map(|u| u.best.first())
        .max_by(|x, y| {
            (x.cards, x.tricks, std::cmp::Reverse(&x.index)).cmp(&(
                y.cards,
                y.tricks,
                std::cmp::Reverse(&y.index),
            ))
        });
    let loops: u64 = done_units
        .iter()
        .chain(&checkpoints)
        .map(|u| u.counts.loops)
        .sum();
    // Running units are seen only through their checkpoints: how old the
    // oldest is.
    let oldest_checkpoint = checkpoints
        .iter()
        .filter_map(|c| c.timing.as_ref())
        .map(|t| now.saturating_sub(t.written))
        .max();
    let fraction = if total == 0 {
        1.0
    } else {
        done as f64 / total as f64
    };
    if args.json {
        println!(
            "{}",
            json!({
                "start": range.0.to_string(), "end": range.1.to_string(),
                "done": done.to_string(), "finished_units": done_units.len(),
                "running_units": checkpoints.len(), "fraction": fraction,
                "deals_per_second": rate, "deals_per_cpu_second": if cpu > 0.0 { done as f64 / cpu } else { 0.0 },
                "seconds_left": eta, "loops": loops, "best": best,
                "oldest_checkpoint_seconds": oldest_checkpoint,
            })
        );
    } else {
        println!(
            "range {}..{}: {} of {} deals done ({:.2}%): {} unit(s) finished, {} with a checkpoint",
            range.0,
            range.1,
            crate::numbers::count(done),
            crate::numbers::count(total),
            100.0 * fraction,
            done_units.len(),
            checkpoints.len()
        );
        println!(
            "rate {} since the first unit started; {}",
            crate::numbers::rate(rate, "deals"),
            match eta {
                Some(s) if left > 0 => format!("about {} left", human_seconds(s)),
                _ if left == 0 => "nothing left".to_string(),
                _ => "time left unknown".to_string(),
            }
        );
        println!(
            "(a running unit counts as of its last checkpoint{}, and not at all before its \
             first: --checkpoint-every sets how often they are written)",
            match oldest_checkpoint {
                Some(age) => format!(", the oldest written {} ago", human_seconds(age as f64)),
                None => String::new(),
            }
        );
        match best {
            Some(g) => println!(
                "best so far: index {}, {} cards, {} tricks ({} {}); {loops} loop(s)",
                g.index, g.cards, g.tricks, g.a, g.b
            ),
            None => println!("no finished game yet; {loops} loop(s)"),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `3 h 12 min`, `5 min 3 s`, `42 s`; days and years for long hunts.
fn human_seconds(s: f64) -> String {
    let s = s.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        3600..86_400 => format!("{} h {} min", s / 3600, s % 3600 / 60),
        86_400..31_557_600 => format!("{} days {} h", s / 86_400, s % 86_400 / 3600),
        _ => format!("{:.1} years", s as f64 / 31_557_600.0),
    }
}
