//! Fair timing: the contest's limit is CPU time, and the machine's load
//! decides no game. Co-runners (one CPU-bound and one bursty process
//! pinned to each CPU, started and stopped by the test) take the CPUs
//! while an honest program needing about 70% of its CPU limit plays:
//! `ok` in every game, fresh and through the fork server; at 130% it is
//! `cpu_time` in every game. A sleeper ends at its guard plus what others
//! took, within twice the guard, and so does a program whose many threads
//! wake together to pile up waits; two threads of one program competing
//! on one CPU extend nothing; a self-raised SIGXCPU is a crash, never
//! played again. `poker bench` warns of the co-runners as `poker eval`
//! does.
//!
//! For the notes (100 games at 1 s): `POKER_FAIR_GAMES=100
//! POKER_FAIR_LIMIT=1 cargo test --release --test cli_tests fair_timing::
//! -- --nocapture --test-threads=1`.

use crate::common;
use crate::common::tier::{self, needs};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;

/// One set of co-runners at a time (each test's load is its own).
static LOAD: Mutex<()> = Mutex::new(());

fn setting(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.into())
}

/// One CPU-bound and one bursty process pinned to every CPU this process
/// may run on, killed when dropped (and bounded by `timeout` should the
/// test die first).
struct CoRunners(Vec<Child>);

impl CoRunners {
    fn start() -> CoRunners {
        let cpus = String::from_utf8(
            Command::new("sh")
                .args(["-c", "taskset -pc $$ | sed 's/.*: //'"])
                .output()
                .expect("taskset")
                .stdout,
        )
        .unwrap();
        let mut children = Vec::new();
        for cpu in expand(cpus.trim()) {
            for script in [
                "while :; do :; done",
                // 20 ms or so of work, then 10 ms of sleep.
                "while :; do i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done; sleep 0.01; done",
            ] {
                let child = Command::new("timeout")
                    .args(["600", "taskset", "-c", &cpu.to_string(), "sh", "-c", script])
                    .stdin(Stdio::null())
                    .spawn()
                    .expect("start a co-runner");
                children.push(child);
            }
        }
        CoRunners(children)
    }
}

impl Drop for CoRunners {
    fn drop(&mut self) {
        for child in &mut self.0 {
            // `timeout` passes SIGTERM on to its command; kill ends it.
            let _ = Command::new("kill").arg(child.id().to_string()).status();
            let _ = child.wait();
        }
    }
}

/// `0-1,3` as [0, 1, 3].
fn expand(list: &str) -> Vec<usize> {
    list.split(',')
        .flat_map(|part| {
            let (a, b) = part.split_once('-').unwrap_or((part, part));
            a.trim().parse::<usize>().unwrap()..=b.trim().parse::<usize>().unwrap()
        })
        .collect()
}

/// A C contestant (text) written to the scratch folder as `name.c`.
fn source(name: &str, text: &str) -> PathBuf {
    let path = common::scratch("fair_timing").join(format!("{name}.c"));
    std::fs::write(&path, text).unwrap();
    path
}

/// A program that works until its own CPU time reaches `fraction` of
/// `limit` seconds, after p_startgame (so in a fork server's child too),
/// then places round robin.
fn worker(fraction: f64, limit: f64) -> PathBuf {
    let need = fraction * limit;
    let name = format!("worker_{}", (fraction * 100.0).round());
    source(
        &name,
        &format!(
            "#include <time.h>\n#include \"poker.h\"\n\
             static double cpu(void) {{ struct timespec t; \
             clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec / 1e9; }}\n\
             int main(void) {{ int i, v, c; volatile unsigned long x = 0; p_startgame();\n\
             while (cpu() < {need}) x++;\n\
             for (i = 0; i < 20; i++) {{ p_look(&v, &c); p_place(i % 4 + 1); }}\n\
             return 0; }}\n"
        ),
    )
}

/// `poker eval --json --quiet ARGS...`, its report.
fn eval(args: &[&str]) -> Value {
    let out = common::poker()
        .args(["eval", "--json", "--quiet"])
        .args(args)
        .arg("--lib-dir")
        .arg(common::lib_dir())
        .output()
        .expect("run poker eval");
    assert!(out.status.success(), "{}", common::stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Every game of every contestant of `report`.
fn games(report: &Value) -> Vec<Value> {
    report["contestants"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["tests"].as_array().unwrap().clone())
        .collect()
}

/// A deck file of `count` decks.
fn decks(count: &str) -> PathBuf {
    let path = common::scratch("fair_timing").join(format!("decks_{count}.txt"));
    let out = common::poker()
        .args(["decks", "--count", count, "--seed", "39"])
        .output()
        .expect("run poker decks");
    assert!(out.status.success(), "{}", common::stderr(&out));
    std::fs::write(&path, out.stdout).unwrap();
    path
}

/// `program`'s games under co-runners, fresh (on `games` decks) and
/// through a fork server (two copies of it on the 10 built-in decks for
/// 20; more copies for more), at `limit` seconds of CPU time.
fn under_load(program: &Path, games_wanted: usize, limit: &str) -> (Vec<Value>, Vec<Value>) {
    let deck_file = decks(&games_wanted.to_string());
    let copies: Vec<String> = (0..games_wanted.div_ceil(10))
        .map(|i| {
            let copy = program.with_file_name(format!(
                "{}_{i}.c",
                program.file_stem().unwrap().to_string_lossy()
            ));
            std::fs::copy(program, &copy).unwrap();
            copy.display().to_string()
        })
        .collect();
    let _one = LOAD.lock().unwrap_or_else(|e| e.into_inner());
    let _load = CoRunners::start();
    let fresh = eval(&[
        "--cpu-limit",
        limit,
        "--decks",
        deck_file.to_str().unwrap(),
        program.to_str().unwrap(),
    ]);
    let mut args = vec!["--cpu-limit", limit, "--fork-server"];
    args.extend(copies.iter().map(String::as_str));
    let forked = eval(&args);
    assert!(
        forked["contestants"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["fork_server_fallback"].is_null()),
        "{forked}"
    );
    (games(&fresh), games(&forked))
}

#[test]
fn an_honest_program_at_70_percent_of_its_limit_is_ok_beside_co_runners() {
    needs!(tier::SANDBOX);
    let games_wanted: usize = setting("POKER_FAIR_GAMES", "20").parse().unwrap();
    let limit = setting("POKER_FAIR_LIMIT", "0.3");
    let program = worker(0.7, limit.parse().unwrap());
    let (fresh, forked) = under_load(&program, games_wanted, &limit);
    for (mode, games) in [("fresh", &fresh), ("fork server", &forked)] {
        assert_eq!(games.len(), games_wanted, "{mode}");
        let others: f64 = games
            .iter()
            .map(|g| g["others_cpu_seconds"].as_f64().unwrap())
            .sum();
        let wall: f64 = games.iter().map(|g| g["seconds"].as_f64().unwrap()).sum();
        let cpu: f64 = games
            .iter()
            .map(|g| g["cpu_seconds"].as_f64().unwrap())
            .sum();
        eprintln!(
            "{mode}: {} games at {limit} s: CPU {cpu:.2} s, wall {wall:.2} s, others {others:.2} s",
            games.len()
        );
        for game in games {
            assert_eq!(game["status"], "ok", "{mode}: {game}");
            assert_eq!(game["cpu_limit_held_by"], "watch", "{mode}: {game}");
        }
        // The co-runners took a share of the CPUs, and were seen to.
        assert!(others > 0.2 * wall, "{mode}: others {others} of {wall}");
    }
}

#[test]
fn bench_warns_of_the_co_runners_as_eval_does() {
    needs!(tier::SANDBOX);
    let program = worker(0.7, 0.3);
    let _one = LOAD.lock().unwrap_or_else(|e| e.into_inner());
    let _load = CoRunners::start();
    let out = common::poker()
        .args(["bench", "--json", "--quiet", "--games", "4", "--jobs", "1"])
        .args(["--fresh-processes", "--cpu-limit", "0.3", "--lib-dir"])
        .arg(common::lib_dir())
        .arg(&program)
        .output()
        .expect("run poker bench");
    let stderr = common::stderr(&out);
    assert!(out.status.success(), "{stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    // Two co-runners on each CPU take well over 5% of the games' time.
    let load: Vec<&str> = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .filter(|w| w.starts_with("other processes took "))
        .collect();
    assert_eq!(load.len(), 1, "{report}");
    assert!(
        load[0].contains("for fair timing run on quiet CPUs"),
        "{report}"
    );
    // Said on the terminal too, as the sandbox's own warnings are.
    assert!(
        stderr.contains(&format!("poker: warning: {}", load[0])),
        "{stderr}"
    );
}

#[test]
fn the_same_program_at_130_percent_of_its_limit_is_cpu_time_in_every_game() {
    needs!(tier::SANDBOX);
    let program = worker(1.3, 0.3);
    let (fresh, forked) = under_load(&program, 10, "0.3");
    for (mode, games) in [("fresh", &fresh), ("fork server", &forked)] {
        for game in games {
            assert_eq!(game["status"], "cpu_time", "{mode}: {game}");
            let cpu = game["cpu_seconds"].as_f64().unwrap();
            assert!(cpu >= 0.3, "{mode}: {game}");
        }
    }
}

#[test]
fn a_sleeper_ends_at_its_guard_plus_what_others_took_within_twice_the_guard() {
    needs!(tier::SANDBOX);
    let sleeper = source(
        "sleeper",
        "#include <unistd.h>\n#include \"poker.h\"\n\
         int main(void) { int v, c; p_startgame(); p_look(&v, &c); sleep(30); return 0; }\n",
    );
    let deck_file = decks("2");
    let _one = LOAD.lock().unwrap_or_else(|e| e.into_inner());
    let _load = CoRunners::start();
    // CPU limit 0.3 s: the guard is 0.6 s.
    let report = eval(&[
        "--cpu-limit",
        "0.3",
        "--decks",
        deck_file.to_str().unwrap(),
        sleeper.to_str().unwrap(),
    ]);
    for game in games(&report) {
        assert_eq!(game["status"], "timeout", "{game}");
        let wall = game["seconds"].as_f64().unwrap();
        let others = game["others_cpu_seconds"].as_f64().unwrap();
        // Past the guard by what others took (the extension is asked for
        // at each deadline: a few ticks of what they took after the last
        // ask may be missing), never past twice the guard.
        assert!(wall >= 0.6, "{game}");
        assert!(wall <= 0.6 + others + 0.15, "{game}");
        assert!(wall <= 1.2 + 0.15, "{game}");
    }
}

#[test]
fn threads_waking_together_do_not_stretch_the_guard() {
    // 60 threads wake together every 40 ms and spin 30 us: their waits,
    // added up, grow faster than the wall clock while the game, mostly
    // asleep, waits little. Its guard is extended by what the game waited,
    // not by the sum: it ends within twice its guard, as the sleeper does
    // (an extension by the summed waits held it to five times its guard).
    needs!(tier::SANDBOX);
    let stretcher = common::root().join("tests/contestants/hostile/stretch_guard.c");
    let deck_file = decks("2");
    let _one = LOAD.lock().unwrap_or_else(|e| e.into_inner());
    let _load = CoRunners::start();
    // CPU limit 0.5 s: the guard is 1 s.
    let report = eval(&[
        "--cpu-limit",
        "0.5",
        "--decks",
        deck_file.to_str().unwrap(),
        stretcher.to_str().unwrap(),
    ]);
    for game in games(&report) {
        assert_eq!(game["status"], "timeout", "{game}");
        let wall = game["seconds"].as_f64().unwrap();
        assert!(wall >= 1.0, "{game}");
        assert!(wall <= 2.0 + 0.15, "{game}");
    }
}

#[test]
fn two_threads_of_one_program_competing_on_one_cpu_extend_nothing() {
    needs!(tier::SANDBOX);
    let spinner = source(
        "two_spinners",
        "#include <pthread.h>\n#include \"poker.h\"\n\
         static void *spin(void *arg) { volatile unsigned long x = 0; (void)arg; for (;;) x++; return 0; }\n\
         int main(void) { int v, c; pthread_t t; p_startgame(); p_look(&v, &c);\n\
         pthread_create(&t, 0, spin, 0); spin(0); return 0; }\n",
    );
    let deck_file = decks("2");
    let _one = LOAD.lock().unwrap_or_else(|e| e.into_inner());
    // The CPU limit (5 s) is far; the guard, 0.5 s, ends them.
    let report = eval(&[
        "--wall-limit",
        "0.5",
        "--decks",
        deck_file.to_str().unwrap(),
        spinner.to_str().unwrap(),
    ]);
    for game in games(&report) {
        assert_eq!(game["status"], "timeout", "{game}");
        let wall = game["seconds"].as_f64().unwrap();
        let cpu = game["cpu_seconds"].as_f64().unwrap();
        let others = game["others_cpu_seconds"].as_f64().unwrap();
        // On one CPU, the game's own time and others' fit in its wall time
        // (a tick of slack each way): the threads' time is the game's,
        // not others'.
        assert!(cpu + others <= wall + 0.05, "{game}");
        assert!(wall <= 0.5 + others + 0.15, "{game}");
    }
}

#[test]
fn a_self_raised_sigxcpu_under_the_limit_is_a_crash_and_not_played_again() {
    needs!(tier::SANDBOX);
    let raiser = |name: &str, log: &str| {
        source(
            name,
            &format!(
                "#include <signal.h>\n#include <stdio.h>\n#include \"poker.h\"\n\
                 int main(void) {{ int i, v, c; FILE *f = fopen(\"{log}\", \"a\");\n\
                 if (f) {{ fputs(\"start\\n\", f); fclose(f); }}\n\
                 p_startgame();\n\
                 for (i = 0; i < 3; i++) {{ p_look(&v, &c); p_place(i + 1); }}\n\
                 raise(SIGXCPU); return 0; }}\n"
            ),
        )
    };
    let deck_file = decks("2");
    // In the sandbox (its log unreachable), fresh and through the server.
    let sandboxed = raiser("raise_xcpu", "/nonexistent/log");
    let fresh = eval(&[
        "--decks",
        deck_file.to_str().unwrap(),
        sandboxed.to_str().unwrap(),
    ]);
    let forked = eval(&["--fork-server", sandboxed.to_str().unwrap()]);
    for game in games(&fresh).iter().chain(&games(&forked)) {
        assert_eq!(game["status"], "crash", "{game}");
        assert_eq!(
            game["reason"], "killed by SIGXCPU (24) after 3 placements",
            "{game}"
        );
    }
    // Unconfined, each game's start is logged: one start a game.
    let log = common::scratch("fair_timing").join("raise_xcpu_starts.txt");
    let _ = std::fs::remove_file(&log);
    let logged = raiser("raise_xcpu_logged", log.to_str().unwrap());
    let report = eval(&[
        "--sandbox",
        "off",
        "--decks",
        deck_file.to_str().unwrap(),
        logged.to_str().unwrap(),
    ]);
    let played = games(&report);
    assert_eq!(played.len(), 2);
    assert!(played.iter().all(|g| g["score"] == 0), "{report}");
    let starts = std::fs::read_to_string(&log).unwrap();
    assert_eq!(starts, "start\nstart\n");
}

#[test]
fn the_doctor_says_each_finding_with_its_fix_and_the_audit_carries_them() {
    needs!(tier::SANDBOX);
    let out = common::poker()
        .args(["doctor", "--json", "--cpus", "0"])
        .output()
        .expect("run poker doctor");
    // Exit 0: nothing here stops judging (the sandbox and its cgroups run).
    assert!(out.status.success(), "{}", common::stderr(&out));
    let findings: Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings = findings.as_array().unwrap();
    let by = |check: &str| findings.iter().find(|f| f["check"] == check).unwrap();
    assert_eq!(by("sandbox")["status"], "ok");
    assert_eq!(by("cgroups")["status"], "ok");
    for f in findings {
        let status = f["status"].as_str().unwrap();
        assert!(
            ["ok", "warning", "problem", "not_applicable"].contains(&status),
            "{f}"
        );
        assert_eq!(
            f["fix"].is_string(),
            matches!(status, "warning" | "problem"),
            "{f}"
        );
    }
    // A CPU this process may not run on is refused before anything runs.
    let out = common::poker()
        .args(["eval", "--cpus", "1023", "c_examples/roundrobin.c"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(common::stderr(&out).contains("--cpus: this process may not run on CPU 1023"));
    // The evaluation's audit records the same checks.
    let report = eval(&["--cpus", "0", "c_examples/roundrobin.c"]);
    let environment = report["audit"]["environment"].as_array().unwrap();
    let checks: Vec<&str> = environment
        .iter()
        .map(|f| f["check"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = findings
        .iter()
        .map(|f| f["check"].as_str().unwrap())
        .collect();
    assert_eq!(checks, expected);
}
