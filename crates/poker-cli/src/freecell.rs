//! `poker freecell`: Microsoft FreeCell deals by number, and the reverse.

use crate::ranges;
use anyhow::{Context, bail};
use poker_core::cards::Card;
use poker_core::freecell::{self, Deal, DealNumber, Layout, MAX_DEAL, Tens, parse_partial_board};
use serde::Serialize;
use std::io::{self, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `poker freecell`.
#[derive(clap::Args)]
#[command(after_help = "\
Deal numbers run from 1 to 8589934591 (2^33 - 1): 1..2147483647 are
Microsoft's deals (1..32000 the classic ones, 1..1000000 since Windows XP),
the rest FreeCell Pro's extension, as pysol-cards and fc-solve deal them.

Examples:
  poker freecell 1                 deal 1, one line per column (fc-solve board)
  poker freecell 617 --rows        the 7 rows of 8 cards, as dealt
  poker freecell 1..=3 --json      deals 1, 2 and 3 as JSON, one object per line
  poker freecell 1 | poker freecell --find
                                   the number of the board on standard input
  poker freecell 617 --json | poker freecell --find
                                   the same from a deal's JSON
  echo \"JD 2D 9H\" | poker freecell --find
                                   the deals whose first cards these are")]
pub struct Args {
    /// Deal numbers (1 to 8589934591), or ranges A..=B (both ends included;
    /// A..B also includes B, with a warning); several deals print one after
    /// another, each after a "# deal N" line.
    #[arg(value_name = "N|A..=B", required_unless_present = "find")]
    deals: Vec<String>,

    /// Print the seed's layout: 7 rows (six of 8 cards, then 4) in dealing order.
    #[arg(long, conflicts_with = "order")]
    rows: bool,

    /// Print the 52 cards in dealing order on one line.
    #[arg(long)]
    order: bool,

    /// How to write a ten: T (TS) or 10 (10S).
    #[arg(long, value_name = "T|10", default_value = "T", value_parser = ["T", "10"], ignore_case = true)]
    tens: String,

    /// Print JSON: one object per deal and line, with the deal's number, range,
    /// columns, rows, dealing order and Microsoft card indices (0 = AC .. 51 = KS).
    #[arg(long)]
    json: bool,

    /// Also draw the tableau of the (first) deal to FILE as SVG cards.
    #[arg(long, value_name = "FILE", conflicts_with = "find")]
    svg: Option<PathBuf>,

    /// Find the deal number of a board read from FILE ("-" or nothing:
    /// standard input), searching all of 1..8589934591. The board may be
    /// columns (8 lines) or rows (7 lines) or one line of 52 cards, ten as T
    /// or 10, or one deal's object as --json prints it; or its first
    /// cards (fewer than 52 on one line, in dealing order): then the count
    /// of matching deals goes to standard error and at most the first 100
    /// numbers are printed.
    #[arg(
        long,
        value_name = "FILE|-",
        num_args = 0..=1,
        default_missing_value = "-",
        conflicts_with_all = ["deals", "rows", "order", "tens"]
    )]
    find: Option<PathBuf>,
}

/// Runs `poker freecell`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.find {
        return find(path, args.json);
    }
    let mut numbers: Vec<(u64, u64)> = Vec::new();
    for arg in &args.deals {
        numbers.push(parse_span(arg)?);
    }
    let layout = if args.rows {
        Layout::Rows
    } else if args.order {
        Layout::Order
    } else {
        Layout::Columns
    };
    let tens = if args.tens == "10" {
        Tens::Ten
    } else {
        Tens::T
    };
    if let (Some(path), Some(&(n, _))) = (&args.svg, numbers.first()) {
        let deal = Deal::new(DealNumber::try_from(n)?);
        let svg = crate::render::freecell_svg(&format!("FreeCell deal {n}"), &deal.columns())?;
        std::fs::write(path, svg).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let several = numbers.len() > 1 || numbers.iter().any(|(a, b)| a != b);
    // A closed reader kills us with SIGPIPE (main sets it to the default),
    // so an error here is a real one.
    print_deals(&numbers, layout, tens, args.json, several)
        .context("writing to standard output")?;
    Ok(ExitCode::SUCCESS)
}

/// `N`, `A..=B` or `A..B` (both inclusive, as this command always read
/// them; a warning suggests `A..=B`) as the first and last deal.
fn parse_span(arg: &str) -> anyhow::Result<(u64, u64)> {
    let number = |text: &str| -> anyhow::Result<u64> {
        Ok(text
            .parse::<DealNumber>()
            .map_err(anyhow::Error::new)?
            .get())
    };
    match ranges::parse::<DealNumber>(arg) {
        None => {
            let n = number(arg)?;
            Ok((n, n))
        }
        Some(written) => {
            let written = written.map_err(anyhow::Error::msg)?;
            let (first, last) = (written.start.get(), written.end.get());
            if !written.inclusive {
                eprintln!(
                    "poker: warning: {arg} includes deal {last} (freecell ranges include both ends); write {first}..={last} to say so"
                );
            }
            if first > last {
                bail!("range {arg}: the first deal must not be above the last");
            }
            Ok((first, last))
        }
    }
}

#[derive(Serialize)]
struct DealJson {
    deal: u64,
    range: &'static str,
    columns: Vec<Vec<String>>,
    rows: Vec<Vec<String>>,
    order: Vec<String>,
    indices: Vec<u8>,
}

fn print_deals(
    spans: &[(u64, u64)],
    layout: Layout,
    tens: Tens,
    json: bool,
    several: bool,
) -> io::Result<()> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    let tokens = |cards: &[Card]| -> Vec<String> { cards.iter().map(|&c| tens.token(c)).collect() };
    let mut first = true;
    for &(a, b) in spans {
        for n in a..=b {
            let number = DealNumber::try_from(n).expect("spans hold valid deal numbers");
            let deal = Deal::new(number);
            if json {
                let record = DealJson {
                    deal: n,
                    range: number.range().name(),
                    columns: deal.columns().iter().map(|c| tokens(c)).collect(),
                    rows: deal.rows().iter().map(|r| tokens(r)).collect(),
                    order: tokens(&deal.cards()),
                    indices: deal.indices().to_vec(),
                };
                serde_json::to_writer(&mut out, &record)?;
                writeln!(out)?;
            } else {
                if several {
                    if !first {
                        writeln!(out)?;
                    }
                    writeln!(out, "# deal {n}")?;
                }
                out.write_all(deal.format(layout, tens).as_bytes())?;
            }
            first = false;
        }
    }
    out.flush()
}

/// A board as `poker freecell --json` prints one deal: its `columns`, as
/// the 8 lines of the column layout. `None` when `text` is not JSON.
fn board_from_json(text: &str) -> Option<anyhow::Result<String>> {
    if !text.trim_start().starts_with('{') {
        return None;
    }
    let columns = || -> anyhow::Result<String> {
        let mut objects = serde_json::Deserializer::from_str(text).into_iter::<serde_json::Value>();
        let deal = objects.next().context("no JSON object")??;
        if objects.next().is_some() {
            bail!("one deal at a time: the input holds several JSON objects");
        }
        let columns = deal["columns"]
            .as_array()
            .context("the JSON object has no \"columns\" array")?;
        let mut lines = String::new();
        for column in columns {
            let cards = column
                .as_array()
                .context("each column is an array of card tokens")?;
            for card in cards {
                lines.push_str(
                    card.as_str()
                        .context("each card is a token such as \"TD\"")?,
                );
                lines.push(' ');
            }
            lines.push('\n');
        }
        Ok(lines)
    };
    Some(columns().context("not a deal as `poker freecell --json` prints it"))
}

/// The most deal numbers `--find` prints for the start of a board.
const FIND_LIST_MAX: usize = 100;

fn find(path: &PathBuf, json: bool) -> anyhow::Result<ExitCode> {
    let stdin = path.as_os_str() == "-";
    let text = if stdin {
        if io::stdin().is_terminal() {
            eprintln!("poker: reading a board from standard input (end it with Ctrl-D)");
        }
        let mut text = String::new();
        io::stdin()
            .read_to_string(&mut text)
            .context("reading the board from standard input")?;
        text
    } else {
        std::fs::read_to_string(path)
            .with_context(|| format!("reading the board from {}", path.display()))?
    };
    let source = if stdin {
        "standard input".to_string()
    } else {
        path.display().to_string()
    };
    let text = match board_from_json(&text) {
        Some(columns) => columns.with_context(|| format!("board from {source}"))?,
        None => text,
    };
    let board = parse_partial_board(&text).with_context(|| format!("board from {source}"))?;
    let found = freecell::find_prefix(&board, FIND_LIST_MAX).context("searching the deals")?;
    let numbers: Vec<u64> = found.deals.iter().map(|n| n.get()).collect();
    if json {
        println!(
            "{}",
            serde_json::json!({ "deals": numbers, "total": found.total })
        );
    } else {
        for n in &numbers {
            println!("{n}");
        }
    }
    if board.len() < freecell::CARDS && found.total > 0 {
        eprintln!(
            "poker: {} deal{} start{} with these {} card{}{}",
            poker_core::numbers::count(found.total),
            if found.total == 1 { "" } else { "s" },
            if found.total == 1 { "s" } else { "" },
            board.len(),
            if board.len() == 1 { "" } else { "s" },
            if found.total > numbers.len() as u64 {
                format!("; the first {} are listed", numbers.len())
            } else {
                String::new()
            }
        );
    }
    if numbers.is_empty() {
        eprintln!(
            "poker: error: no deal number in {}..{} deals this board",
            freecell::MIN_DEAL,
            MAX_DEAL
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
