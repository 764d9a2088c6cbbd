//! `poker eval`: contestants over the fixed test decks, scored and ranked.

use crate::progress;
use crate::render;
use crate::report::{Audit, Report, canonical_decks, escape};
use crate::run_options::RunOptions;
use anyhow::{Context, bail};
use poker_judge::evaluator::contestant::CPP_EXTENSIONS;
use poker_judge::evaluator::{self, Contestant, GameResult, SandboxMode, decks};
use sha2::{Digest, Sha256};
use std::os::unix::fs::PermissionsExt;
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
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Contestants: executables linked against libpoker, .c files (compiled
    /// with $CC, default cc), .cpp, .cc, .cxx or .C files (compiled with
    /// $CXX, default c++) or .pas files (compiled with $FPC, default fpc,
    /// "uses Poker;") to build against it first, or .py scripts (run with
    /// python3 and the libpoker module); see below. Default: every .c file
    /// in ./c_examples (or the examples installed with poker, or shipped in
    /// its Python wheel).
    #[arg(value_name = "CONTESTANT")]
    contestants: Vec<PathBuf>,

    /// Deck file to use instead of the 10 built-in decks: one deck a line,
    /// 24 card tokens (e.g. "TS 9h AC ..."); blank lines and # comments ignored.
    #[arg(long, value_name = "FILE")]
    decks: Option<PathBuf>,

    /// Print the results as JSON instead of tables.
    #[arg(long)]
    json: bool,

    /// Exit with status 1 when any contestant was not run (it does not
    /// compile, its compiler or interpreter is missing, ...). Without it such
    /// a contestant scores 0 and the evaluation still succeeds.
    #[arg(long)]
    strict: bool,

    /// Hide the progress bar.
    #[arg(long)]
    quiet: bool,

    /// Start each contestant once, as a fork server whose library forks a
    /// child per game, instead of a fresh process per game (the default,
    /// as in the contest). Faster, but a server's games share what its
    /// program did before p_startgame (see docs/protocol.md), so they are
    /// not a contest's games: refused with --decks. Each contestant's games
    /// are played as one block.
    #[arg(long)]
    fork_server: bool,
    /// Also write the report as one self-contained HTML page to FILE: the
    /// ranking, every game's board drawn as cards next to the best possible
    /// board of its deck, failures with the end of their stderr, the audit.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,

    /// Seed of the order the games are played in: shuffled across
    /// contestants and decks, so no contestant knows whose game follows its
    /// own. Default: random; the audit records the seed used.
    #[arg(long, value_name = "N")]
    order_seed: Option<u64>,

    #[command(flatten)]
    run: RunOptions,
}

const AFTER_HELP: &str = "\
How sources are compiled (each alone in a fresh folder, in the sandbox when
it is on; a source that does not compile is \"not run\" and scores 0):
  .c                   $CC -O2 -o PROGRAM SOURCE -I<header-dir> -L<lib-dir> -lpoker -Wl,--disable-new-dtags -Wl,-rpath,<lib-dir> -lm
  .cpp, .cc, .cxx, .C  $CXX -O2 -std=c++17 -o PROGRAM SOURCE -I<header-dir> -L<lib-dir> -lpoker -Wl,--disable-new-dtags -Wl,-rpath,<lib-dir> -lm
  .pas, .pp            $FPC -O2 -v0 -Fu<unit-dir> -FU<build-dir> -Fl<lib-dir> -k-rpath=<lib-dir> -k--disable-new-dtags -oPROGRAM SOURCE
  .py                  python3 SCRIPT, with the libpoker module on PYTHONPATH and LIBPOKER=<lib-dir>/libpoker.so
$CC defaults to cc, $CXX to c++ and $FPC to fpc; <lib-dir> is --lib-dir (default: the
folder of libpoker.so next to poker); the header (poker.h) and the Pascal
unit (poker.pas) are this libpoker's own copies.
Any other file must be an executable linked against libpoker.

Examples:
  poker eval                                   the example contestants, 10 built-in decks
  poker eval mine.c greedy.py ./prog           a source of each kind and an executable
  poker eval --decks secret.txt --strict *.c   a contest: secret decks, fail if one is not run";

/// Why `--fork-server` is refused with `--decks` (a contest's decks).
const FORK_SERVER_IS_NO_CONTEST: &str = "--fork-server cannot be used with --decks: \
the games of one fork server share what its program did before p_startgame (memory mapped \
shared, the server's /tmp, its System V objects, its open descriptors), which nothing inside \
the program's process can take away, so they are not independent games as a contest's are. \
A contest plays each game in a fresh process, poker eval's default: leave out --fork-server. \
To measure a program quickly, use --fork-server with the built-in decks, or poker bench.";

/// Checks, before anything runs, that `path` can be a contestant: an
/// existing file that is a C, C++, Pascal or Python source or an executable.
fn check_contestant(path: &Path) -> anyhow::Result<()> {
    let shown = path.display();
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            bail!("contestant {shown} does not exist")
        }
        Err(e) => bail!("contestant {shown}: {e}"),
    };
    if meta.is_dir() {
        bail!("contestant {shown} is a folder, not a program or a source file");
    }
    let source = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e, "c" | "pas" | "pp" | "py") || CPP_EXTENSIONS.contains(&e));
    if !meta.is_file() || !(source || meta.permissions().mode() & 0o111 != 0) {
        bail!(
            "contestant {shown} is neither a .c, .cpp, .cc, .cxx, .C, .pas, .pp or .py source \
             nor an executable file"
        );
    }
    Ok(())
}

/// Checks that no file is given twice (under two spellings, or by an
/// overlapping pattern): it would be played and ranked twice under one
/// name.
fn check_distinct(paths: &[PathBuf]) -> anyhow::Result<()> {
    let mut seen: Vec<(PathBuf, &PathBuf)> = Vec::new();
    for path in paths {
        let file = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        if let Some((_, first)) = seen.iter().find(|(f, _)| *f == file) {
            bail!(
                "contestant {} is given twice (as {} and {})",
                file.display(),
                first.display(),
                path.display()
            );
        }
        seen.push((file, path));
    }
    Ok(())
}

/// Runs `poker eval`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // A path that cannot be a contestant is the user's mistake, not a
    // contestant's: say so before running anything.
    for path in &args.contestants {
        check_contestant(path)?;
    }
    check_distinct(&args.contestants)?;
    if args.fork_server && args.decks.is_some() {
        bail!("{FORK_SERVER_IS_NO_CONTEST}");
    }
    // A real contest (secret decks) is sandboxed unless told otherwise.
    let default_mode = match args.decks {
        Some(_) => SandboxMode::On,
        None => SandboxMode::Auto,
    };
    let mut config = args.run.config(default_mode)?;
    if let Some(seed) = args.order_seed {
        config.order_seed = seed;
    }
    config.fork_server = args.fork_server;
    if let Some(path) = &args.html {
        crate::output_file::check_writable(path)?;
    }
    let supervisor = evaluator::become_supervisor().context("cannot set up the evaluator")?;
    let decks = match &args.decks {
        Some(path) => decks::read_deck_file(path).map_err(anyhow::Error::msg)?,
        None => decks::builtin(),
    };
    // Held from the first compilation to the last game.
    let _lease = crate::lease::take(&config)?;
    let toolchain = args.run.toolchain(&config)?;
    let paths = if args.contestants.is_empty() {
        example_contestants(&toolchain.lib_dir)?
    } else {
        args.contestants.clone()
    };
    if let Some(warning) = &config.warning {
        eprintln!("poker: warning: {warning}");
    }
    let mut contestants: Vec<_> = paths
        .iter()
        .map(|p| toolchain.prepare(&supervisor, p))
        .collect();
    // Contestants sharing a file stem are told apart by the shortest name
    // that does it (greedy.c and greedy.pas; a/greedy.c and b/greedy.c).
    let names = crate::report::names::shortest_unique(&paths);
    for (c, name) in contestants.iter_mut().zip(names) {
        toolchain.rename(c, name);
    }
    for c in &contestants {
        if let Err(why) = &c.program {
            eprintln!(
                "poker: warning: {} is not run (scored 0): {}",
                escape(&c.name),
                escape(&first_line(&why.to_string()))
            );
        }
    }

    // A game takes at most its time limit and about a second more (the
    // evaluator's grace and clean-up).
    let bar = progress::bounded_bar(
        (contestants.len() * decks.len()) as u64,
        "games",
        args.quiet,
        config.limits.wall + std::time::Duration::from_secs(1),
    );
    let on_game = |contestant: &Contestant, game: &GameResult| {
        bar.set_message(format!("{} deck {}", escape(&contestant.name), game.deck));
        bar.inc(1);
    };
    // The machine as it is before the games (poker doctor's checks).
    let environment = poker_judge::doctor::examine(
        &args
            .run
            .cpus()
            .map_or_else(evaluator::affinity::allowed_cpus, <[usize]>::to_vec),
    );
    let run = evaluator::evaluate(&supervisor, &contestants, &decks, &config, on_game)
        .context("cannot run the evaluation")?;
    bar.finish_and_clear();

    let mut report = Report::new(run);
    let digest = Sha256::digest(canonical_decks(&decks).as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    let mut audit = Audit::new(&contestants, &decks, hex, config.order_seed);
    audit.environment = environment;
    report.audit = Some(audit);
    // The report first: should the page fail after all, it is not lost.
    if args.json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        print!("{}", report.text());
    }
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
    let not_run = report
        .run
        .contestants
        .iter()
        .filter(|c| c.not_run.is_some())
        .count();
    if args.strict && not_run > 0 {
        eprintln!("poker: error: {not_run} contestant(s) not run (--strict)");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The first line of a reason; when it ends in a colon ("x.c does not
/// compile:"), with the first line after it that is an error (the
/// compiler's diagnostic: gcc's `error:`, fpc's `Error:` or `Fatal:`; a
/// word "error" in the file's path is none), else the line after it.
fn first_line(why: &str) -> String {
    let mut lines = why.lines();
    let first = lines.next().unwrap_or("").to_string();
    let rest: Vec<&str> = lines.collect();
    let is_error = |line: &str| {
        let line = line.to_lowercase();
        line.contains("error:") || line.contains("fatal:")
    };
    let detail = rest.iter().find(|l| is_error(l)).or(rest.first());
    match detail {
        Some(detail) if first.ends_with(':') => format!("{first} {}", detail.trim()),
        _ => first,
    }
}

/// Every .c file in the first of: ./c_examples, the Python wheel's
/// (`c_examples` beside its library, `lib_dir`), the installed examples
/// (PREFIX/share/libpoker/c_examples), the source tree's c_examples.
fn example_contestants(lib_dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let installed = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("share/libpoker/c_examples")));
    let candidates = [
        Some(PathBuf::from("c_examples")),
        Some(lib_dir.join("c_examples")),
        installed,
        Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../c_examples")),
    ];
    let Some(dir) = candidates.into_iter().flatten().find(|d| d.is_dir()) else {
        bail!(
            "no contestants given, and no example contestants (c_examples) here: \
             name the programs or sources to evaluate, e.g. `poker eval mine.c theirs.py`"
        );
    };
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

#[cfg(test)]
mod tests {
    use super::first_line;

    #[test]
    fn the_warning_names_the_compilers_error_not_a_path_with_error_in_it() {
        // gcc's diagnostic for `return missing;` in a folder named errors/.
        let why = "errors/x.c does not compile:\n\
                   errors/x.c: In function 'main':\n\
                   errors/x.c:1:25: error: 'missing' undeclared (first use in this function)\n";
        assert_eq!(
            first_line(why),
            "errors/x.c does not compile: errors/x.c:1:25: error: 'missing' undeclared (first use in this function)"
        );
        // fpc's.
        let why = "x.pas does not compile:\nx.pas(3,5) Error: Identifier not found \"missing\"\n";
        assert_eq!(
            first_line(why),
            "x.pas does not compile: x.pas(3,5) Error: Identifier not found \"missing\""
        );
    }
}
