//! The hostile contestants of tests/contestants/hostile against
//! `poker eval`: with `--sandbox off` each attack is shown to work (the
//! evaluator runs as root here, like an organiser who did not read the
//! README), with `--sandbox on` the attacker gains nothing: no LEAK or
//! ATTACK line in its stderr, the score round robin gets on the same deck,
//! the other contestants' scores unchanged, exit 0 and a full JSON report.
//!
//! Needs bubblewrap and root (the sandbox tier of `common::tier`).

use crate::common;
use crate::common::tier::{self, needs};
use poker_core::contest::{Board, ContestDeck};
use rustix::process::{Pid, Signal, kill_process};
use serde_json::Value;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The contest text's worked-example deck (round robin scores 11 on it).
const DECK: &str = "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH";
/// Enough of the deck to recognise it in a message.
const DECK_PART: &str = "TH 9H QS 9S TD";

/// Round robin's score on DECK from the scorer (card k goes to column k % 4),
/// not from running anything.
fn roundrobin_score() -> u64 {
    let cards = *ContestDeck::parse(DECK).unwrap().cards();
    let columns = std::array::from_fn(|c| std::array::from_fn(|r| cards[r * 4 + c]));
    u64::from(Board::from_columns(columns).score().unwrap().total)
}

/// A test's scratch folder (also the evaluator's cwd), with the deck file
/// (the deck line alone) and a private TMPDIR for the evaluator.
pub(crate) struct Scratch {
    dir: PathBuf,
    deck: PathBuf,
    tmp: PathBuf,
}

pub(crate) fn scratch(test: &str) -> Scratch {
    let dir = common::scratch(&format!("attacks/{test}"));
    let deck = dir.join("deck.txt");
    std::fs::write(&deck, format!("{DECK}\n")).unwrap();
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    Scratch { dir, deck, tmp }
}

pub(crate) fn hostile(name: &str) -> PathBuf {
    common::root().join("tests/contestants/hostile").join(name)
}

pub(crate) fn roundrobin() -> PathBuf {
    common::root().join("c_examples/roundrobin.c")
}

/// `poker eval [--json] --sandbox MODE ... --decks DECK --wall-limit 5
/// EXTRA -- CONTESTANTS`, run in the scratch folder with its TMPDIR.
pub(crate) fn command(
    s: &Scratch,
    sandbox: &str,
    json: bool,
    extra: &[&str],
    contestants: &[&Path],
) -> Command {
    let mut cmd = crate::common::poker();
    cmd.arg("eval");
    if json {
        cmd.arg("--json");
    }
    cmd.args(["--sandbox", sandbox, "--lib-dir"])
        .arg(common::lib_dir())
        .arg("--decks")
        .arg(&s.deck)
        .arg("--order-seed")
        .arg(in_order_seed(contestants.len()).to_string())
        .args(["--wall-limit", "5"])
        .args(extra)
        .arg("--")
        .args(contestants)
        .env("TMPDIR", &s.tmp)
        .current_dir(&s.dir)
        .stdin(Stdio::null());
    cmd
}

/// A seed with which `poker eval` plays `contestants` games on one deck in
/// the order given: the attacks that leave something for the contestants
/// after them (a file, a key) need it. The evaluator shuffles the order by
/// default, so the seed is looked for.
fn in_order_seed(contestants: usize) -> u64 {
    let given: Vec<(usize, usize)> = (0..contestants).map(|c| (c, 0)).collect();
    (0..)
        .find(|&seed| poker_judge::evaluator::game_order(contestants, 1, seed) == given)
        .unwrap()
}

/// Waits for `child` at most `limit`, then kills it and fails.
fn wait_bounded(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("poker eval still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.wait_with_output().unwrap()
}

fn run(mut cmd: Command) -> Output {
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run poker eval");
    wait_bounded(child, Duration::from_secs(60))
}

/// Runs the command, which must succeed and print the JSON report.
fn eval_json(cmd: Command) -> Value {
    let output = run(cmd);
    assert!(
        output.status.success(),
        "poker eval failed ({}): {}",
        output.status,
        common::stderr(&output)
    );
    serde_json::from_slice(&output.stdout).expect("poker eval --json prints JSON")
}

/// The filters' name as the reviewed golden file of their call lists
/// records it.
fn golden_filter_name() -> String {
    let golden = common::root().join("tests/data/sandbox/syscall_filter.txt");
    let text = std::fs::read_to_string(golden).unwrap();
    let name = text.lines().find_map(|l| l.strip_prefix("name "));
    name.expect("a name line").to_string()
}

pub(crate) fn on(s: &Scratch, extra: &[&str], contestants: &[&Path]) -> Value {
    let json = eval_json(command(s, "on", true, extra, contestants));
    assert_eq!(json["sandbox"], "bubblewrap", "{json}");
    assert_eq!(json["syscall_filter"], golden_filter_name(), "{json}");
    assert!(
        json["limits"].as_array().is_some_and(|l| !l.is_empty()),
        "no limits in {json}"
    );
    json
}

pub(crate) fn off(s: &Scratch, extra: &[&str], contestants: &[&Path]) -> Value {
    let json = eval_json(command(s, "off", true, extra, contestants));
    assert_eq!(json["sandbox"], "off", "{json}");
    assert!(json["syscall_filter"].is_null(), "{json}");
    json
}

pub(crate) fn entry<'a>(json: &'a Value, name: &str) -> &'a Value {
    json["contestants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no contestant {name} in {json}"))
}

/// The stderr of `name`'s (only) game.
pub(crate) fn stderr_of<'a>(json: &'a Value, name: &str) -> &'a str {
    entry(json, name)["tests"][0]["stderr"]
        .as_str()
        .unwrap_or("")
}

/// `name` was run, played every game normally (status ok, round robin's
/// score) and reported no successful attack.
pub(crate) fn assert_plays_like_roundrobin(json: &Value, name: &str) {
    let c = entry(json, name);
    assert!(c["not_run"].is_null(), "{name} not run: {c}");
    let tests = c["tests"].as_array().unwrap();
    assert!(!tests.is_empty());
    for t in tests {
        assert_eq!(t["status"], "ok", "{name}: {t}");
        assert_eq!(t["score"], roundrobin_score(), "{name}: {t}");
        let stderr = t["stderr"].as_str().unwrap_or("");
        assert!(
            !stderr.contains("LEAK") && !stderr.contains("ATTACK"),
            "{name} got through: {stderr}"
        );
    }
}

/// The attacker and round robin both play like round robin.
fn assert_blocked(json: &Value, attacker: &str) {
    assert_plays_like_roundrobin(json, attacker);
    assert_plays_like_roundrobin(json, "roundrobin");
}

pub(crate) fn assert_contains(text: &str, part: &str) {
    assert!(text.contains(part), "{part:?} not in:\n{text}");
}

/// Runs the evaluator, watching its state: when it is stopped (state T),
/// notes it, waits a moment and sends SIGCONT. Returns whether it was seen
/// stopped, and its output.
fn run_watching_for_stop(mut cmd: Command) -> (bool, Output) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as i32;
    let start = Instant::now();
    let mut stopped = false;
    while child.try_wait().unwrap().is_none() {
        if let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            if stat[stat.rfind(')').unwrap() + 2..].starts_with('T') {
                stopped = true;
                std::thread::sleep(Duration::from_millis(200));
                // Our own child, still unreaped.
                cont(pid);
            }
        }
        if start.elapsed() > Duration::from_secs(30) {
            cont(pid);
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    (stopped, child.wait_with_output().unwrap())
}

const SHARED: &str = "/tmp/poker-shared-cards";

/// A hostile template with DECK_FILE_PATH replaced by the deck's path,
/// written into the scratch folder.
fn with_deck_path(s: &Scratch, template: &str) -> PathBuf {
    let text = std::fs::read_to_string(hostile(template)).unwrap();
    let path = s.dir.join(template);
    std::fs::write(
        &path,
        text.replace("DECK_FILE_PATH", s.deck.to_str().unwrap()),
    )
    .unwrap();
    path
}

/// Kills every process whose command line mentions `needle` (a path in
/// this test's own scratch folder: only processes this test started).
fn kill_mentioning(needle: &str) {
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        if String::from_utf8_lossy(&cmdline).contains(needle) {
            if let Some(pid) = Pid::from_raw(pid) {
                let _ = kill_process(pid, Signal::KILL);
            }
        }
    }
}

fn cont(pid: i32) {
    let _ = kill_process(Pid::from_raw(pid).expect("a child's pid"), Signal::CONT);
}

/// SIGKILL to the process group our child leads.
fn kill_group(child: &Child) {
    let pid = Pid::from_child(child);
    let _ = rustix::process::kill_process_group(pid, Signal::KILL);
}

/// Runs the command with stdout and stderr on a new pseudo-terminal (its
/// controlling terminal); returns its exit status and everything written
/// on the terminal.
fn run_on_terminal(mut cmd: Command) -> (std::process::ExitStatus, Vec<u8>) {
    use std::os::fd::FromRawFd;
    // SAFETY: plain libc pty calls, results checked; the master is owned
    // by `master` from here on.
    let master = unsafe {
        let fd = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(fd >= 0, "posix_openpt");
        assert_eq!(libc::grantpt(fd), 0);
        assert_eq!(libc::unlockpt(fd), 0);
        std::fs::File::from_raw_fd(fd)
    };
    let mut name = [0 as libc::c_char; 128];
    // SAFETY: the buffer and its length are right.
    let rc = unsafe {
        use std::os::fd::AsRawFd;
        libc::ptsname_r(master.as_raw_fd(), name.as_mut_ptr(), name.len())
    };
    assert_eq!(rc, 0);
    // SAFETY: ptsname_r wrote a NUL-terminated name.
    let name = unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) }
        .to_str()
        .unwrap()
        .to_string();
    let slave = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NOCTTY)
            .open(&name)
            .unwrap()
    };
    cmd.stdout(slave.try_clone().unwrap()).stderr(slave);
    // SAFETY: setsid and ioctl are async-signal-safe.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() < 0 || libc::ioctl(1, libc::TIOCSCTTY, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let child = cmd.spawn().unwrap();
    drop(cmd); // our copies of the slave
    let (tx, rx) = std::sync::mpsc::channel();
    let mut reader = master;
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        // EIO once every copy of the slave is closed.
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let output = wait_bounded(child, Duration::from_secs(60));
    let mut seen = Vec::new();
    while let Ok(chunk) = rx.recv_timeout(Duration::from_secs(2)) {
        seen.extend(chunk);
    }
    (output.status, seen)
}

/// Listens on 127.0.0.1:47823 and on the abstract socket
/// @poker-hostile-47823 (both non-blocking), as network.c expects.
fn listeners() -> (std::net::TcpListener, std::os::unix::net::UnixListener) {
    use std::os::linux::net::SocketAddrExt;
    let tcp = std::net::TcpListener::bind("127.0.0.1:47823").expect("port 47823 is free");
    let addr = std::os::unix::net::SocketAddr::from_abstract_name(b"poker-hostile-47823").unwrap();
    let unix = std::os::unix::net::UnixListener::bind_addr(&addr).unwrap();
    tcp.set_nonblocking(true).unwrap();
    unix.set_nonblocking(true).unwrap();
    (tcp, unix)
}

/// Held by the tests that use fixed paths or ports of the machine
/// (/tmp/poker-shared-cards, /dev/shm, /var/tmp, port 47823), so that the
/// halves with and without the sandbox do not meet.
static MACHINE: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub(crate) fn machine() -> std::sync::MutexGuard<'static, ()> {
    MACHINE.lock().unwrap_or_else(|p| p.into_inner())
}

fn marker() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("m{}x{nanos}", std::process::id())
}

// read_deck_file (--decks FILE from /proc/<ppid>/cmdline) blocked;
// expected: round robin's score from the scorer, for both.
#[test]
fn read_deck_file_is_blocked() {
    needs!(tier::SANDBOX);
    let s = scratch("read_deck_file_on");
    let json = on(&s, &[], &[&hostile("read_deck_file.c"), &roundrobin()]);
    assert_blocked(&json, "read_deck_file");
}

// read_deck_file unsandboxed; expected: the deck line of the test's deck file.
#[test]
fn read_deck_file_works_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("read_deck_file_off");
    let json = off(&s, &[], &[&hostile("read_deck_file.c"), &roundrobin()]);
    let stderr = stderr_of(&json, "read_deck_file");
    assert_contains(stderr, "LEAK: deck file");
    assert_contains(stderr, DECK);
}

// read_parent_memory (/proc/<ppid>/environ, maps, mem) blocked; expected:
// round robin's score from the scorer, the marker nowhere in the report.
#[test]
fn read_parent_memory_is_blocked() {
    needs!(tier::SANDBOX);
    let s = scratch("read_parent_memory_on");
    let marker = marker();
    let mut cmd = command(
        &s,
        "on",
        true,
        &[],
        &[&hostile("read_parent_memory.c"), &roundrobin()],
    );
    cmd.env("POKER_HOSTILE_MARKER", &marker);
    let json = eval_json(cmd);
    assert_eq!(json["sandbox"], "bubblewrap");
    assert_blocked(&json, "read_parent_memory");
    assert!(!json.to_string().contains(&marker), "{json}");
}

// read_parent_memory unsandboxed; expected: the random marker this test put
// in the evaluator's environment (hidden from the contestant's own), read
// from environ and from mem.
#[test]
fn read_parent_memory_works_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("read_parent_memory_off");
    let marker = marker();
    let mut cmd = command(
        &s,
        "off",
        true,
        &[],
        &[&hostile("read_parent_memory.c"), &roundrobin()],
    );
    cmd.env("POKER_HOSTILE_MARKER", &marker);
    let json = eval_json(cmd);
    let stderr = stderr_of(&json, "read_parent_memory");
    assert_contains(
        stderr,
        &format!("LEAK: environ: POKER_HOSTILE_MARKER={marker}"),
    );
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("LEAK: mem at") && l.ends_with(&marker)),
        "the marker was not read from memory:\n{stderr}"
    );
}

// stop_parent (SIGSTOP to the parent) blocked; expected: the evaluator
// never in state T, round robin's score from the scorer.
#[test]
fn stop_parent_is_blocked() {
    needs!(tier::SANDBOX);
    let s = scratch("stop_parent_on");
    let cmd = command(
        &s,
        "on",
        true,
        &[],
        &[&hostile("stop_parent.c"), &roundrobin()],
    );
    let (stopped, output) = run_watching_for_stop(cmd);
    assert!(!stopped, "the evaluator was stopped");
    assert!(output.status.success(), "{}", common::stderr(&output));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["sandbox"], "bubblewrap");
    assert_blocked(&json, "stop_parent");
}

// stop_parent unsandboxed: it finds the evaluator through /proc, but plain
// mode starts it in a PID namespace of its own, where no pid names
// the evaluator; expected: "cannot stop pid N", the evaluator never stopped,
// a full report.
#[test]
fn stop_parent_is_stopped_by_plain_modes_pid_namespace() {
    needs!(tier::SANDBOX);
    let s = scratch("stop_parent_off");
    let cmd = command(
        &s,
        "off",
        true,
        &[],
        &[&hostile("stop_parent.c"), &roundrobin()],
    );
    let (stopped, output) = run_watching_for_stop(cmd);
    assert!(!stopped, "the evaluator was stopped");
    assert!(output.status.success(), "{}", common::stderr(&output));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let evaluator = format!("cannot stop pid {}", output_pid_hint(&json, "stop_parent"));
    assert_contains(stderr_of(&json, "stop_parent"), &evaluator);
}

/// The pid a demonstration named in its "cannot ... pid N" line (the
/// evaluator's, found through /proc): N, checked to be a number other
/// than 0 (0: it found no evaluator).
fn output_pid_hint(json: &Value, name: &str) -> String {
    let stderr = stderr_of(json, name);
    let n = stderr
        .split("pid ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .unwrap_or_else(|| panic!("{name} named no pid: {stderr}"));
    assert!(n.parse::<u32>().is_ok_and(|n| n > 1), "{name}: {stderr}");
    n.to_string()
}

// kill_parent (SIGKILL to the parent) blocked; expected: round robin's
// score from the scorer, a full report.
#[test]
fn kill_parent_is_blocked() {
    needs!(tier::SANDBOX);
    let s = scratch("kill_parent_on");
    let json = on(&s, &[], &[&hostile("kill_parent.c"), &roundrobin()]);
    assert_blocked(&json, "kill_parent");
}

// kill_parent unsandboxed: it finds the evaluator through /proc, but from
// its PID namespace no pid names it; expected: "cannot kill pid N", the
// evaluator alive with a full report.
#[test]
fn kill_parent_is_stopped_by_plain_modes_pid_namespace() {
    needs!(tier::SANDBOX);
    let s = scratch("kill_parent_off");
    let json = off(&s, &[], &[&hostile("kill_parent.c"), &roundrobin()]);
    let evaluator = format!("cannot kill pid {}", output_pid_hint(&json, "kill_parent"));
    assert_contains(stderr_of(&json, "kill_parent"), &evaluator);
}

// overwrite_others (rewrites the other compiled programs) blocked;
// expected: round robin, evaluated after it, keeps its score from the scorer.
#[test]
fn overwrite_others_is_blocked() {
    needs!(tier::SANDBOX);
    let s = scratch("overwrite_others_on");
    let json = on(&s, &[], &[&hostile("overwrite_others.c"), &roundrobin()]);
    assert_blocked(&json, "overwrite_others");
}

// overwrite_others unsandboxed; expected: round robin exits before its
// first card (incomplete, 0).
#[test]
fn overwrite_others_works_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("overwrite_others_off");
    let json = off(&s, &[], &[&hostile("overwrite_others.c"), &roundrobin()]);
    assert_contains(
        stderr_of(&json, "overwrite_others"),
        "ATTACK: succeeded: overwrote",
    );
    let game = &entry(&json, "roundrobin")["tests"][0];
    assert_eq!(game["score"], 0, "{game}");
    assert_eq!(game["status"], "incomplete", "{game}");
}

// share_tmp_writer + share_tmp_reader (cards passed on through /tmp)
// blocked; expected: round robin's score from the scorer for both, no
// file left in the machine's /tmp.
#[test]
fn share_tmp_is_blocked() {
    needs!(tier::SANDBOX);
    let _machine = machine();
    let s = scratch("share_tmp_on");
    let _ = std::fs::remove_file(SHARED);
    let json = on(
        &s,
        &[],
        &[
            &hostile("share_tmp_writer.c"),
            &hostile("share_tmp_reader.c"),
        ],
    );
    assert_plays_like_roundrobin(&json, "share_tmp_writer");
    assert_plays_like_roundrobin(&json, "share_tmp_reader");
    assert!(!Path::new(SHARED).exists(), "{SHARED} written outside");
}

// share_tmp unsandboxed; expected: the deck's first 20 cards (the test's
// deck) in the reader's LEAK.
#[test]
fn share_tmp_works_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let _machine = machine();
    let s = scratch("share_tmp_off");
    let _ = std::fs::remove_file(SHARED);
    let json = off(
        &s,
        &[],
        &[
            &hostile("share_tmp_writer.c"),
            &hostile("share_tmp_reader.c"),
        ],
    );
    let _ = std::fs::remove_file(SHARED);
    let first_20: Vec<&str> = DECK.split(' ').take(20).collect();
    assert_contains(
        stderr_of(&json, "share_tmp_reader"),
        &format!("LEAK: another contestant's cards: {}", first_20.join(" ")),
    );
}

// incbin_deck (the compiler embeds the deck file) blocked; expected: no
// deck in its entry (not run, or run without it), round robin's score
// from the scorer for round robin.
#[test]
fn incbin_deck_is_blocked() {
    needs!(tier::SANDBOX);
    let s = scratch("incbin_deck_on");
    let json = on(
        &s,
        &[],
        &[&with_deck_path(&s, "incbin_deck.c"), &roundrobin()],
    );
    assert_plays_like_roundrobin(&json, "roundrobin");
    let c = entry(&json, "incbin_deck");
    assert!(!c.to_string().contains(DECK_PART), "{c}");
    if c["not_run"].is_null() {
        assert_plays_like_roundrobin(&json, "incbin_deck");
    }
}

// incbin_deck unsandboxed; expected: the test's deck line in its LEAK.
#[test]
fn incbin_deck_works_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("incbin_deck_off");
    let json = off(
        &s,
        &[],
        &[&with_deck_path(&s, "incbin_deck.c"), &roundrobin()],
    );
    assert_contains(
        stderr_of(&json, "incbin_deck"),
        &format!("LEAK: embedded at compile time: {DECK}"),
    );
}

// include_deck (#include of the deck file) blocked; expected: not run, the
// reason without the deck; round robin's score from the scorer.
#[test]
fn include_deck_is_blocked() {
    needs!(tier::SANDBOX);
    let s = scratch("include_deck_on");
    let json = on(
        &s,
        &[],
        &[&with_deck_path(&s, "include_deck.c"), &roundrobin()],
    );
    assert_plays_like_roundrobin(&json, "roundrobin");
    let c = entry(&json, "include_deck");
    assert!(c["not_run"].is_string(), "{c}");
    assert!(!c.to_string().contains(DECK_PART), "{c}");
}

// include_deck unsandboxed; expected: the compiler's error in not_run
// quoting the test's deck line.
#[test]
fn include_deck_works_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("include_deck_off");
    let json = off(
        &s,
        &[],
        &[&with_deck_path(&s, "include_deck.c"), &roundrobin()],
    );
    let why = entry(&json, "include_deck")["not_run"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert_contains(&why, DECK);
}

/// include_ptmx.c copied into the test's folder (so that the compiler
/// working on it can be told apart by its command line).
fn ptmx_source(s: &Scratch) -> PathBuf {
    let path = s.dir.join("include_ptmx.c");
    std::fs::copy(hostile("include_ptmx.c"), &path).unwrap();
    path
}

// include_ptmx (#include "/dev/ptmx" hangs the compiler where there is
// one) with --compile-time-limit 2; expected: not run, in bounded time,
// the compiler finding no /dev/ptmx in its jail (none is made); round
// robin's score from the scorer.
#[test]
fn include_ptmx_finds_no_ptmx_in_the_compilers_jail() {
    needs!(tier::SANDBOX);
    let s = scratch("include_ptmx_on");
    let source = ptmx_source(&s);
    let rr = roundrobin();
    let mut cmd = command(
        &s,
        "on",
        true,
        &["--compile-time-limit", "2"],
        &[&source, &rr],
    );
    let mut child = cmd
        .process_group(0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    // Stops at the event (the evaluation ends); the bound, far past the
    // 2 s limit and a loaded machine's compile of round robin, only stops
    // a hang.
    while child.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let finished = child.try_wait().unwrap().is_some();
    if !finished {
        kill_group(&child);
        kill_mentioning(s.tmp.to_str().unwrap());
    }
    let output = child.wait_with_output().unwrap();
    assert!(finished, "still compiling after {:?}", start.elapsed());
    assert!(output.status.success(), "{}", common::stderr(&output));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["sandbox"], "bubblewrap", "{json}");
    assert_plays_like_roundrobin(&json, "roundrobin");
    let why = entry(&json, "include_ptmx")["not_run"]
        .as_str()
        .unwrap_or_else(|| panic!("{json}"))
        .to_lowercase();
    assert!(
        why.contains("/dev/ptmx") && why.contains("no such file"),
        "{why}"
    );
}

// compile_forever.cpp (a constant that takes g++ minutes) with
// --compile-time-limit 2; expected: not run, naming the compile limit;
// round robin's score from the scorer.
#[test]
fn a_compile_that_runs_on_is_stopped_by_the_compile_time_limit() {
    needs!(tier::SANDBOX, tier::CPP);
    let s = scratch("compile_forever_on");
    let json = on(
        &s,
        &["--compile-time-limit", "2"],
        &[&hostile("compile_forever.cpp"), &roundrobin()],
    );
    assert_plays_like_roundrobin(&json, "roundrobin");
    let why = entry(&json, "compile_forever")["not_run"]
        .as_str()
        .unwrap_or_else(|| panic!("{json}"))
        .to_lowercase();
    assert!(
        why.contains("compil") && (why.contains("limit") || why.contains("2 s")),
        "{why}"
    );
}

// include_ptmx unsandboxed (default compile limit, 30 s); expected: the
// compiler blocked on /dev/ptmx with the evaluator waiting for it (then
// this test kills both).
#[test]
fn include_ptmx_hangs_the_compiler_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("include_ptmx_off");
    let source = ptmx_source(&s);
    let mut cmd = command(&s, "off", true, &[], &[&source, &roundrobin()]);
    let mut child = cmd
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The event: a process of this evaluation (its command line names the
    // test's TMPDIR) holding /dev/ptmx open, asleep on it. The bound only
    // stops a test whose compiler never gets there.
    let start = Instant::now();
    let blocked = loop {
        if let Some(pid) = blocked_on_ptmx(s.tmp.to_str().unwrap()) {
            break Some(pid);
        }
        if child.try_wait().unwrap().is_some() || start.elapsed() > Duration::from_secs(120) {
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let finished = child.try_wait().unwrap();
    kill_group(&child);
    let _ = child.wait();
    // The compiler (in a session of its own) reads a copy of the source in
    // the evaluator's scratch folder, under this test's TMPDIR.
    kill_mentioning(s.tmp.to_str().unwrap());
    assert!(blocked.is_some(), "no compiler blocked on /dev/ptmx");
    assert!(finished.is_none(), "the evaluator finished: {finished:?}");
}

/// A sleeping process whose command line holds `needle` and which has
/// /dev/ptmx open, if any.
fn blocked_on_ptmx(needle: &str) -> Option<i32> {
    std::fs::read_dir("/proc")
        .ok()?
        .flatten()
        .find_map(|entry| {
            let pid = entry.file_name().to_string_lossy().parse::<i32>().ok()?;
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let asleep = stat[stat.rfind(')')? + 2..].starts_with('S');
            let holds_ptmx = std::fs::read_dir(format!("/proc/{pid}/fd"))
                .ok()?
                .flatten()
                .filter_map(|fd| std::fs::read_link(fd.path()).ok())
                .any(|target| {
                    target == Path::new("/dev/ptmx") || target == Path::new("/dev/pts/ptmx")
                });
            (String::from_utf8_lossy(&cmdline).contains(needle) && asleep && holds_ptmx)
                .then_some(pid)
        })
}

// memory_hog (touches 1 GiB) under the default 256 MiB limit; expected:
// status memory, 0; round robin's score from the scorer for round robin.
#[test]
fn memory_hog_is_stopped_by_the_memory_limit() {
    needs!(tier::SANDBOX);
    let s = scratch("memory_hog_on");
    let json = on(&s, &[], &[&hostile("memory_hog.c"), &roundrobin()]);
    assert_plays_like_roundrobin(&json, "roundrobin");
    let game = &entry(&json, "memory_hog")["tests"][0];
    assert_eq!(game["status"], "memory", "{game}");
    assert_eq!(game["score"], 0, "{game}");
}

// memory_hog unsandboxed; expected: accepted, round robin's score from the scorer.
#[test]
fn memory_hog_is_accepted_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("memory_hog_off");
    let json = off(&s, &[], &[&hostile("memory_hog.c")]);
    assert_contains(stderr_of(&json, "memory_hog"), "ATTACK: succeeded: touched");
    let game = &entry(&json, "memory_hog")["tests"][0];
    assert_eq!(game["score"], roundrobin_score(), "{game}");
}

// fork_bomb (forks until fork fails) under --process-limit 64; expected:
// at most 64 forks, bounded time, round robin's score from the scorer.
// Sandbox on only: unsandboxed it would fill the machine's process table.
#[test]
fn fork_bomb_is_held_to_the_process_limit() {
    needs!(tier::SANDBOX);
    let s = scratch("fork_bomb_on");
    let start = Instant::now();
    let json = on(
        &s,
        &["--process-limit", "64"],
        &[&hostile("fork_bomb.c"), &roundrobin()],
    );
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert_blocked(&json, "fork_bomb");
    let stderr = stderr_of(&json, "fork_bomb");
    let forks: u32 = stderr
        .lines()
        .find_map(|l| l.strip_prefix("forks: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no fork count in {stderr:?}"));
    assert!(forks <= 64, "{forks} forks");
}

// terminal_writer (a fake ranking on the evaluator's terminal) blocked;
// expected: no "FAKE RANKING" on the terminal or in the JSON, round robin's
// score from the scorer in the ranking row and the JSON.
#[test]
fn terminal_writer_is_blocked() {
    needs!(tier::SANDBOX);
    let s = scratch("terminal_writer_on");
    let attacker = hostile("terminal_writer.c");
    let (status, seen) = run_on_terminal(command(&s, "on", false, &[], &[&attacker]));
    let text = String::from_utf8_lossy(&seen);
    assert!(status.success(), "{text}");
    assert!(!text.contains("FAKE RANKING"), "{text}");
    let row = format!("terminal_writer  {:>5}", roundrobin_score());
    assert!(
        text.lines().any(|l| l.contains(&row)),
        "no {row:?} in {text}"
    );
    // With stdout a pipe, the fake line would land in the JSON.
    let json = on(&s, &[], &[&attacker, &roundrobin()]);
    assert_blocked(&json, "terminal_writer");
    assert!(!json.to_string().contains("FAKE RANKING"));
}

// terminal_writer unsandboxed; expected: "FAKE RANKING" on the terminal.
#[test]
fn terminal_writer_works_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("terminal_writer_off");
    let cmd = command(&s, "off", false, &[], &[&hostile("terminal_writer.c")]);
    let (_, seen) = run_on_terminal(cmd);
    assert_contains(&String::from_utf8_lossy(&seen), "FAKE RANKING");
}

// escape_name (ESC and a forged ranking row in a file name), both modes;
// expected: no raw ESC, no forged row in the human report; round robin's
// score from the scorer under the intact name in the JSON.
#[test]
fn escape_name_shows_nothing_raw_in_either_mode() {
    needs!(tier::SANDBOX);
    let name = "evil\x1b[2Jname\n     1  forged          999      10\nx";
    for mode in ["on", "off"] {
        let s = scratch(&format!("escape_name_{mode}"));
        let evil = s.dir.join(format!("{name}.c"));
        std::fs::copy(roundrobin(), &evil).unwrap();
        let output = run(command(&s, mode, false, &[], &[&evil]));
        assert!(output.status.success(), "{}", common::stderr(&output));
        for stream in [&output.stdout, &output.stderr] {
            assert!(!stream.contains(&0x1b), "raw ESC ({mode}): {stream:?}");
            let text = String::from_utf8_lossy(stream);
            assert!(
                !text
                    .lines()
                    .any(|l| l.trim_start().starts_with("1  forged")),
                "forged row ({mode}):\n{text}"
            );
        }
        let json = eval_json(command(&s, mode, true, &[], &[&evil]));
        let kind = if mode == "on" { "bubblewrap" } else { "off" };
        assert_eq!(json["sandbox"], kind, "{json}");
        assert!(!json.to_string().as_bytes().contains(&0x1b));
        assert_plays_like_roundrobin(&json, name);
    }
}

// snoop_files (/etc/shadow, /root, other sources, the evaluator's cwd and
// descriptors) blocked; expected: round robin's score from the scorer.
#[test]
fn snoop_files_is_blocked() {
    needs!(tier::SANDBOX);
    let s = scratch("snoop_files_on");
    let json = on(&s, &[], &[&hostile("snoop_files.c"), &roundrobin()]);
    assert_blocked(&json, "snoop_files");
}

// snoop_files unsandboxed; expected: roundrobin.c's first line (read here),
// the shadow file's root entry, the evaluator's descriptors, its cwd's
// deck.txt.
#[test]
fn snoop_files_works_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("snoop_files_off");
    let rr = roundrobin();
    let json = off(&s, &[], &[&hostile("snoop_files.c"), &rr]);
    let stderr = stderr_of(&json, "snoop_files");
    let source = std::fs::read_to_string(&rr).unwrap();
    assert_contains(
        stderr,
        &format!("roundrobin.c: {}", source.lines().next().unwrap()),
    );
    assert_contains(stderr, "LEAK: secret file /etc/shadow: root:");
    assert_contains(stderr, "LEAK: the evaluator's fd");
    assert_contains(stderr, "deck.txt");
}

/// The files write_outside.c leaves, the evaluator running in `dir`.
fn notes(dir: &Path) -> [PathBuf; 3] {
    [
        PathBuf::from("/dev/shm/poker-hostile-note"),
        PathBuf::from("/var/tmp/poker-hostile-note"),
        dir.join("poker-hostile-note"),
    ]
}

// write_outside (files in /dev/shm, /var/tmp, the evaluator's cwd)
// blocked; expected: none of them exists afterwards, round robin's score
// from the scorer.
#[test]
fn write_outside_is_blocked() {
    needs!(tier::SANDBOX);
    let _machine = machine();
    let s = scratch("write_outside_on");
    let notes = notes(&s.dir);
    notes.iter().for_each(|n| drop(std::fs::remove_file(n)));
    let json = on(&s, &[], &[&hostile("write_outside.c"), &roundrobin()]);
    assert_blocked(&json, "write_outside");
    for note in &notes {
        assert!(!note.exists(), "{} was written", note.display());
    }
}

// write_outside unsandboxed; expected: the three files exist afterwards.
#[test]
fn write_outside_works_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let _machine = machine();
    let s = scratch("write_outside_off");
    let notes = notes(&s.dir);
    notes.iter().for_each(|n| drop(std::fs::remove_file(n)));
    off(&s, &[], &[&hostile("write_outside.c"), &roundrobin()]);
    let missing: Vec<_> = notes.iter().filter(|n| !n.exists()).collect();
    notes.iter().for_each(|n| drop(std::fs::remove_file(n)));
    assert!(missing.is_empty(), "not written: {missing:?}");
}

// network (TCP 127.0.0.1:47823, abstract socket @poker-hostile-47823)
// blocked; expected: no connection reaches this test's listeners, round
// robin's score from the scorer.
#[test]
fn network_is_blocked() {
    needs!(tier::SANDBOX);
    let _machine = machine();
    let s = scratch("network_on");
    let (tcp, unix) = listeners();
    let json = on(&s, &[], &[&hostile("network.c"), &roundrobin()]);
    assert_blocked(&json, "network");
    assert!(tcp.accept().is_err(), "a TCP connection got through");
    assert!(
        unix.accept().is_err(),
        "an abstract socket connection got through"
    );
}

// network unsandboxed; expected: both connections accepted here, each
// with network.c's greeting.
#[test]
fn network_works_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let _machine = machine();
    let s = scratch("network_off");
    let (tcp, unix) = listeners();
    let json = off(&s, &[], &[&hostile("network.c"), &roundrobin()]);
    assert_contains(stderr_of(&json, "network"), "ATTACK: succeeded: connected");
    let greeting = |mut stream: Box<dyn Read>| {
        let mut text = String::new();
        stream.read_to_string(&mut text).unwrap();
        text
    };
    let (t, _) = tcp.accept().expect("the TCP connection");
    t.set_nonblocking(false).unwrap();
    assert_eq!(greeting(Box::new(t)), "hello from network\n");
    let (u, _) = unix.accept().expect("the abstract socket connection");
    u.set_nonblocking(false).unwrap();
    assert_eq!(greeting(Box::new(u)), "hello from network\n");
}

// ptrace_parent (PTRACE_ATTACH to the evaluator) blocked; expected: round
// robin's score from the scorer.
#[test]
fn ptrace_parent_is_blocked() {
    needs!(tier::SANDBOX);
    let s = scratch("ptrace_parent_on");
    let json = on(&s, &[], &[&hostile("ptrace_parent.c"), &roundrobin()]);
    assert_blocked(&json, "ptrace_parent");
}

// ptrace_parent unsandboxed: it finds the evaluator through /proc, but from
// its PID namespace no pid names it; expected: "cannot attach to pid N: No
// such process".
#[test]
fn ptrace_parent_is_stopped_by_plain_modes_pid_namespace() {
    needs!(tier::SANDBOX);
    let s = scratch("ptrace_parent_off");
    let json = off(&s, &[], &[&hostile("ptrace_parent.c"), &roundrobin()]);
    let pid = output_pid_hint(&json, "ptrace_parent");
    assert_contains(
        stderr_of(&json, "ptrace_parent"),
        &format!("cannot attach to pid {pid}: No such process"),
    );
}

/// The calls denied_calls.c tries, each of which works unconfined (as root)
/// on the kernels CI runs, from its own list.
const DENIED: &[&str] = &[
    "add_key",
    "keyctl",
    "ptrace",
    "process_vm_readv",
    "perf_event_open",
    "userfaultfd",
    "io_uring_setup",
    "io_setup",
    "inotify_init1",
    "fadvise64",
    "mincore",
    "readahead",
    "preadv2-nowait",
    "unshare",
    "madvise-mergeable",
    "prctl-timerslack",
    "personality",
];

// denied_calls under the filter; expected: each call fails with EPERM (the
// seccomp answer to every call off the games' list; clone3 with ENOSYS, so
// that glibc falls back to clone), x32 and i386 calls with EPERM, the calls
// that must keep working work, round robin's score from the scorer.
#[test]
fn denied_calls_fail_with_eperm() {
    needs!(tier::SANDBOX);
    let s = scratch("denied_calls_on");
    let json = on(&s, &[], &[&hostile("denied_calls.c"), &roundrobin()]);
    assert_blocked(&json, "denied_calls");
    let stderr = stderr_of(&json, "denied_calls");
    for name in DENIED
        .iter()
        .chain(&["cachestat", "x32-getpid", "i386-getpid"])
    {
        assert_contains(stderr, &format!("call {name}: EPERM"));
    }
    assert_contains(stderr, "call clone3: ENOSYS");
    assert_contains(stderr, "control pread64: ok");
    assert_contains(stderr, "control fork: ok");
    assert_contains(stderr, "control madvise-dontneed: ok");
    assert_contains(stderr, "control prctl-get-dumpable: ok");
}

// denied_calls unsandboxed; expected: an ATTACK line for each call.
#[test]
fn denied_calls_work_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("denied_calls_off");
    let json = off(&s, &[], &[&hostile("denied_calls.c"), &roundrobin()]);
    let stderr = stderr_of(&json, "denied_calls");
    for name in DENIED {
        assert_contains(stderr, &format!("ATTACK: {name} works"));
    }
}

// keyring_spy then keyring_friend, sandboxed; expected: the spy cannot make
// its key, the friend finds nothing, both score round robin's score from
// the scorer.
#[test]
fn keyring_relay_is_blocked() {
    needs!(tier::SANDBOX);
    let s = scratch("keyring_relay_on");
    let spy = hostile("keyring_spy.c");
    let friend = hostile("keyring_friend.c");
    let json = on(&s, &[], &[&spy, &friend]);
    assert_plays_like_roundrobin(&json, "keyring_spy");
    assert_plays_like_roundrobin(&json, "keyring_friend");
}

// keyring_spy then keyring_friend unsandboxed; expected: the friend prints
// the cards the spy was dealt (the spy's own ATTACK line, the same text).
#[test]
fn keyring_relay_works_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("keyring_relay_off");
    let spy = hostile("keyring_spy.c");
    let friend = hostile("keyring_friend.c");
    let json = off(&s, &[], &[&spy, &friend]);
    // The order was asked for, and the audit records it.
    assert_eq!(json["audit"]["game_order_seed"], in_order_seed(2), "{json}");
    let left = stderr_of(&json, "keyring_spy");
    let cards = left
        .lines()
        .find_map(|l| l.strip_prefix("ATTACK: left key "))
        .and_then(|l| l.split_once(": "))
        .map(|(_, cards)| cards.to_string())
        .unwrap_or_else(|| panic!("the spy made no key:\n{left}"));
    assert_eq!(cards.split_whitespace().count(), 20, "{cards}");
    assert_contains(
        stderr_of(&json, "keyring_friend"),
        &format!("LEAK: relay {cards}"),
    );
}

/// `command` with the evaluator started in a new session keyring holding
/// the key `user:poker-organiser` = `marker`, as a service or a login
/// session has one.
fn with_organiser_key(mut cmd: Command, marker: &str) -> Command {
    let payload = marker.as_bytes().to_vec();
    // SAFETY: two keyctl/add_key system calls on memory allocated before
    // the fork; nothing allocated.
    unsafe {
        cmd.pre_exec(move || {
            const KEYCTL_JOIN_SESSION_KEYRING: libc::c_long = 1;
            const KEY_SPEC_SESSION_KEYRING: libc::c_long = -3;
            if libc::syscall(
                libc::SYS_keyctl,
                KEYCTL_JOIN_SESSION_KEYRING,
                c"poker-test-session".as_ptr(),
            ) < 0
                || libc::syscall(
                    libc::SYS_add_key,
                    c"user".as_ptr(),
                    c"poker-organiser".as_ptr(),
                    payload.as_ptr(),
                    payload.len(),
                    KEY_SPEC_SESSION_KEYRING,
                ) < 0
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd
}

// session_keyring sandboxed; expected: the marker in no report field, round
// robin's score from the scorer.
#[test]
fn session_keyring_is_not_shared() {
    needs!(tier::SANDBOX);
    let s = scratch("session_keyring_on");
    let marker = marker();
    let cmd = command(
        &s,
        "on",
        true,
        &[],
        &[&hostile("session_keyring.c"), &roundrobin()],
    );
    let json = eval_json(with_organiser_key(cmd, &marker));
    assert_eq!(json["sandbox"], "bubblewrap");
    assert_blocked(&json, "session_keyring");
    assert!(!json.to_string().contains(&marker), "{json}");
}

// session_keyring unsandboxed; expected: the marker this test put in the
// evaluator's session keyring.
#[test]
fn session_keyring_is_read_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("session_keyring_off");
    let marker = marker();
    let cmd = command(
        &s,
        "off",
        true,
        &[],
        &[&hostile("session_keyring.c"), &roundrobin()],
    );
    let json = eval_json(with_organiser_key(cmd, &marker));
    assert_contains(
        stderr_of(&json, "session_keyring"),
        &format!("LEAK: organiser's key: {marker}"),
    );
}

// exit_139 (exit(139) after 4 placements) and tests/contestants/segfault.c,
// in both modes; expected: an exit status, not a signal, for the first;
// SIGSEGV for the second (what their sources do).
#[test]
fn exit_139_is_an_exit_status_and_a_segfault_a_signal() {
    needs!(tier::SANDBOX);
    for mode in ["on", "off"] {
        let s = scratch(&format!("exit_139_{mode}"));
        let segfault = common::root().join("tests/contestants/segfault.c");
        let json = eval_json(command(
            &s,
            mode,
            true,
            &[],
            &[&hostile("exit_139.c"), &segfault],
        ));
        let game = &entry(&json, "exit_139")["tests"][0];
        assert_eq!(game["status"], "incomplete", "{mode}: {game}");
        assert_eq!(
            game["reason"], "exited with status 139 after 4 placements",
            "{mode}: {game}"
        );
        let game = &entry(&json, "segfault")["tests"][0];
        assert_eq!(game["status"], "crash", "{mode}: {game}");
        let reason = game["reason"].as_str().unwrap_or("");
        assert!(
            reason.starts_with("killed by SIGSEGV (11)"),
            "{mode}: {game}"
        );
    }
}

// disk_fill (sections aligned to 2^28: gigabytes of padding) in both modes;
// expected: not run, with the reason naming the 64 MiB cap (the compiler's
// files are limited to a little more than it).
#[test]
fn disk_fill_stops_at_the_output_cap() {
    needs!(tier::SANDBOX);
    for mode in ["on", "off"] {
        let s = scratch(&format!("disk_fill_{mode}"));
        let json = eval_json(command(&s, mode, true, &[], &[&hostile("disk_fill.c")]));
        assert_eq!(
            entry(&json, "disk_fill")["not_run"],
            "the compiler's output exceeds 64 MiB",
            "{mode}: {json}"
        );
    }
}

// pagecache_spy, round robin, then pagecache_friend, sandboxed; expected:
// the host file of the channel is not there (a game sees no host file), so
// both fall back to the loader, each its own contestant's private copy; the
// spy cannot evict (EPERM), the friend cannot probe (EPERM), and timing its
// reads it finds every page cached (its copy is its own), never the card
// the spy encoded; all three score round robin's score from the scorer.
#[test]
fn page_cache_probes_are_blocked() {
    needs!(tier::SANDBOX);
    let _channel = CHANNEL_FILE.lock().unwrap_or_else(|e| e.into_inner());
    let s = scratch("page_cache_on");
    let spy = hostile("pagecache_spy.c");
    let friend = hostile("pagecache_friend.c");
    let json = on(&s, &[], &[&spy, &roundrobin(), &friend]);
    assert_plays_like_roundrobin(&json, "pagecache_spy");
    assert_plays_like_roundrobin(&json, "roundrobin");
    assert_plays_like_roundrobin(&json, "pagecache_friend");
    let missing = "/usr/share/common-licenses/GPL-3: No such file or directory";
    assert_contains(stderr_of(&json, "pagecache_spy"), missing);
    assert_contains(stderr_of(&json, "pagecache_friend"), missing);
    assert_contains(
        stderr_of(&json, "pagecache_spy"),
        "evict: Operation not permitted",
    );
    let friend_err = stderr_of(&json, "pagecache_friend");
    assert_contains(friend_err, "probe: Operation not permitted");
    let encoded = stderr_of(&json, "pagecache_spy")
        .lines()
        .find_map(|l| l.strip_prefix("WARMED: "))
        .unwrap_or_else(|| panic!("the spy warmed nothing: {json}"))
        .to_string();
    let timed = friend_err
        .lines()
        .find_map(|l| l.strip_prefix("TIMING: "))
        .unwrap_or_else(|| panic!("the friend timed nothing: {json}"));
    assert_ne!(timed, encoded, "{json}");
}

// The same unsandboxed; expected: the friend reads the card the spy
// encoded (the spy's own ATTACK line), through another contestant's game.
#[test]
fn page_cache_channel_works_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let _channel = CHANNEL_FILE.lock().unwrap_or_else(|e| e.into_inner());
    let s = scratch("page_cache_off");
    let spy = hostile("pagecache_spy.c");
    let friend = hostile("pagecache_friend.c");
    let json = off(&s, &[], &[&spy, &roundrobin(), &friend]);
    let encoded = stderr_of(&json, "pagecache_spy")
        .lines()
        .find_map(|l| l.strip_prefix("ATTACK: encoded "))
        .unwrap_or_else(|| panic!("the spy encoded nothing: {json}"))
        .to_string();
    assert_contains(
        stderr_of(&json, "pagecache_friend"),
        &format!("LEAK: page cache: {encoded}"),
    );
}

/// Evicts `path`'s pages from the page cache (as root, unconfined).
fn evict(path: &str) {
    let file = std::fs::File::open(path).unwrap();
    rustix::fs::fadvise(&file, 0, None, rustix::fs::Advice::DontNeed).unwrap();
}

// pagemap_spy, round robin, then pagemap_friend, sandboxed, the channel's
// pages cold to start with; expected: the shared host file is not in any
// game (each sees only its contestant's private copies), so neither can map
// it, the friend finds nothing (no LEAK), and all three score round robin's
// score.
#[test]
fn page_cache_cannot_be_probed_through_pagemap() {
    needs!(tier::SANDBOX);
    let _channel = CHANNEL_FILE.lock().unwrap_or_else(|e| e.into_inner());
    let s = scratch("pagemap_on");
    evict(CHANNEL);
    let spy = hostile("pagemap_spy.c");
    let friend = hostile("pagemap_friend.c");
    let json = on(&s, &[], &[&spy, &roundrobin(), &friend]);
    let missing = format!("{CHANNEL}: No such file or directory");
    assert_contains(stderr_of(&json, "pagemap_spy"), &missing);
    assert_contains(stderr_of(&json, "pagemap_friend"), &missing);
    assert!(
        !stderr_of(&json, "pagemap_friend").contains("LEAK"),
        "the friend read something: {json}"
    );
    assert_plays_like_roundrobin(&json, "pagemap_friend");
    assert_plays_like_roundrobin(&json, "pagemap_spy");
}

// The same three unconfined, the pages cold: the friend prints the spy's
// first card, read from the page cache with no denied call.
#[test]
fn pagemap_channel_works_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let _channel = CHANNEL_FILE.lock().unwrap_or_else(|e| e.into_inner());
    let s = scratch("pagemap_off");
    evict(CHANNEL);
    let spy = hostile("pagemap_spy.c");
    let friend = hostile("pagemap_friend.c");
    let json = off(&s, &[], &[&spy, &roundrobin(), &friend]);
    let encoded = stderr_of(&json, "pagemap_spy")
        .lines()
        .find_map(|l| l.strip_prefix("encoded "))
        .unwrap_or_else(|| panic!("the spy encoded nothing: {json}"))
        .to_string();
    assert_contains(
        stderr_of(&json, "pagemap_friend"),
        &format!("LEAK: page cache: {encoded}"),
    );
}

/// The host file both page-cache channels use; the tests that read or evict
/// it take this lock, so that one channel's bits are not another's noise.
const CHANNEL: &str = "/usr/share/common-licenses/GPL-3";
static CHANNEL_FILE: std::sync::Mutex<()> = std::sync::Mutex::new(());
