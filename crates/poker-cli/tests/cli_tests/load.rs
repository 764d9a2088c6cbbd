//! Load: `poker bench` with two games at once (through the fork server and
//! in fresh processes) against one at a time on the same decks (identical
//! statistics, no game lost), and `poker eval` over many contestants (every
//! row present, each contestant's totals equal to its totals when evaluated
//! alone), with the evaluator's peak memory (VmHWM, polled from /proc while
//! it runs) under a bound.
//!
//! CI runs a small version. The full one, for the notes:
//! `POKER_LOAD_GAMES=20000 POKER_LOAD_CONTESTANTS=50 cargo test --release
//! --test cli_tests -- load:: --nocapture --test-threads=1`
//! (POKER_LOAD_SANDBOX=off for plain processes; the default lets `poker`
//! choose: the sandbox when bubblewrap works).

use crate::common;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// The evaluator's peak resident memory stays under this many KiB (it holds
/// the decks, one game per contestant at a time and the results: about
/// 10 MiB for `bench --jobs 2` on 600 games, in fresh processes or not).
const VMHWM_BOUND_KIB: u64 = 64 * 1024;

fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn sandbox() -> Vec<String> {
    match std::env::var("POKER_LOAD_SANDBOX") {
        Ok(mode) => vec!["--sandbox".into(), mode],
        Err(_) => vec![],
    }
}

/// Runs `poker args...`, polling its VmHWM; returns its JSON output, its
/// peak memory in KiB and the seconds it took.
fn poker(args: &[String]) -> (Value, u64, f64) {
    let start = Instant::now();
    let mut child = crate::common::poker()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start poker");
    let status_file = format!("/proc/{}/status", child.id());
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut { stdout }, &mut text).unwrap();
        text
    });
    let stderr = child.stderr.take().unwrap();
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut { stderr }, &mut text).unwrap();
        text
    });
    let mut peak = 0;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_file) {
            if let Some(kib) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak = peak.max(kib);
            }
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let text = reader.join().unwrap();
    let errors = errors.join().unwrap();
    assert!(status.success(), "poker {args:?}: {status}\n{errors}");
    let json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (json, peak, start.elapsed().as_secs_f64())
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// The example contestants, compiled for the test `tag` (the tests run at
/// once).
fn examples(tag: &str) -> Vec<PathBuf> {
    ["roundrobin", "greedy"]
        .iter()
        .map(|name| {
            let src = common::root().join(format!("c_examples/{name}.c"));
            common::compile_c_file(&format!("load_{tag}_{name}"), &src, &["-std=c99", "-O2"])
        })
        .collect()
}

#[test]
fn two_games_at_a_time_give_the_same_statistics_as_one() {
    let games = setting("POKER_LOAD_GAMES", 300).to_string();
    let exe = examples("bench")[1].to_str().unwrap().to_string();
    let run = |options: &[&str]| {
        let mut args = strings(&["bench", "--json", "--games", &games, "--seed", "7"]);
        args.extend(strings(options));
        args.extend(sandbox());
        args.push(exe.clone());
        let (json, peak, secs) = poker(&args);
        eprintln!("bench {games} games {options:?}: {secs:.1} s, VmHWM {peak} KiB");
        assert!(peak < VMHWM_BOUND_KIB, "{options:?}: VmHWM {peak} KiB");
        json
    };
    let one = run(&["--jobs", "1"]);
    assert_eq!(one["games"].as_u64(), Some(games.parse().unwrap()));
    assert_eq!(one["failed"], 0, "{one}");
    // Two at a time through the fork server, then as the contest plays
    // them (each game a fresh process, a guard and a jail of its own).
    for two in [
        run(&["--jobs", "2"]),
        run(&["--jobs", "2", "--fresh-processes"]),
    ] {
        for key in ["games", "failed", "min", "max"] {
            assert_eq!(one[key], two[key], "{key}: {one} vs {two}");
        }
        // Totals: the means over the same number of games, summed in any order.
        let n = one["games"].as_f64().unwrap();
        for key in ["mean", "mean_best_possible", "sd"] {
            let (a, b) = (one[key].as_f64().unwrap(), two[key].as_f64().unwrap());
            assert!((a - b).abs() * n < 1e-6, "{key}: {a} vs {b}");
        }
    }
}

#[test]
fn many_contestants_are_all_ranked_with_their_own_totals() {
    let count = setting("POKER_LOAD_CONTESTANTS", 6);
    let dir = common::scratch("load");
    let examples = examples("eval");
    let contestants: Vec<String> = (0..count)
        .map(|i| {
            let path = dir.join(format!("contestant{i:02}"));
            std::fs::copy(&examples[i % examples.len()], &path).unwrap();
            path.to_str().unwrap().to_string()
        })
        .collect();
    let mut args = strings(&["eval", "--json"]);
    args.extend(sandbox());
    args.extend(contestants.iter().cloned());
    let (all, peak, secs) = poker(&args);
    eprintln!("eval {count} contestants x 10 decks: {secs:.1} s, evaluator VmHWM {peak} KiB");
    let rows = all["contestants"].as_array().unwrap();
    assert_eq!(rows.len(), count, "{all}");
    for path in &contestants {
        let row = rows
            .iter()
            .find(|r| r["path"] == path.as_str())
            .unwrap_or_else(|| panic!("no row for {path}"));
        let tests = row["tests"].as_array().unwrap();
        assert_eq!(tests.len(), 10, "{row}");
        assert!(tests.iter().all(|t| t["status"] == "ok"), "{row}");
        let sum: u64 = tests.iter().map(|t| t["score"].as_u64().unwrap()).sum();
        assert_eq!(row["total"].as_u64(), Some(sum));
        let mut alone = strings(&["eval", "--json"]);
        alone.extend(sandbox());
        alone.push(path.clone());
        let (alone, _, _) = poker(&alone);
        let alone = &alone["contestants"][0];
        assert_eq!(alone["total"], row["total"], "{path}");
        let scores = |r: &Value| -> Vec<Value> {
            r["tests"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["score"].clone())
                .collect()
        };
        assert_eq!(scores(alone), scores(row), "{path}");
    }
    assert!(peak < VMHWM_BOUND_KIB, "evaluator VmHWM {peak} KiB");
}
