//! `poker eval` end to end: the example contestants over the built-in decks,
//! and misbehaving contestants (tests/contestants/*.c), each scored 0 with
//! the right reason while the evaluator neither hangs nor crashes.

use crate::common;
use crate::common::tier::{self, needs};
use poker_core::contest::{Board, ContestDeck};
use serde_json::Value;
use std::path::PathBuf;
use std::time::Instant;

/// Runs `poker eval --json` with `args`, returns the parsed JSON.
pub(crate) fn eval(args: &[&str]) -> Value {
    eval_with_lib(&common::lib_dir(), args)
}

/// [`eval`] with the library folder `lib`.
fn eval_with_lib(lib: &std::path::Path, args: &[&str]) -> Value {
    let output = crate::common::poker()
        .arg("eval")
        .arg("--json")
        .arg("--lib-dir")
        .arg(lib)
        .args(args)
        .output()
        .expect("run poker eval");
    assert!(
        output.status.success(),
        "poker eval failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("poker eval --json prints JSON")
}

/// A deck file holding the contest text's worked-example deck once. Tests
/// run in parallel: each writes its own copy and renames it into place, so
/// no reader ever sees a half-written file.
fn one_deck_file() -> PathBuf {
    let path = common::scratch("eval").join("one_deck.txt");
    let tmp = path
        .with_extension(format!("{:?}.tmp", std::thread::current().id()).replace(['(', ')'], ""));
    std::fs::write(
        &tmp,
        "# the seed's worked example, row by row, then the 4 unused cards\n\
         JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH\n",
    )
    .unwrap();
    std::fs::rename(&tmp, &path).unwrap();
    path
}

fn contestant(name: &str) -> String {
    common::root()
        .join("tests/contestants")
        .join(name)
        .display()
        .to_string()
}

/// Evaluates one contestant on the one-deck file (in the sandbox, the
/// default with --decks); returns its single test.
/// `wall_limit` is its wall-clock guard (the CPU limit is the default 5 s).
fn single_game(path: &str, wall_limit: &str) -> Value {
    single_game_in("on", path, wall_limit)
}

/// As [`single_game`], with `--sandbox MODE`.
fn single_game_in(mode: &str, path: &str, wall_limit: &str) -> Value {
    let deck = one_deck_file();
    let json = eval(&[
        "--sandbox",
        mode,
        "--decks",
        deck.to_str().unwrap(),
        "--wall-limit",
        wall_limit,
        path,
    ]);
    json["contestants"][0]["tests"][0].clone()
}

fn assert_zero(test: &Value, status: &str, reason_part: &str) {
    assert_eq!(test["status"], status, "{test}");
    assert_eq!(test["score"], 0, "{test}");
    let reason = test["reason"].as_str().unwrap_or("");
    assert!(
        reason.contains(reason_part),
        "reason {reason:?} lacks {reason_part:?}"
    );
}

#[test]
fn examples_score_what_the_scorer_gives_their_columns_on_the_builtin_decks() {
    let json = eval(&[]);
    let contestants = json["contestants"].as_array().unwrap();
    let decks = poker_judge::evaluator::decks::builtin();
    let rr = contestants
        .iter()
        .find(|c| c["name"] == "roundrobin")
        .unwrap();
    let mut expected_total = 0;
    for (i, deck) in decks.iter().enumerate() {
        // Round robin puts card k in column k % 4: build that board here.
        let cards = deck.cards();
        let columns: [[_; 5]; 4] =
            std::array::from_fn(|c| std::array::from_fn(|r| cards[r * 4 + c]));
        let total = Board::from_columns(columns).score().unwrap().total;
        expected_total += u64::from(total);
        assert_eq!(rr["tests"][i]["score"], u64::from(total), "deck {}", i + 1);
        assert_eq!(rr["tests"][i]["status"], "ok");
    }
    assert_eq!(rr["total"], expected_total);
    // Every other example: the evaluator's score equals the practice-mode
    // report's total for the same deck (the library scoring the columns the
    // program built on its own).
    for c in contestants {
        let source = common::root().join(c["path"].as_str().unwrap());
        let exe = common::compile_c_file(
            &format!("practice_{}", c["name"].as_str().unwrap()),
            &source,
            &["-std=c99", "-O2", "-lm"],
        );
        for (i, deck) in decks.iter().enumerate() {
            let output = common::run(&exe, &[("POKER_DECK", &deck.to_string())]);
            let out = common::stdout(&output);
            let total: u64 = out
                .lines()
                .last()
                .and_then(|l| l.strip_prefix("total: "))
                .and_then(|t| t.parse().ok())
                .unwrap_or_else(|| panic!("no total in {out}"));
            assert_eq!(
                c["tests"][i]["score"],
                total,
                "{} deck {}",
                c["name"],
                i + 1
            );
        }
    }
    // Ranking: the best total is worth 10.
    let best = contestants
        .iter()
        .map(|c| c["total"].as_u64().unwrap())
        .max()
        .unwrap();
    for c in contestants {
        let total = c["total"].as_u64().unwrap();
        let expected = if best == 0 {
            0
        } else {
            (20 * total + best) / (2 * best)
        };
        assert_eq!(c["scaled"], expected);
    }
}

#[test]
fn seed_example_deck_round_robin_scores_11() {
    needs!(tier::SANDBOX);
    let test = single_game(
        &common::root()
            .join("c_examples/roundrobin.c")
            .display()
            .to_string(),
        "5",
    );
    assert_eq!(test["status"], "ok");
    assert_eq!(test["score"], 11);
    assert_eq!(test["deck"], 1);
}

#[test]
fn each_rule_violation_scores_zero_with_its_rule_and_call() {
    needs!(tier::SANDBOX);
    let cases = [
        (
            "look_before_start.c",
            "card 1 (call 1, p_look): p_startgame must be called once",
        ),
        (
            "start_twice.c",
            "card 1 (call 2, p_startgame): p_startgame may be called only once",
        ),
        (
            "look_twice.c",
            "card 1 (call 3, p_look): p_look called twice",
        ),
        (
            "place_without_look.c",
            "card 1 (call 2, p_place): p_place called without a p_look",
        ),
        (
            "bad_column.c",
            "card 1 (call 3, p_place): column 5 is outside 1..4",
        ),
        (
            "unbalanced.c",
            "card 4 (call 9, p_place): placing in column 1 makes",
        ),
        (
            "null_pointer.c",
            "card 1 (call 2, p_look): p_look was given a NULL pointer",
        ),
    ];
    for (file, reason) in cases {
        assert_zero(&single_game(&contestant(file), "5"), "violation", reason);
    }
}

#[test]
fn an_infinite_loop_times_out_and_is_killed() {
    needs!(tier::SANDBOX);
    let _cpu = common::cpu_bound();
    let start = Instant::now();
    let test = single_game(&contestant("infinite_loop.c"), "0.5");
    assert_zero(
        &test,
        "timeout",
        "wall-clock limit of 0.5 s exceeded after 3 placements",
    );
    // What it used until it was killed, by its cgroup: some CPU time, at
    // most the game's time (one CPU), and memory.
    let cpu = test["cpu_seconds"].as_f64().expect("a CPU figure");
    let wall = test["seconds"].as_f64().unwrap();
    assert!(cpu > 0.0 && cpu <= wall + 0.01, "{test}");
    assert!(
        test["peak_memory"].as_u64().is_some_and(|m| m > 0),
        "{test}"
    );
    // The status and message show the loop stopped at its 0.5 s deadline.
    // The wall clock (a sandboxed compile and the game) only guards against
    // a wait far past it, such as one for the killed loop's processes: 60 s,
    // so that no load on the machine can reach it.
    assert!(
        start.elapsed().as_secs_f64() < 60.0,
        "took {:?}",
        start.elapsed()
    );
}

// Unconfined, a game killed at its time limit also shows the CPU time its
// program used (its init reaps it when the run is ended, so the kernel
// counts it); no memory figure (nothing measures it unconfined).
#[test]
fn an_unconfined_infinite_loop_shows_its_cpu_time() {
    let _cpu = common::cpu_bound();
    let test = single_game_in("off", &contestant("infinite_loop.c"), "0.5");
    assert_zero(&test, "timeout", "wall-clock limit of 0.5 s exceeded");
    let cpu = test["cpu_seconds"].as_f64().expect("a CPU figure");
    let wall = test["seconds"].as_f64().unwrap();
    assert!(cpu > 0.01 && cpu <= wall + 0.01, "{test}");
    assert!(test["peak_memory"].is_null(), "{test}");
}

// Unconfined, the program is not its PID namespace's init (which the
// kernel spares SIGXCPU), so RLIMIT_CPU's soft limit stops it: the game is
// `cpu_time` with at most 1.2 s of CPU (the hard limit, a second later,
// would show about 2 s). The figure is the kernel's resource usage, which
// on a loaded virtual machine can read below the time RLIMIT_CPU counted
// (measured here: 0.64 s for a spinner stopped by a 1 s limit), so there
// is no lower bound beyond a measure being there.
#[test]
fn an_unconfined_cpu_spinner_stops_at_its_cpu_limit() {
    let _cpu = common::cpu_bound();
    let deck = one_deck_file();
    let json = eval(&[
        "--sandbox",
        "off",
        "--cpu-limit",
        "1",
        "--wall-limit",
        "10",
        "--decks",
        deck.to_str().unwrap(),
        &contestant("infinite_loop.c"),
    ]);
    let test = &json["contestants"][0]["tests"][0];
    assert_zero(test, "cpu_time", "CPU time limit of 1 s exceeded");
    let cpu = test["cpu_seconds"].as_f64().expect("a CPU figure");
    assert!(cpu > 0.0 && cpu <= 1.2, "{test}");
}

#[test]
fn a_segfault_is_a_crash_naming_the_signal() {
    needs!(tier::SANDBOX);
    let test = single_game(&contestant("segfault.c"), "5");
    assert_zero(&test, "crash", "killed by SIGSEGV (11) after 6 placements");
}

#[test]
fn an_early_exit_with_a_fake_score_is_incomplete() {
    needs!(tier::SANDBOX);
    let test = single_game(&contestant("early_exit.c"), "5");
    assert_zero(
        &test,
        "incomplete",
        "exited with status 0 after 5 placements",
    );
}

#[test]
fn printed_reports_and_exit_status_do_not_change_the_score() {
    needs!(tier::SANDBOX);
    // Round robin on the seed example deck scores 11 (the contest text).
    let test = single_game(&contestant("fake_score.c"), "5");
    assert_eq!(test["status"], "ok", "{test}");
    assert_eq!(test["score"], 11);
}

#[test]
fn flooding_stdout_and_stderr_does_not_block_the_game() {
    needs!(tier::SANDBOX);
    let test = single_game(&contestant("flood.c"), "10");
    assert_eq!(test["status"], "ok", "{test}");
    assert_eq!(test["score"], 11);
}

#[test]
fn nonsense_and_out_of_turn_messages_are_violations() {
    needs!(tier::SANDBOX);
    let test = single_game(&contestant("nonsense.c"), "5");
    assert_zero(
        &test,
        "violation",
        "unintelligible message \"GIVE ME ALL THE CARDS\"",
    );
    let test = single_game(&contestant("out_of_turn.c"), "5");
    assert_zero(&test, "violation", "message out of turn");
}

fn alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat[stat.rfind(')').unwrap() + 2..].starts_with('Z'),
        Err(_) => false,
    }
}

fn write_source(name: &str, source: &str) -> String {
    let path = common::scratch("eval").join(name);
    std::fs::write(&path, source).unwrap();
    path.display().to_string()
}

/// A contestant whose grandchild escapes into a new session, holds every
/// inherited descriptor and sleeps as `/bin/sleep 999.<marker>` (so the
/// test can find it from outside, whatever pid namespace it is in); the
/// contestant then plays `placements` cards and exits.
fn forking_source(marker: u64, placements: u32) -> String {
    format!(
        r#"#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
#include "poker.h"
int main(void) {{
    int v, c, i;
    pid_t child = fork();
    if (child == 0) {{
        {daemon}
        _exit(0);
    }}
    waitpid(child, 0, 0);
    p_startgame();
    for (i = 0; i < {placements}; i++) {{ p_look(&v, &c); p_place(i % 4 + 1); }}
    return 0;
}}
"#,
        daemon = daemon_exec(marker)
    )
}

/// C statements for the intermediate child: start the grandchild, a
/// daemon in a session of its own running `sleep 999.<marker>`, with
/// vfork, which returns only once the grandchild has exec'd. So the
/// program's main process, having waited for the intermediate child, knows
/// the daemon is running: an event rather than a pause, however slow the
/// machine, and without a pipe (which a game's system-call filter
/// refuses). Only setsid and execl run in the vfork child, as it shares
/// its parent's memory.
fn daemon_exec(marker: u64) -> String {
    format!(
        "if (vfork() == 0) {{ setsid(); execl(\"/bin/sleep\", \"sleep\", \"999.{marker}\", (char *)0); _exit(1); }}"
    )
}

/// A number unlikely to be in any other process's command line.
fn marker() -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    (nanos as u64 ^ u64::from(std::process::id()) << 32) % 1_000_000_000_000
}

/// Live processes whose command line holds `999.<marker>` or whose name
/// is `pk<marker>`, seen from here.
fn marked_processes(marker: u64) -> Vec<i32> {
    let needle = format!("999.{marker}");
    let name = format!("pk{marker}\n");
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
            (String::from_utf8_lossy(&cmdline).contains(&needle) || comm == name) && alive(*pid)
        })
        .collect()
}

#[test]
fn a_daemonised_grandchild_is_killed_and_an_early_exit_is_reported_at_once() {
    needs!(tier::SANDBOX);
    for mode in ["on", "off"] {
        let marker = marker();
        let source = write_source(&format!("fork_early_{mode}.c"), &forking_source(marker, 3));
        let start = Instant::now();
        let test = single_game_in(mode, &source, "5");
        // The grandchild still holds the channel and the pipes, yet the exit
        // of the main process is seen at once: an evaluator waiting for
        // them to close would reach the 5 s limit and report a timeout, not
        // this early exit. The wall clock (with a sandboxed compile) only
        // guards against a hang: 60 s, beyond any load.
        assert!(
            start.elapsed().as_secs_f64() < 60.0,
            "{mode}: took {:?}",
            start.elapsed()
        );
        assert_zero(
            &test,
            "incomplete",
            "exited with status 0 after 3 placements",
        );
        let left = marked_processes(marker);
        assert!(
            left.is_empty(),
            "{mode}: grandchild {left:?} survived the game"
        );
    }
}

#[test]
fn a_finished_game_stays_scored_and_leaves_no_process_behind() {
    needs!(tier::SANDBOX);
    for mode in ["on", "off"] {
        let marker = marker();
        let source = write_source(&format!("fork_full_{mode}.c"), &forking_source(marker, 20));
        let test = single_game_in(mode, &source, "5");
        assert_eq!(test["status"], "ok", "{mode}: {test}");
        assert_eq!(test["score"], 11);
        let left = marked_processes(marker);
        assert!(
            left.is_empty(),
            "{mode}: grandchild {left:?} survived the game"
        );
    }
}

/// Unconfined, each game's contestant counts the `sleep 999.<marker>`
/// processes it sees (the daemons of earlier games), starts such a daemon
/// (double fork, new session), counts again, writes both counts to `log`,
/// plays all its cards and then never exits, so that the evaluator must
/// kill its tree.
fn daemon_counting_source(marker: u64, log: &std::path::Path) -> String {
    format!(
        r#"#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "poker.h"
static int count(void) {{
    const char *needle = "999.{marker}";
    char path[64], buf[4096]; int n = 0; struct dirent *e; DIR *d = opendir("/proc");
    while ((e = readdir(d)) != NULL) {{
        FILE *f; size_t len;
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        if ((f = fopen(path, "r")) == NULL) continue;
        len = fread(buf, 1, sizeof buf, f);
        fclose(f);
        if (memmem(buf, len, needle, strlen(needle))) n++;
    }}
    closedir(d);
    return n;
}}
int main(void) {{
    int v, c, i, before = count(), after;
    FILE *log;
    int seen[2]; char byte;
    pid_t child;
    if (pipe2(seen, O_CLOEXEC) != 0) return 9;
    child = fork();
    if (child == 0) {{
        if (fork() == 0) {{
            setsid();
            execl("/bin/sleep", "sleep", "999.{marker}", (char *)0);
            _exit(1);
        }}
        _exit(0);
    }}
    waitpid(child, 0, 0);
    /* Wait until the daemon has exec'd: its copy of the write end closes
       at exec (close-on-exec), and this process's own copy is closed
       first. Unconfined, so no filter refuses the pipe. The kernel sets
       the new command line a moment after that: look until it shows (a
       second at most). */
    close(seen[1]); while (read(seen[0], &byte, 1) > 0) {{}} close(seen[0]);
    for (i = 0; i < 1000 && (after = count()) == 0; i++) usleep(1000);
    log = fopen("{log}", "a");
    fprintf(log, "%d %d\n", before, after);
    fclose(log);
    p_startgame();
    for (i = 0; i < 20; i++) {{ p_look(&v, &c); p_place(i % 4 + 1); }}
    for (;;) pause();
}}
"#,
        log = log.display()
    )
}

#[test]
fn an_unconfined_contestants_daemon_is_gone_after_each_game_while_the_evaluator_runs() {
    let marker = marker();
    let log = common::scratch("eval").join(format!("daemons_{marker}.txt"));
    let _ = std::fs::remove_file(&log);
    let source = write_source("daemon_counting.c", &daemon_counting_source(marker, &log));
    let json = eval(&["--sandbox", "off", "--wall-limit", "5", &source]);
    let games = json["contestants"][0]["tests"].as_array().unwrap().len();
    assert!(games >= 2, "{json}");
    // Before its own daemon, each game sees none (the last game's is
    // gone); after, exactly its own.
    let counts = std::fs::read_to_string(&log).unwrap();
    let expected = "0 1\n".repeat(games);
    assert_eq!(
        counts, expected,
        "counts before and after each game's daemon"
    );
    let left = marked_processes(marker);
    assert!(left.is_empty(), "daemon {left:?} survived the evaluation");
}

#[test]
fn a_snooping_contestant_finds_no_deck_in_its_environment_arguments_or_descriptors() {
    needs!(tier::SANDBOX);
    // Unconfined, it writes what it found to a file; in the sandbox, where
    // it can write no file of ours, to its stderr (which the report keeps).
    for mode in ["off", "on"] {
        snoop(mode);
    }
}

fn snoop(mode: &str) {
    let dump = common::scratch("eval").join("snoop.txt");
    let _ = std::fs::remove_file(&dump);
    let open_dump = match mode {
        "off" => format!("fopen(\"{}\", \"w\")", dump.display()),
        _ => "stderr".to_string(),
    };
    let source = format!(
        r#"#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "poker.h"
extern char **environ;
static void copy_file(FILE *out, const char *path) {{
    char buf[4096]; size_t n; FILE *in = fopen(path, "r");
    if (!in) return;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
    fclose(in);
}}
int main(int argc, char **argv) {{
    FILE *out = {open_dump};
    char **e; int i, v, c, fd;
    for (i = 0; i < argc; i++) fprintf(out, "arg %s\n", argv[i]);
    for (e = environ; *e; e++) fprintf(out, "env %s\n", *e);
    fprintf(out, "cmdline "); copy_file(out, "/proc/self/cmdline"); fprintf(out, "\n");
    fprintf(out, "environ "); copy_file(out, "/proc/self/environ"); fprintf(out, "\n");
    /* Every open descriptor, asked one by one (a game has no /proc). */
    for (fd = 0; fd < 1024; fd++) {{
        char buf[4096]; ssize_t n;
        if (fcntl(fd, F_GETFD) < 0 || (fd > 2 && fd == fileno(out))) continue;
        fprintf(out, "fd %d\n", fd);
        if (fd <= 2) continue;
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
        n = read(fd, buf, sizeof buf);
        if (n > 0) {{ fprintf(out, "fd %d data ", fd); fwrite(buf, 1, (size_t)n, out); fprintf(out, "\n"); }}
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    }}
    fflush(out);
    p_startgame();
    for (i = 0; i < 20; i++) {{ p_look(&v, &c); p_place(i % 4 + 1); }}
    return 0;
}}
"#
    );
    let test = single_game_in(
        mode,
        &write_source(&format!("snoop_{mode}.c"), &source),
        "5",
    );
    // It still plays a normal game (the channel was not disturbed).
    assert_eq!(test["status"], "ok", "{test}");
    assert_eq!(test["score"], 11);
    let found = match mode {
        "off" => std::fs::read_to_string(&dump).unwrap(),
        _ => test["stderr"].as_str().unwrap_or("").to_string(),
    };
    let deck = ContestDeck::parse(
        "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH",
    )
    .unwrap();
    for needle in [
        deck.to_string().as_str(),
        "JC TH 9H",
        "POKER_DECK",
        "POKER_SEED",
        "one_deck",
    ] {
        assert!(
            !found.contains(needle),
            "the contestant found {needle:?}:\n{found}"
        );
    }
    // Only stdin, stdout, stderr and the channel (fd 3) are open, and the
    // channel holds nothing before a card is asked for.
    let fds: Vec<&str> = found.lines().filter(|l| l.starts_with("fd ")).collect();
    assert_eq!(fds, ["fd 0", "fd 1", "fd 2", "fd 3"], "{found}");
}

#[test]
fn json_output_has_the_documented_shape() {
    needs!(tier::SANDBOX);
    let deck = one_deck_file();
    let rr = common::root().join("c_examples/roundrobin.c");
    let json = eval(&[
        "--decks",
        deck.to_str().unwrap(),
        rr.to_str().unwrap(),
        &contestant("bad_column.c"),
    ]);
    let list = json["contestants"].as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["name"], "roundrobin");
    assert_eq!(list[0]["total"], 11);
    assert_eq!(list[0]["scaled"], 10);
    assert_eq!(list[1]["name"], "bad_column");
    assert_eq!(list[1]["total"], 0);
    assert_eq!(list[1]["scaled"], 0);
    let t = &list[0]["tests"][0];
    assert_eq!(
        (t["deck"].clone(), t["score"].clone(), t["status"].clone()),
        (1.into(), 11.into(), "ok".into())
    );
    assert!(t.get("reason").is_none());
}

#[test]
fn bad_arguments_are_clear_errors() {
    let run = |args: &[&str]| {
        crate::common::poker()
            .arg("eval")
            .args(args)
            .output()
            .unwrap()
    };
    let bad = common::scratch("eval").join("bad_decks.txt");
    std::fs::write(&bad, "# fine\n9S TS JS\n").unwrap();
    // Unconfined: the deck file is read before any game, sandbox or not.
    let out = run(&["--sandbox", "off", "--decks", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2: expected 24 cards, found 3"));
    let out = run(&["--time-limit", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--time-limit"));
    let out = run(&["--decks", "/nonexistent/decks.txt"]);
    assert_eq!(out.status.code(), Some(2));
    // A missing contestant is the user's mistake: a usage error, nothing run.
    let deck = one_deck_file();
    let out = run(&["--decks", deck.to_str().unwrap(), "/nonexistent/prog"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/prog does not exist"));
}

#[test]
fn each_game_shows_the_best_possible_score_of_its_deck() {
    needs!(tier::SANDBOX);
    // Blocks of one rank (9, 10, J, Q, K), suits in the same order in each:
    // round robin gives each column one suit from 9 to K, four straight
    // flushes, 32, which is also the most any placement can score.
    let path = common::scratch("eval").join("ordered_deck.txt");
    std::fs::write(
        &path,
        "9C 9D 9H 9S TC TD TH TS JC JD JH JS QC QD QH QS KC KD KH KS AC AD AH AS\n",
    )
    .unwrap();
    let rr = common::root().join("c_examples/roundrobin.c");
    let json = eval(&["--decks", path.to_str().unwrap(), rr.to_str().unwrap()]);
    let c = &json["contestants"][0];
    assert_eq!(c["tests"][0]["score"], 32);
    assert_eq!(c["tests"][0]["best_possible"], 32);
    assert_eq!(c["best_possible"], 32);
    // On the built-in decks no example scores above its deck's optimum.
    let json = eval(&[]);
    for c in json["contestants"].as_array().unwrap() {
        for t in c["tests"].as_array().unwrap() {
            assert!(t["score"].as_u64() <= t["best_possible"].as_u64(), "{t}");
        }
    }
}

#[test]
fn bench_reports_the_mean_of_the_games_it_played() {
    let rr = common::root().join("c_examples/roundrobin.c");
    let output = crate::common::poker()
        .args([
            "bench",
            "--json",
            "--games",
            "24",
            "--seed",
            "7",
            "--lib-dir",
        ])
        .arg(common::lib_dir())
        .arg(&rr)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    // Deck i is ContestDeck::shuffled(7 + i); round robin puts card k in
    // column k % 4, so its score is the scorer's total of those columns.
    let totals: Vec<f64> = (1..=24)
        .map(|i| {
            let cards = *ContestDeck::shuffled(7 + i).cards();
            let columns = std::array::from_fn(|c| std::array::from_fn(|r| cards[r * 4 + c]));
            f64::from(Board::from_columns(columns).score().unwrap().total)
        })
        .collect();
    let mean = totals.iter().sum::<f64>() / 24.0;
    assert!(
        (json["mean"].as_f64().unwrap() - mean).abs() < 1e-9,
        "{json}"
    );
    assert_eq!(json["games"], 24);
    assert_eq!(json["failed"], 0);
    assert!(json["mean_best_possible"].as_f64().unwrap() >= mean);
}

#[test]
fn a_contestant_file_named_like_an_option_is_compiled_as_a_file() {
    needs!(tier::SANDBOX);
    let dir = common::scratch("eval").join("dash");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        common::root().join("c_examples/roundrobin.c"),
        dir.join("-x.c"),
    )
    .unwrap();
    let deck = one_deck_file();
    let output = crate::common::poker()
        .args(["eval", "--json", "--lib-dir"])
        .arg(common::lib_dir())
        .arg("--decks")
        .arg(&deck)
        .args(["--", "-x.c"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", common::stderr(&output));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["contestants"][0]["tests"][0]["score"], 11, "{json}");
}

#[test]
fn a_lib_dir_without_the_library_and_a_bom_in_a_deck_file() {
    needs!(tier::SANDBOX);
    let empty = common::scratch("eval").join("no_lib_here");
    std::fs::create_dir_all(&empty).unwrap();
    let output = crate::common::poker()
        .args(["eval", "--lib-dir"])
        .arg(&empty)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        common::stderr(&output).contains("no libpoker.so in"),
        "{}",
        common::stderr(&output)
    );

    let bom = common::scratch("eval").join("bom_deck.txt");
    std::fs::write(
        &bom,
        "\u{feff}JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH\n",
    )
    .unwrap();
    let rr = common::root().join("c_examples/roundrobin.c");
    let json = eval(&["--decks", bom.to_str().unwrap(), rr.to_str().unwrap()]);
    assert_eq!(json["contestants"][0]["tests"][0]["score"], 11);
}

/// A contestant that plays through a grandchild in its own session (the
/// main process waits): parallel games must not kill each other's.
const PLAYS_THROUGH_A_GRANDCHILD: &str = r#"#include <signal.h>
#include <unistd.h>
#include "poker.h"
int main(void) {
    int v, c, i;
    p_startgame();
    if (fork() == 0) {
        if (fork() == 0) {
            for (i = 0; i < 20; i++) { usleep(10000); p_look(&v, &c); p_place(i % 4 + 1); }
        }
        _exit(0);
    }
    for (;;) pause();
}
"#;

#[test]
fn parallel_games_never_kill_each_others_processes() {
    let source = write_source("grandchild_plays.c", PLAYS_THROUGH_A_GRANDCHILD);
    let output = crate::common::poker()
        .args([
            "bench",
            "--json",
            "--games",
            "8",
            "--jobs",
            "4",
            "--wall-limit",
            "4",
            "--lib-dir",
        ])
        .arg(common::lib_dir())
        .arg(&source)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", common::stderr(&output));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["failed"], 0, "{json}");
}

#[test]
fn killing_the_evaluator_kills_the_running_contestant() {
    needs!(tier::SANDBOX);
    for mode in ["on", "off"] {
        let marker = marker();
        // It names itself pk<marker> and forks a child of that name: in
        // the sandbox and unconfined alike (where it runs in a PID
        // namespace of its own) the kernel kills the whole tree once the
        // evaluator is gone.
        let fork = "if (fork() == 0) for (;;) sleep(1);";
        let source = write_source(
            &format!("sleeper_{mode}.c"),
            &format!(
                "#include <unistd.h>\n#include <sys/prctl.h>\n#include \"poker.h\"\nint main(void) {{\n    prctl(PR_SET_NAME, \"pk{marker}\", 0, 0, 0);\n    {fork}\n    p_startgame();\n    for (;;) sleep(1);\n}}\n"
            ),
        );
        let deck = one_deck_file();
        // A killed evaluator cannot remove its scratch folder: keep it in
        // a folder of this test's, removed at the end.
        let tmp = common::scratch(&format!("eval/killed_{mode}_tmp"));
        let mut evaluator = crate::common::poker()
            .args(["eval", "--sandbox", mode, "--wall-limit", "60", "--lib-dir"])
            .arg(common::lib_dir())
            .arg("--decks")
            .arg(&deck)
            .arg(&source)
            .env("TMPDIR", &tmp)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Polls for the event (the game's process appears, or the
        // evaluator ends without it); the bound, past any compile on a
        // loaded machine, only stops a hang.
        let start = Instant::now();
        while marked_processes(marker).is_empty()
            && evaluator.try_wait().unwrap().is_none()
            && start.elapsed().as_secs() < 120
        {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(
            !marked_processes(marker).is_empty(),
            "{mode}: the game never started"
        );
        evaluator.kill().unwrap();
        evaluator.wait().unwrap();
        // The kernel kills the tree at once; the bound only stops a hang.
        let start = Instant::now();
        while !marked_processes(marker).is_empty() && start.elapsed().as_secs() < 60 {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let left = marked_processes(marker);
        assert!(left.is_empty(), "{mode}: {left:?} outlived the evaluator");
        // The killed evaluator left its scratch folder, in the sandbox
        // with the contestant's private image still mounted there; the
        // next evaluation in the same temporary folder unmounts it.
        let next = crate::common::poker()
            .args(["eval", "--sandbox", mode, "--json", "--lib-dir"])
            .arg(common::lib_dir())
            .arg("--decks")
            .arg(&deck)
            .arg(common::root().join("c_examples/roundrobin.c"))
            .env("TMPDIR", &tmp)
            .output()
            .unwrap();
        assert!(next.status.success(), "{}", common::stderr(&next));
        let tmp_text = std::fs::canonicalize(&tmp).unwrap().display().to_string();
        let mounts = std::fs::read_to_string("/proc/self/mountinfo").unwrap();
        assert!(
            !mounts.contains(&tmp_text),
            "{mode}: a mount under {tmp_text} outlived the next evaluation"
        );
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}

#[test]
fn a_closed_output_pipe_ends_the_command_quietly() {
    use std::io::Read;
    let mut child = crate::common::poker()
        .args(["decks", "--count", "200000", "--seed", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // Dropping our end closes the pipe while poker is still writing.
    let output = child.wait_with_output().unwrap();
    assert_eq!(&first[..2], b"# ");
    assert!(
        common::stderr(&output).is_empty(),
        "{}",
        common::stderr(&output)
    );
}

#[test]
fn sandboxed_compilation_works_with_a_private_temporary_folder() {
    needs!(tier::SANDBOX);
    // A TMPDIR under a 0700 folder (as in a `mktemp -d` checkout, or under
    // /root) cannot be reached by the sandbox's own uid: the build folders
    // must then go elsewhere, and round robin still scores 11 on the
    // contest text's worked example.
    use std::os::unix::fs::PermissionsExt;
    let private = common::scratch("eval").join("private_tmp");
    std::fs::create_dir_all(private.join("inner")).unwrap();
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o700)).unwrap();
    let deck = one_deck_file();
    let output = crate::common::poker()
        .env("TMPDIR", private.join("inner"))
        .args(["eval", "--json", "--sandbox", "on", "--lib-dir"])
        .arg(common::lib_dir())
        .arg("--decks")
        .arg(&deck)
        .arg(common::root().join("c_examples/roundrobin.c"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", common::stderr(&output));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let game = &json["contestants"][0]["tests"][0];
    assert_eq!(game["status"], "ok", "{json}");
    assert_eq!(game["score"], 11);
}

#[test]
fn a_prebuilt_program_finds_its_library_in_the_sandbox_through_either_cargo_path() {
    needs!(tier::SANDBOX);
    // Cargo hard-links one libpoker.so build into target/<profile> and its
    // deps/ folder. A program built against one copy, evaluated with the
    // library folder set to the other, must still find its library inside
    // the sandbox (which shows it only the files bound).
    let layout = common::scratch("two_copies");
    let _ = std::fs::remove_dir_all(&layout);
    std::fs::create_dir_all(layout.join("deps")).unwrap();
    let built = common::lib_dir().join("libpoker.so");
    std::fs::hard_link(&built, layout.join("libpoker.so")).unwrap();
    std::fs::hard_link(&built, layout.join("deps/libpoker.so")).unwrap();
    let exe = common::compile_c_file_against(
        "roundrobin_two_copies",
        &common::root().join("c_examples/roundrobin.c"),
        &["-std=c99"],
        &layout,
    );
    let deck = one_deck_file();
    let json = eval_with_lib(
        &layout.join("deps"),
        &[
            "--sandbox",
            "on",
            "--decks",
            deck.to_str().unwrap(),
            exe.to_str().unwrap(),
        ],
    );
    let test = &json["contestants"][0]["tests"][0];
    assert_eq!(test["status"], "ok", "{test}");
    assert_eq!(test["score"], 11);
}

/// Round robin that first checks it may run on one CPU only (else exits
/// with status 3 before its first card).
const PINNED_ROUND_ROBIN: &str = r#"#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include "poker.h"
int main(void) {
    cpu_set_t set;
    int i, v, c;
    p_startgame();
    if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) != 1) exit(3);
    for (i = 0; i < 20; i++) { p_look(&v, &c); p_place(i % 4 + 1); }
    return 0;
}
"#;

#[test]
fn every_game_runs_on_one_cpu_in_eval_and_bench_both_ways() {
    needs!(tier::SANDBOX);
    assert!(
        std::thread::available_parallelism().unwrap().get() >= 2,
        "this test needs two CPUs to tell a pinned game from one that is not"
    );
    let source = write_source("pinned.c", PINNED_ROUND_ROBIN);
    for mode in ["on", "off"] {
        let report = eval(&["--sandbox", mode, &source]);
        for test in report["contestants"][0]["tests"].as_array().unwrap() {
            assert_eq!(test["status"], "ok", "{mode}: {test}");
        }
        for processes in [None, Some("--fresh-processes")] {
            let mut bench = common::poker();
            bench.args(["bench", "--json", "--games", "8", "--jobs", "2"]);
            bench
                .args(["--sandbox", mode, "--lib-dir"])
                .arg(common::lib_dir());
            bench.args(processes).arg(&source);
            let out = bench.output().unwrap();
            let json: Value = serde_json::from_slice(&out.stdout)
                .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
            assert_eq!(json["failed"], 0, "{mode} {processes:?}: {json}");
        }
    }
}
