//! The jail of `poker_judge::sandbox`, through real bubblewrap: what a program
//! inside can see and do, its limits, and how its ending is reported.
//! They need bubblewrap and root (the sandbox tier of `common::tier`).

use crate::common::tier::{self, needs};
use std::ffi::OsString;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use poker_judge::sandbox::{
    DEFAULT_UID_RANGE, Ended, Enforcement, Jail, Limits, Mounts, ProgramEnding, UidLease,
    private_dir, probe,
};

fn bwrap() -> &'static Path {
    static BWRAP: OnceLock<PathBuf> = OnceLock::new();
    BWRAP.get_or_init(|| probe().unwrap_or_else(|e| panic!("{e}")))
}

/// C programs used by the tests, compiled once with `cc`.
const PROGRAMS: &[(&str, &str)] = &[
    (
        "memhog",
        r#"#include <stdlib.h>
#include <string.h>
int main(void) { size_t n = (size_t)1 << 30; volatile char *p = malloc(n);
  if (!p) return 3; for (size_t i = 0; i < n; i += 4096) p[i] = 1; return p[4096]; }"#,
    ),
    (
        "forker",
        r#"#include <errno.h>
#include <stdio.h>
#include <unistd.h>
int main(void) { int n = 0; for (;;) { pid_t p = fork();
  if (p == 0) { pause(); _exit(0); }
  if (p < 0) { printf("%d %s\n", n, errno == EAGAIN ? "EAGAIN" : "other"); return 0; }
  if (++n > 10000) { printf("%d unlimited\n", n); return 0; } } }"#,
    ),
    (
        "opener",
        r#"#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
int main(void) { int n = 0; for (;;) { if (open("/dev/null", O_RDONLY) < 0) {
  printf("%d %s\n", n, errno == EMFILE ? "EMFILE" : "other"); return 0; }
  if (++n > 100000) { printf("%d unlimited\n", n); return 0; } } }"#,
    ),
    (
        "spin",
        "int main(void) { volatile unsigned long x = 0; for (;;) x++; }",
    ),
    (
        "segv",
        "#include <signal.h>\nint main(void) { raise(SIGSEGV); return 0; }",
    ),
];

/// The folder of the compiled programs.
fn programs() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sandbox-programs");
        fs::create_dir_all(&dir).unwrap();
        for (name, source) in PROGRAMS {
            let c = dir.join(format!("{name}.c"));
            // Built by an earlier run from the same source: kept (the cgroup
            // v2 VM test reuses the host's, as compiling is slow there).
            let built =
                fs::read_to_string(&c).is_ok_and(|old| old == *source) && dir.join(name).is_file();
            if built {
                continue;
            }
            fs::write(&c, source).unwrap();
            let ok = Command::new("cc")
                .args(["-O1", "-o"])
                .arg(dir.join(name))
                .arg(&c)
                .status()
                .expect("cc")
                .success();
            assert!(ok, "cc {name}.c failed");
        }
        dir
    })
}

/// Mounts binding the compiled program `name` at `/game/<name>`.
fn program_mounts(name: &str) -> Mounts {
    Mounts {
        ro_binds: vec![(programs().join(name), PathBuf::from("/game").join(name))],
        ..Mounts::default()
    }
}

struct Run {
    outcome: Ended,
    stdout: String,
    stderr: String,
}

fn run_in(jail: &Jail, program: &str, args: &[&str]) -> Run {
    let args: Vec<OsString> = args.iter().map(OsString::from).collect();
    let out = jail
        .command(Path::new(program), &args, &[])
        .stdin(Stdio::null())
        .output()
        .expect("spawn bwrap");
    Run {
        outcome: jail.outcome(out.status, &out.stderr),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn jail(limits: &Limits, mounts: &Mounts) -> Jail {
    Jail::new(bwrap(), limits, mounts, DEFAULT_UID_RANGE).expect("jail")
}

fn sh(script: &str) -> Run {
    run_in(
        &jail(&Limits::default(), &Mounts::default()),
        "/bin/sh",
        &["-c", script],
    )
}

fn status_field(pid: u32, key: &str) -> Option<String> {
    let text = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(key).map(|v| v.trim().to_owned()))
}

#[test]
fn program_runs_as_the_leased_uid_without_capabilities_seen_from_outside() {
    needs!(tier::SANDBOX);
    let jail = jail(&Limits::default(), &Mounts::default());
    let uid = jail.uid().expect("the tests run as root: a uid is leased");
    assert!(DEFAULT_UID_RANGE.contains(&uid));
    // `cat` waits on its standard input, so it lives until the test closes
    // that, whatever the load.
    let mut child = jail
        .command(Path::new("/bin/cat"), &[], &[])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // Polls for the events: bwrap reports its process in the namespaces,
    // and a process of the jail's cgroup has exec'd `cat`. The bound, far
    // past a loaded machine's start-up, only stops a hang.
    let cat =
        |pid: &u32| fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default() == "cat\n";
    let deadline = Instant::now() + Duration::from_secs(60);
    let (pid, mut pids) = loop {
        let pids = jail.cgroup().expect("a cgroup here").pids();
        if let Some(pid) = jail.program_pid().filter(|_| pids.iter().any(cat)) {
            break (pid, pids);
        }
        assert!(Instant::now() < deadline, "the program never started");
        std::thread::sleep(Duration::from_millis(5));
    };
    pids.push(pid);
    for pid in pids {
        let want = format!("{uid}\t{uid}\t{uid}\t{uid}");
        assert_eq!(status_field(pid, "Uid:"), Some(want.clone()), "pid {pid}");
        assert_eq!(status_field(pid, "Gid:"), Some(want), "pid {pid}");
        assert_eq!(status_field(pid, "Groups:"), Some(String::new()));
        assert_eq!(
            status_field(pid, "CapEff:"),
            Some("0000000000000000".into())
        );
    }
    drop(child.stdin.take());
    assert!(child.wait().unwrap().success());
}

// A compiler's jail (the host's /usr, no private image); expected: no
// /proc (its counters are the machine's), and of /dev only the five
// devices bound (no ptmx, pts, tty or shm).
#[test]
fn a_jail_has_no_proc_and_five_devices() {
    needs!(tier::SANDBOX);
    let run = sh("ls -A /proc; ls -A /dev; echo x > /dev/null && echo written");
    assert_eq!(
        run.stdout, "full\nnull\nrandom\nurandom\nzero\nwritten\n",
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("/proc") && run.stderr.contains("No such file"),
        "{}",
        run.stderr
    );
}

// The jail's network namespace, read from outside through its process's
// /proc/PID/net/dev; expected: the loopback interface alone.
#[test]
fn network_has_only_loopback() {
    needs!(tier::SANDBOX);
    let jail = jail(&Limits::default(), &Mounts::default());
    // `cat` lives until its standard input closes, whatever the load.
    let mut child = jail
        .command(Path::new("/bin/cat"), &[], &[])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let pid = cat_pid(&jail);
    let text = fs::read_to_string(format!("/proc/{pid}/net/dev")).unwrap();
    drop(child.stdin.take());
    assert!(child.wait().unwrap().success());
    let names: Vec<&str> = text
        .lines()
        .skip(2)
        .filter_map(|l| l.split(':').next())
        .map(str::trim)
        .collect();
    assert_eq!(names, ["lo"], "{text}");
}

/// Waits for `cat` to run in `jail`: its pid.
fn cat_pid(jail: &Jail) -> u32 {
    let cat =
        |pid: &u32| fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default() == "cat\n";
    // The bound, far past a loaded machine's start-up, only stops a hang.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let pids = jail.cgroup().expect("a cgroup here").pids();
        if let Some(pid) = pids.into_iter().find(cat) {
            return pid;
        }
        assert!(Instant::now() < deadline, "the program never started");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn host_files_outside_the_binds_are_invisible() {
    needs!(tier::SANDBOX);
    let secret = private_dir("poker-sandbox-test-").unwrap();
    fs::write(secret.path().join("secret"), "x").unwrap();
    let host_tmp = Path::new("/tmp").join(format!("poker-sandbox-visible-{}", std::process::id()));
    fs::write(&host_tmp, "x").unwrap();
    let script = format!(
        "for f in /root /home {} {} /etc/passwd /etc/shadow /work; do \
         if test -e $f; then echo SEEN $f; fi; done; ls -A /tmp; echo done",
        secret.path().join("secret").display(),
        host_tmp.display()
    );
    let run = sh(&script);
    fs::remove_file(&host_tmp).unwrap();
    assert_eq!(run.stdout, "done\n", "{}", run.stderr);
}

#[test]
fn nothing_outside_tmp_is_writable() {
    needs!(tier::SANDBOX);
    let run = sh("for d in / /usr /etc /dev /proc /game; do \
         touch $d/x 2>/dev/null && echo WROTE $d; done; touch /tmp/x && echo tmp ok");
    assert_eq!(run.stdout, "tmp ok\n", "{}", run.stderr);
}

#[test]
fn tmp_is_capped_at_tmp_size_with_enospc() {
    needs!(tier::SANDBOX);
    let limits = Limits {
        tmp_size: 1 << 20,
        ..Limits::default()
    };
    let run = run_in(
        &jail(&limits, &Mounts::default()),
        "/bin/sh",
        &["-c", "dd if=/dev/zero of=/tmp/f bs=64k count=32"],
    );
    assert_eq!(
        run.outcome.ending,
        ProgramEnding::Exited(1),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("No space left on device"),
        "{}",
        run.stderr
    );
}

#[test]
fn memory_past_the_limit_is_oom_killed() {
    needs!(tier::SANDBOX);
    let limits = Limits {
        memory: 64 << 20,
        ..Limits::default()
    };
    let jail = jail(&limits, &program_mounts("memhog"));
    let run = run_in(&jail, "/game/memhog", &[]);
    assert_eq!(
        run.outcome.ending,
        ProgramEnding::Signaled(9),
        "{}",
        run.stderr
    );
    assert!(run.outcome.usage.oom_killed);
    let peak = run.outcome.usage.peak_memory.expect("peak memory");
    assert!(peak <= 64 << 20 && peak > 32 << 20, "{peak}");
}

#[test]
fn fork_stops_at_the_process_limit_with_eagain() {
    needs!(tier::SANDBOX);
    let limits = Limits {
        processes: 16,
        ..Limits::default()
    };
    let run = run_in(
        &jail(&limits, &program_mounts("forker")),
        "/game/forker",
        &[],
    );
    let (n, why) = run.stdout.trim().split_once(' ').expect(&run.stderr);
    assert_eq!(why, "EAGAIN");
    let n: u32 = n.parse().unwrap();
    // bubblewrap's two processes and the forker itself count too.
    assert!(n + 3 <= 16 && n >= 10, "{n}");
    assert_eq!(run.outcome.ending, ProgramEnding::Exited(0));
}

#[test]
fn open_stops_at_the_file_limit_with_emfile() {
    needs!(tier::SANDBOX);
    let limits = Limits {
        open_files: 20,
        ..Limits::default()
    };
    let run = run_in(
        &jail(&limits, &program_mounts("opener")),
        "/game/opener",
        &[],
    );
    // Descriptors 0, 1, 2 are open already.
    assert_eq!(run.stdout, "17 EMFILE\n", "{}", run.stderr);
}

#[test]
fn busy_loop_dies_of_sigxcpu_at_the_rlimit_backstop() {
    needs!(tier::SANDBOX);
    let _cpu = crate::common::cpu_bound();
    let limits = Limits {
        cpu: Duration::from_secs(1),
        ..Limits::default()
    };
    let jail = jail(&limits, &program_mounts("spin"));
    let run = run_in(&jail, "/game/spin", &[]);
    assert_eq!(
        run.outcome.ending,
        ProgramEnding::Signaled(24),
        "{}",
        run.stderr
    );
    let cpu = run.outcome.usage.cpu_time.expect("cpu time");
    // With a cgroup the evaluator's watch holds the limit (no watch runs
    // here), and RLIMIT_CPU is a backstop at twice it: 2 s of the kernel's
    // tick-sampled count, which overcharges a loaded CPU (1.45 times was
    // seen), so past the 1 s limit by the cgroup's measure.
    assert!(cpu >= Duration::from_secs(1), "{cpu:?}");
}

#[test]
fn signal_death_is_decoded() {
    needs!(tier::SANDBOX);
    let run = run_in(
        &jail(&Limits::default(), &program_mounts("segv")),
        "/game/segv",
        &[],
    );
    assert_eq!(run.outcome.ending, ProgramEnding::Signaled(11));
}

#[test]
fn exit_code_is_reported() {
    needs!(tier::SANDBOX);
    assert_eq!(sh("exit 1").outcome.ending, ProgramEnding::Exited(1));
    assert_eq!(sh("true").outcome.ending, ProgramEnding::Exited(0));
}

#[test]
fn bwrap_failing_to_start_is_reported_as_such() {
    needs!(tier::SANDBOX);
    let mounts = Mounts {
        rw_binds: vec![("/nonexistent/poker".into(), "/game/x".into())],
        ..Mounts::default()
    };
    let run = run_in(&jail(&Limits::default(), &mounts), "/bin/true", &[]);
    match run.outcome.ending {
        ProgramEnding::FailedToStart(message) => assert!(message.contains("/nonexistent/poker")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_program_under_a_private_folder_runs() {
    needs!(tier::SANDBOX);
    let dir = private_dir("poker-sandbox-prog-").unwrap();
    assert_eq!(
        fs::metadata(dir.path()).unwrap().permissions().mode() & 0o777,
        0o700
    );
    let prog = dir.path().join("segv");
    fs::copy(programs().join("segv"), &prog).unwrap();
    let mounts = Mounts {
        ro_binds: vec![(prog, "/game/segv".into())],
        ..Mounts::default()
    };
    let run = run_in(&jail(&Limits::default(), &mounts), "/game/segv", &[]);
    assert_eq!(
        run.outcome.ending,
        ProgramEnding::Signaled(11),
        "{}",
        run.stderr
    );
}

#[test]
fn limits_are_enforced_by_a_cgroup_here() {
    needs!(tier::SANDBOX);
    let jail = jail(&Limits::default(), &Mounts::default());
    let reports = jail.limit_reports();
    let by = |name| &reports.iter().find(|r| r.name == name).unwrap().enforcement;
    assert!(
        matches!(by("memory"), Enforcement::Cgroup { .. }),
        "{reports:?}"
    );
    assert!(matches!(by("processes"), Enforcement::Cgroup { .. }));
    assert_eq!(by("wall"), &Enforcement::Timer);
    assert_eq!(by("tmp_size"), &Enforcement::Tmpfs);
    let json = serde_json::to_string(&reports).unwrap();
    assert!(json.contains(r#""name":"memory","value":268435456,"unit":"bytes""#));
}

/// The cgroup version this machine offers games, read independently of
/// the sandbox from `/proc/self/mounts`: 2 when a cgroup2 hierarchy lists
/// both `memory` and `pids` in its root's `cgroup.controllers` (a systemd
/// host, or the cgroup v2 VM test), else 1.
fn machines_cgroup_version() -> u8 {
    let mounts = fs::read_to_string("/proc/self/mounts").unwrap();
    let v2 = mounts.lines().any(|line| {
        let f: Vec<&str> = line.split(' ').collect();
        f.len() > 2
            && f[2] == "cgroup2"
            && fs::read_to_string(Path::new(f[1]).join("cgroup.controllers")).is_ok_and(|c| {
                let c: Vec<&str> = c.split_whitespace().collect();
                c.contains(&"memory") && c.contains(&"pids")
            })
    });
    if v2 { 2 } else { 1 }
}

#[test]
fn the_cgroup_version_is_the_one_the_machine_offers() {
    needs!(tier::SANDBOX);
    let jail = jail(&Limits::default(), &Mounts::default());
    let want = Enforcement::Cgroup {
        version: machines_cgroup_version(),
    };
    let reports = jail.limit_reports();
    for name in ["memory", "processes"] {
        let report = reports.iter().find(|r| r.name == name).unwrap();
        assert_eq!(report.enforcement, want, "{reports:?}");
    }
    assert_eq!(jail.cgroup().unwrap().version(), machines_cgroup_version());
}

#[test]
fn dropping_the_jail_kills_the_game_and_removes_its_cgroup() {
    needs!(tier::SANDBOX);
    let jail = jail(&Limits::default(), &Mounts::default());
    let folders = jail.cgroup().expect("a cgroup here").folders().to_vec();
    assert!(!folders.is_empty() && folders.iter().all(|f| f.is_dir()));
    let mut child = jail
        .command(
            Path::new("/bin/sh"),
            &["-c".into(), "sleep 600 & sleep 600 & sleep 600".into()],
            &[],
        )
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    // bubblewrap's two processes, the shell and three sleeps; generous
    // deadline: under emulation (the cgroup v2 VM test) starting is slow.
    let deadline = Instant::now() + Duration::from_secs(60);
    let pids = loop {
        let pids = jail.cgroup().unwrap().pids();
        if pids.len() >= 6 {
            break pids;
        }
        assert!(
            Instant::now() < deadline,
            "the game never started: {pids:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(jail);
    for folder in &folders {
        assert!(!folder.exists(), "{} is left behind", folder.display());
    }
    assert!(child.wait().unwrap().signal().is_some());
    // A process leaves its cgroup early in its exit: the namespace's init
    // may still be reaping the others (state S) for a moment, under
    // emulation for seconds.
    let state = |pid: u32| {
        let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        stat.rsplit(") ").next().unwrap_or("").chars().next()
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    for pid in pids {
        while !matches!(state(pid), None | Some('Z')) {
            assert!(
                Instant::now() < deadline,
                "pid {pid} lives on: {:?}",
                state(pid)
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn descriptor_3_of_the_caller_is_readable_inside() {
    needs!(tier::SANDBOX);
    let jail = jail(&Limits::default(), &Mounts::default());
    let (read, write) = std::io::pipe().unwrap();
    let mut write = write;
    write.write_all(b"through fd 3\n").unwrap();
    drop(write);
    let raw = read.as_raw_fd();
    let mut cmd = jail.command(Path::new("/bin/sh"), &["-c".into(), "cat <&3".into()], &[]);
    // SAFETY: dup2 is async-signal-safe.
    unsafe {
        cmd.pre_exec(move || {
            if libc::dup2(raw, 3) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "through fd 3\n");
    assert_eq!(
        jail.outcome(out.status, &out.stderr).ending,
        ProgramEnding::Exited(0)
    );
}

/// A range of its own, so that the other tests' leases do not interfere.
const TEST_RANGE: std::ops::Range<u32> = 2_000_000_990..2_000_000_992;

/// Not a test by itself (hence ignored): `leases_are_exclusive_across_processes`
/// runs it in a second process (`--ignored --exact sandbox::lease_helper`), where it
/// holds a lease until its stdin closes.
#[test]
#[ignore = "a helper process of leases_are_exclusive_across_processes"]
fn lease_helper() {
    needs!(tier::SANDBOX);
    assert!(
        std::env::var_os("POKER_LEASE_HELPER").is_some(),
        "lease_helper runs only as the helper process of leases_are_exclusive_across_processes"
    );
    let lease = UidLease::acquire(TEST_RANGE).unwrap();
    println!("LEASED {}", lease.uid);
    let _ = std::io::stdin().lines().count();
}

#[test]
fn leases_are_exclusive_across_processes() {
    needs!(tier::SANDBOX);
    let mut helper = Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "sandbox::lease_helper",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("POKER_LEASE_HELPER", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(helper.stdout.take().unwrap()).lines();
    let theirs: u32 = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|l| l.split("LEASED ").nth(1).map(|n| n.trim().parse().unwrap()))
        .expect("the helper leased a uid");
    let ours = UidLease::acquire(TEST_RANGE).unwrap();
    assert_ne!(ours.uid, theirs);
    let err = UidLease::acquire(TEST_RANGE).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::WouldBlock);
    drop(ours);
    let again = UidLease::acquire(TEST_RANGE).unwrap();
    assert_ne!(again.uid, theirs);
    drop(helper.stdin.take());
    assert!(helper.wait().unwrap().success());
    drop(again);
    let a = UidLease::acquire(TEST_RANGE).unwrap();
    let b = UidLease::acquire(TEST_RANGE).unwrap();
    assert_ne!(a.uid, b.uid);
}
