//! The fork server (`poker eval --fork-server`, `poker bench`'s default)
//! against fresh processes (the contest's way, `poker eval`'s default): the
//! same decks give the same games, deck by deck, for the C, Pascal and
//! Python examples and for hostile contestants, in the sandbox.
//!
//! The reference is the fresh-process evaluation of the same programs on
//! the same decks, which the rest of the test suite checks against the
//! contest's rules.
//!
//! `poker eval` refuses `--fork-server` with `--decks` (a fork server's
//! games are not a contest's), so these tests give their decks to the
//! evaluator's library, which `poker eval` runs, with the same limits.

use crate::common;
use crate::common::tier::{self, needs};
use poker_core::contest::ContestDeck;
use poker_judge::evaluator::config::default_compile_limits;
use poker_judge::evaluator::{RunConfig, SandboxMode, Toolchain, become_supervisor, evaluate};
use poker_judge::sandbox::Limits;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The decks `ContestDeck::shuffled(seed + i)`, i = 1..=count (the name
/// only tells the tests apart where they are called).
fn test_decks(_name: &str, seed: u64, count: u64) -> Vec<ContestDeck> {
    (1..=count)
        .map(|i| ContestDeck::shuffled(seed + i))
        .collect()
}

/// What `poker eval --json --quiet --sandbox on FLAGS... CONTESTANTS...`
/// reports on `decks`, through the evaluator's library; `flags` among
/// `--fork-server`, `--wall-limit S`, `--cpu-limit S`, `--memory-limit MIB`.
fn eval(decks: &[ContestDeck], flags: &[&str], contestants: &[PathBuf]) -> Value {
    let mut limits = Limits::default();
    let (mut fork_server, mut wall) = (false, None);
    let mut flags = flags.iter();
    while let Some(flag) = flags.next() {
        let mut value = || -> f64 { flags.next().expect("a value").parse().expect("a number") };
        match *flag {
            "--fork-server" => fork_server = true,
            "--wall-limit" => wall = Some(Duration::from_secs_f64(value())),
            "--cpu-limit" => limits.cpu = Duration::from_secs_f64(value()),
            "--memory-limit" => limits.memory = (value() as u64) << 20,
            other => panic!("no such flag here: {other}"),
        }
    }
    limits.wall = wall.unwrap_or(limits.cpu * poker_judge::sandbox::WALL_PER_CPU);
    let mut config = RunConfig::new(SandboxMode::On, limits, default_compile_limits())
        .expect("the sandbox runs here");
    config.fork_server = fork_server;
    let supervisor = become_supervisor().expect("a supervisor");
    let toolchain = Toolchain::new(common::lib_dir(), &config).expect("a toolchain");
    // Each contestant named by its file stem.
    let prepared: Vec<_> = contestants
        .iter()
        .map(|path| toolchain.prepare(&supervisor, path))
        .collect();
    let run = evaluate(&supervisor, &prepared, decks, &config, |_, _| {}).expect("an evaluation");
    serde_json::to_value(run).expect("an evaluation as JSON")
}

/// One game: status, score, board (as JSON text).
type Game = (String, u64, String);
/// Each contestant's name and games, deck by deck.
type Games = Vec<(String, Vec<Game>)>;

/// Each contestant's games as (status, score, board), deck by deck.
fn games(report: &Value) -> Games {
    report["contestants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let tests = c["tests"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| {
                    (
                        t["status"].as_str().unwrap().to_string(),
                        t["score"].as_u64().unwrap(),
                        t["board"].to_string(),
                    )
                })
                .collect();
            (c["name"].as_str().unwrap().to_string(), tests)
        })
        .collect()
}

/// Evaluates `contestants` both ways and checks that every game has the
/// same status and score, and with `boards` the same board; returns the
/// fresh-process games and the fork server's report. (A game that breaks a
/// rule in one way may have placed cards before the evaluator saw the
/// break in the other.)
fn same_both_ways(
    decks: &[ContestDeck],
    extra: &[&str],
    contestants: &[PathBuf],
    boards: bool,
) -> (Games, Value) {
    let fresh = eval(decks, extra, contestants);
    let mut forked_args = extra.to_vec();
    forked_args.push("--fork-server");
    let report = eval(decks, &forked_args, contestants);
    assert_eq!(fresh["mode"], "fresh-processes");
    assert_eq!(report["mode"], "fork-server");
    let (fresh, forked) = (games(&fresh), games(&report));
    for ((name, a), (_, b)) in fresh.iter().zip(&forked) {
        assert_eq!(a.len(), b.len(), "{name}");
        for (deck, (x, y)) in a.iter().zip(b).enumerate() {
            let shown = |t: &Game| (t.0.clone(), t.1, boards.then(|| t.2.clone()));
            assert_eq!(
                shown(x),
                shown(y),
                "{name}, deck {}: fresh vs fork server",
                deck + 1
            );
        }
    }
    (fresh, report)
}

#[test]
fn the_examples_play_the_same_games_with_a_fork_server() {
    needs!(tier::SANDBOX, tier::PYTHON, tier::PASCAL);
    let mut contestants = vec![
        common::root().join("c_examples/greedy.c"),
        common::root().join("python_examples/greedy.py"),
    ];
    contestants.push(common::root().join("pascal_examples/greedy.pas"));
    let decks = test_decks("examples", 2024, 30);
    let (fresh, forked) = same_both_ways(&decks, &[], &contestants, true);
    for (name, tests) in &fresh {
        assert!(
            tests.iter().all(|(status, _, _)| status == "ok"),
            "{name}: {tests:?}"
        );
    }
    // An honest program keeps its server: nothing one game could leave
    // for the next was found, and every game was forked.
    for contestant in forked["contestants"].as_array().unwrap() {
        assert!(contestant["fork_server_fallback"].is_null(), "{contestant}");
        assert!(
            contestant["fork_server_startup_cpu_seconds"].is_number(),
            "{contestant}"
        );
        let tests = contestant["tests"].as_array().unwrap();
        assert!(tests.iter().all(|t| t["process"] == "forked"), "{tests:?}");
    }
}

/// Writes a C contestant into the scratch folder.
fn c_source(name: &str, text: &str) -> PathBuf {
    let path = common::scratch("fork_server").join(format!("{name}.c"));
    std::fs::write(&path, text).unwrap();
    path
}

/// Before p_startgame: the program forks, keeping a shared counter of
/// its processes that have looked at their first card (a page mapped
/// shared: a game's system-call filter refuses pipes).
const TWO_PROCESSES: &str = "volatile int *met = mmap(NULL, sizeof *met, PROT_READ | PROT_WRITE, \
    MAP_SHARED | MAP_ANONYMOUS, -1, 0); \
    if (met == MAP_FAILED) return 9; \
    (void)fork();";
/// After the first look: each process waits for the other to get there
/// too (an event, not a pause: however slow the machine, both have called
/// p_startgame before either places a card). The evaluator ends the game
/// at the second p_startgame, so neither gets past this.
const TWO_PROCESSES_MEET: &str =
    "if (i == 1) { __sync_fetch_and_add(met, 1); while (*met < 2) sched_yield(); }";

/// A round-robin game around `HOOK`, which runs after each look with the
/// card in `v`, `c` and the card's number in `i`.
fn round_robin(before: &str, hook: &str) -> String {
    format!(
        "#include <poker.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\
         #include <signal.h>\n#include <unistd.h>\n#include <sched.h>\n#include <sys/mman.h>\n\
         #include <sys/resource.h>\n\
         int main(void) {{\n  int i, v, c;\n  {before}\n  p_startgame();\n\
           for (i = 1; i <= 20; i++) {{\n    p_look(&v, &c);\n    {hook}\n\
             p_place((i - 1) % 4 + 1);\n  }}\n  return 0;\n}}\n"
    )
}

#[test]
fn hostile_contestants_score_the_same_with_a_fork_server() {
    needs!(tier::SANDBOX);
    let count = 8;
    let decks = test_decks("hostile", 77, count);
    // Each case is triggered by the first card of one deck: (value, color).
    let first: Vec<(i32, i32)> = (1..=count)
        .map(|i| poker_core::contest::card_code(ContestDeck::shuffled(77 + i).cards()[0]).unwrap())
        .collect();
    let first3 = first[2];
    let value_of = |deck: usize| first[deck - 1].0;
    let contestants = [
        // A rule broken on some decks only: deck 1's first value, turned
        // first, goes to column 7.
        c_source(
            "some_violations",
            &round_robin(
                "",
                &format!("if (i == 1 && v == {}) p_place(7);", value_of(1)),
            ),
        ),
        // A crash on deck 3 (and any deck with its first card).
        c_source(
            "crash_in_game_3",
            &round_robin(
                "",
                &format!(
                    "if (i == 1 && v == {} && c == {}) {{ raise(SIGSEGV); }}",
                    first3.0, first3.1
                ),
            ),
        ),
        // A hang when deck 4's first value comes first.
        c_source(
            "hang",
            &round_robin(
                "",
                &format!("if (i == 1 && v == {}) for (;;) {{}}", value_of(4)),
            ),
        ),
        // Touches 512 MiB when deck 6's first value comes first.
        c_source(
            "memory_hog",
            &round_robin(
                "",
                &format!(
                    "if (i == 1 && v == {}) {{ size_t n = (size_t)512 << 20, k; char *p = malloc(n); \
                     for (k = 0; p && k < n; k += 4096) p[k] = 1; if (p) printf(\"%d\", p[n / 2]); }}",
                    value_of(6)
                ),
            ),
        ),
        // Writes 96 MiB to stderr (more than its memory limit) when deck
        // 5's first value comes first.
        c_source(
            "stderr_flood",
            &round_robin(
                "static char block[65536]; memset(block, 'x', sizeof block);",
                &format!(
                    "if (i == 1 && v == {}) {{ int k; for (k = 0; k < 1536; k++) \
                     if (fwrite(block, 1, sizeof block, stderr) != sizeof block) return 9; }}",
                    value_of(5)
                ),
            ),
        ),
        // Two processes both call p_startgame (and meet after their first
        // look, so that neither plays a whole game before the other has
        // called it).
        c_source(
            "two_processes",
            &round_robin(TWO_PROCESSES, TWO_PROCESSES_MEET),
        ),
        // Kills its parent when that is the same program (its fork
        // server), when deck 2's first value comes first, and plays on.
        c_source(
            "kills_its_server",
            &round_robin(
                "",
                &format!(
                    "if (i == 1 && v == {}) {{ char me[4096], it[4096], link[64]; ssize_t a, b; \
                     snprintf(link, sizeof link, \"/proc/%d/exe\", (int)getppid()); \
                     a = readlink(\"/proc/self/exe\", me, sizeof me); b = readlink(link, it, sizeof it); \
                     if (a > 0 && a == b && memcmp(me, it, (size_t)a) == 0) kill(getppid(), SIGKILL); }}",
                    value_of(2)
                ),
            ),
        ),
        // Exits before p_startgame.
        c_source("exits_early", "int main(void) { return 0; }\n"),
    ];
    // The time limit ends the hang's games. At 1 s the flood's 96 MiB
    // through the output cap once came out "ok" fresh but not through the
    // server on a loaded machine (load 12); 5 s costs the hang's games 4 s
    // more each.
    let extra = [
        "--wall-limit",
        "5",
        "--cpu-limit",
        "10",
        "--memory-limit",
        "64",
    ];
    let (fresh, _) = same_both_ways(&decks, &extra, &contestants, false);
    let statuses = |name: &str| -> Vec<String> {
        fresh
            .iter()
            .find(|(n, _)| n == name)
            .unwrap()
            .1
            .iter()
            .map(|t| t.0.clone())
            .collect()
    };
    // Each case happens on its deck, and not on every deck.
    let has = |name: &str, status: &str| statuses(name).iter().any(|s| s == status);
    for (name, status) in [
        ("some_violations", "violation"),
        ("hang", "timeout"),
        ("memory_hog", "memory"),
    ] {
        assert!(has(name, status), "{name}: {:?}", statuses(name));
        assert!(has(name, "ok"), "{name}: {:?}", statuses(name));
    }
    assert_eq!(statuses("crash_in_game_3")[2], "crash");
    assert!(has("crash_in_game_3", "ok"));
    assert!(statuses("stderr_flood").iter().all(|s| s == "ok"));
    assert!(statuses("two_processes").iter().all(|s| s == "violation"));
    assert!(statuses("kills_its_server").iter().all(|s| s == "ok"));
    assert!(statuses("exits_early").iter().all(|s| s == "incomplete"));
}

#[test]
fn a_program_of_two_processes_at_p_startgame_plays_fresh_and_breaks_the_rule_every_game() {
    // Its second process would be frozen with the server during each
    // game, so its own p_startgame could come only after a game was
    // judged: the server is not used, and every game is a fresh process.
    needs!(tier::SANDBOX);
    let decks = test_decks("two_at_start", 23, 3);
    let contestant = c_source(
        "two_at_start",
        &round_robin(TWO_PROCESSES, TWO_PROCESSES_MEET),
    );
    let report = eval(&decks, &["--fork-server"], &[contestant]);
    let tested = &report["contestants"][0];
    assert_eq!(
        tested["fork_server_fallback"],
        "the program had more than one process when it called p_startgame"
    );
    let tests = tested["tests"].as_array().unwrap();
    assert!(
        tests.iter().all(|t| t["status"] == "violation"),
        "{tests:?}"
    );
}

#[test]
fn output_buffered_before_p_startgame_is_not_repeated_by_every_game() {
    needs!(tier::SANDBOX, tier::PYTHON, tier::PASCAL);
    let decks = test_decks("buffered", 5, 3);
    let c = c_source(
        "buffered",
        &round_robin(
            "static char buf[4096]; setvbuf(stderr, buf, _IOFBF, sizeof buf); \
             fputs(\"said once\", stderr);",
            "",
        ),
    );
    let py = common::scratch("fork_server").join("buffered.py");
    std::fs::write(
        &py,
        "import sys\nfrom libpoker import p_startgame, p_look, p_place\n\
         sys.stderr.write('said once')\np_startgame()\n\
         for i in range(20):\n    p_look()\n    p_place(i % 4 + 1)\n",
    )
    .unwrap();
    let mut contestants = vec![c, py];
    {
        let pas = common::scratch("fork_server").join("buffered.pas");
        std::fs::write(
            &pas,
            "program buffered;\nuses Poker;\nvar i, v, c: integer;\nbegin\n\
             Write(ErrOutput, 'said once');\n  p_startgame;\n\
             for i := 1 to 20 do begin p_look(v, c); p_place((i - 1) mod 4 + 1) end\nend.\n",
        )
        .unwrap();
        contestants.push(pas);
    }
    let report = eval(&decks, &["--fork-server"], &contestants);
    for contestant in report["contestants"].as_array().unwrap() {
        // Every game went through its server.
        assert!(contestant["fork_server_fallback"].is_null(), "{contestant}");
        for test in contestant["tests"].as_array().unwrap() {
            assert_eq!(test["status"], "ok", "{test}");
            let stderr = test["stderr"].as_str().unwrap_or("");
            assert!(
                !stderr.contains("said once"),
                "{}: {test}",
                contestant["name"]
            );
        }
    }
}

/// `poker bench --json` on `contestant` with `flags`.
fn bench(contestant: &Path, flags: &[&str]) -> Value {
    let output = crate::common::poker()
        .args(["bench", "--json", "--quiet", "--games", "40", "--seed", "9"])
        .args(["--jobs", "2", "--sandbox", "on", "--lib-dir"])
        .arg(common::lib_dir())
        .args(flags)
        .arg(contestant)
        .output()
        .expect("run poker bench");
    assert!(
        output.status.success(),
        "poker bench failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("poker bench --json prints JSON")
}

#[test]
fn bench_gives_the_same_statistics_with_a_fork_server_and_says_which_ran() {
    needs!(tier::SANDBOX);
    let greedy = common::root().join("c_examples/greedy.c");
    let forked = bench(&greedy, &[]);
    let fresh = bench(&greedy, &["--fresh-processes"]);
    for key in [
        "mean",
        "sd",
        "standard_error",
        "min",
        "min_seed",
        "max",
        "max_seed",
        "failed",
    ] {
        assert_eq!(forked[key], fresh[key], "{key}: {forked} vs {fresh}");
    }
    assert_eq!(forked["mode"], "fork-server");
    assert_eq!(forked["games_forked"], 40);
    assert_eq!(forked["games_fresh"], 0);
    assert_eq!(fresh["mode"], "fresh-processes");
    assert_eq!(fresh["games_fresh"], 40);
    // An executable of an older library (here: one that plays without
    // answering the fork server) falls back to fresh processes, and says so.
    let old = c_source(
        "no_server",
        "#include <poker.h>\n#include <stdlib.h>\n\
         int main(void) { int i, v, c; unsetenv(\"POKER_PROTOCOL\"); p_startgame();\n\
         for (i = 0; i < 20; i++) { p_look(&v, &c); p_place(i % 4 + 1); } return 0; }\n",
    );
    let old = bench(&old, &[]);
    assert_eq!(old["games_fresh"], 40, "{old}");
    assert_eq!(old["failed"], 0, "{old}");
    assert!(
        old["fallback"]
            .as_str()
            .unwrap()
            .contains("not a fork server")
    );
}

#[test]
fn python_games_of_one_server_draw_different_random_numbers() {
    needs!(tier::SANDBOX, tier::PYTHON);
    // os.fork re-seeds `random` in each child; a raw fork() would not.
    let decks = test_decks("random", 11, 4);
    let py = common::scratch("fork_server").join("draws.py");
    std::fs::write(
        &py,
        "import random, sys\nfrom libpoker import p_startgame, p_look, p_place\n\
         random.seed(1)\np_startgame()\nsys.stderr.write('draw %r\\n' % random.random())\n\
         for i in range(20):\n    p_look()\n    p_place(i % 4 + 1)\n",
    )
    .unwrap();
    let report = eval(&decks, &["--fork-server"], &[py]);
    let draws: Vec<String> = report["contestants"][0]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["stderr"].as_str().unwrap_or("").trim().to_string())
        .collect();
    assert!(draws.iter().all(|d| d.starts_with("draw ")), "{draws:?}");
    let mut distinct = draws.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), draws.len(), "{draws:?}");
}

#[test]
fn a_server_thread_cannot_do_a_games_cpu_work_beyond_its_limit() {
    // A thread started before p_startgame does 2 s of CPU work for each
    // game on a 1 s CPU-time limit. In a fresh process that is the game's
    // own CPU time (status cpu_time); a fork server's jail is frozen while
    // its child plays, so the work is never done and the game times out,
    // and the page shared with the thread could carry work on to the next
    // game, so the server is given up after it. Either way every game
    // scores 0. The C program and its Python twin (a thread of the
    // interpreter).
    needs!(tier::SANDBOX, tier::PYTHON);
    let _cpu = common::cpu_bound();
    let decks = test_decks("cpu_offload", 11, 2);
    let contestants = [
        common::root().join("tests/contestants/hostile/cpu_offload.c"),
        common::root().join("tests/contestants/hostile/cpu_offload.py"),
    ];
    let extra = ["--wall-limit", "5", "--cpu-limit", "1"];
    let fresh = games(&eval(&decks, &extra, &contestants));
    let forked = eval(
        &decks,
        &[&extra[..], &["--fork-server"]].concat(),
        &contestants,
    );
    // (A machine loaded by other work may not give a fresh process its
    // 1 s of CPU time within the 5 s: then it times out, with 0 as well.)
    let over = |status: &str| status == "cpu_time" || status == "timeout";
    for c in 0..contestants.len() {
        let fresh = &fresh[c].1;
        assert!(
            fresh.iter().all(|(s, n, _)| over(s) && *n == 0),
            "{fresh:?}"
        );
        let contestant = &forked["contestants"][c];
        let fallback = contestant["fork_server_fallback"].as_str().unwrap_or("");
        assert!(fallback.contains("memory mapped shared"), "{contestant}");
        let tests = contestant["tests"].as_array().unwrap();
        for t in tests {
            let status = t["status"].as_str().unwrap();
            match t["process"].as_str() {
                Some("forked") => assert_eq!(status, "timeout", "{t}"),
                _ => assert!(over(status), "{t}"),
            }
            assert_eq!(t["score"], 0, "{t}");
        }
        let forked_games = tests.iter().filter(|t| t["process"] == "forked").count();
        assert_eq!(forked_games, 1, "{tests:?}");
    }
}

#[test]
fn a_program_ignoring_sigxcpu_is_stopped_at_its_cpu_limit() {
    // RLIMIT_CPU (a backstop: soft 2 s, hard 3 s) alone would let it spin
    // to the hard limit, 3 s of CPU time; the CPU watch kills it by its
    // cgroup's measure once that reaches 1 s (read every 50 ms). Both
    // ways. Only that side is asserted: under 2 s, a margin of a second of
    // the spinner's own CPU time, which no delay of the watch crosses.
    needs!(tier::SANDBOX);
    let _cpu = common::cpu_bound();
    let decks = test_decks("ignore_xcpu", 31, 1);
    let contestant = common::root().join("tests/contestants/hostile/ignore_xcpu.c");
    for mode in [&[][..], &["--fork-server"][..]] {
        let flags = [&["--wall-limit", "5", "--cpu-limit", "1"][..], mode].concat();
        let report = eval(&decks, &flags, std::slice::from_ref(&contestant));
        let game = &report["contestants"][0]["tests"][0];
        assert_eq!(game["status"], "cpu_time", "{mode:?}: {game}");
        let cpu = game["cpu_seconds"].as_f64().expect("a CPU time");
        assert!(cpu < 2.0, "{mode:?}: {cpu} s of CPU time");
    }
}

#[test]
fn a_finished_game_over_its_cpu_limit_is_not_scored_when_its_server_is_gone() {
    // The child runs 5 ms past its 1 s limit between two reads of the CPU
    // watch, kills its server (which then reports nothing on how the child
    // ended) and makes its last placement: the game's cgroup measured it
    // over the limit, so it scores 0 as cpu_time, as when the server
    // reports. (When the watch reads during the burst, it stops the child
    // before its last placement: cpu_time too.)
    needs!(tier::SANDBOX);
    let _cpu = common::cpu_bound();
    let decks = test_decks("overrun_unreported", 41, 1);
    let contestant = common::root().join("tests/contestants/hostile/overrun_unreported.c");
    let flags = ["--fork-server", "--wall-limit", "5", "--cpu-limit", "1"];
    let report = eval(&decks, &flags, &[contestant]);
    let game = &report["contestants"][0]["tests"][0];
    assert!(
        game["stderr"].as_str().unwrap_or("").contains("ATTACK"),
        "the attack ran under the fork server: {game}"
    );
    assert_eq!(game["status"], "cpu_time", "{game}");
    assert_eq!(game["score"], 0, "{game}");
    let cpu = game["cpu_seconds"].as_f64().expect("a CPU time");
    assert!(cpu >= 1.0, "{cpu} s of CPU time");
}

#[test]
fn a_servers_work_between_games_is_charged_to_the_game() {
    // Each game's child has its server's thread compute 0.5 s (while the
    // server is not frozen: before the child speaks), then uses 0.7 s
    // itself, on a 1 s limit. Fresh, nothing forks: the game, at 70% of
    // its limit, is within it. Forked, the server's work is the game's
    // too: 1.2 s, over it. (Both are CPU times the program measures
    // itself: load makes neither smaller.)
    needs!(tier::SANDBOX);
    let _cpu = common::cpu_bound();
    let decks = test_decks("server_sidework", 41, 1);
    let contestant = common::root().join("tests/contestants/hostile/server_sidework.c");
    let flags = ["--wall-limit", "5", "--cpu-limit", "1"];
    let one_game = |flags: &[&str]| {
        let report = eval(&decks, flags, std::slice::from_ref(&contestant));
        report["contestants"][0]["tests"][0].clone()
    };
    let fresh = one_game(&flags);
    assert_eq!(fresh["status"], "ok", "{fresh}");
    let forked = one_game(&[&flags[..], &["--fork-server"]].concat());
    assert_eq!(forked["status"], "cpu_time", "{forked}");
    assert_eq!(forked["score"], 0, "{forked}");
    let cpu = forked["cpu_seconds"].as_f64().expect("a CPU time");
    assert!(cpu >= 1.0, "{cpu} s of CPU time charged: {forked}");
}

#[test]
fn a_game_abandoned_by_killing_its_server_is_not_played_again() {
    // The child sees all 20 cards, kills its server and exits before the
    // last placement: that game is judged as played (incomplete, 0), as
    // exiting early is in a fresh process, not dealt again in one.
    needs!(tier::SANDBOX);
    let decks = test_decks("abandon", 21, 3);
    let contestant = common::root().join("tests/contestants/hostile/abandon_game.c");
    let fresh = games(&eval(&decks, &[], std::slice::from_ref(&contestant)));
    let forked = games(&eval(&decks, &["--fork-server"], &[contestant]));
    let count = |games: &Games, status: &str| games[0].1.iter().filter(|t| t.0 == status).count();
    assert_eq!(count(&fresh, "ok"), 3, "{fresh:?}");
    // The server's first game is abandoned; the others are played in fresh
    // processes once the server is gone.
    assert_eq!(count(&forked, "incomplete"), 1, "{forked:?}");
    assert_eq!(count(&forked, "ok"), 2, "{forked:?}");
}

#[test]
fn memory_shared_with_the_server_counts_towards_the_games_limit() {
    // 40 MiB touched before p_startgame and 40 MiB after, on a 64 MiB
    // limit: the game is over its limit both ways.
    needs!(tier::SANDBOX);
    let decks = test_decks("memory_split", 31, 2);
    let contestant = common::root().join("tests/contestants/hostile/memory_split.c");
    let extra = ["--memory-limit", "64"];
    let (fresh, _) = same_both_ways(&decks, &extra, &[contestant], false);
    assert!(
        fresh[0]
            .1
            .iter()
            .all(|(status, score, _)| status == "memory" && *score == 0),
        "{fresh:?}"
    );
}

#[test]
fn a_server_that_keeps_its_games_stderr_open_is_given_up() {
    // The server keeps a copy of each game's standard-error pipe, so the
    // evaluator never sees its end: that game's stderr is lost, and the
    // server is given up for fresh processes rather than waited for after
    // every game.
    needs!(tier::SANDBOX);
    let decks = test_decks("hold_fds", 41, 4);
    let contestant = common::root().join("tests/contestants/hostile/hold_game_fds.c");
    let report = eval(&decks, &["--fork-server"], &[contestant]);
    let fallback = &report["contestants"][0]["fork_server_fallback"];
    assert!(
        fallback
            .as_str()
            .is_some_and(|why| why.contains("misbehaved")),
        "{fallback}"
    );
    let tests = report["contestants"][0]["tests"].as_array().unwrap();
    assert!(tests.iter().all(|t| t["status"] == "ok"), "{tests:?}");
    let with_stderr = tests
        .iter()
        .filter(|t| {
            t["stderr"]
                .as_str()
                .is_some_and(|s| s.contains("game stderr"))
        })
        .count();
    assert_eq!(with_stderr, 3, "{tests:?}");
}

#[test]
fn cpu_time_spent_before_p_startgame_counts_as_in_a_fresh_process() {
    // 2 s of CPU work before p_startgame on a 1 s CPU-time limit: over the
    // limit in every fresh process, so a fork server that did it once is
    // not used, and every game is judged as in a fresh process.
    needs!(tier::SANDBOX);
    let decks = test_decks("precompute", 51, 2);
    let contestant = common::root().join("tests/contestants/hostile/precompute.c");
    let extra = ["--wall-limit", "10", "--cpu-limit", "1"];
    let (fresh, _) = same_both_ways(&decks, &extra, &[contestant], false);
    assert!(
        fresh[0]
            .1
            .iter()
            .all(|(status, score, _)| status == "cpu_time" && *score == 0),
        "{fresh:?}"
    );
}

#[test]
fn a_server_that_works_between_games_is_given_up() {
    // Its thread computes whenever the server is not frozen, and each
    // child waits 1 s before it speaks: the server is given up after its
    // first game, and the rest are played in fresh processes.
    needs!(tier::SANDBOX);
    let contestant = common::root().join("tests/contestants/hostile/work_between_games.c");
    let output = crate::common::poker()
        .args(["bench", "--json", "--quiet", "--games", "4", "--seed", "9"])
        .args([
            "--jobs",
            "1",
            "--sandbox",
            "on",
            "--wall-limit",
            "5",
            "--lib-dir",
        ])
        .arg(common::lib_dir())
        .arg(&contestant)
        .output()
        .expect("run poker bench");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["games_forked"], 1, "{report}");
    assert_eq!(report["games_fresh"], 3, "{report}");
}

#[test]
fn a_contest_on_a_deck_file_refuses_a_fork_server_and_says_why() {
    let decks = common::scratch("fork_server").join("contest.txt");
    std::fs::write(&decks, format!("{}\n", ContestDeck::shuffled(3))).unwrap();
    let output = crate::common::poker()
        .args(["eval", "--quiet", "--fork-server", "--decks"])
        .arg(&decks)
        .arg(common::root().join("c_examples/greedy.c"))
        .output()
        .expect("run poker eval");
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    for words in [
        "--fork-server cannot be used with --decks",
        "not independent games",
        "A contest plays each game in a fresh process, poker eval's default",
    ] {
        assert!(said.contains(words), "{said}");
    }
}

/// Each "hoard holds N MiB" that `text` shows, N.
fn hoards(text: &str) -> Vec<u64> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("hoard holds ")?.strip_suffix(" MiB"))
        .map(|n| n.parse().unwrap())
        .collect()
}

#[test]
fn a_tmp_hoard_is_given_up_after_its_first_game_and_no_game_finds_it() {
    // Each game adds 24 MiB to a /tmp file opened before p_startgame and
    // counts them in a page mapped shared, on a 64 MiB limit. A fresh
    // process starts from nothing; a fork server is given up after its
    // first game (the page could carry the count on, the file the
    // memory), so no game finds anything held, under `poker eval
    // --fork-server` (its built-in decks) and under `poker bench`.
    needs!(tier::SANDBOX);
    let hoard = common::root().join("tests/contestants/hostile/tmp_hoard.c");
    let output = crate::common::poker()
        .args([
            "eval",
            "--json",
            "--quiet",
            "--sandbox",
            "on",
            "--fork-server",
        ])
        .args(["--memory-limit", "64", "--lib-dir"])
        .arg(common::lib_dir())
        .arg(&hoard)
        .output()
        .expect("run poker eval");
    assert!(output.status.success(), "{}", common::stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let contestant = &report["contestants"][0];
    let fallback = contestant["fork_server_fallback"].as_str().unwrap_or("");
    assert!(fallback.contains("memory mapped shared"), "{contestant}");
    let tests = contestant["tests"].as_array().unwrap();
    let stderr: String = tests
        .iter()
        .map(|t| t["stderr"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(hoards(&stderr), vec![0; tests.len()], "{stderr}");
    assert!(tests.iter().all(|t| t["status"] == "ok"), "{tests:?}");
    let forked = tests.iter().filter(|t| t["process"] == "forked").count();
    assert_eq!(forked, 1, "{tests:?}");

    let output = crate::common::poker()
        .args(["bench", "--json", "--quiet", "--games", "6", "--seed", "3"])
        .args(["--jobs", "1", "--sandbox", "on", "--memory-limit", "64"])
        .arg("--lib-dir")
        .arg(common::lib_dir())
        .arg(&hoard)
        .output()
        .expect("run poker bench");
    assert!(output.status.success(), "{}", common::stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["failed"], 0, "{report}");
    assert_eq!(report["games_forked"], 1, "{report}");
    assert_eq!(report["games_fresh"], 5, "{report}");
    let fallback = report["fallback"].as_str().unwrap_or("");
    assert!(fallback.contains("memory mapped shared"), "{report}");
}

#[test]
fn a_forked_game_has_the_cpu_time_limit_of_a_fresh_one() {
    // Each game prints its RLIMIT_CPU as /proc/self/limits words it: set
    // by the evaluator on each child (where the evaluator lacks
    // CAP_SYS_RESOURCE, as in a container, by a thread with the jail's
    // ids), never the server's own, which its children would inherit.
    needs!(tier::SANDBOX);
    let decks = test_decks("cpu_rlimit", 61, 2);
    let contestant = c_source(
        "cpu_rlimit",
        &round_robin(
            "struct rlimit cpu;",
            "if (i == 1 && getrlimit(RLIMIT_CPU, &cpu) == 0) \
             fprintf(stderr, \"Max cpu time %lu %lu seconds\\n\", \
             (unsigned long)cpu.rlim_cur, (unsigned long)cpu.rlim_max);",
        ),
    );
    let limits = |report: &Value| -> Vec<Vec<String>> {
        report["contestants"][0]["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                let stderr = t["stderr"].as_str().unwrap_or("");
                stderr.split_whitespace().map(str::to_string).collect()
            })
            .collect()
    };
    let extra = ["--cpu-limit", "2"];
    let fresh = limits(&eval(&decks, &extra, std::slice::from_ref(&contestant)));
    let forked = eval(
        &decks,
        &["--cpu-limit", "2", "--fork-server"],
        &[contestant],
    );
    let fallback = &forked["contestants"][0]["fork_server_fallback"];
    assert!(fallback.is_null(), "{fallback}");
    let forked = limits(&forked);
    // The watch holds the 2 s; RLIMIT_CPU is its backstop at twice that,
    // hard one more (SIGKILL after SIGXCPU), as Limits::cpu_rlimit says.
    let expected = ["Max", "cpu", "time", "4", "5", "seconds"].map(String::from);
    assert_eq!(fresh, vec![expected.to_vec(); 2]);
    assert_eq!(forked, fresh);
}

/// A hostile test contestant's source.
fn hostile(name: &str) -> PathBuf {
    common::root().join(format!("tests/contestants/hostile/{name}.c"))
}

/// Each "seen N" line of a contestant's games (in its report), N.
fn seen(contestant: &Value) -> Vec<i64> {
    contestant["tests"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| {
            let stderr = t["stderr"].as_str().unwrap_or("").to_string();
            let numbers: Vec<i64> = stderr
                .lines()
                .filter_map(|l| l.strip_prefix("seen ")?.parse().ok())
                .collect();
            numbers
        })
        .collect()
}

#[test]
fn a_counter_carried_between_games_gives_the_server_up_after_the_first() {
    // Each program counts its games in what a fork server's games share:
    // a page mapped shared before p_startgame, a file in /tmp, the
    // server's own memory (through /proc, once the server is made
    // dumpable again: a game has no /proc in the sandbox, so only the
    // server made dumpable shows). Each game prints the count it finds: 0
    // in a fresh process; through a fork server the evaluator finds what
    // the first game left, gives the server up and plays the rest fresh,
    // so every game finds 0 there too, and the report says why. The pid
    // counter of the server's jail (a game forks 5 children) shows in the
    // next child's pid, before that child is dealt a card: that game is
    // played fresh. Its /tmp's inode counter (a game makes 6 unnamed
    // files) and times (a game writes a file again with the same content,
    // makes and removes another) are checked after each game; the one
    // forked game sees the file the evaluator made to read the counter
    // when the server started (seen 1). A second thread of the server,
    // waiting on a futex word a game can move it from, is found after the
    // first game.
    needs!(tier::SANDBOX);
    let decks = test_decks("carry", 13, 4);
    for (name, reason, evidence) in [
        ("carry_shared_counter", "memory mapped shared", "seen 0"),
        (
            "carry_tmp_counter",
            "the server's /tmp (/tmp/games)",
            "seen 0",
        ),
        ("carry_server_memory", "the server is dumpable", "seen 0"),
        (
            "carry_pid_counter",
            "processes or threads were made between two games",
            "seen 0",
        ),
        (
            "carry_tmp_inode",
            "files were made in the server's /tmp",
            "seen 1",
        ),
        ("carry_tmp_times", "the server's /tmp (/tmp/mark)", "seen 0"),
        (
            "carry_futex_waiter",
            "the server has more than one thread",
            "seen 0",
        ),
    ] {
        let report = eval(&decks, &["--fork-server"], &[hostile(name)]);
        let contestant = &report["contestants"][0];
        assert_eq!(seen(contestant).len(), 4, "{name}: {contestant}");
        let fallback = contestant["fork_server_fallback"].as_str().unwrap_or("");
        assert!(
            fallback.starts_with("a game could leave state for the next: ")
                && fallback.contains(reason),
            "{name}: {fallback}"
        );
        let tests = contestant["tests"].as_array().unwrap();
        assert!(
            tests.iter().all(|t| t["status"] == "ok"),
            "{name}: {tests:?}"
        );
        // The first game (decks are played in a shuffled order) went
        // through the server, and did what it does there.
        let forked: Vec<&Value> = tests.iter().filter(|t| t["process"] == "forked").collect();
        assert_eq!(forked.len(), 1, "{name}: {tests:?}");
        let stderr = forked[0]["stderr"].as_str().unwrap_or("");
        assert!(stderr.lines().any(|l| l == evidence), "{name}: {stderr}");
        // The others, fresh, found nothing.
        for test in tests.iter().filter(|t| t["process"] == "fresh") {
            let stderr = test["stderr"].as_str().unwrap_or("");
            assert!(stderr.lines().any(|l| l == "seen 0"), "{name}: {stderr}");
        }
    }
}

#[test]
fn a_game_cannot_leave_a_number_in_its_reapers_limits() {
    // The jail's init (the sandbox's reaper) outlives a fork server's
    // games: a game that could lower its limit of open files would leave a
    // count for the next. A game may ask and set its own limits only, so
    // every game is refused, sees 0, and the server is kept.
    needs!(tier::SANDBOX);
    let decks = test_decks("reaper", 17, 4);
    let report = eval(&decks, &["--fork-server"], &[hostile("carry_reaper_limit")]);
    let contestant = &report["contestants"][0];
    assert_eq!(seen(contestant), [0, 0, 0, 0], "{contestant}");
    assert!(contestant["fork_server_fallback"].is_null(), "{contestant}");
    for test in contestant["tests"].as_array().unwrap() {
        assert_eq!(test["process"], "forked", "{test}");
        assert_eq!(test["status"], "ok", "{test}");
        let stderr = test["stderr"].as_str().unwrap_or("");
        assert!(stderr.contains("reaper's limits: refused"), "{test}");
    }
}

#[test]
fn start_up_work_counts_in_every_game_as_in_a_fresh_process() {
    // 0.3 s of CPU time before p_startgame and 0.05 s a game: over a 0.2 s
    // CPU-time limit in every game, well within 0.6 s, in fresh processes
    // (`poker eval`'s default), through a fork server (`eval --fork-server`)
    // and in `poker bench`. Within 0.6 s the server keeps every game, each
    // charged with its start-up.
    needs!(tier::SANDBOX);
    let decks = test_decks("startup", 17, 3);
    let program = hostile("startup_work");
    for (limit, status) in [("0.2", "cpu_time"), ("0.6", "ok")] {
        let flags = ["--wall-limit", "5", "--cpu-limit", limit];
        let fresh = eval(&decks, &flags, std::slice::from_ref(&program));
        let forked = eval(
            &decks,
            &[&flags[..], &["--fork-server"]].concat(),
            std::slice::from_ref(&program),
        );
        for report in [&fresh, &forked] {
            let tests = report["contestants"][0]["tests"].as_array().unwrap();
            assert!(
                tests.iter().all(|t| t["status"] == status),
                "{limit}: {tests:?}"
            );
        }
        let (json, page) = bench_with_page(&program, 3, &flags, true);
        let benched: Value = serde_json::from_str(&json).unwrap();
        let failed = if status == "ok" { 0 } else { 3 };
        assert_eq!(benched["failed"], failed, "{limit}: {benched}");
        let contestant = &forked["contestants"][0];
        if status == "ok" {
            let startup = contestant["fork_server_startup_cpu_seconds"]
                .as_f64()
                .unwrap();
            assert!(startup >= 0.3, "{contestant}");
            assert!(contestant["fork_server_fallback"].is_null(), "{contestant}");
            for t in contestant["tests"].as_array().unwrap() {
                assert_eq!(t["process"], "forked", "{t}");
                assert!(t["cpu_seconds"].as_f64().unwrap() >= 0.3, "{t}");
            }
            assert_eq!(benched["games_forked"], 3, "{benched}");
            assert!(
                benched["startup_cpu_seconds"].as_f64().unwrap() >= 0.3,
                "{benched}"
            );
            assert!(
                page.contains("start-up: 0.3")
                    && page.contains("before p_startgame, counted in every forked game"),
                "{page}"
            );
        } else {
            // Its start-up alone is over the limit: no game is forked.
            for why in [&contestant["fork_server_fallback"], &benched["fallback"]] {
                let why = why.as_str().unwrap_or("");
                assert!(
                    why.contains("before p_startgame, over the game's limit"),
                    "{why}"
                );
            }
            assert_eq!(benched["games_fresh"], 3, "{benched}");
        }
    }
}

#[test]
fn a_computation_split_between_start_up_and_games_is_over_the_limit_every_game() {
    // 0.3 s of CPU time before p_startgame and 0.35 s a game, added up in
    // a page mapped shared, on a 0.5 s limit: over it in every fresh
    // process. Through a fork server the start-up is charged to its first
    // game, which is then over the limit too, and the page gives the
    // server up: no game builds on the ones before.
    needs!(tier::SANDBOX);
    let decks = test_decks("split_work", 19, 3);
    let program = hostile("startup_shared_work");
    let flags = ["--wall-limit", "5", "--cpu-limit", "0.5"];
    let fresh = eval(&decks, &flags, std::slice::from_ref(&program));
    let forked = eval(
        &decks,
        &[&flags[..], &["--fork-server"]].concat(),
        std::slice::from_ref(&program),
    );
    for report in [&fresh, &forked] {
        let tests = report["contestants"][0]["tests"].as_array().unwrap();
        for t in tests {
            assert_eq!(t["status"], "cpu_time", "{t}");
            assert!(t["cpu_seconds"].as_f64().unwrap() >= 0.5, "{t}");
        }
    }
    let contestant = &forked["contestants"][0];
    let fallback = contestant["fork_server_fallback"].as_str().unwrap_or("");
    assert!(fallback.contains("memory mapped shared"), "{contestant}");
    // bench's summary and page say which games ran fresh (deck 2 is the
    // deck of POKER_SEED=9+2), and why.
    let (text, page) = bench_with_page(&program, 2, &flags, false);
    assert!(text.contains("failed:     2 games"), "{text}");
    let said = [
        "processes: fork server for 1 game, fresh processes for 1 game (POKER_SEED=11)",
        "fallback: fork server given up: a game could leave state for the next: \
         the server has memory mapped shared",
    ];
    for words in said {
        let spaced = words.replacen(": ", ":  ", 1);
        let spaced = spaced.replacen("fallback:  ", "fallback:   ", 1);
        assert!(text.contains(&spaced), "{text}");
        assert!(page.contains(words), "{page}");
    }
}

/// `poker bench` on `games` games (seed 9, one job, in the sandbox) with
/// `flags` and `--json` (`None`: its text), its HTML page.
fn bench_with_page(contestant: &Path, games: u32, flags: &[&str], json: bool) -> (String, String) {
    let html = common::scratch("fork_server").join(format!(
        "bench-{}.html",
        contestant.file_stem().unwrap().to_string_lossy()
    ));
    let output = crate::common::poker()
        .args(["bench", "--quiet", "--seed", "9", "--jobs", "1"])
        .args(["--games", &games.to_string(), "--sandbox", "on"])
        .args(flags)
        .args(json.then_some("--json"))
        .arg("--html")
        .arg(&html)
        .arg("--lib-dir")
        .arg(common::lib_dir())
        .arg(contestant)
        .output()
        .expect("run poker bench");
    // (It fails when every game failed, and reports all the same.)
    let failed_all = common::stderr(&output).contains("poker: error: every game failed");
    assert!(
        output.status.success() || failed_all,
        "{}",
        common::stderr(&output)
    );
    let page = std::fs::read_to_string(&html).unwrap();
    (String::from_utf8_lossy(&output.stdout).into_owned(), page)
}
