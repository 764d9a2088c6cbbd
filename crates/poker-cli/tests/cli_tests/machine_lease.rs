//! The machine's lease: sandboxed evaluations on one machine take turns,
//! each saying when it waits, unless each has CPUs of its own (`--cpus`). The first evaluation's lease is held here by
//! the test itself (the library's `MachineLease`, as `poker eval` holds
//! it), so that the second one's wait is an event, not a race between two
//! evaluations' timings. These evaluations run without the test suite's
//! side-by-side variable.

use crate::common::tier::{self, needs};
use crate::common::{self, SIDE_BY_SIDE};
use crate::sandbox_attacks::{assert_plays_like_roundrobin, command, roundrobin, scratch};
use poker_judge::sandbox::MachineLease;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Starts `poker eval --sandbox on --json EXTRA` of round robin without
/// the side-by-side variable, its stderr read line by line into the
/// receiver.
fn start_eval(test: &str, extra: &[&str]) -> (Child, mpsc::Receiver<String>) {
    let s = scratch(test);
    let mut cmd = command(&s, "on", true, extra, &[&roundrobin()]);
    cmd.env_remove(SIDE_BY_SIDE.0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("run poker eval");
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, rx)
}

/// The next stderr line holding `part`. The bound, far past a loaded
/// machine's start-up, only stops a hang.
fn line_with(rx: &mpsc::Receiver<String>, part: &str) -> String {
    loop {
        match rx.recv_timeout(Duration::from_secs(120)) {
            Ok(line) if line.contains(part) => return line,
            Ok(_) => {}
            Err(e) => panic!("no line with {part:?} on poker's stderr: {e}"),
        }
    }
}

/// The finished evaluation's JSON report (a few kilobytes: the pipe holds
/// it while the evaluation runs); it must have succeeded. The bound, far
/// past a loaded machine's evaluation of one contestant, only stops a hang.
fn report(mut child: Child) -> Value {
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("poker eval still running after 120 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "poker eval: {}", output.status);
    serde_json::from_slice(&output.stdout).expect("poker eval --json prints JSON")
}

// Another evaluation holds the machine; expected: poker eval says it
// waits, naming the holder's pid, does not finish while it waits, and
// once the lease is freed plays as ever.
#[test]
fn a_second_evaluation_waits_for_the_first_and_says_so() {
    needs!(tier::SANDBOX);
    let first = MachineLease::acquire(None, |_| {}).unwrap();
    let (mut child, stderr) = start_eval("lease_waits", &[]);
    let line = line_with(&stderr, "waiting");
    assert_eq!(
        line,
        format!(
            "poker: waiting for the machine: another evaluation holds the machine (pid {}). \
             Evaluations on one machine take turns, unless each is given CPUs of its own (--cpus).",
            std::process::id()
        )
    );
    assert!(child.try_wait().unwrap().is_none(), "it did not wait");
    drop(first);
    let json = report(child);
    assert_eq!(json["sandbox"], "bubblewrap", "{json}");
    assert_plays_like_roundrobin(&json, "roundrobin");
}

// Another evaluation holds CPU 0; expected: poker eval --cpus 1 runs at
// once, beside it (no wait, and it ends while CPU 0 is still held), and
// poker eval --cpus 0 waits, naming CPU 0 and the holder, then plays.
#[test]
fn evaluations_on_disjoint_cpus_run_side_by_side() {
    needs!(tier::SANDBOX);
    let cpus = poker_judge::evaluator::affinity::allowed_cpus();
    assert!(
        cpus.len() >= 2,
        "this test needs two CPUs this process may run on, not {cpus:?}"
    );
    let (mine, theirs) = (cpus[0].to_string(), cpus[1].to_string());
    let first = MachineLease::acquire(Some(&[cpus[0]]), |_| {}).unwrap();

    let (child, stderr) = start_eval("lease_disjoint", &["--cpus", &theirs]);
    let json = report(child);
    assert_plays_like_roundrobin(&json, "roundrobin");
    // Every line: the reader ends at the end of poker's stderr.
    let said: Vec<String> = stderr.iter().collect();
    assert!(!said.iter().any(|l| l.contains("waiting")), "{said:?}");

    let (mut child, stderr) = start_eval("lease_overlapping", &["--cpus", &mine]);
    let line = line_with(&stderr, "waiting");
    let me = std::process::id();
    assert!(
        line.starts_with(&format!(
            "poker: waiting for the machine: another evaluation holds CPU {mine} (pid {me})."
        )),
        "{line}"
    );
    assert!(child.try_wait().unwrap().is_none(), "it did not wait");
    drop(first);
    assert_plays_like_roundrobin(&report(child), "roundrobin");
}

// Another evaluation holds the machine; expected: poker bench (which
// starts jails too) says it waits, and plays once the lease is freed.
#[test]
fn bench_waits_for_the_machine_too() {
    needs!(tier::SANDBOX);
    let first = MachineLease::acquire(None, |_| {}).unwrap();
    let mut child = common::poker()
        .env_remove(SIDE_BY_SIDE.0)
        .args([
            "bench",
            "--games",
            "2",
            "--quiet",
            "--sandbox",
            "on",
            "--lib-dir",
        ])
        .arg(common::lib_dir())
        .arg(roundrobin())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let waiting = lines
        .by_ref()
        .map_while(Result::ok)
        .find(|l| l.contains("waiting"));
    assert!(
        waiting
            .is_some_and(|l| l.starts_with("poker: waiting for the machine: another evaluation")),
        "poker bench did not say it waits"
    );
    drop(first);
    // Read to the end, so that poker never writes to a closed pipe.
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(child.wait().unwrap().success(), "{rest:?}");
}

// The test suite's variable set (as common::poker sets it); expected: no
// lease taken, so no wait beside a held one, and a note saying so.
#[test]
fn the_side_by_side_variable_takes_no_lease_and_says_so() {
    needs!(tier::SANDBOX);
    let first = MachineLease::acquire(None, |_| {}).unwrap();
    let s = scratch("lease_side_by_side");
    let mut cmd = command(&s, "on", true, &[], &[&roundrobin()]);
    assert_eq!(
        cmd.get_envs()
            .find(|(k, _)| *k == SIDE_BY_SIDE.0)
            .and_then(|(_, v)| v),
        Some(SIDE_BY_SIDE.1.as_ref())
    );
    let output = cmd.output().unwrap();
    drop(first);
    let stderr = common::stderr(&output);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("POKER_SANDBOX_SIDE_BY_SIDE=1: no lease"),
        "{stderr}"
    );
    assert!(!stderr.contains("waiting"), "{stderr}");
}
