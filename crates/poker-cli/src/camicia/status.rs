//! `poker camicia status FOLDER`: a distributed search's progress from its
//! result files and checkpoints, as they are.

use super::range::parse_range;
use poker_hunt::progress::Progress;
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
    if args.json {
        println!(
            "{}",
            json!({
                "start": p.range.0.to_string(), "end": p.range.1.to_string(),
                "done": p.done.to_string(), "finished_units": p.finished_units,
                "running_units": p.running_units, "fraction": p.fraction,
                "deals_per_second": p.rate, "deals_per_cpu_second": p.cpu_rate,
                "seconds_left": p.eta, "loops": p.loops, "best": p.best,
                "oldest_checkpoint_seconds": p.oldest_checkpoint,
            })
        );
    } else {
        print!("{}", text(&p));
    }
    Ok(ExitCode::SUCCESS)
}

/// The progress as text.
fn text(p: &Progress) -> String {
    let mut out = format!(
        "range {}..{}: {} of {} deals done ({:.2}%): {} unit(s) finished, {} with a checkpoint\n",
        p.range.0,
        p.range.1,
        crate::numbers::count(p.done),
        crate::numbers::count(p.total),
        100.0 * p.fraction,
        p.finished_units,
        p.running_units
    );
    out += &format!(
        "rate {} since the first unit started; {}\n",
        crate::numbers::rate(p.rate, "deals"),
        match p.eta {
            Some(s) if p.left > 0 => format!("about {} left", human_seconds(s)),
            _ if p.left == 0 => "nothing left".to_string(),
            _ => "time left unknown".to_string(),
        }
    );
    out += &format!(
        "(a running unit counts as of its last checkpoint{}, and not at all before its \
         first: --checkpoint-every sets how often they are written)\n",
        match p.oldest_checkpoint {
            Some(age) => format!(", the oldest written {} ago", human_seconds(age as f64)),
            None => String::new(),
        }
    );
    let loops = p.loops;
    out += &match &p.best {
        Some(g) => format!(
            "best so far: index {}, {} cards, {} tricks ({} {}); {loops} loop(s)\n",
            g.index, g.cards, g.tricks, g.a, g.b
        ),
        None => format!("no finished game yet; {loops} loop(s)\n"),
    };
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
