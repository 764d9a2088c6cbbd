//! The census behind the games' seccomp allow-list: every shipped example
//! and test contestant (C, C++ built with g++ (cpp_examples and tests/contestants/census/*.cpp), Free Pascal with the units
//! of tests/contestants/census/units.pas, Python with the standard-library
//! modules of tests/contestants/census/stdlib.py), in
//! fresh processes and as fork servers, runs in the sandbox under
//! `strace -f`; each must end as it ends unconfined (same status, same
//! score), and no process of a game may make a call the filter answers
//! with an error: the test names each such call. Run with `--nocapture` to
//! see the census (the calls of each language, with their counts).
//!
//! Needs bubblewrap, strace, g++ and fpc: the test fails, not skips,
//! without them.

use crate::common;
use crate::common::tier::{self, needs};
use poker_judge::sandbox::calls::{REFUSED_ON_PURPOSE, game_calls};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The contest text's worked-example deck.
const DECK: &str = "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH";

/// What the games of one traced evaluation called.
#[derive(Default)]
struct Census {
    /// Each call's name and how often the games made it.
    calls: BTreeMap<String, usize>,
    /// Calls the filter refused, `NAME: RESULT`, with a line that made it.
    refused: BTreeMap<String, String>,
    /// Calls refused on purpose ([`REFUSED_ON_PURPOSE`]) that were made.
    refused_on_purpose: BTreeSet<String>,
}

/// Whether the reaper's program is a compiler (the census is of games).
fn is_compiler(program: &str) -> bool {
    let name = program.rsplit('/').next().unwrap_or(program);
    ["gcc", "g++", "fpc", "ppc"]
        .iter()
        .any(|c| name.contains(c))
        || name == "cc"
        || name == "c++"
}

/// The quoted strings of an strace line, in order.
fn quoted(line: &str) -> Vec<&str> {
    line.split('"').skip(1).step_by(2).collect()
}

/// The child's pid in a `clone`/`fork`/`vfork` line: strace's own number
/// (`= 2 /* 41234 in strace's PID NS */`) when the caller is in another
/// pid namespace.
fn child_pid(line: &str) -> Option<u32> {
    let (_, result) = line.rsplit_once(" = ")?;
    match result.split_once("/* ") {
        Some((_, rest)) => rest.split_whitespace().next()?.parse().ok(),
        None => result.split_whitespace().next()?.parse().ok(),
    }
}

/// Reads `strace -ff -o DIR/t` files: the calls of every game process,
/// from the reaper's start (bubblewrap installs the filter just before)
/// and of all its descendants.
fn read_census(dir: &Path) -> Census {
    let mut lines: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(pid) = name.strip_prefix("t.").and_then(|p| p.parse().ok()) {
            let text = std::fs::read(entry.path()).unwrap();
            let text = String::from_utf8_lossy(&text);
            lines.insert(pid, text.lines().map(str::to_owned).collect());
        }
    }
    // pid -> index of its first filtered line.
    let mut from: BTreeMap<u32, usize> = BTreeMap::new();
    for (&pid, ls) in &lines {
        if let Some(i) = ls
            .iter()
            .position(|l| l.starts_with("execve(\"/run/poker/reaper\""))
        {
            let args = quoted(&ls[i]);
            if !args.get(3).is_some_and(|p| is_compiler(p)) {
                from.insert(pid, i);
            }
        }
    }
    let mut todo: Vec<u32> = from.keys().copied().collect();
    while let Some(pid) = todo.pop() {
        for line in &lines[&pid][from[&pid]..] {
            let forks = ["clone(", "fork(", "vfork("];
            if forks.iter().any(|f| line.starts_with(f)) {
                if let Some(child) = child_pid(line).filter(|c| lines.contains_key(c)) {
                    if from.insert(child, 0).is_none() {
                        todo.push(child);
                    }
                }
            }
        }
    }
    let listed: BTreeSet<&str> = game_calls().iter().map(|c| c.name).collect();
    let mut census = Census::default();
    for (pid, start) in from {
        for line in &lines[&pid][start..] {
            let Some((name, _)) = line.split_once('(') else {
                continue;
            };
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue; // "--- SIGCHLD ...", "+++ exited ..."
            }
            *census.calls.entry(name.to_owned()).or_default() += 1;
            let result = line.rsplit_once(" = ").map_or("", |(_, r)| r);
            // clone3 is answered ENOSYS on purpose: the C library then
            // falls back to clone.
            let fallback = name == "clone3" && result.starts_with("-1 ENOSYS");
            let refused = result.starts_with("-1 EPERM") || result.starts_with("-1 ENOSYS");
            if REFUSED_ON_PURPOSE.iter().any(|(n, _)| *n == name) {
                census
                    .refused_on_purpose
                    .insert(format!("{name}: {result}"));
            } else if (refused || !listed.contains(name)) && !fallback {
                census
                    .refused
                    .entry(format!("{name}: {result}"))
                    .or_insert_with(|| line.clone());
            }
        }
    }
    census
}

/// `poker eval --json --sandbox MODE --decks DECK --wall-limit T EXTRA --
/// CONTESTANTS`, under `strace -ff` into `trace` when given; on the
/// built-in decks instead of DECK when `built_in_decks` (as fork servers
/// must play: a deck file refuses them, since a server's games are no
/// contest's).
fn eval(
    dir: &Path,
    mode: &str,
    trace: Option<&Path>,
    (extra, built_in_decks): (&[&str], bool),
    contestants: &[PathBuf],
) -> Value {
    let deck = dir.join("deck.txt");
    std::fs::write(&deck, format!("{DECK}\n")).unwrap();
    let poker = common::poker();
    let mut cmd = match trace {
        Some(out) => {
            let _ = std::fs::remove_dir_all(out);
            std::fs::create_dir_all(out).unwrap();
            let mut c = Command::new("strace");
            c.env(common::SIDE_BY_SIDE.0, common::SIDE_BY_SIDE.1)
                .args(["-ff", "-qq", "--pidns-translation", "-s", "64", "-o"])
                .arg(out.join("t"))
                .arg(poker.get_program())
                .current_dir(common::root());
            c
        }
        None => poker,
    };
    cmd.args(["eval", "--json", "--sandbox", mode, "--lib-dir"])
        .arg(common::lib_dir())
        .args(if built_in_decks {
            vec![]
        } else {
            vec!["--decks".as_ref(), deck.as_os_str()]
        })
        // Tracing slows a game down (flood.c's 128 MiB of output most):
        // traced games get the contest's 5 s.
        .args(["--wall-limit", if trace.is_some() { "5" } else { "1" }])
        .args(extra)
        .arg("--")
        .args(contestants)
        .stdin(Stdio::null());
    let out = cmd.output().expect("run poker eval");
    assert!(
        out.status.success(),
        "poker eval --sandbox {mode} failed: {}",
        common::stderr(&out)
    );
    serde_json::from_slice(&out.stdout).expect("poker eval --json prints JSON")
}

/// Each contestant's `(status, score)` of its game, by name.
fn results(json: &Value) -> BTreeMap<String, (String, u64)> {
    json["contestants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let name = c["name"].as_str().unwrap().to_owned();
            assert!(c["not_run"].is_null(), "{name} not run: {c}");
            let game = &c["tests"][0];
            let status = game["status"].as_str().unwrap().to_owned();
            (name, (status, game["score"].as_u64().unwrap_or(0)))
        })
        .collect()
}

/// `source` built as the evaluator would build it (C with cc, C++ with
/// g++ -std=c++17, Pascal with fpc) into `bin/STEM_EXT`, so that the traced
/// evaluations run games only (a compiler's calls are not the census's,
/// and tracing them would take most of the time); a Python script as it is.
fn built(dir: &Path, source: &Path) -> PathBuf {
    let ext = source.extension().unwrap().to_str().unwrap();
    let stem = source.file_stem().unwrap().to_str().unwrap();
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let exe = bin.join(format!("{stem}_{ext}"));
    let lib = common::lib_dir();
    let (compiler, flags): (&str, &[&str]) = match ext {
        "py" => return source.to_path_buf(),
        "pas" => {
            let work = dir.join(format!("pas-{stem}"));
            std::fs::create_dir_all(&work).unwrap();
            let program = common::compile_pascal_file(source, &work, &["-O2"]);
            std::fs::copy(program, &exe).unwrap();
            return exe;
        }
        "cpp" => ("g++", &["-O2", "-std=c++17"]),
        _ => ("cc", &["-O2"]),
    };
    let out = Command::new(compiler)
        .args(flags)
        .arg("-o")
        .arg(&exe)
        .arg(source)
        .arg(format!("-I{}", common::root().join("include").display()))
        .arg(format!("-L{}", lib.display()))
        .arg("-lpoker")
        .arg("-Wl,--disable-new-dtags")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-lm")
        .output()
        .unwrap_or_else(|e| panic!("run {compiler}: {e}"));
    assert!(
        out.status.success(),
        "{compiler} {}: {}",
        source.display(),
        common::stderr(&out)
    );
    exe
}

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(common::root().join(dir))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    found.sort();
    found
}

// Every shipped example and test contestant, by language, fresh and as a
// fork server; expected: the status and score each gets unconfined, and no
// call refused.
#[test]
fn every_shipped_contestant_runs_under_the_allow_list_as_it_runs_unconfined() {
    needs!(tier::SANDBOX, tier::STRACE, tier::PASCAL, tier::CPP);
    let dir = common::scratch("syscall_census");
    let mut c = files("c_examples", "c");
    c.extend(files("tests/contestants", "c"));
    let mut pascal = files("pascal_examples", "pas");
    pascal.extend(files("tests/contestants/census", "pas"));
    let mut python = files("python_examples", "py");
    python.push(common::root().join("tests/contestants/census/stdlib.py"));
    let mut cpp = files("cpp_examples", "cpp");
    cpp.extend(files("tests/contestants/census", "cpp"));
    let languages: Vec<(&str, Vec<PathBuf>)> = [
        ("C", c),
        ("C++", cpp),
        ("Pascal", pascal),
        ("Python", python),
    ]
    .into_iter()
    .map(|(name, sources)| (name, sources.iter().map(|s| built(&dir, s)).collect()))
    .collect();
    let all: Vec<PathBuf> = languages.iter().flat_map(|(_, l)| l.clone()).collect();
    // Unconfined, in fresh processes: what each must get in the sandbox.
    let expected = results(&eval(&dir, "off", None, (&[], false), &all));
    // Every example as a fork server (the misbehaving test contestants
    // would only be given up as servers and played fresh).
    let test_contestants: Vec<PathBuf> = files("tests/contestants", "c")
        .iter()
        .map(|s| built(&dir, s))
        .collect();
    let servers: Vec<PathBuf> = all
        .iter()
        .filter(|p| !test_contestants.contains(p))
        .cloned()
        .collect();
    // The servers play the built-in decks: each one's first game, as a
    // fresh process plays it unconfined, is what it must get.
    let expected_servers = results(&eval(&dir, "off", None, (&[], true), &servers));
    type Run<'a> = (
        &'a str,
        &'a [&'a str],
        Vec<PathBuf>,
        &'a BTreeMap<String, (String, u64)>,
    );
    let runs: Vec<Run> = languages
        .iter()
        .map(|(name, list)| (*name, &[][..], list.clone(), &expected))
        .chain([(
            "fork servers",
            &["--fork-server"][..],
            servers,
            &expected_servers,
        )])
        .collect();
    let mut failures = Vec::new();
    for (name, extra, contestants, expected) in runs {
        let trace = dir.join(format!("trace-{}", name.replace(' ', "-")));
        let built_in_decks = !extra.is_empty();
        let json = eval(
            &dir,
            "on",
            Some(&trace),
            (extra, built_in_decks),
            &contestants,
        );
        let census = read_census(&trace);
        assert!(
            census.calls.contains_key("execve"),
            "{name}: no game traced in {}",
            trace.display()
        );
        eprintln!(
            "census {name}: {} calls: {}",
            census.calls.len(),
            census
                .calls
                .iter()
                .map(|(c, n)| format!("{c} {n}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        eprintln!("  refused on purpose: {:?}", census.refused_on_purpose);
        for (refused, line) in &census.refused {
            failures.push(format!("{name}: the filter refused {refused}   [{line}]"));
        }
        for (contestant, got) in results(&json) {
            if expected.get(&contestant) != Some(&got) {
                failures.push(format!(
                    "{name}: {contestant} got {got:?} in the sandbox, {:?} unconfined",
                    expected.get(&contestant)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
