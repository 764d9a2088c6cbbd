//! The C tests (tests/c) and the C contestants, driven directly in practice
//! mode (POKER_SEED / POKER_DECK, not through the sandboxed evaluator, whose
//! memory limit an ASan binary would exceed), built with
//! `-fsanitize=address,undefined` and run again under valgrind memcheck:
//! every run must behave as without them (same exit status and output) and
//! report no error. The contest's `exit()` after the 20th placement leaves
//! the library's game allocated by design, so leak checking is on only for
//! the programs that return from `main` (tests/c).
//!
//! gcc brings the sanitizer runtimes (a missing one fails); the valgrind
//! runs are the valgrind tier of `common::tier`.

use crate::common;
use crate::common::tier::{self, needs};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// One program run: its source, compiler flags, environment and what it
/// must do.
struct Case {
    name: &'static str,
    src: &'static str,
    flags: &'static [&'static str],
    env: Vec<(&'static str, String)>,
    /// Exit status expected.
    code: i32,
    /// Text that standard output (or, for a nonzero status, standard error)
    /// must contain.
    says: &'static str,
    /// Whether the program returns from `main` having freed everything.
    leak_free: bool,
}

const SEED_DECK: &str = "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH";

fn cases() -> Vec<Case> {
    let c99: &[&str] = &["-std=c99"];
    let mut cases = vec![
        Case {
            name: "game_api",
            src: "tests/c/game_api.c",
            flags: &["-std=c99", "-pthread"],
            env: vec![],
            code: 0,
            says: "ok",
            leak_free: true,
        },
        Case {
            name: "camicia",
            src: "tests/c/camicia.c",
            flags: &["-std=c89"],
            env: vec![],
            code: 0,
            says: "",
            leak_free: true,
        },
        Case {
            name: "camicia_extend",
            src: "tests/c/camicia_extend.c",
            flags: &["-std=c89"],
            env: vec![],
            code: 0,
            says: "ok",
            leak_free: true,
        },
        Case {
            name: "card_token",
            src: "tests/c/card_token.c",
            flags: &["-std=c89"],
            env: vec![],
            code: 0,
            says: "ok",
            leak_free: true,
        },
    ];
    // The example contestants play whole games: a given deck (the seed's
    // worked example, 11 points round robin) and seeded decks.
    cases.push(Case {
        name: "roundrobin_deck",
        src: "c_examples/roundrobin.c",
        flags: c99,
        env: vec![("POKER_DECK", SEED_DECK.into())],
        code: 0,
        says: "total: 11",
        leak_free: false,
    });
    // Rollouts with fewer simulated endings: the same code, a tenth the time.
    for (name, src, flags) in [
        ("roundrobin", "c_examples/roundrobin.c", c99),
        ("greedy", "c_examples/greedy.c", c99),
        (
            "rollouts",
            "c_examples/rollouts.c",
            &["-std=c99", "-DROLLOUTS=40"][..],
        ),
    ] {
        cases.push(Case {
            name,
            src,
            flags,
            env: vec![("POKER_SEED", "16".into())],
            code: 0,
            says: "total: ",
            leak_free: false,
        });
    }
    cases.push(Case {
        name: "greedy_bad_deck",
        src: "c_examples/greedy.c",
        flags: c99,
        env: vec![("POKER_DECK", "9S 9S".into())],
        code: 2,
        says: "POKER_DECK",
        leak_free: false,
    });
    // Every rule violation stops the program from inside the library.
    for name in [
        "bad_column",
        "look_before_start",
        "look_twice",
        "null_pointer",
        "place_without_look",
        "start_twice",
        "unbalanced",
    ] {
        cases.push(Case {
            name,
            src: Box::leak(format!("tests/contestants/{name}.c").into_boxed_str()),
            flags: c99,
            env: vec![("POKER_SEED", "3".into())],
            code: 3,
            says: "rule",
            leak_free: false,
        });
    }
    // An exit before the 20th placement, and an atexit handler's status.
    for (name, code) in [("early_exit", 0), ("fake_score", 1)] {
        cases.push(Case {
            name,
            src: Box::leak(format!("tests/contestants/{name}.c").into_boxed_str()),
            flags: c99,
            env: vec![("POKER_SEED", "5".into())],
            code,
            says: "",
            leak_free: false,
        });
    }
    cases
}

const SANITIZE: [&str; 5] = [
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
    "-g",
    "-O1",
];

fn flags<'a>(case: &'a Case, extra: &[&'a str]) -> Vec<&'a str> {
    case.flags.iter().chain(extra).copied().collect()
}

fn run(program: &Path, args: &[&str], case: &Case, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(program);
    command
        .args(args)
        .env_remove("POKER_DECK")
        .env_remove("POKER_SEED")
        .env_remove("POKER_MANAGER_FD");
    for (k, v) in &case.env {
        command.env(k, v);
    }
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("run the C program")
}

/// Checks that a run behaved as `case` says, with `tool`'s report absent.
fn check(case: &Case, output: &Output, tool: &str, report: &[&str]) {
    let stdout = common::stdout(output);
    let stderr = common::stderr(output);
    let context = format!(
        "{} under {tool}: {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        case.name, output.status
    );
    for marker in report {
        assert!(!stderr.contains(marker), "{context}");
    }
    assert_eq!(output.status.code(), Some(case.code), "{context}");
    let said = if case.code == 0 { &stdout } else { &stderr };
    assert!(said.contains(case.says), "{context}");
}

/// Checks that gcc's ASan and UBSan runtimes work here (a probe program
/// built and run with them); panics when they do not.
fn require_sanitizers(tag: &str) {
    // One probe per test: the tests run at once.
    let dir = common::scratch("sanitizers");
    let src = dir.join(format!("probe_{tag}.c"));
    std::fs::write(&src, "int main(void) { return 0; }\n").unwrap();
    let exe = dir.join(format!("probe_{tag}"));
    let ok = Command::new("cc")
        .args(SANITIZE)
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .status()
        .is_ok_and(|s| s.success())
        && Command::new(&exe).status().is_ok_and(|s| s.success());
    assert!(
        ok,
        "the ASan/UBSan runtimes (gcc's libasan, libubsan) do not work here; install them: apt-get install gcc"
    );
}

fn build(case: &Case, suffix: &str, extra: &[&str]) -> PathBuf {
    let src = common::root().join(case.src);
    common::compile_c_file(
        &format!("{}_{suffix}", case.name),
        &src,
        &flags(case, extra),
    )
}

#[test]
fn c_tests_and_contestants_run_clean_under_asan_and_ubsan() {
    require_sanitizers("runs");
    for case in cases() {
        let exe = build(&case, "asan", &SANITIZE);
        let leaks = if case.leak_free { "1" } else { "0" };
        let asan = format!("detect_leaks={leaks}:exitcode=99:abort_on_error=0");
        let output = run(
            &exe,
            &[],
            &case,
            &[
                ("ASAN_OPTIONS", &asan),
                ("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1"),
            ],
        );
        check(
            &case,
            &output,
            "ASan+UBSan",
            &["AddressSanitizer", "LeakSanitizer", "runtime error:"],
        );
    }
}

#[test]
fn c_tests_and_contestants_run_clean_under_valgrind() {
    needs!(tier::VALGRIND);
    for case in cases() {
        let exe = build(&case, "valgrind", &["-g"]);
        let exe = exe.to_str().unwrap();
        let mut args = vec!["--tool=memcheck", "--error-exitcode=99", "-q"];
        if case.leak_free {
            args.extend(["--leak-check=full", "--errors-for-leak-kinds=definite"]);
        }
        args.push(exe);
        let output = run(Path::new("valgrind"), &args, &case, &[]);
        check(
            &case,
            &output,
            "valgrind",
            &["== ERROR SUMMARY: 1", "Invalid "],
        );
    }
}

/// The runs above could fail: a heap overflow of one int is caught by
/// the sanitizers and by valgrind.
#[test]
fn a_heap_overflow_is_caught_by_both() {
    let dir = common::scratch("sanitizers");
    let src = dir.join("overflow.c");
    std::fs::write(
        &src,
        "#include <stdio.h>\n#include <stdlib.h>\n#include \"poker.h\"\n\
         int main(int argc, char **argv) {\n\
         \x20   int *cards = malloc(4 * sizeof *cards);\n\
         \x20   (void)argv;\n\
         \x20   cards[argc + 3] = poker_hand_score(NULL, NULL);\n\
         \x20   printf(\"%d\\n\", cards[argc + 3]);\n\
         \x20   free(cards);\n\
         \x20   return 0;\n\
         }\n",
    )
    .unwrap();
    let case = Case {
        name: "overflow",
        src: "",
        flags: &["-std=c99"],
        env: vec![],
        code: 99,
        says: "",
        leak_free: true,
    };
    require_sanitizers("overflow");
    let exe = common::compile_c_file("overflow_asan", &src, &flags(&case, &SANITIZE));
    let output = run(&exe, &[], &case, &[("ASAN_OPTIONS", "exitcode=99")]);
    let stderr = common::stderr(&output);
    // UBSan's object-size check or ASan, whichever sees it first.
    assert!(!output.status.success(), "{stderr}");
    assert!(
        stderr.contains("heap-buffer-overflow") || stderr.contains("runtime error:"),
        "{stderr}"
    );
    needs!(tier::VALGRIND);
    let exe = common::compile_c_file("overflow_valgrind", &src, &["-std=c99", "-g"]);
    let exe = exe.to_str().unwrap();
    let output = run(
        Path::new("valgrind"),
        &["-q", "--error-exitcode=99", exe],
        &case,
        &[],
    );
    assert_eq!(
        output.status.code(),
        Some(99),
        "{}",
        common::stderr(&output)
    );
    assert!(common::stderr(&output).contains("Invalid write"));
}
