//! libpoker from other languages: each example under examples/ffi/ is
//! built and run against the fresh library with its language's own tools,
//! and must print examples/ffi/expected.txt line for line (values from
//! outside libpoker: the contest text's worked example, Rosetta Code's
//! FreeCell deal 617, a published Camicia record, the header's error code).
//! A missing tool fails the test and names the Debian package to install.

use crate::common;
use crate::common::tier::{self, needs};
use std::path::PathBuf;
use std::process::{Command, Output};

/// examples/ffi/expected.txt without its notes (lines starting with `#`).
fn expected() -> String {
    let text = std::fs::read_to_string(common::root().join("examples/ffi/expected.txt")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The example folder of `language`.
fn example(language: &str) -> PathBuf {
    common::root().join("examples/ffi").join(language)
}

/// A fresh scratch folder for `language`'s build.
fn build_dir(language: &str) -> PathBuf {
    let dir = common::scratch("ffi").join(language);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `command`, panicking with its output unless it succeeds.
fn run(mut command: Command, what: &str) -> Output {
    let output = command.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}{}",
        output.status,
        common::stdout(&output),
        common::stderr(&output)
    );
    output
}

/// Checks that `language`'s example printed the expected lines.
fn prints_the_expected_values(language: &str, output: &Output) {
    assert_eq!(
        common::stdout(output),
        expected(),
        "the {language} example (stderr: {})",
        common::stderr(output)
    );
}

/// The fresh libpoker.so, as runtimes that load a library by path take it.
fn libpoker() -> PathBuf {
    common::lib_dir().join("libpoker.so")
}

fn include_dir() -> PathBuf {
    common::root().join("include")
}

/// The expected error line is what the C API itself says for that deck.
#[test]
fn the_expected_error_is_the_c_apis() {
    let game = unsafe { poker::ffi::game::poker_game_new_text(c"9S TH XX".as_ptr()) };
    assert!(game.is_null());
    let code = poker::ffi::error::poker_last_error_code();
    let mut buf = [0u8; 256];
    let len = unsafe { poker::ffi::error::poker_last_error(buf.as_mut_ptr().cast(), 256) };
    let message = String::from_utf8_lossy(&buf[..len as usize]);
    let header = std::fs::read_to_string(include_dir().join("poker.h")).unwrap();
    assert!(header.contains(&format!("#define POKER_ERR_TOKEN {code}\n")));
    assert!(
        expected().contains(&format!("\nerror {code}: {message}\n")),
        "{code} {message}"
    );
}

/// `go ARGS` in the Go example's folder, with cgo pointed at the header
/// and the fresh library, and Go's caches in `dir`; the module has no
/// dependencies, so nothing is fetched.
fn go(args: &[&str], dir: &std::path::Path) -> Command {
    let lib = common::lib_dir();
    let mut command = Command::new("go");
    command
        .args(args)
        .current_dir(example("go"))
        .env("CGO_ENABLED", "1")
        .env("CGO_CFLAGS", format!("-I{}", include_dir().display()))
        .env(
            "CGO_LDFLAGS",
            format!(
                "-L{0} -Wl,--disable-new-dtags -Wl,-rpath,{0}",
                lib.display()
            ),
        )
        .env("GOCACHE", dir.join("cache"))
        .env("GOPATH", dir.join("gopath"))
        .env("GOPROXY", "off")
        .env("GOFLAGS", "-modcacherw");
    command
}

#[test]
fn go_example_prints_the_expected_values() {
    needs!(tier::GO);
    let dir = build_dir("go");
    let exe = dir.join("libpoker-go");
    let exe_arg = exe.to_str().expect("a UTF-8 path");
    run(go(&["build", "-o", exe_arg, "."], &dir), "go build");
    run(go(&["vet", "."], &dir), "go vet");
    let mut gofmt = Command::new("gofmt");
    gofmt.arg("-l").arg(example("go"));
    let unformatted = run(gofmt, "gofmt -l");
    assert_eq!(common::stdout(&unformatted), "", "gofmt would change these");
    let output = run(Command::new(&exe), "the Go example");
    prints_the_expected_values("Go", &output);
}

/// Debian's JNA (libjna-java), with its native part (libjna-jni).
const JNA_JAR: &str = "/usr/share/java/jna.jar";

#[test]
fn java_example_prints_the_expected_values() {
    needs!(tier::JAVA);
    let classes = build_dir("java");
    let mut build = Command::new("javac");
    build
        .args(["-Werror", "-Xlint:all", "-cp", JNA_JAR, "-d"])
        .arg(&classes)
        .arg(example("java").join("Example.java"));
    run(build, "javac");
    let mut java = Command::new("java");
    java.arg("-cp")
        .arg(format!("{JNA_JAR}:{}", classes.display()))
        .arg(format!(
            "-Djna.library.path={}",
            common::lib_dir().display()
        ))
        .arg("Example");
    let output = run(java, "the Java example");
    prints_the_expected_values("Java", &output);
}

#[test]
fn csharp_example_prints_the_expected_values() {
    needs!(tier::MONO);
    let exe = build_dir("csharp").join("Example.exe");
    let mut build = Command::new("mcs");
    build
        .arg("-warnaserror")
        .arg(format!("-out:{}", exe.display()))
        .arg(example("csharp").join("Example.cs"));
    run(build, "mcs");
    // Mono's [DllImport("poker")] loads libpoker.so through the loader's path.
    let mut mono = Command::new("mono");
    mono.arg(&exe).env("LD_LIBRARY_PATH", common::lib_dir());
    let output = run(mono, "the C# example");
    prints_the_expected_values("C#", &output);
}

#[test]
fn javascript_example_prints_the_expected_values() {
    needs!(tier::NODE);
    let folder = example("javascript");
    let mut node = Command::new("node");
    node.arg("example.js")
        .current_dir(&folder)
        .env("LIBPOKER", libpoker());
    let output = run(node, "the JavaScript example");
    prints_the_expected_values("JavaScript", &output);
}

#[test]
fn ruby_example_prints_the_expected_values() {
    needs!(tier::RUBY);
    let mut ruby = Command::new("ruby");
    ruby.arg("-w")
        .arg(example("ruby").join("example.rb"))
        .env("LIBPOKER", libpoker());
    let output = run(ruby, "the Ruby example");
    prints_the_expected_values("Ruby", &output);
    assert_eq!(common::stderr(&output), "", "ruby -w warns");
}

#[test]
fn lua_example_prints_the_expected_values() {
    needs!(tier::LUAJIT);
    let mut luajit = Command::new("luajit");
    luajit
        .arg(example("lua").join("example.lua"))
        .env("LIBPOKER", libpoker());
    let output = run(luajit, "the Lua example");
    prints_the_expected_values("Lua", &output);
}
