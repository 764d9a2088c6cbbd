//! `poker camicia`: simulate a Camicia (Beggar-My-Neighbour) game, search
//! many deals for long ones, and convert between deals and their indices.

mod extend;
mod merge;
mod status;

use anyhow::{Context, bail};
use poker_core::camicia::search::{Extended, Extending, Game, Partial, Search, Shard, Work};
use poker_core::camicia::{
    self, Card, DEAL_COUNT, Deal, Player, VectorSimulator, notation, parse_deck, penalties,
    reference,
};
use poker_hunt::checkpoint::{self, Unit};
use serde_json::json;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

const AFTER_HELP: &str = "\
Decks are written top card first, one argument per player, as tokens
2..10, T, J, Q, K, A (case-insensitive) or with - for any number card,
several written together: poker camicia ---K---Q-KQAJ-----AAJ--J-- ----------Q----KQ-J-----KA
A plays first. Rules and counting are exercism's \"camicia\" (see docs/camicia.md).

Examples:
  poker camicia '2 A 7 8 Q 10' '3 4 5 6 K 9 J'
  poker camicia --trace 'J 2 3' '4 J 5'
  poker camicia search --count 10000000 --top 5
  poker camicia search --count 100000000 --seed 7 --output random-7.json
  poker camicia extend K-KK----K-A-----JAA--Q--J- ---Q---Q-J-----J------AQ--
  poker camicia search --range 447247122283566119000..447247122283566120000 --json
  poker camicia search --range 0..100000000 --shard 3/10 --output unit-3.json --checkpoint unit-3.checkpoint
  poker camicia merge unit-*.json --range 0..100000000 --html hunt.html
  poker camicia status units/
  poker camicia index ---AJ--Q---------QAKQJJ-QK -----A----KJ-K--------A---
  poker camicia deal 447247122283566119055";

/// Arguments of `poker camicia`.
#[derive(clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = AFTER_HELP
)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: PlayArgs,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Simulate many 52-card deals (random or an index range) and report the
    /// longest games and every loop.
    Search(SearchArgs),
    /// Print the index of a 52-card deal (26 cards each, 4 of each J, Q, K, A).
    Index(IndexArgs),
    /// Print the 52-card deal with this index, as `A B` in - notation.
    Deal(DealArgs),
    /// Combine work units' result files after checking them: every index of
    /// the range covered once, every best game and loop re-simulated.
    Merge(merge::Args),
    /// Print the longest deal of a 52-card deal's basin (backward
    /// extension): the deal, its game, the cards it adds and where its game
    /// joins the deal's. Checked by playing it forward with both simulators.
    Extend(extend::Args),
    /// Show a distributed search's progress from a folder of result files
    /// and checkpoints: done, rate, time left, best game so far.
    Status(status::Args),
}

#[derive(clap::Args)]
struct PlayArgs {
    /// Player A's deck, top card first (A plays first).
    #[arg(allow_hyphen_values = true, required = true)]
    a: Option<String>,
    /// Player B's deck, top card first.
    #[arg(allow_hyphen_values = true, required = true)]
    b: Option<String>,
    /// Print one JSON object: {"status", "cards", "tricks"}.
    #[arg(long)]
    json: bool,
    /// Print the game round by round: the decks and pile after every card,
    /// and who owes how many cards.
    #[arg(long, conflicts_with = "json")]
    trace: bool,
    /// Also draw the game to FILE as an SVG chart: the cards each player
    /// holds after every trick, a loop's start marked.
    #[arg(long, value_name = "FILE")]
    svg: Option<std::path::PathBuf>,
}

#[derive(clap::Args)]
struct SearchArgs {
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
    /// Deals simulated at once: worker threads, at least 1 (default: one
    /// per core). `--threads` is the same option.
    #[arg(long, visible_alias = "threads", value_name = "N",
          value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
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
    /// Take slice I (0-based) of N disjoint slices of --range: indices
    /// START + floor(I*len/N) up to START + floor((I+1)*len/N), len = END - START
    /// (a job array passes its task index as I).
    #[arg(long, value_name = "I/N", requires = "range")]
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
    /// Save the checkpoint at least this often (seconds; 0: after every
    /// batch of blocks).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 60.0,
        requires = "checkpoint"
    )]
    checkpoint_every: f64,
    /// Extend every finished game of at least N cards backwards to the
    /// longest deal of its basin (the predecessor trees of its first 10
    /// tricks), listing the distinct longer deals found; `off` for a
    /// uniform search. Each deal's own game is reported either way.
    #[arg(long, value_name = "N|off", default_value = "2000", value_parser = parse_extend_from)]
    extend_from: ExtendFrom,
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

#[derive(clap::Args)]
struct IndexArgs {
    /// Player A's 26 cards.
    #[arg(allow_hyphen_values = true)]
    a: String,
    /// Player B's 26 cards.
    #[arg(allow_hyphen_values = true)]
    b: String,
}

#[derive(clap::Args)]
struct DealArgs {
    /// The deal's index, 0 ..= 653534134886878244999.
    index: u128,
}

/// Runs `poker camicia`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        Some(Command::Search(s)) => search(s),
        Some(Command::Index(i)) => {
            let (a, b) = (parse_deck(&i.a, Player::A)?, parse_deck(&i.b, Player::B)?);
            let deal = Deal::new(&penalties(&a), &penalties(&b))?;
            println!("{}", deal.rank());
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Merge(m)) => merge::run(m),
        Some(Command::Extend(e)) => extend::run(e),
        Some(Command::Status(s)) => status::run(s),
        Some(Command::Deal(d)) => {
            let Some(deal) = Deal::unrank(d.index) else {
                bail!("deal indices go up to {}", DEAL_COUNT - 1);
            };
            println!("{deal}");
            Ok(ExitCode::SUCCESS)
        }
        None => play(args.play),
    }
}

fn play(args: PlayArgs) -> anyhow::Result<ExitCode> {
    let a = parse_deck(args.a.as_deref().unwrap_or(""), Player::A)?;
    let b = parse_deck(args.b.as_deref().unwrap_or(""), Player::B)?;
    if let Some(path) = &args.svg {
        std::fs::write(path, crate::render::camicia_svg(&reference::trace(&a, &b))?)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.trace {
        print_trace(&a, &b);
        return Ok(ExitCode::SUCCESS);
    }
    let outcome = camicia::simulate(&a, &b);
    if args.json {
        println!(
            "{}",
            json!({"status": outcome.status.to_string(), "cards": outcome.cards, "tricks": outcome.tricks})
        );
    } else {
        println!("status: {}", outcome.status);
        println!("cards: {}", outcome.cards);
        println!("tricks: {}", outcome.tricks);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_trace(a: &[Card], b: &[Card]) {
    print!("{}", trace_text(a, b));
}

/// The game round by round as an aligned Markdown table (readable in a
/// terminal, rendered as a table in Markdown), then the loop's rounds if it
/// loops and the same three summary lines as the untraced form.
fn trace_text(a: &[Card], b: &[Card]) -> String {
    let trace = reference::trace(a, b);
    let cards = |cs: &[Card]| {
        if cs.is_empty() {
            "(none)".to_string()
        } else {
            cs.iter().map(Card::to_string).collect::<Vec<_>>().join(" ")
        }
    };
    let mut rows: Vec<[String; 5]> =
        vec![["round", "player A", "player B", "pile", "owed"].map(String::from)];
    for row in &trace.rows {
        let owed = match row.owed {
            Some((player, n)) => format!("player {player}: {n}"),
            None => "-".to_string(),
        };
        rows.push([
            row.round.to_string(),
            cards(&row.a),
            cards(&row.b),
            cards(&row.pile),
            owed,
        ]);
    }
    let mut widths = [3usize; 5];
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: &[String; 5]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(widths)
            .map(|(cell, width)| format!("{cell:<width$}"))
            .collect();
        format!("| {} |\n", padded.join(" | "))
    };
    let mut out = line(&rows[0]);
    out += &line(&widths.map(|w| "-".repeat(w)));
    for row in &rows[1..] {
        out += &line(row);
    }
    if let Some((round, first)) = trace.repeat {
        out += &format!("round {round} starts like round {first} (number cards alike): a loop\n");
    }
    let o = trace.outcome;
    out += &format!(
        "status: {}\ncards: {}\ntricks: {}\n",
        o.status, o.cards, o.tricks
    );
    out
}

/// `START..END` (END excluded, a work unit's half-open range) or
/// `START..=LAST` (LAST included) as the half-open `(start, end)`.
fn parse_range(text: &str) -> anyhow::Result<(u128, u128)> {
    let written = crate::ranges::parse::<u128>(text)
        .context("--range is START..END (END excluded) or START..=LAST, e.g. 0..1000000")?
        .map_err(anyhow::Error::msg)?;
    let start = written.start;
    let end = match written.inclusive {
        true => written
            .end
            .checked_add(1)
            .context("--range: LAST is too large")?,
        false => written.end,
    };
    if start >= end || end > DEAL_COUNT {
        bail!("--range needs START < END <= {DEAL_COUNT}");
    }
    Ok((start, end))
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
        "index {:>21}  cards {:>5}  tricks {:>4}  {}",
        game.index, game.outcome.cards, game.outcome.tricks, game.deal
    )
}

fn search(args: SearchArgs) -> anyhow::Result<ExitCode> {
    let work = match &args.range {
        Some(r) => {
            let (start, end) = parse_range(r)?;
            match args.shard {
                Some(shard) => {
                    let (start, end) = shard.slice(start, end);
                    Work::Range { start, end }
                }
                None => Work::Range { start, end },
            }
        }
        None => Work::Random {
            seed: args.seed,
            count: args.count,
        },
    };
    let unit = match work {
        _ if args.output.is_none() && args.checkpoint.is_none() => None,
        Work::Range { start, end } => Some(unit_of(&args, start, end, None)?),
        Work::Random { seed, count } => Some(unit_of(&args, 0, u128::from(count), Some(seed))?),
        _ => None,
    };
    let threads = match args.jobs {
        Some(n) => NonZeroUsize::new(usize::from(n)).expect("clap keeps --jobs at least 1"),
        None => std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN),
    };
    if let Some(done) = unit.as_ref().and_then(|u| u.finished(args.top)) {
        eprintln!(
            "poker: {} already holds the result of {}..{}; nothing to do",
            args.output
                .as_deref()
                .unwrap_or(std::path::Path::new(""))
                .display(),
            done.start,
            done.end
        );
        return Ok(ExitCode::SUCCESS);
    }
    let bar = crate::progress::bar(
        u64::try_from(work.deals()).unwrap_or(u64::MAX),
        "deals",
        args.quiet,
    );
    let (wall, cpu) = (Instant::now(), checkpoint::cpu_seconds());
    // Deals a resumed unit's checkpoint held: not this run's work.
    let resumed = std::cell::Cell::new(0u64);
    let search = Search {
        work,
        top: args.top,
        threads,
        extend: args.extend_from.extending(),
    };
    let on_loop = |game: &Game| {
        bar.suspend(|| {
            if args.json {
                println!("{}", game_json("loop", game));
            } else {
                println!("loop  {}", game_line(game));
            }
        })
    };
    let report = match &unit {
        None => search.run(VectorSimulator::new, |deals| bar.inc(deals), on_loop)?,
        Some(unit) => {
            let announce = |at: u128| {
                eprintln!(
                    "poker: resuming from checkpoint {} at index {at} of {}..{}",
                    unit.checkpoint
                        .as_deref()
                        .map_or("", |p| p.to_str().unwrap_or("")),
                    unit.range.0,
                    unit.range.1
                )
            };
            let ending = unit.run(&search, announce, |from: Partial, hook| {
                bar.set_position(from.report.deals);
                resumed.set(from.report.deals);
                Ok(search.run_from(
                    from,
                    VectorSimulator::new,
                    |deals| bar.inc(deals),
                    on_loop,
                    hook,
                )?)
            })?;
            match ending {
                checkpoint::Ending::Done(report) => *report,
                checkpoint::Ending::Stopped { signal, next } => {
                    bar.finish_and_clear();
                    eprintln!(
                        "poker: stopped by signal {signal}; checkpoint saved at index {next} \
                         (run the same command again to resume)"
                    );
                    return Ok(ExitCode::from(128 + signal as u8));
                }
            }
        }
    };
    bar.finish_and_clear();
    let seconds = wall.elapsed().as_secs_f64();
    let cpu = checkpoint::cpu_seconds() - cpu;
    // This run's deals over this run's time (a resumed unit's report also
    // counts the deals before its checkpoint).
    let this_run = report.deals.saturating_sub(resumed.get());
    let rate = this_run as f64 / seconds;
    let cpu_rate = this_run as f64 / cpu;
    let mode = match work {
        Work::Range { start, end } => format!("range {start}..{end}"),
        Work::Random { seed, .. } => format!("random, seed {seed}"),
        _ => "search".to_string(),
    };
    let extension = &report.extension;
    if args.json {
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
                "deals_this_run": this_run,
                "seconds": seconds, "deals_per_second": rate,
                "deals_per_cpu_second": cpu_rate,
                "checksum": format!("{:016x}", report.checksum),
                "extension": extension.extending.map(|e| json!({
                    "from": e.from, "depth": e.depth.to_string(),
                    "games": extension.games, "nodes": extension.nodes,
                    "seconds": extension.spent.0.as_secs_f64(),
                })),
            })
        );
    } else {
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
        let deals = match resumed.get() {
            0 => format!("{} deals", crate::numbers::count(report.deals)),
            before => format!(
                "{} deals this run ({} with the checkpoint's {})",
                crate::numbers::count(this_run),
                crate::numbers::count(report.deals),
                crate::numbers::count(before)
            ),
        };
        println!(
            "{deals} ({mode}) in {seconds:.2} s on {threads} thread(s): {}, \
             {} deals per CPU-second; {} loop(s)",
            crate::numbers::rate(rate, "deals"),
            crate::numbers::amount(cpu_rate),
            report.loops.len()
        );
        if let Some(e) = extension.extending {
            println!(
                "extension: {} game(s) of {}+ cards extended ({}), {:.1}% of the CPU time; \
                 {} longer deal(s) kept",
                extension.games,
                e.from,
                e.depth,
                100.0 * extension.spent.0.as_secs_f64() / cpu.max(1e-9),
                extension.extended.len()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
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
        e.added,
        e.from,
        e.joins_trick
    )
}

/// The work unit `start..end` of a search with --output or --checkpoint.
fn unit_of(args: &SearchArgs, start: u128, end: u128, random: Option<u64>) -> anyhow::Result<Unit> {
    let shard = match (args.shard, &args.range) {
        (Some(shard), Some(r)) => {
            let (from, to) = parse_range(r)?;
            Some((shard, from, to))
        }
        _ => None,
    };
    if !(args.checkpoint_every >= 0.0 && args.checkpoint_every.is_finite()) {
        bail!("--checkpoint-every is a number of seconds, 0 or more");
    }
    Ok(Unit {
        range: (start, end),
        random,
        extend: args.extend_from.extending(),
        shard,
        checkpoint: args.checkpoint.clone(),
        every: std::time::Duration::from_secs_f64(args.checkpoint_every),
        output: args.output.clone(),
    })
}
