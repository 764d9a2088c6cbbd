//! C++ contestants: `poker eval` compiles `.cpp`, `.cc`, `.cxx` and `.C`
//! sources with `$CXX` (default `c++`) in the sandbox, and their games get
//! the C++ runtime. The reference is the C greedy: cpp_examples/greedy.cpp
//! is the same algorithm, so it must place every card as
//! c_examples/greedy.c does, on the built-in decks, fresh and through the
//! fork server, and in `poker bench`.

use crate::common;
use crate::common::tier::{self, needs};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn example(path: &str) -> String {
    common::root().join(path).display().to_string()
}

/// Each contestant's games, deck by deck: (status, score, board).
fn games(report: &Value) -> Vec<Vec<(String, u64, String)>> {
    report["contestants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            c["tests"]
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
                .collect()
        })
        .collect()
}

#[test]
fn the_cpp_greedy_plays_the_c_greedys_games_fresh_and_through_the_fork_server() {
    needs!(tier::CPP, tier::SANDBOX);
    let c = example("c_examples/greedy.c");
    let cpp = example("cpp_examples/greedy.cpp");
    let fresh = crate::evaluator::eval(&["--quiet", "--sandbox", "on", &c, &cpp]);
    let forked = crate::evaluator::eval(&["--quiet", "--sandbox", "on", "--fork-server", &c, &cpp]);
    assert_eq!(fresh["mode"], "fresh-processes");
    assert_eq!(forked["mode"], "fork-server");
    for report in [&fresh, &forked] {
        let games = games(report);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].len(), 10, "the 10 built-in decks");
        for (deck, (c_game, cpp_game)) in games[0].iter().zip(&games[1]).enumerate() {
            assert_eq!(c_game.0, "ok", "C, deck {}: {report}", deck + 1);
            assert_eq!(
                c_game,
                cpp_game,
                "deck {}: C vs C++ ({})",
                deck + 1,
                report["mode"]
            );
        }
    }
    assert_eq!(games(&fresh), games(&forked), "fresh vs fork server");
}

#[test]
fn the_audit_gives_the_cpp_compile_command_in_the_form_of_cs() {
    needs!(tier::CPP, tier::SANDBOX);
    let cpp = example("cpp_examples/greedy.cpp");
    let report = crate::evaluator::eval(&["--quiet", "--sandbox", "on", &cpp]);
    let compile = &report["audit"]["compile"][0];
    let command: Vec<&str> = compile["command"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    // `c++` resolved to the file it names, as `cc` is for C.
    let compiler = std::fs::canonicalize(
        std::env::split_paths(&std::env::var_os("PATH").unwrap())
            .map(|dir| dir.join("c++"))
            .find(|p| p.is_file())
            .expect("c++ on PATH"),
    )
    .unwrap();
    assert_eq!(Path::new(command[0]), compiler);
    assert_eq!(command[1..4], ["-O2", "-std=c++17", "-o"]);
    let lib = std::fs::canonicalize(common::lib_dir()).unwrap();
    let tail = [
        "-lpoker".to_string(),
        "-Wl,--disable-new-dtags".into(),
        format!("-Wl,-rpath,{}", lib.display()),
        "-lm".into(),
    ];
    assert_eq!(command[command.len() - 4..], tail);
    let practice = compile["practice"].as_str().unwrap();
    assert!(
        practice.contains("-O2 -std=c++17 -o ./greedy ") && practice.contains(&cpp),
        "{practice}"
    );
}

/// Copies cpp_examples/greedy.cpp to `name` in a scratch folder.
fn greedy_as(name: &str) -> PathBuf {
    let dir = common::scratch("cpp");
    let path = dir.join(name);
    std::fs::copy(common::root().join("cpp_examples/greedy.cpp"), &path).unwrap();
    path
}

#[test]
fn every_cpp_extension_is_compiled_as_cpp() {
    needs!(tier::CPP, tier::SANDBOX);
    let c = example("c_examples/greedy.c");
    let copies: Vec<String> = ["ext_cc.cc", "ext_cxx.cxx", "ext_upper.C"]
        .iter()
        .map(|name| greedy_as(name).display().to_string())
        .collect();
    let mut args = vec!["--quiet", "--sandbox", "on", c.as_str()];
    args.extend(copies.iter().map(String::as_str));
    let report = crate::evaluator::eval(&args);
    let games = games(&report);
    assert_eq!(games.len(), 4);
    for (i, copy) in copies.iter().enumerate() {
        assert_eq!(games[i + 1], games[0], "{copy}: {report}");
    }
}

#[test]
fn cxx_names_the_cpp_compiler() {
    needs!(tier::CPP, tier::SANDBOX);
    let cpp = greedy_as("named_compiler.cpp");
    let output = common::poker()
        .args(["eval", "--json", "--quiet", "--sandbox", "on", "--lib-dir"])
        .arg(common::lib_dir())
        .arg(&cpp)
        .env("CXX", "no-such-c++-compiler")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", common::stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(
        report
            .to_string()
            .contains("cannot find the C++ compiler `no-such-c++-compiler` (set CXX"),
        "{report}"
    );
}

/// `poker bench --json` (fork server, its default) on `contestant`.
fn bench(contestant: &str) -> Value {
    let output = common::poker()
        .args(["bench", "--json", "--quiet", "--games", "60", "--seed", "5"])
        .args(["--jobs", "2", "--sandbox", "on", "--lib-dir"])
        .arg(common::lib_dir())
        .arg(contestant)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", common::stderr(&output));
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn bench_scores_the_cpp_greedy_as_the_c_greedy() {
    needs!(tier::CPP, tier::SANDBOX);
    let c = bench(&example("c_examples/greedy.c"));
    let cpp = bench(&example("cpp_examples/greedy.cpp"));
    assert_eq!(cpp["failed"], 0, "{cpp}");
    for key in ["mean", "sd", "min", "min_seed", "max", "max_seed", "failed"] {
        assert_eq!(c[key], cpp[key], "{key}: {c} vs {cpp}");
    }
}

#[test]
fn the_cpp_greedy_compiles_without_warnings() {
    needs!(tier::CPP, tier::SANDBOX);
    let output = std::process::Command::new("c++")
        .args([
            "-std=c++17",
            "-Wall",
            "-Wextra",
            "-pedantic",
            "-Werror",
            "-fsyntax-only",
        ])
        .arg(format!("-I{}", common::root().join("include").display()))
        .arg(common::root().join("cpp_examples/greedy.cpp"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", common::stderr(&output));
}
