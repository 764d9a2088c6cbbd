//! Work units of a distributed Camicia search, from the outside: `--shard`
//! slices, result files, checkpoints and resuming, and `merge`'s checks.
//! Expected values: the slicing rule (each index in exactly one slice, in
//! order, sizes within one), hand-computed slices, an uninterrupted run
//! of the same unit, and files damaged on purpose.

use poker_core::camicia::DEAL_COUNT;
use poker_core::camicia::search::{BLOCK, Shard};
use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

fn poker(args: &[&str]) -> Output {
    crate::common::poker().args(args).output().unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("camicia_units")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Checks that the `n` slices of `start..end` cover it exactly once, in
/// order, with sizes within one of each other.
fn check_cover(start: u128, end: u128, n: u64) {
    let mut cursor = start;
    let (mut small, mut big) = (u128::MAX, 0);
    for i in 0..n {
        let (s, e) = Shard { index: i, count: n }.slice(start, end);
        assert_eq!(s, cursor, "slice {i}/{n} of {start}..{end}");
        assert!(e >= s);
        small = small.min(e - s);
        big = big.max(e - s);
        cursor = e;
    }
    assert_eq!(cursor, end, "{n} slices of {start}..{end}");
    assert!(
        big - small <= 1,
        "{n} slices of {start}..{end}: {small}..{big}"
    );
}

#[test]
fn shards_cover_awkward_ranges_exactly_once() {
    for len in [1u128, 2, 3, 7, 10, 97, 1000, 65_537] {
        for n in [1u64, 2, 3, 7, 10, 64, 1000] {
            check_cover(12_345, 12_345 + len, n);
        }
    }
    // More slices than indices: some are empty, none overlaps.
    check_cover(0, 3, 10);
    let empty = (0..10)
        .filter(|&i| {
            let (s, e) = Shard {
                index: i,
                count: 10,
            }
            .slice(0, 3);
            s == e
        })
        .count();
    assert_eq!(empty, 7);
    // Near the top index: the last deals, and the whole space.
    check_cover(DEAL_COUNT - 1001, DEAL_COUNT, 7);
    check_cover(DEAL_COUNT - 3, DEAL_COUNT, 5);
    check_cover(0, DEAL_COUNT, 9973);
}

#[test]
fn shards_of_the_whole_space_match_hand_computed_bounds() {
    // floor(i * len / n) with len = DEAL_COUNT: for n = 10 the slices are
    // tenths; for n = 2^64 - 1 the last slice is the last
    // ceil(DEAL_COUNT / n) = 36 deals (DEAL_COUNT / n is about 35.4).
    let tenth = DEAL_COUNT / 10;
    assert_eq!(DEAL_COUNT % 10, 0);
    assert_eq!(
        Shard {
            index: 3,
            count: 10
        }
        .slice(0, DEAL_COUNT),
        (3 * tenth, 4 * tenth)
    );
    let n = u64::MAX;
    assert_eq!(
        Shard {
            index: n - 1,
            count: n
        }
        .slice(0, DEAL_COUNT),
        (DEAL_COUNT - 36, DEAL_COUNT)
    );
    assert_eq!(Shard { index: 0, count: n }.slice(0, DEAL_COUNT), (0, 35));
}

#[test]
fn shard_arguments_are_checked() {
    assert_eq!("2/5".parse::<Shard>(), Ok(Shard { index: 2, count: 5 }));
    for bad in ["5/5", "0/0", "1", "a/3", "-1/3", "1/2/3"] {
        assert!(bad.parse::<Shard>().is_err(), "{bad}");
    }
    let out = poker(&["camicia", "search", "--range", "0..100", "--shard", "4/4"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("less than N"));
}

#[test]
fn an_empty_slice_writes_a_valid_unit_and_merges() {
    let dir = scratch("empty");
    let mut files = Vec::new();
    for i in 0..5 {
        let file = dir.join(format!("unit-{i}.json"));
        let out = poker(&[
            "camicia",
            "search",
            "--quiet",
            "--range",
            "1000..1003",
            "--shard",
            &format!("{i}/5"),
            "--output",
            file.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        files.push(file);
    }
    let unit0: Value = serde_json::from_slice(&std::fs::read(&files[0]).unwrap()).unwrap();
    assert_eq!(unit0["counts"]["deals"], 0);
    assert_eq!(unit0["start"], unit0["end"]);
    let merged = merge_json(&files);
    assert_eq!(merged["counts"]["deals"], 3);
    assert_eq!(
        (merged["start"].as_str(), merged["end"].as_str()),
        (Some("1000"), Some("1003"))
    );
}

/// A unit file's bytes before its one timing field.
fn without_timing(bytes: &[u8]) -> Vec<u8> {
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let at = text.find(",\"timing\":").expect("a timing field");
    text.as_bytes()[..at].to_vec()
}

const UNIT_RANGE: &str = "472460898658886000000..472460898658895000000";

fn unit_args<'a>(output: &'a str, checkpoint: Option<&'a str>) -> Vec<&'a str> {
    let mut args = vec![
        "camicia", "search", "--quiet", "--jobs", "1", "--top", "5", "--range", UNIT_RANGE,
        "--shard", "1/3", "--output", output,
    ];
    if let Some(c) = checkpoint {
        args.extend(["--checkpoint", c, "--checkpoint-every", "0"]);
    }
    args
}

#[test]
fn a_unit_killed_at_random_points_resumes_to_the_same_result() {
    let dir = scratch("resume");
    let straight = dir.join("straight.json");
    let out = poker(&unit_args(straight.to_str().unwrap(), None));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want = std::fs::read(&straight).unwrap();

    let resumed = dir.join("resumed.json");
    let checkpoint = dir.join("unit.checkpoint");
    let args = unit_args(
        resumed.to_str().unwrap(),
        Some(checkpoint.to_str().unwrap()),
    );
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
    let (mut runs, mut terms, mut kills) = (0, 0, 0);
    loop {
        runs += 1;
        // Each run gets at least 4 blocks further (of about 180): the unit
        // ends within 50 runs, however slow the machine.
        assert!(runs < 100, "the unit never finished");
        let from = progress(&checkpoint);
        let mut child = crate::common::poker()
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A random point of the work, not of the clock: once this run has
        // checkpointed 4 to 12 blocks past where it started (so it has
        // installed its SIGTERM handler, and got further), or has ended.
        // The bound only stops a hang.
        let target = from + rng.random_range(4..=12) * u128::from(BLOCK);
        let start = Instant::now();
        while progress(&checkpoint) < target && child.try_wait().unwrap().is_none() {
            assert!(start.elapsed() < Duration::from_secs(300), "no progress");
            std::thread::sleep(Duration::from_millis(1));
        }
        let pid = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
        // TERM and KILL in turn, at random moments.
        let term = runs % 2 == 1;
        let signal = if term {
            rustix::process::Signal::TERM
        } else {
            rustix::process::Signal::KILL
        };
        let _ = rustix::process::kill_process(pid, signal);
        let out = child.wait_with_output().unwrap();
        if out.status.success() {
            break;
        }
        if term {
            // TERM: a last checkpoint, then exit status 143.
            assert_eq!(
                out.status.code(),
                Some(143),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(checkpoint.exists());
            terms += 1;
        } else {
            kills += 1;
        }
        // Never a half-written file.
        if checkpoint.exists() {
            let c: Value = serde_json::from_slice(&std::fs::read(&checkpoint).unwrap()).unwrap();
            assert_eq!(c["format"], "poker-camicia-checkpoint/2");
        }
    }
    assert!(terms > 0 && kills > 0, "{terms} TERM, {kills} KILL");
    assert!(
        !checkpoint.exists(),
        "the finished unit left its checkpoint"
    );
    let got = std::fs::read(&resumed).unwrap();
    assert_eq!(
        String::from_utf8(without_timing(&got)).unwrap(),
        String::from_utf8(without_timing(&want)).unwrap(),
        "after {runs} runs"
    );
}

// A resumed unit's summary rates this run's deals over this run's time:
// the unit's deals less those its checkpoint held.
#[test]
fn a_resumed_units_summary_rates_only_this_runs_deals() {
    let dir = scratch("resumed_rate");
    let checkpoint = dir.join("unit.checkpoint");
    let output = dir.join("unit.json");
    let args = unit_args(output.to_str().unwrap(), Some(checkpoint.to_str().unwrap()));
    let mut child = crate::common::poker()
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let held = |path: &Path| -> u64 {
        std::fs::read(path)
            .ok()
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
            .and_then(|c| c["counts"]["deals"].as_u64())
            .unwrap_or(0)
    };
    while held(&checkpoint) == 0 {
        std::thread::sleep(Duration::from_millis(5));
    }
    let pid = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(143));
    let before = held(&checkpoint);
    // `status` sees the unit through its checkpoint, and says so.
    let status = poker(&["camicia", "status", dir.to_str().unwrap()]);
    let said = String::from_utf8(status.stdout).unwrap();
    assert!(
        said.contains("(a running unit counts as of its last checkpoint, the oldest written "),
        "{said}"
    );
    let status = poker(&["camicia", "status", "--json", dir.to_str().unwrap()]);
    let s: Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(s["done"], before.to_string());
    assert!(s["oldest_checkpoint_seconds"].is_u64(), "{s}");
    let mut resume = args.clone();
    resume.push("--json");
    let out = poker(&resume);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let summary: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let unit: Value = serde_json::from_slice(&std::fs::read(&output).unwrap()).unwrap();
    let deals = unit["counts"]["deals"].as_u64().unwrap();
    assert!(before > 0 && before < deals, "{before} of {deals}");
    assert_eq!(summary["deals"], deals);
    assert_eq!(summary["deals_this_run"], deals - before);
    let rate = summary["deals_per_second"].as_f64().unwrap();
    let seconds = summary["seconds"].as_f64().unwrap();
    assert!(
        (rate * seconds - (deals - before) as f64).abs() < 1.0,
        "{summary}"
    );
}

/// How many deals the unit's checkpoint says are done (0 without one).
fn progress(checkpoint: &Path) -> u128 {
    let Ok(bytes) = std::fs::read(checkpoint) else {
        return 0;
    };
    let c: Value = serde_json::from_slice(&bytes).expect("a whole checkpoint");
    let field = |name: &str| c[name].as_str().unwrap().parse::<u128>().unwrap();
    field("next") - field("start")
}

#[test]
fn a_checkpoint_of_another_unit_is_refused() {
    let dir = scratch("other");
    let checkpoint = dir.join("unit.checkpoint");
    let output = dir.join("unit.json");
    let mut child = crate::common::poker()
        .args(unit_args(
            output.to_str().unwrap(),
            Some(checkpoint.to_str().unwrap()),
        ))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    while !checkpoint.exists() {
        std::thread::sleep(Duration::from_millis(5));
    }
    let pid = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(143));
    let out = poker(&[
        "camicia",
        "search",
        "--quiet",
        "--range",
        UNIT_RANGE,
        "--shard",
        "2/3",
        "--checkpoint",
        checkpoint.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("for another unit"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Four units of 10,000 deals around the published loop (index
/// 472460898658889399111, in unit 0).
pub(crate) fn four_units(dir: &Path) -> Vec<PathBuf> {
    (0..4)
        .map(|i| {
            let file = dir.join(format!("unit-{i}.json"));
            let out = poker(&[
                "camicia",
                "search",
                "--quiet",
                "--top",
                "3",
                "--range",
                "472460898658889390000..472460898658889430000",
                "--shard",
                &format!("{i}/4"),
                "--output",
                file.to_str().unwrap(),
            ]);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            file
        })
        .collect()
}

fn merge_json(files: &[PathBuf]) -> Value {
    let mut args = vec!["camicia", "merge", "--json"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let out = poker(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Merge's error text for these files (it must fail).
fn merge_error(files: &[&Path], extra: &[&str]) -> String {
    let mut args = vec!["camicia", "merge"];
    args.extend(extra);
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let out = poker(&args);
    assert!(!out.status.success(), "merge accepted {files:?}");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn merge_combines_units_and_names_every_problem() {
    let dir = scratch("merge");
    let files = four_units(&dir);
    let merged = merge_json(&files);
    assert_eq!(merged["counts"]["deals"], 40_000);
    assert_eq!(merged["units"], 4);
    let loops = merged["loops"].as_array().unwrap();
    assert!(loops.iter().any(|g| g["index"] == "472460898658889399111"));
    assert_eq!(
        merged["cycle_stats"]["distinct"],
        merged["cycles"].as_array().unwrap().len()
    );
    // Checksums add up: one unit over the whole range gives the same.
    let whole = dir.join("whole.json");
    let out = poker(&[
        "camicia",
        "search",
        "--quiet",
        "--top",
        "3",
        "--range",
        "472460898658889390000..472460898658889430000",
        "--output",
        whole.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let single = merge_json(std::slice::from_ref(&whole));
    for field in ["checksum", "counts", "lengths", "best", "loops", "cycles"] {
        assert_eq!(merged[field], single[field], "{field}");
    }

    let [u0, u1, u2, u3] = [&files[0], &files[1], &files[2], &files[3]].map(|p| p.as_path());
    // A gap: unit 2 (indices ...410000..420000) missing.
    let err = merge_error(&[u0, u1, u3], &[]);
    assert!(
        err.contains("gap: indices 472460898658889410000..472460898658889420000"),
        "{err}"
    );
    assert!(
        err.contains("unit-1.json") && err.contains("unit-3.json"),
        "{err}"
    );
    assert!(err.contains("missing shards: 2/4"), "{err}");
    // A gap at the end of a declared range.
    let err = merge_error(
        &[u0, u1, u2, u3],
        &["--range", "472460898658889390000..472460898658889430005"],
    );
    assert!(
        err.contains("gap: indices 472460898658889430000..472460898658889430005"),
        "{err}"
    );
    // An overlap: unit 1 twice.
    let copy = dir.join("copy-of-1.json");
    std::fs::copy(u1, &copy).unwrap();
    let err = merge_error(&[u0, u1, &copy, u2, u3], &[]);
    assert!(
        err.contains("overlap: indices 472460898658889400000..472460898658889410000"),
        "{err}"
    );
    assert!(err.contains("copy-of-1.json"), "{err}");

    // A forged best game: more cards than it plays.
    let mut forged: Value = serde_json::from_slice(&std::fs::read(u0).unwrap()).unwrap();
    let index = forged["best"][0]["index"].as_str().unwrap().to_string();
    let cards = forged["best"][0]["cards"].as_u64().unwrap();
    forged["best"][0]["cards"] = (cards + 5000).into();
    let forged_file = dir.join("forged.json");
    std::fs::write(&forged_file, forged.to_string()).unwrap();
    let err = merge_error(&[&forged_file, u1, u2, u3], &[]);
    assert!(err.contains("forged.json") && err.contains(&index), "{err}");
    assert!(err.contains("forged or damaged"), "{err}");

    // A forged best game at another deal's index.
    let mut moved: Value = serde_json::from_slice(&std::fs::read(u0).unwrap()).unwrap();
    moved["best"][0]["index"] = "472460898658889390001".into();
    let moved_file = dir.join("moved.json");
    std::fs::write(&moved_file, moved.to_string()).unwrap();
    let err = merge_error(&[&moved_file, u1, u2, u3], &[]);
    assert!(
        err.contains("moved.json") && err.contains("is not deal 472460898658889390001"),
        "{err}"
    );

    // A loop claiming another cycle.
    let mut lying: Value = serde_json::from_slice(&std::fs::read(u0).unwrap()).unwrap();
    lying["loops"][0]["cycle"]["id"] = "0123456789abcdef".into();
    let lying_file = dir.join("lying.json");
    std::fs::write(&lying_file, lying.to_string()).unwrap();
    let err = merge_error(&[&lying_file, u1, u2, u3], &[]);
    assert!(
        err.contains("lying.json") && err.contains("0123456789abcdef"),
        "{err}"
    );

    // Counts that do not add up.
    let mut short: Value = serde_json::from_slice(&std::fs::read(u2).unwrap()).unwrap();
    short["counts"]["deals"] = 9_999.into();
    let short_file = dir.join("short.json");
    std::fs::write(&short_file, short.to_string()).unwrap();
    let err = merge_error(&[u0, u1, &short_file, u3], &[]);
    assert!(
        err.contains("short.json") && err.contains("9999 deals"),
        "{err}"
    );

    // A damaged (truncated) file.
    let bytes = std::fs::read(u3).unwrap();
    let cut = dir.join("cut.json");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let err = merge_error(&[u0, u1, u2, &cut], &[]);
    assert!(err.contains("cut.json") && err.contains("damaged"), "{err}");
}

#[test]
fn merge_writes_an_html_page_with_the_histogram_and_the_longest_game() {
    let dir = scratch("html");
    let files = four_units(&dir);
    let page = dir.join("hunt.html");
    let mut args = vec!["camicia", "merge", "--html", page.to_str().unwrap()];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let out = poker(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("id=\"lengths\"><svg"), "the histogram");
    assert!(html.contains("games (log scale)"));
    assert!(
        html.contains("id=\"longest\"><svg"),
        "the longest game's plot"
    );
    assert!(html.contains("id=\"cycle-table\""));
}

#[test]
fn status_reports_progress_from_results_and_checkpoints() {
    let dir = scratch("status");
    let files = four_units(&dir);
    std::fs::remove_file(&files[3]).unwrap();
    let out = poker(&["camicia", "status", "--json", dir.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["done"], "30000");
    assert_eq!(s["finished_units"], 3);
    assert_eq!(s["fraction"], 0.75);
}

#[test]
fn the_docs_name_the_shipped_batch_script_and_its_signal_handling() {
    let root = crate::common::root();
    let docs = std::fs::read_to_string(root.join("docs/camicia.md")).unwrap();
    let script = std::fs::read_to_string(root.join("contrib/slurm/camicia-search.sbatch")).unwrap();
    assert!(docs.contains("contrib/slurm/camicia-search.sbatch"));
    for line in [
        "#SBATCH --requeue",
        "#SBATCH --signal=B:TERM@120",
        "trap requeue TERM",
        "scontrol requeue \"$SLURM_JOB_ID\"",
        "--shard \"$task/$CAMICIA_UNITS\"",
    ] {
        assert!(script.contains(line), "the script lacks {line}");
    }
    // Every option the docs give the search exists.
    let out = poker(&["camicia", "search", "--help"]);
    let help = String::from_utf8(out.stdout).unwrap();
    for flag in ["--shard", "--output", "--checkpoint", "--checkpoint-every"] {
        assert!(docs.contains(flag) && help.contains(flag), "{flag}");
    }
}
