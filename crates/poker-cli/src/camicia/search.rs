//! `poker camicia search`: many deals simulated (random, or an index
//! range as a work unit) through [`poker_hunt::hunt`], the longest games
//! and every loop printed as text or JSON lines.

use super::engine::{Choice, Chosen};
use super::range::parse_range;
use poker_core::camicia::notation;
use poker_core::camicia::search::{Extended, Extending, Game, Search, Shard, Work};
use poker_core::numbers::{amount, count, rate};
use poker_hunt::checkpoint::Unit;
use poker_hunt::hunt::{Found, Hunt, Hunted, Watch};
use serde_json::json;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `poker camicia search`.
#[derive(clap::Args)]
pub struct Args {
    /// Simulate every deal with index START <= i < END (decimal, up to
    /// 653534134886878245000; END excluded, a work unit's half-open range),
    /// or START..=LAST for START <= i <= LAST; a self-contained work unit.
    #[arg(long, value_name = "START..END", conflicts_with = "count")]
    range: Option<String>,
    /// Simulate this many uniformly random deals.
    #[arg(long, default_value_t = 1_000_000)]
    count: u64,
    /// Seed of the random deals (ChaCha8); the same seed gives the same
    /// deals and results on any number of threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads simulating deals (default: one per core; at most 4
    /// per core). --threads is the same option.
    #[arg(long, visible_alias = "threads", value_name = "N")]
    jobs: Option<usize>,
    /// How many of the longest finished games to print.
    #[arg(long, default_value_t = 10)]
    top: usize,
    /// Print JSON lines (one per loop, per best game, and a summary) instead
    /// of text.
    #[arg(long)]
    json: bool,
    /// Hide the progress bar.
    #[arg(long)]
    quiet: bool,
    /// Take slice I (0-based) of N disjoint slices of the work (a job array
    /// passes its task index as I). Of --range: indices START + floor(I*len/N)
    /// up to START + floor((I+1)*len/N), len = END - START. Of --count:
    /// blocks floor(I*B/N) up to floor((I+1)*B/N) of the run's B blocks of
    /// 16,384 deals, the very deals the whole run draws there.
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Write the unit's result file (JSON) to FILE when it is done: the
    /// indices covered (or the seed and count of random deals), counts,
    /// length histograms before and after extension, checksum, best games,
    /// extended deals and loops with their cycles. If FILE already holds
    /// this unit's result, nothing is simulated again.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Save progress to FILE (atomically) and resume from it when started
    /// again with the same arguments; SIGTERM or SIGINT saves it and stops
    /// (exit status 143 or 130). Removed when the unit is done.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Save the checkpoint at least this often: a time such as 60s, 5m or
    /// 500ms (a bare number is seconds; 0: after every batch of blocks).
    #[arg(
        long,
        value_name = "TIME",
        default_value = "60s",
        requires = "checkpoint",
        value_parser = crate::time_option::parse_time
    )]
    checkpoint_every: std::time::Duration,
    /// Extend every finished game of at least N cards backwards to the
    /// longest deal of its basin (the predecessor trees of its first 10
    /// tricks), listing the distinct longer deals found; off for a
    /// uniform search. Each deal's own game is reported either way.
    #[arg(long, value_name = "N|off", default_value = "2000", value_parser = parse_extend_from)]
    extend_from: ExtendFrom,
    /// What plays the deals: gpu, the GPU engine (Vulkan or Metal, any
    /// device, a CPU one such as lavapipe too; in a build with --features
    /// gpu), whose every long game, possible loop and sampled deal the CPU
    /// plays again before counting; cpu, the vector engine on --jobs
    /// threads; auto, the GPU engine when a GPU (not a CPU adapter) is
    /// present, else the CPU engine, saying why. The same results either way.
    #[arg(long, value_enum, default_value_t = Choice::Auto)]
    engine: Choice,
}

/// `--extend-from`: a length in cards, or off.
#[derive(Clone, Copy, Debug)]
struct ExtendFrom(Option<u64>);

fn parse_extend_from(text: &str) -> Result<ExtendFrom, String> {
    if text == "off" {
        return Ok(ExtendFrom(None));
    }
    text.parse()
        .map(|n| ExtendFrom(Some(n)))
        .map_err(|_| format!("`{text}` is not a number of cards or `off`"))
}

impl ExtendFrom {
    fn extending(self) -> Option<Extending> {
        self.0.map(|from| Extending {
            from,
            ..Extending::DEFAULT
        })
    }
}

/// Runs `poker camicia search`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.output {
        crate::output_file::check_writable(path)?;
    }
    let work = work(&args)?;
    let unit = match work {
        _ if args.output.is_none() && args.checkpoint.is_none() => None,
        Work::Range { start, end } => Some(unit_of(&args, start, end, None)?),
        Work::Random { seed, .. } | Work::RandomBlocks { seed, .. } => {
            let (start, end) = work.draws();
            Some(unit_of(&args, start, end, Some(seed))?)
        }
        _ => None,
    };
    let threads =
        NonZeroUsize::new(crate::jobs::bounded(args.jobs)?).expect("--jobs is at least 1");
    if unit.as_ref().and_then(|u| u.finished(args.top)).is_some() {
        eprintln!(
            "poker: {} already holds the result of this unit ({}); nothing to do",
            args.output
                .as_deref()
                .unwrap_or(std::path::Path::new(""))
                .display(),
            work_name(&work, &args)
        );
        return Ok(ExitCode::SUCCESS);
    }
    let engine = Chosen::pick(args.engine)?;
    let unit = unit.map(|u| Unit {
        engine: engine.name(),
        ..u
    });
    let bar = crate::progress::bar(
        u64::try_from(work.deals()).unwrap_or(u64::MAX),
        "deals",
        args.quiet,
    );
    let hunt = Hunt {
        search: Search {
            work,
            top: args.top,
            threads,
            extend: args.extend_from.extending(),
        },
        unit,
    };
    let watch = Shown {
        bar: &bar,
        json: args.json,
        unit: hunt.unit.as_ref(),
    };
    let found = match hunt.run_on(&engine, &watch)? {
        Hunted::Done(found) => found,
        Hunted::Stopped { signal, next } => {
            bar.finish_and_clear();
            eprintln!(
                "poker: stopped by signal {signal}; checkpoint saved at {} {next} \
                 (run the same command again to resume)",
                position(hunt.unit.as_ref())
            );
            return Ok(ExitCode::from(128 + signal as u8));
        }
    };
    bar.finish_and_clear();
    let mode = work_name(&work, &args);
    let gpu = engine.gpu_summary().map(|mut g| {
        // The run held its one GPU throughout.
        g["gpu_seconds"] = json!(found.seconds);
        g["deals_per_gpu_second"] = json!(found.rate());
        g
    });
    if args.json {
        print_json(&found, &mode, threads, gpu);
    } else {
        print_text(&found, &mode, threads, gpu);
    }
    Ok(ExitCode::SUCCESS)
}

/// The deals of `--range` (and `--shard`), or of `--count` and `--seed`.
fn work(args: &Args) -> anyhow::Result<Work> {
    Ok(match &args.range {
        Some(r) => {
            let (start, end) = parse_range(r)?;
            let (start, end) = match args.shard {
                Some(shard) => shard.slice(start, end),
                None => (start, end),
            };
            Work::Range { start, end }
        }
        None => match args.shard {
            Some(shard) => Work::random_shard(args.seed, args.count, shard),
            None => Work::Random {
                seed: args.seed,
                count: args.count,
            },
        },
    })
}

/// What a unit's positions count: indices, or a random run's draws.
fn position(unit: Option<&Unit>) -> &'static str {
    match unit {
        Some(u) if u.random.is_some() => "draw",
        _ => "index",
    }
}

/// The run shown as it goes: the progress bar, each loop printed above it.
struct Shown<'a> {
    bar: &'a indicatif::ProgressBar,
    json: bool,
    unit: Option<&'a Unit>,
}

impl Watch for Shown<'_> {
    fn resumed(&self, at: u128) {
        if let Some(unit) = self.unit {
            eprintln!(
                "poker: resuming from checkpoint {} at {} {at} of {}..{}",
                unit.checkpoint
                    .as_deref()
                    .map_or("", |p| p.to_str().unwrap_or("")),
                position(Some(unit)),
                unit.range.0,
                unit.range.1
            );
        }
    }

    fn started(&self, done: u64) {
        self.bar.set_position(done);
    }

    fn advanced(&self, deals: u64) {
        self.bar.inc(deals);
    }

    fn looped(&self, game: &Game) {
        self.bar.suspend(|| {
            if self.json {
                println!("{}", game_json("loop", game));
            } else {
                println!("loop  {}", game_line(game));
            }
        })
    }
}

/// The best games, the extended deals and a summary, as JSON lines.
fn print_json(found: &Found, mode: &str, threads: NonZeroUsize, gpu: Option<serde_json::Value>) {
    let (report, extension) = (&found.report, &found.report.extension);
    for (i, game) in report.best.iter().enumerate() {
        let mut v = game_json("best", game);
        v["rank"] = json!(i + 1);
        println!("{v}");
    }
    for (i, e) in extension.extended.iter().enumerate() {
        let mut v = extended_json(e);
        v["rank"] = json!(i + 1);
        println!("{v}");
    }
    println!(
        "{}",
        json!({
            "kind": "summary", "mode": mode, "deals": report.deals,
            "loops": report.loops.len(), "threads": threads,
            "deals_this_run": found.this_run(),
            "seconds": found.seconds, "deals_per_second": found.rate(),
            "deals_per_cpu_second": found.cpu_rate(),
            "checksum": format!("{:016x}", report.checksum),
            "extension": extension.extending.map(|e| json!({
                "from": e.from, "depth": e.depth.to_string(),
                "games": extension.games, "nodes": extension.nodes,
                "seconds": extension.spent.0.as_secs_f64(),
            })),
            "gpu": gpu,
        })
    );
}

/// The best games, the extended deals and a summary, as text.
fn print_text(found: &Found, mode: &str, threads: NonZeroUsize, gpu: Option<serde_json::Value>) {
    let (report, extension) = (&found.report, &found.report.extension);
    if !report.best.is_empty() {
        println!("longest finished games:");
    }
    for (i, game) in report.best.iter().enumerate() {
        println!("{:>3}. {}", i + 1, game_line(game));
    }
    if !extension.extended.is_empty() {
        println!("longest deals found by extension:");
    }
    for (i, e) in extension.extended.iter().enumerate() {
        println!("{:>3}. {}", i + 1, extended_line(e));
    }
    let deals = match found.before {
        0 => format!("{} deals", count(report.deals)),
        before => format!(
            "{} deals this run ({} with the checkpoint's {})",
            count(found.this_run()),
            count(report.deals),
            count(before)
        ),
    };
    println!(
        "{deals} ({mode}) in {:.2} s on {threads} thread(s): {}, \
         {} deals per CPU-second; {} loop(s)",
        found.seconds,
        rate(found.rate(), "deals"),
        amount(found.cpu_rate()),
        count(report.loops.len())
    );
    if let Some(g) = gpu {
        println!(
            "GPU engine on {}: {} deals per GPU-second; {} dispatch(es); the CPU played \
             again {} claimed game(s) and {} sampled deal(s), all equal, and played {} \
             block(s) itself",
            g["device"].as_str().unwrap_or("?"),
            amount(g["deals_per_gpu_second"].as_f64().unwrap_or(0.0)),
            json_count(&g["dispatches"]),
            json_count(&g["claims_replayed"]),
            json_count(&g["samples_compared"]),
            json_count(&g["blocks_on_cpu"])
        );
    }
    if let Some(e) = extension.extending {
        println!(
            "extension: {} game(s) of {}+ cards extended ({}), {:.1}% of the CPU time; \
             {} longer deal(s) kept",
            count(extension.games),
            count(e.from),
            e.depth,
            100.0 * extension.spent.0.as_secs_f64() / found.cpu_seconds.max(1e-9),
            count(extension.extended.len())
        );
    }
}

/// A count held in a JSON value, as text reports write counts.
fn json_count(value: &serde_json::Value) -> String {
    value.as_u64().map_or_else(|| value.to_string(), count)
}

fn game_json(kind: &str, game: &Game) -> serde_json::Value {
    json!({
        "kind": kind,
        "index": game.index.to_string(),
        "a": notation(game.deal.a()),
        "b": notation(game.deal.b()),
        "status": game.outcome.status.to_string(),
        "cards": game.outcome.cards,
        "tricks": game.outcome.tricks,
    })
}

fn game_line(game: &Game) -> String {
    format!(
        "index {:>21}  cards {:>5}  tricks {:>5}  {}",
        game.index,
        count(game.outcome.cards),
        count(game.outcome.tricks),
        game.deal
    )
}

fn extended_json(e: &Extended) -> serde_json::Value {
    let mut v = game_json("extended", &e.game);
    v["from"] = json!(e.from.to_string());
    v["added"] = json!(e.added);
    v["joins_trick"] = json!(e.joins_trick);
    v
}

fn extended_line(e: &Extended) -> String {
    format!(
        "{}  (+{} cards from index {}, joining after trick {})",
        game_line(&e.game),
        count(e.added),
        e.from,
        count(e.joins_trick)
    )
}

/// The work unit `start..end` of a search with --output or --checkpoint.
fn unit_of(args: &Args, start: u128, end: u128, random: Option<u64>) -> anyhow::Result<Unit> {
    let shard = match (args.shard, &args.range) {
        (Some(shard), Some(r)) => {
            let (from, to) = parse_range(r)?;
            Some((shard, from, to))
        }
        (Some(shard), None) => Some((shard, 0, u128::from(args.count))),
        (None, _) => None,
    };
    Ok(Unit {
        range: (start, end),
        random,
        extend: args.extend_from.extending(),
        shard,
        checkpoint: args.checkpoint.clone(),
        every: args.checkpoint_every,
        output: args.output.clone(),
        engine: poker_hunt::unit::engine_name().into(),
    })
}

/// The deals of `work` in words, as the summary and messages name them:
/// `range 0..1000`, `random, seed 7` or `random, seed 7, shard 1/3 (blocks
/// 0..5)`.
fn work_name(work: &Work, args: &Args) -> String {
    match *work {
        Work::Range { start, end } => format!("range {start}..{end}"),
        Work::Random { seed, .. } => format!("random, seed {seed}"),
        Work::RandomBlocks {
            seed, first, end, ..
        } => format!(
            "random, seed {seed}, shard {} (blocks {first}..{end})",
            args.shard.map_or(String::new(), |s| s.to_string())
        ),
        _ => "search".to_string(),
    }
}
