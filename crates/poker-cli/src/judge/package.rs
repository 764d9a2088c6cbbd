//! `poker package`: the contest as a Kattis problem package (legacy
//! format), for problemtools, Kattis and DOMjudge.

use super::files::{self, TemplateFile};
use super::kattis as judge;
use anyhow::Context;
use poker_core::contest::ContestDeck;
use poker_core::optimum::deck_optimum;
use poker_judge::evaluator::decks;
use poker_protocol::Request;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Write the contest as a Kattis problem package (legacy format) into DIR.
///
/// The package holds the statement, one sample deck, one secret test per
/// deck (the 10 built-in decks, or those of --decks), the input validator,
/// the interactor (this very `poker` program, run as `poker interact`; it
/// runs on x86-64 Linux with a glibc at least as new as the newest symbol
/// version it needs), the client files that give submissions POKER.H in C,
/// C++, Pascal and Python, and example submissions. DIR must not exist or
/// be empty. DIR/README.md tells the organiser how to check it (problemtools'
/// `verifyproblem -t 5 DIR`), what to set, and what DOMjudge needs.
#[derive(clap::Args)]
pub struct Args {
    /// The folder to write the package into (created; must be empty).
    dir: PathBuf,
    /// A deck file for the secret tests (e.g. from poker decks); default:
    /// the 10 built-in decks.
    #[arg(long, value_name = "FILE")]
    decks: Option<PathBuf>,
    /// The problem's name, as shown by the judge (printable text, at most
    /// 100 characters).
    #[arg(long, value_name = "NAME", default_value = "Poker American")]
    name: String,
}

/// Most points one game can score (four straight flushes).
const MAX_GAME_TOTAL: usize = 32;

/// Most secret decks a package takes: each is a test the judge plays for
/// every submission.
const MAX_DECKS: usize = 1000;

/// The sample test's deck: public, dealt from the seed before the built-in
/// decks' (the built-in deck i uses seed + i, i >= 1).
const SAMPLE_SEED: u64 = decks::BUILTIN_SEED;

/// Runs `poker package`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    check_name(&args.name)?;
    let secret = match &args.decks {
        Some(path) => decks::read_deck_file(path).map_err(anyhow::Error::msg)?,
        None => decks::builtin(),
    };
    anyhow::ensure!(
        secret.len() <= MAX_DECKS,
        "{} decks: a package takes at most {MAX_DECKS}",
        secret.len()
    );
    let interactor = std::env::current_exe().context("cannot find the running poker program")?;
    prepare_dir(&args.dir)?;
    write_package(&args.dir, &args.name, &secret, &interactor)
        .with_context(|| format!("cannot write the package into {}", args.dir.display()))?;
    eprintln!(
        "poker: wrote a problem package with {} secret decks into {}; check it with \
         `verifyproblem -t 5 {}` (5 s a game, as in the contest) and read {}",
        poker_core::numbers::count(secret.len()),
        args.dir.display(),
        args.dir.display(),
        args.dir.join("README.md").display()
    );
    Ok(ExitCode::SUCCESS)
}

fn check_name(name: &str) -> anyhow::Result<()> {
    anyhow::ensure!(!name.trim().is_empty(), "--name: the name is empty");
    anyhow::ensure!(
        name.chars().count() <= 100,
        "--name: longer than 100 characters"
    );
    anyhow::ensure!(
        !name.chars().any(char::is_control),
        "--name: the name holds a control character"
    );
    Ok(())
}

/// Creates `dir`, or accepts an existing empty one.
fn prepare_dir(dir: &Path) -> anyhow::Result<()> {
    match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            anyhow::ensure!(
                entries.next().is_none(),
                "{} is not empty: give a new or empty folder",
                dir.display()
            );
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))
        }
        Err(e) => Err(e).with_context(|| format!("cannot read {}", dir.display())),
    }
}

fn write_package(
    dir: &Path,
    name: &str,
    secret: &[ContestDeck],
    interactor: &Path,
) -> anyhow::Result<()> {
    let max_score = MAX_GAME_TOTAL * secret.len();
    put(dir, "problem.yaml", &problem_yaml(name), false)?;
    let program = std::fs::read(interactor)
        .with_context(|| format!("cannot read {}", interactor.display()))?;
    let glibc = super::glibc_floor::glibc_floor(&program)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("cannot read the glibc {} needs", interactor.display()))?;
    put(
        dir,
        "README.md",
        &readme(dir, name, secret.len(), glibc.as_deref()),
        false,
    )?;
    put(dir, "domjudge-problem.ini", files::DOMJUDGE_INI, false)?;
    let statement = files::STATEMENT.replace("@NAME@", &tex_escape(name));
    put(dir, "problem_statement/problem.en.tex", &statement, false)?;

    put(
        dir,
        "data/testdata.yaml",
        &format!(
            "# The sample is played and shown, but only the secret decks count.\n\
             on_reject: continue\ngrader_flags: ignore_sample sum\nrange: 0 {max_score}\n"
        ),
        false,
    )?;
    let group = |max: usize| {
        format!(
            "# Every deck is played; a deck lost to a broken rule, a crash or the\n\
             # time limit scores 0 and the others still count (the sum of the totals).\n\
             on_reject: continue\ngrader_flags: accept_if_any_accepted sum\nrange: 0 {max}\n"
        )
    };
    put(
        dir,
        "data/sample/testdata.yaml",
        &group(MAX_GAME_TOTAL),
        false,
    )?;
    put(dir, "data/secret/testdata.yaml", &group(max_score), false)?;
    let sample = ContestDeck::shuffled(SAMPLE_SEED);
    write_test(dir, "data/sample/1", &sample)?;
    put(
        dir,
        "data/sample/1.interaction",
        &sample_interaction(&sample)?,
        false,
    )?;
    let width = secret.len().to_string().len().max(2);
    for (i, deck) in secret.iter().enumerate() {
        write_test(dir, &format!("data/secret/deck{:0width$}", i + 1), deck)?;
    }

    for validator in ["input_validators/deck", "output_validators/interactor"] {
        let target = dir.join(validator).join("poker");
        std::fs::create_dir_all(dir.join(validator))?;
        std::fs::copy(interactor, &target)
            .with_context(|| format!("cannot copy {}", interactor.display()))?;
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755))?;
        put(
            dir,
            &format!("{validator}/build"),
            files::BUILD_SCRIPT,
            true,
        )?;
    }
    put(
        dir,
        "input_validators/deck/run",
        files::INPUT_VALIDATOR_RUN,
        true,
    )?;
    put(
        dir,
        "output_validators/interactor/run",
        files::INTERACTOR_RUN,
        true,
    )?;

    for TemplateFile { path, text } in files::TEMPLATES {
        put(dir, path, text, false)?;
    }
    Ok(())
}

/// The organiser's README.md of a package in `dir` with `decks` secret
/// decks: how to check it, what to set, DOMjudge's missing `include/`, and
/// where its programs run (this machine's architecture; `glibc`, the
/// newest glibc version the interactor needs, `None` for a static one).
fn readme(dir: &Path, name: &str, decks: usize, glibc: Option<&str>) -> String {
    let folder = dir.file_name().map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    files::README
        .replace("@NAME@", name)
        .replace("@VERSION@", env!("CARGO_PKG_VERSION"))
        .replace("@DECKS@", &decks.to_string())
        .replace("@DIR@", &folder)
        .replace("@ARCH@", std::env::consts::ARCH)
        .replace(
            "@GLIBC@",
            &match glibc {
                Some(version) => format!(
                    "with glibc {version} or newer (the newest glibc symbol version it needs)"
                ),
                None => "with any C library (it is statically linked)".to_string(),
            },
        )
}

/// Writes `text` to `dir/path`, creating folders; `executable` sets 0755.
fn put(dir: &Path, path: &str, text: &str, executable: bool) -> anyhow::Result<()> {
    let target = dir.join(path);
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    std::fs::write(&target, text).with_context(|| format!("cannot write {}", target.display()))?;
    if executable {
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

/// A test: the deck as the input, its hindsight optimum as the (unused)
/// answer, for the jury's information.
fn write_test(dir: &Path, stem: &str, deck: &ContestDeck) -> anyhow::Result<()> {
    put(
        dir,
        &format!("{stem}.in"),
        &super::kattis::test_input(deck),
        false,
    )?;
    put(
        dir,
        &format!("{stem}.ans"),
        &format!("{}\n", deck_optimum(deck).total),
        false,
    )
}

fn problem_yaml(name: &str) -> String {
    let quoted: String = name
        .chars()
        .flat_map(|c| match c {
            '"' => vec!['\\', '"'],
            '\\' => vec!['\\', '\\'],
            c => vec![c],
        })
        .collect();
    let uuid = uuid_v4(rand::random());
    format!(
        "# Written by `poker package` (libpoker {version}).\n\
         name: \"{quoted}\"\n\
         uuid: {uuid}\n\
         type: scoring\n\
         source: Poker American, a Romanian programming contest of 1994\n\
         # The statement restates a contest text whose rights holder is not\n\
         # known: set the licence that applies to your contest.\n\
         license: unknown\n\
         validation: custom interactive score\n\
         limits:\n  memory: 256\n",
        version = env!("CARGO_PKG_VERSION")
    )
}

/// A random (version 4) UUID from 128 random bits.
fn uuid_v4(bits: u128) -> String {
    let bits = (bits & !(0xf << 76) | (0x4 << 76)) & !(0x3 << 62) | (0x2 << 62);
    let hex = format!("{bits:032x}");
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

fn tex_escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '#' | '$' | '%' | '&' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// The sample's conversation, as a round-robin player has it with the
/// interactor: `>` lines are the submission's requests, `<` lines the
/// replies. Played by the interactor's own game ([`judge::interact`]).
fn sample_interaction(deck: &ContestDeck) -> anyhow::Result<String> {
    let mut requests = vec![Request::StartGame.encode()];
    for i in 0..20 {
        requests.push(Request::Look.encode());
        requests.push(Request::Place(i % 4 + 1).encode());
    }
    let played = judge::interact(*deck, requests.iter().map(String::as_bytes));
    anyhow::ensure!(
        matches!(played.verdict, judge::JudgeVerdict::Accepted { .. }),
        "the sample game was refused: {:?}",
        played.verdict
    );
    Ok(requests
        .iter()
        .zip(&played.replies)
        .map(|(request, reply)| format!(">{request}<{reply}"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_have_the_version_4_layout() {
        for bits in [0u128, u128::MAX, 0x0123_4567_89ab_cdef_0123_4567_89ab_cdef] {
            let uuid = uuid_v4(bits);
            let groups: Vec<&str> = uuid.split('-').collect();
            assert_eq!(
                groups.iter().map(|g| g.len()).collect::<Vec<_>>(),
                [8, 4, 4, 4, 12]
            );
            assert!(groups[2].starts_with('4'), "{uuid}");
            assert!("89ab".contains(&groups[3][..1]), "{uuid}");
        }
    }

    #[test]
    fn tex_specials_are_escaped() {
        assert_eq!(tex_escape("A&B_1 50%"), "A\\&B\\_1 50\\%");
    }
}
