//! How `poker eval` takes its size limits and says where its games'
//! cgroups come from: sizes as people write them, a named cgroup that
//! cannot be used as an error, an automatic fallback to rlimits as one
//! warning line recorded in the JSON. (The cgroup v2 paths themselves run
//! in a virtual machine: tests/vm/cgroup2.sh.)

use crate::common;
use crate::common::tier::{self, needs};
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Output, Stdio};

fn poker(args: &[&str], env: &[(&str, &str)]) -> Output {
    crate::common::poker()
        .args(args)
        .envs(env.iter().copied())
        .current_dir(common::root())
        .stdin(Stdio::null())
        .output()
        .expect("run poker")
}

fn greedy() -> String {
    common::root()
        .join("c_examples/greedy.c")
        .display()
        .to_string()
}

/// The report's `limit NAME ...` line.
fn limit_line(output: &Output, name: &str) -> String {
    let text = common::stdout(output);
    text.lines()
        .find(|l| l.trim_start().starts_with(&format!("limit {name} ")))
        .unwrap_or_else(|| panic!("no limit {name} in {text}"))
        .trim()
        .to_owned()
}

// Expected: the binary definitions (64M = 64 MiB = 67108864 bytes), by hand.
#[test]
fn size_options_take_suffixes_and_reports_print_mib() {
    let args = [
        "eval",
        "--quiet",
        "--sandbox",
        "off",
        "--memory-limit",
        "64M",
        "--tmp-limit",
        "1G",
    ];
    let out = poker(&[&args[..], &["--json", &greedy()]].concat(), &[]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let value = |name: &str| {
        let limits = json["limits"].as_array().unwrap();
        let limit = limits.iter().find(|l| l["name"] == name).unwrap();
        (limit["value"].as_u64().unwrap(), limit["unit"].clone())
    };
    assert_eq!(value("memory"), (67_108_864, "bytes".into()));
    assert_eq!(value("tmp_size"), (1_073_741_824, "bytes".into()));

    for (memory, shown) in [
        ("256MiB", "256 MiB"),
        ("100", "100 MiB"),
        ("1.5G", "1536 MiB"),
    ] {
        let out = poker(
            &[
                "eval",
                "--quiet",
                "--sandbox",
                "off",
                "--memory-limit",
                memory,
                &greedy(),
            ],
            &[],
        );
        assert!(out.status.success(), "{}", common::stderr(&out));
        let line = limit_line(&out, "memory");
        assert!(
            line.starts_with(&format!("limit memory {shown}:")),
            "{line}"
        );
    }
}

#[test]
fn malformed_or_out_of_range_sizes_are_refused() {
    for (flag, value, says) in [
        ("--memory-limit", "64X", "invalid size \"64X\""),
        ("--tmp-limit", "-1", "invalid size \"-1\""),
        ("--memory-limit", "512K", "out of range"),
        ("--memory-limit", "2T", "out of range"),
    ] {
        let option = format!("{flag}={value}");
        let out = poker(&["eval", "--sandbox", "off", &option, &greedy()], &[]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        assert!(
            common::stderr(&out).contains(says),
            "{}",
            common::stderr(&out)
        );
    }
}

#[test]
fn a_named_cgroup_that_cannot_be_used_is_an_error() {
    let plain = common::scratch("named-cgroup-plain-folder");
    let cases = [
        ("/nonexistent/poker".to_owned(), "no such folder"),
        (plain.display().to_string(), "not a cgroup v2 folder"),
    ];
    for (folder, why) in cases {
        for mode in ["on", "auto"] {
            let out = poker(
                &["eval", "--quiet", "--sandbox", mode, &greedy()],
                &[("POKER_SANDBOX_CGROUP", &folder)],
            );
            let stderr = common::stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{mode}: {stderr}");
            assert!(
                stderr.contains(&format!("POKER_SANDBOX_CGROUP={folder}: {why}")),
                "{stderr}"
            );
        }
    }
}

// A user other than root can write no cgroup here: the sandbox runs with
// rlimits and says so once on stderr and in the JSON's limits.
#[test]
fn an_automatic_fallback_is_one_warning_line_and_recorded() {
    needs!(tier::SANDBOX);
    // The other user runs copies of the command, its library and the
    // contestant in a folder anyone may read: the clone may sit in one
    // that only root can enter (as `mktemp -d` makes them).
    let kit = tempfile::Builder::new()
        .prefix("poker-fallback-")
        .tempdir()
        .unwrap();
    std::fs::set_permissions(kit.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let poker_copy = kit.path().join("poker");
    std::fs::copy(env!("CARGO_BIN_EXE_poker"), &poker_copy).unwrap();
    std::fs::copy(
        common::lib_dir().join("libpoker.so"),
        kit.path().join("libpoker.so"),
    )
    .unwrap();
    let contestant = kit.path().join("greedy.c");
    std::fs::copy(greedy(), &contestant).unwrap();
    let tmp = kit.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o1777)).unwrap();
    let out = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(&poker_copy)
        .args(["eval", "--quiet", "--json", "--sandbox", "on"])
        .arg(&contestant)
        .env("TMPDIR", &tmp)
        .current_dir(&tmp)
        .stdin(Stdio::null())
        .output()
        .expect("setpriv (util-linux) runs poker as another user");
    let stderr = common::stderr(&out);
    assert!(
        out.status.success(),
        "poker eval as uid 65534 failed: {stderr}"
    );
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(
        warnings[0].starts_with("poker: warning: no cgroup for the games")
            && warnings[0].contains("Permission denied"),
        "{stderr}"
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let limits = json["limits"].as_array().unwrap();
    let memory = limits.iter().find(|l| l["name"] == "memory").unwrap();
    assert_eq!(memory["enforcement"]["kind"], "rlimit_fallback", "{memory}");
    assert_eq!(memory["enforcement"]["scope"], "process", "{memory}");
    assert!(
        memory["enforcement"]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("Permission denied")),
        "{memory}"
    );
    assert_eq!(json["warnings"].as_array().map(Vec::len), Some(1), "{json}");
}

#[test]
fn the_cpu_limit_is_reported_as_the_watched_cgroup_in_the_sandbox() {
    // As root with a cgroup, the CPU-time limit is the watch's (all the
    // game's processes) and RLIMIT_CPU's; unconfined, RLIMIT_CPU's alone.
    needs!(tier::SANDBOX);
    let args = ["eval", "--quiet", "--json", "--cpu-limit", "2"];
    let cpu = |sandbox: &str| {
        let out = poker(
            &[&args[..], &["--sandbox", sandbox, &greedy()]].concat(),
            &[],
        );
        assert!(out.status.success(), "{}", common::stderr(&out));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let limits = json["limits"].as_array().unwrap().clone();
        limits.into_iter().find(|l| l["name"] == "cpu").unwrap()
    };
    let watched = cpu("on");
    assert_eq!(watched["value"], 2000, "{watched}");
    assert_eq!(watched["enforcement"]["kind"], "cgroup_watch", "{watched}");
    assert!(
        [1, 2].contains(&watched["enforcement"]["version"].as_u64().unwrap()),
        "{watched}"
    );
    let unconfined = cpu("off");
    assert_eq!(unconfined["enforcement"]["kind"], "rlimit", "{unconfined}");
    assert_eq!(
        unconfined["enforcement"]["scope"], "process",
        "{unconfined}"
    );
}
