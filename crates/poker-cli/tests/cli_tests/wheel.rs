//! The Python wheel as a user gets it: `pip wheel .` (which `.ci/run` runs
//! into target/wheels after `cargo build --release`) installed into a fresh
//! virtual environment with nothing else, then used only through that
//! environment: `import libpoker` without LIBPOKER or PYTHONPATH, a Python
//! contestant in practice mode, and the `poker` command found on PATH
//! running `poker eval` with the package's own library and header.
//!
//! It needs a wheel (the wheel tier of `common::tier`, which says how to
//! build one; `.ci/run` builds it).

use crate::common;
use crate::common::tier::{self, needs};

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The newest `target/wheels/libpoker-*.whl`.
fn wheel() -> PathBuf {
    let dir = common::root().join("target/wheels");
    let mut wheels: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("libpoker-") && name.ends_with(".whl")
        })
        .filter_map(|p| Some((p.metadata().ok()?.modified().ok()?, p)))
        .collect();
    wheels.sort();
    let (_, newest) = wheels.pop().expect("the wheel tier has a wheel");
    newest
}

/// `command` run with the environment of a user who activated `venv` and
/// set nothing else (its bin first on PATH, no LIBPOKER, PYTHONPATH or
/// POKER_* variables) but `env`.
fn in_venv(venv: &Path, command: &mut Command, env: &[(&str, &str)]) -> Output {
    let path = format!(
        "{}:{}",
        venv.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    command
        .current_dir(common::root())
        .env("PATH", path)
        .env("VIRTUAL_ENV", venv)
        .env_remove("LIBPOKER")
        .env_remove("PYTHONPATH")
        .env_remove("POKER_DECK")
        .env_remove("POKER_SEED")
        .env_remove("POKER_MANAGER_FD")
        .env_remove("LD_LIBRARY_PATH")
        .envs(env.iter().copied())
        .output()
        .expect("run a command in the virtual environment")
}

fn check(what: &str, output: &Output) -> String {
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}\n{}",
        output.status,
        common::stdout(output),
        common::stderr(output)
    );
    common::stdout(output)
}

/// The first deck of data/decks.txt, as `poker eval` plays it as deck 1.
const DECK: &str = "JS TD KC QS 9C AD 9D QC JD KS TH JH 9S JC TS TC KD AH AC KH AS QD 9H QH";

#[test]
fn the_wheel_installed_alone_gives_the_module_the_contest_functions_and_poker_eval() {
    needs!(tier::WHEEL);
    let wheel = wheel();
    let scratch = common::scratch("wheel");
    let venv = scratch.join("venv");
    let _ = std::fs::remove_dir_all(&venv);
    check(
        "python3 -m venv",
        &Command::new("python3")
            .arg("-m")
            .arg("venv")
            .arg(&venv)
            .output()
            .unwrap(),
    );
    let python = venv.join("bin/python");
    check(
        "pip install of the wheel",
        &in_venv(
            &venv,
            Command::new(&python)
                .args(["-m", "pip", "install", "--quiet", "--no-index", "--no-deps"])
                .arg(&wheel),
            &[],
        ),
    );

    // The module loads the library inside the package, and the game API
    // works: a straight flush is worth 8 (the contest's table).
    let out = check(
        "import libpoker",
        &in_venv(
            &venv,
            Command::new(&python).args([
                "-c",
                "import libpoker\n\
                 print(libpoker.library_path())\n\
                 print(libpoker.hand_score([(1, 1), (2, 1), (3, 1), (4, 1), (5, 1)]))",
            ]),
            &[],
        ),
    );
    let mut lines = out.lines();
    let library = PathBuf::from(lines.next().unwrap());
    assert!(
        library.starts_with(&venv) && library.ends_with("libpoker/libpoker.so"),
        "the module loaded {} rather than its package's library",
        library.display()
    );
    assert_eq!(lines.next(), Some("8"));

    // The package's library has the installed library's SONAME, and a copy
    // under that name beside it (a wheel holds no links) for programs
    // linked against it with -lpoker, as `poker eval` below builds them.
    let soname = format!(
        "libpoker.so.{}",
        env!("CARGO_PKG_VERSION").rsplit_once('.').unwrap().0
    );
    let readelf = Command::new("readelf")
        .arg("-d")
        .arg(&library)
        .output()
        .expect("run readelf");
    assert!(
        common::stdout(&readelf).contains(&format!("Library soname: [{soname}]")),
        "the package's library has no SONAME {soname}:\n{}",
        common::stdout(&readelf)
    );
    assert_eq!(
        std::fs::read(library.with_file_name(&soname)).ok(),
        std::fs::read(&library).ok(),
        "no copy of the library named {soname} in the package"
    );

    // A Python contestant in practice mode, from the venv alone, plays the
    // same game as through the source tree's module and library.
    let script = common::root().join("python_examples/greedy.py");
    let from_wheel = check(
        "greedy.py in practice mode",
        &in_venv(
            &venv,
            Command::new(&python).arg(&script),
            &[("POKER_DECK", DECK)],
        ),
    );
    let from_tree = check(
        "greedy.py from the source tree",
        &Command::new("python3")
            .arg(&script)
            .env("POKER_DECK", DECK)
            .env("LIBPOKER", common::lib_dir().join("libpoker.so"))
            .env("PYTHONPATH", common::root().join("bindings/python"))
            .env_remove("POKER_MANAGER_FD")
            .output()
            .unwrap(),
    );
    assert!(from_wheel.contains("total: "), "{from_wheel}");
    assert_eq!(from_wheel, from_tree);

    // `poker` is on PATH from the venv's bin.
    let found = check(
        "command -v poker",
        &in_venv(
            &venv,
            Command::new("sh").args(["-c", "command -v poker"]),
            &[],
        ),
    );
    assert_eq!(Path::new(found.trim()), venv.join("bin/poker"));

    // `poker eval` from the venv builds and runs contestants against the
    // package's library and header, and scores them as the source tree's
    // `poker` does.
    let contestants = ["python_examples/greedy.py", "c_examples/greedy.c"];
    let report: Value = serde_json::from_str(&check(
        "poker eval from the venv",
        &in_venv(
            &venv,
            Command::new("poker")
                .args(["eval", "--json", "--quiet", "--sandbox", "off"])
                .args(contestants),
            &[],
        ),
    ))
    .unwrap();
    let package = library.parent().unwrap().to_path_buf();
    // `poker eval` alone, in a folder of no checkout, evaluates the example
    // contestants the wheel ships, not those of the checkout it was built
    // in (which may have moved).
    let elsewhere = scratch.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let alone: Value = serde_json::from_str(&check(
        "poker eval alone",
        &in_venv(
            &venv,
            Command::new("sh").arg("-c").arg(format!(
                "cd '{}' && poker eval --json --quiet --sandbox off",
                elsewhere.display()
            )),
            &[],
        ),
    ))
    .unwrap();
    let shipped: Vec<(String, String)> = alone["contestants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let name = c["name"].as_str().unwrap().to_string();
            (name, c["path"].as_str().unwrap().to_string())
        })
        .collect();
    let names: Vec<&str> = shipped.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["greedy", "rollouts", "roundrobin"], "{alone}");
    for (_, path) in &shipped {
        assert!(
            Path::new(path).starts_with(package.join("c_examples")),
            "{path} is not the wheel's"
        );
    }
    let practice = report["audit"]["compile"][0]["practice"].as_str().unwrap();
    for needle in [
        format!("-I{}", package.join("include").display()),
        format!("-L{}", package.display()),
    ] {
        assert!(practice.contains(&needle), "{needle} not in {practice}");
    }
    let reference: Value = serde_json::from_slice(
        &crate::common::poker()
            .args(["eval", "--json", "--quiet", "--sandbox", "off", "--lib-dir"])
            .arg(common::lib_dir())
            .args(contestants)
            .current_dir(common::root())
            .env_remove("POKER_MANAGER_FD")
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let totals = |r: &Value| -> Vec<u64> {
        r["contestants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["total"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(totals(&report), totals(&reference));
    assert!(totals(&report).iter().all(|&t| t > 0), "{report}");
}
