//! The judge's client files (crates/poker-cli/kattis/include/: C, C++, Pascal, Python) keep
//! everything a contestant prints away from the interactor, and nothing it
//! reads steals a reply: a noisy round-robin contestant (tests/judge/noisy.*)
//! plays the ordered deck against `poker interact` over two pipes, as a
//! judge connects them, and must score round robin's 32 there (four
//! straight flushes: 9-10-J-Q-K of one suit in each column, by the contest's
//! scoring table). Any leaked byte would be a protocol error or a broken
//! rule, and a stolen reply makes the contestant break a rule on purpose.

use crate::common;
use crate::common::tier::{self, needs};

use std::io::Read;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

const ORDERED: &str = "9C 9D 9H 9S TC TD TH TS JC JD JH JS QC QD QH QS KC KD KH KS AC AD AH AS";

fn include(lang: &str) -> PathBuf {
    common::root()
        .join("crates/poker-cli/kattis/include")
        .join(lang)
}

/// A fresh folder for one client's build.
fn folder(name: &str) -> PathBuf {
    let dir = common::scratch("judge_clients").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Waits for `child` at most `limit`, killing it after.
fn wait(child: &mut Child, limit: Duration) -> ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("no end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

struct Judged {
    verdict: Option<i32>,
    score: Option<String>,
    message: String,
    contestant: ExitStatus,
    contestant_stderr: String,
}

/// Plays `contestant` against `poker interact` on the ordered deck, wired
/// as a judge wires them: its stdout is the interactor's stdin and back.
fn judge(name: &str, mut contestant: Command) -> Judged {
    let dir = common::scratch("judge_clients").join(format!("{name}-run"));
    let _ = std::fs::remove_dir_all(&dir);
    let feedback = dir.join("feedback");
    std::fs::create_dir_all(&feedback).unwrap();
    let input = dir.join("test.in");
    std::fs::write(&input, format!("{ORDERED}\n")).unwrap();
    let mut interactor = crate::common::poker()
        .arg("interact")
        .arg(&input)
        .arg(&input)
        .arg(&feedback)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut player = contestant
        .stdin(Stdio::from(interactor.stdout.take().unwrap()))
        .stdout(Stdio::from(interactor.stdin.take().unwrap()))
        .stderr(Stdio::piped())
        .env_remove("PYTHONUNBUFFERED")
        .env_remove("POKER_MANAGER_FD")
        .spawn()
        .unwrap();
    let mut stderr = player.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let contestant = wait(&mut player, Duration::from_secs(60));
    let verdict = wait(&mut interactor, Duration::from_secs(60)).code();
    Judged {
        verdict,
        score: std::fs::read_to_string(feedback.join("score.txt")).ok(),
        message: std::fs::read_to_string(feedback.join("judgemessage.txt")).unwrap_or_default(),
        contestant,
        contestant_stderr: reader.join().unwrap(),
    }
}

fn assert_scored_32_quietly(judged: &Judged, what: &str) {
    assert_eq!(
        (judged.verdict, judged.score.as_deref()),
        (Some(42), Some("32\n")),
        "{what}: {}\ncontestant's stderr:\n{}",
        judged.message,
        judged.contestant_stderr
    );
    assert!(
        judged.contestant.success(),
        "{what}: {:?}",
        judged.contestant
    );
    // What it printed went to its standard error instead, all of it.
    let printed = &judged.contestant_stderr;
    for expected in [
        "before the game",
        "a partial line",
        "raw write",
        "call 20",
        " partial",
    ] {
        assert!(
            printed.contains(expected),
            "{what}: {expected:?} missing from {printed:?}"
        );
    }
}

fn compile(command: &mut Command, what: &str) {
    let output = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        output.status.success(),
        "{what} failed:\n{}{}",
        common::stdout(&output),
        common::stderr(&output)
    );
}

fn build_c(name: &str, compiler: &str, source_name: &str, std: &str) -> PathBuf {
    let dir = folder(name);
    let client = if source_name.ends_with(".cpp") {
        "poker_judge.cpp"
    } else {
        "poker_judge.c"
    };
    std::fs::copy(include("c").join("poker.h"), dir.join("poker.h")).unwrap();
    std::fs::copy(include("c").join("poker_judge.c"), dir.join(client)).unwrap();
    std::fs::copy(
        common::root().join("tests/judge/noisy.c"),
        dir.join(source_name),
    )
    .unwrap();
    let exe = dir.join("noisy");
    compile(
        Command::new(compiler)
            .current_dir(&dir)
            .args([std, "-O2", "-Wall", "-Wextra", "-Werror", "-o"])
            .arg(&exe)
            .args([client, source_name]),
        compiler,
    );
    exe
}

#[test]
fn the_c_client_keeps_prints_and_reads_off_the_channel() {
    let exe = build_c("c", "cc", "noisy.c", "-std=c99");
    assert_scored_32_quietly(&judge("c", Command::new(exe)), "C");
}

#[test]
fn the_cpp_client_keeps_prints_and_reads_off_the_channel() {
    needs!(tier::CPP);
    let exe = build_c("cpp", "g++", "noisy.cpp", "-std=gnu++17");
    assert_scored_32_quietly(&judge("cpp", Command::new(exe)), "C++");
}

#[test]
fn the_pascal_client_keeps_prints_and_reads_off_the_channel() {
    needs!(tier::PASCAL);
    let dir = folder("pascal");
    std::fs::copy(include("pascal").join("poker.pp"), dir.join("poker.pp")).unwrap();
    std::fs::copy(
        common::root().join("tests/judge/noisy.pas"),
        dir.join("noisy.pas"),
    )
    .unwrap();
    // As the judge compiles Pascal: the program's file only, unit found beside it.
    compile(
        Command::new("fpc").current_dir(&dir).args([
            "-O2",
            "-XS",
            "-Xt",
            "-onoisy.out",
            "noisy.pas",
        ]),
        "fpc",
    );
    assert_scored_32_quietly(
        &judge("pascal", Command::new(dir.join("noisy.out"))),
        "Pascal",
    );
}

/// A folder with the Python client and the noisy contestant as `name`.
fn python_folder(case: &str, name: &str) -> PathBuf {
    let dir = folder(case);
    std::fs::copy(
        include("python3").join("libpoker.py"),
        dir.join("libpoker.py"),
    )
    .unwrap();
    std::fs::copy(common::root().join("tests/judge/noisy.py"), dir.join(name)).unwrap();
    dir
}

#[test]
fn the_python_client_keeps_prints_and_reads_off_the_channel() {
    needs!(tier::PYTHON);
    // The contestant's file is the one the judge runs (it sorts first).
    let dir = python_folder("python", "a.py");
    let mut command = Command::new("python3");
    command.current_dir(&dir).arg(dir.join("a.py"));
    assert_scored_32_quietly(&judge("python", command), "Python");
}

#[test]
fn the_python_client_run_as_the_main_file_launches_the_contestant() {
    needs!(tier::PYTHON);
    // The client sorts first, so the judge runs it: it runs zz.py.
    let dir = python_folder("python-launcher", "zz.py");
    let mut command = Command::new("python3");
    command.current_dir(&dir).arg(dir.join("libpoker.py"));
    assert_scored_32_quietly(&judge("python-launcher", command), "Python launcher");
}

#[test]
fn a_contestant_that_bypasses_the_client_files_is_wrong_answer() {
    // Without the client files, what a program prints reaches the judge:
    // a plain C program printing its moves is a protocol error, never a
    // judge error.
    let dir = folder("bypass");
    let source = dir.join("talker.c");
    std::fs::write(
        &source,
        "#include <stdio.h>\nint main(void) { printf(\"hello judge\\n\"); return 0; }\n",
    )
    .unwrap();
    let exe = dir.join("talker");
    compile(Command::new("cc").arg("-o").arg(&exe).arg(&source), "cc");
    let judged = judge("bypass", Command::new(&exe));
    assert_eq!(judged.verdict, Some(43), "{}", judged.message);
    assert!(judged.score.is_none());
    assert!(judged.message.contains("hello judge"), "{}", judged.message);
}
