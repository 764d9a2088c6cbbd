//! `poker eval`: contestants over the fixed test decks, scored and ranked.

use crate::render;
use crate::run_options::RunOptions;
use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use poker::evaluator::report::{Audit, Report, canonical_decks, escape};
use poker::evaluator::{self, Contestant, GameResult, SandboxMode, decks};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Run contestants over the contest's 10 fixed test decks and rank them.
///
/// Each game runs the contestant as its own process; the deck stays in the
/// evaluator, which hands out one card per p_look and checks every rule
/// itself. A game scores 0 for a broken rule, a crash, a timeout or an exit
/// before the 20th placement. The ranking gives the best total 10 points and
/// the others proportionally, rounded (the contest's DFCC scaling).
///
/// The built-in decks are public: for a real contest, deal secret decks with
/// `poker decks --count 10 > secret.txt` and pass `--decks secret.txt`.
#[derive(clap::Args)]
pub struct Args {
    /// Contestants: executables linked against libpoker, .c files (compiled
    /// with cc) or .pas files (compiled with fpc, `uses Poker;`) to build
    /// against it first, or .py scripts (run with python3 and the libpoker
    /// module). Default: every .c file in ./c_examples (or the installed
    /// examples).
    #[arg(value_name = "CONTESTANT")]
    contestants: Vec<PathBuf>,

    /// Deck file to use instead of the 10 built-in decks: one deck a line,
    /// 24 card tokens (e.g. `TS 9h AC ...`); blank lines and # comments ignored.
    #[arg(long, value_name = "FILE")]
    decks: Option<PathBuf>,

    /// Print the results as JSON instead of tables.
    #[arg(long)]
    json: bool,

    /// Also write the report as one self-contained HTML page to FILE: the
    /// ranking, every game's board drawn as cards next to the best possible
    /// board of its deck, failures with the end of their stderr, the audit.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,

    #[command(flatten)]
    run: RunOptions,
}

/// Runs `poker eval`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // A real contest (secret decks) is sandboxed unless told otherwise.
    let default_mode = match args.decks {
        Some(_) => SandboxMode::On,
        None => SandboxMode::Auto,
    };
    let config = args.run.config(default_mode)?;
    let supervisor = evaluator::become_supervisor().context("cannot set up the evaluator")?;
    let decks = match &args.decks {
        Some(path) => decks::read_deck_file(path).map_err(anyhow::Error::msg)?,
        None => decks::builtin(),
    };
    let paths = if args.contestants.is_empty() {
        example_contestants()?
    } else {
        args.contestants.clone()
    };
    if let Some(warning) = &config.warning {
        eprintln!("poker: warning: {warning}");
    }
    let toolchain = args.run.toolchain(&config)?;
    let mut contestants: Vec<_> = paths
        .iter()
        .map(|p| toolchain.prepare(&supervisor, p))
        .collect();
    // Two contestants with one file name are told apart by their paths.
    let names: Vec<String> = contestants.iter().map(|c| c.name.clone()).collect();
    for c in contestants.iter_mut() {
        if names.iter().filter(|n| **n == c.name).count() > 1 {
            c.name = c.source.display().to_string();
        }
    }
    for c in &contestants {
        if let Err(why) = &c.program {
            eprintln!(
                "poker: warning: {} is not run (scored 0): {}",
                escape(&c.name),
                escape(why.lines().next().unwrap_or(""))
            );
        }
    }

    let bar = ProgressBar::new((contestants.len() * decks.len()) as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}")
            .expect("valid progress template"),
    );
    let on_game = |contestant: &Contestant, game: &GameResult| {
        bar.set_message(format!("{} deck {}", escape(&contestant.name), game.deck));
        bar.inc(1);
    };
    let results = evaluator::evaluate(&supervisor, &contestants, &decks, &config, on_game)
        .context("cannot run the evaluation")?;
    bar.finish_and_clear();

    let mut report = Report::new(results, &config);
    let digest = Sha256::digest(canonical_decks(&decks).as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    report.audit = Some(Audit::new(&contestants, &decks, hex));
    if let Some(path) = &args.html {
        let source = match &args.decks {
            Some(file) => file.display().to_string(),
            None => format!(
                "the built-in decks (poker decks --seed {})",
                decks::BUILTIN_SEED
            ),
        };
        std::fs::write(path, render::eval_page(&report, &decks, &source))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print!("{}", report.text());
    }
    Ok(ExitCode::SUCCESS)
}

/// Every .c file in the first of: ./c_examples, the installed examples
/// (PREFIX/share/libpoker/c_examples), the source tree's c_examples.
fn example_contestants() -> anyhow::Result<Vec<PathBuf>> {
    let installed = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("share/libpoker/c_examples")));
    let candidates = [
        Some(PathBuf::from("c_examples")),
        installed,
        Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("c_examples")),
    ];
    let dir = candidates
        .into_iter()
        .flatten()
        .find(|d| d.is_dir())
        .unwrap_or_else(|| PathBuf::from("c_examples"));
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .with_context(|| format!("no contestants given and cannot read {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    found.sort();
    if found.is_empty() {
        bail!("no contestants given and no .c files in {}", dir.display());
    }
    Ok(found)
}
