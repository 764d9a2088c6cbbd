//! `poker package` checked by the judge's own tool: problemtools'
//! `verifyproblem` (installed by `.ci/run` in target/ci-venv) judges a
//! freshly written package with three decks, and every example scores on
//! it what `poker eval` gives it on the same decks.

use crate::common;
use crate::common::tier::{self, needs};

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// problemtools' `verifyproblem`, where the README (`venv`) or `.ci/run`
/// (`target/ci-venv`) installs it, else on PATH, with the tools it runs;
/// the problemtools and Pascal tiers.
fn verifyproblem() -> PathBuf {
    common::tier::locate("verifyproblem").expect("the problemtools tier has verifyproblem")
}

/// `poker eval` totals by source path, on `decks`, unconfined (the
/// examples are trusted).
fn eval_totals(decks: &Path, sources: &[PathBuf]) -> BTreeMap<String, u64> {
    let output = crate::common::poker()
        .args(["eval", "--json", "--sandbox", "off", "--lib-dir"])
        .arg(common::lib_dir())
        .arg("--decks")
        .arg(decks)
        .args(sources)
        .env_remove("POKER_MANAGER_FD")
        .output()
        .expect("run poker eval");
    assert!(
        output.status.success(),
        "poker eval failed: {}",
        common::stderr(&output)
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    report["contestants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["path"].as_str().unwrap().to_string(),
                c["total"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// verifyproblem's line per submission, `   <folder>/<file> (<language>)
/// OK: <verdict> (<score>) [...]`: (verdict, score) by `<folder>/<file>`.
fn judged(log: &str) -> BTreeMap<String, (String, Option<u64>)> {
    let mut found = BTreeMap::new();
    for line in log.lines() {
        let Some((head, rest)) = line.trim().split_once(" OK: ") else {
            continue;
        };
        let Some((name, _language)) = head.split_once(" (") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        let verdict = words.next().unwrap_or("").to_string();
        let score = words
            .next()
            .and_then(|w| w.strip_prefix('(')?.strip_suffix(')')?.parse().ok());
        found.insert(name.to_string(), (verdict, score));
    }
    found
}

#[test]
fn verifyproblem_judges_a_fresh_package_as_poker_eval_scores_it() {
    needs!(tier::PROBLEMTOOLS, tier::PASCAL);
    let verifyproblem = verifyproblem();
    let root = common::root();
    let decks = root.join("tests/data/judge/decks.txt");
    let dir = common::scratch("judge_package").join("package");
    let _ = std::fs::remove_dir_all(&dir);
    let written = crate::common::poker()
        .arg("package")
        .arg(&dir)
        .arg("--decks")
        .arg(&decks)
        .output()
        .unwrap();
    assert!(written.status.success(), "{}", common::stderr(&written));

    // Extra submissions: one that breaks a rule on one deck only, and
    // clients' twins named to sort before and after the client files
    // (libpoker.py; poker.pp is not *.pas).
    let partial = dir.join("submissions/partially_accepted");
    let extra = [
        (
            "sometimes_breaks.c",
            root.join("tests/judge/sometimes_breaks.c"),
        ),
        ("a.pas", root.join("pascal_examples/roundrobin.pas")),
        ("zz.py", root.join("python_examples/roundrobin.py")),
    ];
    for (name, source) in &extra {
        std::fs::copy(source, partial.join(name)).unwrap();
    }
    // The contest text's own C form (void main, // comments), round robin.
    std::fs::copy(
        root.join("tests/judge/contest_text.c"),
        partial.join("contest_text.c"),
    )
    .unwrap();

    let started = std::time::Instant::now();
    let output = Command::new(&verifyproblem)
        .arg(&dir)
        .env_remove("POKER_MANAGER_FD")
        .output()
        .expect("run verifyproblem");
    let log = format!("{}{}", common::stdout(&output), common::stderr(&output));
    eprintln!(
        "verifyproblem took {:.1} s:\n{log}",
        started.elapsed().as_secs_f64()
    );
    assert!(
        log.contains("tested: 0 errors"),
        "verifyproblem found errors:\n{log}"
    );
    // The package's README names the only warnings expected: the licence
    // left for the organiser, and the accepted example below full score
    // (problemtools wants one accepted submission; no strategy reaches 32
    // on every deck).
    let warnings: Vec<&str> = log
        .lines()
        .filter_map(|l| l.trim().strip_prefix("WARNING "))
        .collect();
    assert_eq!(
        warnings,
        [
            "License is 'unknown'",
            "accepted/rollouts.c (C) did not attain full score (consider moving it to partially_accepted)"
        ],
        "{log}"
    );
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    for said in [
        "verifyproblem -t 5 package",
        "license: unknown",
        "accepted/rollouts.c did not attain full score",
        "include/python3/libpoker.py",
        "x86_64 Linux with glibc",
    ] {
        assert!(readme.contains(said), "README.md lacks {said:?}:\n{readme}");
    }
    let closing = common::stderr(&written);
    assert!(
        closing.contains(&format!("verifyproblem -t 5 {}", dir.display())),
        "{closing}"
    );
    let results = judged(&log);

    for failing in [
        "wrong_answer/column_five.c",
        "wrong_answer/unbalanced.py",
        "wrong_answer/look_twice.pas",
    ] {
        assert_eq!(results[failing].0, "WA", "{failing}:\n{log}");
    }
    assert_eq!(results["time_limit_exceeded/endless.c"].0, "TLE", "{log}");
    assert_eq!(results["run_time_error/crash.c"].0, "RTE", "{log}");

    // Every scored submission, against the same source under poker eval.
    let sources: Vec<(String, PathBuf)> = [
        ("accepted/rollouts.c", root.join("c_examples/rollouts.c")),
        (
            "partially_accepted/roundrobin.c",
            root.join("c_examples/roundrobin.c"),
        ),
        (
            "partially_accepted/greedy.c",
            root.join("c_examples/greedy.c"),
        ),
        (
            "partially_accepted/greedy.pas",
            root.join("pascal_examples/greedy.pas"),
        ),
        (
            "partially_accepted/roundrobin.pas",
            root.join("pascal_examples/roundrobin.pas"),
        ),
        (
            "partially_accepted/greedy.py",
            root.join("python_examples/greedy.py"),
        ),
        (
            "partially_accepted/roundrobin.py",
            root.join("python_examples/roundrobin.py"),
        ),
        (
            "partially_accepted/roundrobin.cpp",
            root.join("c_examples/roundrobin.c"),
        ),
    ]
    .into_iter()
    .map(|(name, path)| (name.to_string(), path))
    .chain(
        extra
            .iter()
            .map(|(name, path)| (format!("partially_accepted/{name}"), path.clone())),
    )
    .collect();
    let mut unique: Vec<PathBuf> = sources.iter().map(|(_, p)| p.clone()).collect();
    unique.sort();
    unique.dedup();
    let totals = eval_totals(&decks, &unique);
    for (name, source) in &sources {
        let expected = totals[source.to_str().unwrap()];
        assert_eq!(
            results[name.as_str()],
            ("AC".to_string(), Some(expected)),
            "{name} on the judge vs {} under poker eval:\n{log}",
            source.display()
        );
    }
    // Round robin's totals on decks 1 and 2 follow from the scoring table
    // (four straight flushes each, see the deck file): 32 + 32 + deck 3.
    // The rule breaker loses deck 2 only.
    let round_robin = results["partially_accepted/roundrobin.c"].1.unwrap();
    assert!(round_robin >= 64, "{round_robin}");
    assert_eq!(
        results["partially_accepted/sometimes_breaks.c"].1,
        Some(round_robin - 32)
    );
    assert_eq!(
        results["partially_accepted/contest_text.c"],
        ("AC".to_string(), Some(round_robin)),
        "{log}"
    );
}

// The glibc the package's README asks of a judge host is the newest
// `GLIBC_x.y` among the interactor's version references, as binutils'
// `objdump -p` lists them (not the glibc of the machine that wrote it).
#[test]
fn the_package_readme_names_the_glibc_the_interactor_needs() {
    let poker = std::path::PathBuf::from(env!("CARGO_BIN_EXE_poker"));
    let dump = Command::new("objdump").arg("-p").arg(&poker).output();
    let dump = dump.expect("objdump (Debian: binutils) runs");
    assert!(dump.status.success(), "{}", common::stderr(&dump));
    let newest = common::stdout(&dump)
        .split_whitespace()
        .filter_map(|w| w.strip_prefix("GLIBC_"))
        .filter_map(|v| {
            let parts: Result<Vec<u32>, _> = v.split('.').map(str::parse).collect();
            parts.ok().map(|p| (p, v.to_string()))
        })
        .max()
        .expect("a dynamically linked poker needs some glibc version")
        .1;
    let dir = common::scratch("judge_package").join("glibc");
    let _ = std::fs::remove_dir_all(&dir);
    let written = common::poker().arg("package").arg(&dir).output().unwrap();
    assert!(written.status.success(), "{}", common::stderr(&written));
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let said = format!("Linux with glibc {newest} or newer (the newest glibc symbol version");
    assert!(readme.contains(&said), "{said:?} not in:\n{readme}");
}
