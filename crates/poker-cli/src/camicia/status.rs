//! `poker camicia status FOLDER`: a distributed search's progress from its
//! result files and checkpoints, as they are.

use super::range::parse_range;
use anyhow::bail;
use poker_core::numbers::count;
use poker_hunt::progress::{Part, Progress};
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
    let range = args.range.as_deref().map(parse_range).transpose()?;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let p = Progress::of_folder(&args.folder, range, now)?;
    if parts(&p).all(|x| x.finished_units + x.running_units == 0) {
        bail!(
            "no work units in {}: no result file or checkpoint of poker camicia search \
             (--output, --checkpoint) there yet",
            args.folder.display()
        );
    }
    if args.json {
        println!("{}", to_json(&p));
    } else {
        print!("{}", text(&p));
    }
    Ok(ExitCode::SUCCESS)
}

fn part_json(part: &Part) -> serde_json::Value {
    json!({
        "done": part.done.to_string(), "finished_units": part.finished_units,
        "running_units": part.running_units, "finished_games": part.finished_games,
        "loops": part.loops,
    })
}

/// The progress as one JSON object.
fn to_json(p: &Progress) -> serde_json::Value {
    let whole = p.range.as_ref().and_then(|r| r.range);
    let units = |f: fn(&Part) -> usize| parts(p).map(f).sum::<usize>();
    json!({
        "start": whole.map(|r| r.0.to_string()), "end": whole.map(|r| r.1.to_string()),
        "done": p.done.to_string(),
        "total": p.total.map(|t| t.to_string()),
        "finished_units": units(|x| x.finished_units),
        "running_units": units(|x| x.running_units),
        "fraction": p.fraction,
        "range": p.range.as_ref().map(|r| part_json(&r.part)),
        "random": p.random.as_ref().map(|r| {
            let mut v = part_json(&r.part);
            v["seeds"] = json!(r.seeds);
            v["planned"] = json!(r.planned.to_string());
            v
        }),
        "deals_per_unit_second": p.unit_rate, "deals_per_cpu_second": p.cpu_rate,
        "deals_per_second": p.running_rate,
        "seconds_left": p.eta,
        "loops": parts(p).map(|x| x.loops).sum::<u64>(),
        "best": p.best.first(), "best_games": p.best,
        "oldest_checkpoint_seconds": p.oldest_checkpoint,
    })
}

/// What the units of each kind have done.
fn parts(p: &Progress) -> impl Iterator<Item = &Part> {
    let range = p.range.as_ref().map(|r| &r.part);
    range.into_iter().chain(p.random.as_ref().map(|r| &r.part))
}

/// `N unit(s) finished, M with a checkpoint`.
fn units(part: &Part) -> String {
    format!(
        "{} unit(s) finished, {} with a checkpoint",
        count(part.finished_units),
        count(part.running_units)
    )
}

/// The progress as text.
fn text(p: &Progress) -> String {
    let mut out = String::new();
    if let Some(r) = &p.range {
        out += &match r.range {
            Some((start, end)) => {
                let total = end.saturating_sub(start);
                let share = if total == 0 {
                    100.0
                } else {
                    100.0 * r.part.done as f64 / total as f64
                };
                format!(
                    "range {start}..{end}: {} of {} deals done ({share:.2}%): {}\n",
                    count(r.part.done),
                    count(total),
                    units(&r.part)
                )
            }
            None => format!(
                "index ranges: {} deals done: {} (give --range START..END for the share \
                 done)\n",
                count(r.part.done),
                units(&r.part)
            ),
        };
    }
    if let Some(r) = &p.random {
        let seeds: Vec<String> = r.seeds.iter().map(u64::to_string).collect();
        out += &format!(
            "random deals: {} of {} deals done (seed(s) {}): {}; {} finished game(s), {} \
             loop(s)\n",
            count(r.part.done),
            count(r.planned),
            seeds.join(", "),
            units(&r.part),
            count(r.part.finished_games),
            count(r.part.loops)
        );
    }
    let running: usize = parts(p).map(|x| x.running_units).sum();
    out += &format!(
        "rate: {} a unit, {} deals per CPU-second (each unit's own recorded time); {}\n",
        poker_core::numbers::rate(p.unit_rate, "deals"),
        poker_core::numbers::amount(p.cpu_rate),
        match (p.left, p.eta) {
            (Some(0), _) => "nothing left".to_string(),
            (Some(_), Some(s)) => format!(
                "{} unit(s) running at {}: about {} left",
                count(running),
                poker_core::numbers::rate(p.running_rate, "deals"),
                human_seconds(s)
            ),
            (_, None) if running == 0 => "no unit running".to_string(),
            _ => format!(
                "{} unit(s) running at {}; time left unknown",
                count(running),
                poker_core::numbers::rate(p.running_rate, "deals")
            ),
        }
    );
    if running > 0 {
        out += &format!(
            "(a running unit counts as of its last checkpoint{}, and not at all before its \
             first: --checkpoint-every sets how often they are written)\n",
            match p.oldest_checkpoint {
                Some(age) => format!(", the oldest written {} ago", human_seconds(age as f64)),
                None => String::new(),
            }
        );
    }
    if p.best.is_empty() {
        out += "no finished game yet\n";
    }
    for (i, g) in p.best.iter().enumerate() {
        let head = if i == 0 {
            "best so far:"
        } else {
            "            "
        };
        out += &format!(
            "{head} {} cards, {} tricks, index {} ({} {})\n",
            count(g.cards),
            count(g.tricks),
            g.index,
            g.a,
            g.b
        );
    }
    out
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
