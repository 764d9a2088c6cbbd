//! Helpers for integration tests that build and run real C programs against
//! the freshly built libpoker, shared by the test binaries of every crate
//! (each includes this file as its `common` module). The test data they
//! read stays here, under the repository's tests/.
#![allow(dead_code)]

pub mod tier;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The folder holding the fresh `libpoker.so`: the test executable's own
/// folder (`target/<profile>/deps`), where cargo leaves the cdylib it just
/// built (a copy one level up can be stale, cargo issue 8311).
pub fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let dir = exe.parent().expect("test executable folder").to_path_buf();
    assert!(
        dir.join("libpoker.so").exists(),
        "libpoker.so not found in {}",
        dir.display()
    );
    dir
}

/// The repository's root (the workspace's; every crate is crates/NAME).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/NAME is two folders below the root")
        .to_path_buf()
}

/// The environment variable with which sandboxed evaluations run side by
/// side, without the machine's lease (docs/sandbox.md): the suite runs its
/// tests in parallel, so [`poker`] sets it; the tests of the lease itself
/// remove it.
pub const SIDE_BY_SIDE: (&str, &str) = ("POKER_SANDBOX_SIDE_BY_SIDE", "1");

/// The `poker` command the tests of poker-cli run, in the repository's root
/// (where the paths the tests give, such as `c_examples/greedy.c`, lie),
/// with [`SIDE_BY_SIDE`] set.
/// (Only poker-cli's tests have the command: elsewhere this panics.)
pub fn poker() -> Command {
    let Some(exe) = option_env!("CARGO_BIN_EXE_poker") else {
        panic!("only poker-cli's tests run the `poker` command");
    };
    let mut command = Command::new(exe);
    command
        .current_dir(root())
        .env(SIDE_BY_SIDE.0, SIDE_BY_SIDE.1);
    command
}

/// A scratch folder `name` of the calling test's own:
/// `CARGO_TARGET_TMPDIR/<name>/<test>`, the test named by its thread (the
/// test harness runs each test on a thread of that name), so tests running
/// at once never share one.
pub fn scratch(name: &str) -> PathBuf {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("unnamed").replace("::", ".");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name).join(test);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Held by the tests that spin the CPU or whose verdicts hang on CPU time
/// (limits of a second or two): they run one at a time in a test binary,
/// so that no two of them compete for the cores and make each other late.
pub fn cpu_bound() -> std::sync::MutexGuard<'static, ()> {
    static CPU: std::sync::Mutex<()> = std::sync::Mutex::new(());
    CPU.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Compiles C `source` (text) into an executable named `name`, linked
/// against libpoker with strict warnings; panics with the compiler's output
/// on failure.
pub fn compile_c(name: &str, source: &str) -> PathBuf {
    let dir = scratch("c");
    let src = dir.join(format!("{name}.c"));
    std::fs::write(&src, source).unwrap();
    compile_c_file(name, &src, &["-std=c99"])
}

/// Compiles the C file `src` with extra `flags` into an executable `name`.
pub fn compile_c_file(name: &str, src: &Path, flags: &[&str]) -> PathBuf {
    compile_c_file_against(name, src, flags, &lib_dir())
}

/// As [`compile_c_file`], linked (with an rpath) against the libpoker.so in
/// `lib`.
pub fn compile_c_file_against(name: &str, src: &Path, flags: &[&str], lib: &Path) -> PathBuf {
    let exe = scratch("c").join(name);
    let output = Command::new("cc")
        .args(flags)
        .args(["-Wall", "-Wextra", "-pedantic", "-Werror", "-o"])
        .arg(&exe)
        .arg(src)
        .arg(format!("-I{}", root().join("include").display()))
        .arg(format!("-L{}", lib.display()))
        .arg("-lpoker")
        // DT_RPATH (not RUNPATH) wins over LD_LIBRARY_PATH, which `cargo test`
        // points at target/<profile>, where a stale libpoker.so may lie.
        .arg("-Wl,--disable-new-dtags")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .output()
        .expect("run cc");
    assert!(
        output.status.success(),
        "cc failed for {}:\n{}",
        src.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    exe
}

/// Runs `exe` in practice mode with the given environment (no evaluator
/// channel), stdout and stderr captured through pipes.
pub fn run(exe: &Path, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(exe);
    command
        .env_remove("POKER_DECK")
        .env_remove("POKER_SEED")
        .env_remove("POKER_MANAGER_FD");
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("run the C program")
}

/// Standard output as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Whether this is a CI run (`CI=true`, which `.ci/run` exports).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

/// Compiles the Pascal program `src` with fpc against bindings/pascal and
/// the fresh library, objects and the executable `program` in `dir` (the
/// source tree stays clean), with extra `flags`; panics with fpc's output on
/// failure.
pub fn compile_pascal_file(src: &Path, dir: &Path, flags: &[&str]) -> PathBuf {
    let lib = lib_dir();
    let exe = dir.join("program");
    let output = Command::new("fpc")
        .args(flags)
        .arg(format!("-Fu{}", root().join("bindings/pascal").display()))
        .arg(format!("-FU{}", dir.display()))
        .arg(format!("-Fl{}", lib.display()))
        .arg(format!("-k-rpath={}", lib.display()))
        .arg("-k--disable-new-dtags")
        .arg(format!("-o{}", exe.display()))
        .arg(src)
        .output()
        .expect("run fpc");
    assert!(
        output.status.success(),
        "fpc failed for {}:\n{}",
        src.display(),
        stdout(&output)
    );
    exe
}
