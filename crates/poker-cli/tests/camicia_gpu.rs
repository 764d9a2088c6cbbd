//! The GPU engine of `poker camicia search` (`--features gpu`), on
//! whatever Vulkan device the machine has: Mesa's lavapipe (a CPU) in CI.
//! Its unit files must equal the CPU engine's byte for byte but for the
//! engine's name and the timing; the published records must come out as
//! published; a kernel made wrong on purpose must be refused; and without
//! a device `--engine gpu` fails and `auto` falls back to the CPU, saying
//! why. Run: `cargo test --release -p poker-cli --features gpu --test
//! camicia_gpu` (.ci/gpu).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `poker camicia search ARGS`, in `dir`, with `env` set.
fn search(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_poker"));
    cmd.current_dir(dir)
        .args(["camicia", "search", "--quiet"])
        .args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("poker runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs a unit with `--engine engine`, writing `name`; its path.
fn unit(dir: &Path, name: &str, engine: &str, args: &[&str]) -> PathBuf {
    let path = dir.join(name);
    let mut all = vec!["--engine", engine, "--output", path.to_str().unwrap()];
    all.extend(args);
    let out = search(dir, &all, &[]);
    assert!(
        out.status.success(),
        "poker camicia search {all:?} failed: {}",
        stderr(&out)
    );
    path
}

/// A unit file's bytes before `"timing"`, with the engine's name taken out.
fn comparable(path: &Path) -> (String, String) {
    let text = std::fs::read_to_string(path).expect("the unit file");
    let engine = serde_json::from_str::<serde_json::Value>(&text).expect("JSON")["engine"]
        .as_str()
        .expect("an engine name")
        .to_string();
    let cut = text
        .find(",\"timing\"")
        .expect("a unit file ends with its timing");
    let named = format!("\"engine\":\"{engine}\"");
    (engine, text[..cut].replacen(&named, "\"engine\":\"?\"", 1))
}

/// A unit file's `timing`.
fn timing(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).expect("the unit file");
    serde_json::from_str::<serde_json::Value>(&text).expect("JSON")["timing"].clone()
}

/// A GPU unit's GPU-seconds: the wall seconds it held its GPU, so all of
/// its `seconds` (every run of it, a resumed one too).
fn gpu_seconds(path: &Path) -> f64 {
    let t = timing(path);
    let gpu = t["gpu_seconds"].as_f64().expect("a GPU unit's GPU-seconds");
    assert!(gpu > 0.0 && gpu == t["seconds"].as_f64().unwrap(), "{t}");
    gpu
}

/// The GPU's unit and the CPU's for `args`: equal but for the engine; a
/// GPU unit records its GPU-seconds, a CPU unit none. The folder and the
/// two units' paths.
fn parity(args: &[&str]) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let gpu = unit(dir.path(), "gpu.json", "gpu", args);
    let cpu = unit(dir.path(), "cpu.json", "cpu", args);
    let (gpu_engine, gpu_text) = comparable(&gpu);
    let (cpu_engine, cpu_text) = comparable(&cpu);
    assert_eq!(gpu_engine, "gpu");
    assert!(
        cpu_engine == "vector" || cpu_engine == "fast",
        "{cpu_engine}"
    );
    assert!(
        gpu_text == cpu_text,
        "the GPU's unit for {args:?} differs from the CPU's:\n{gpu_text}\n{cpu_text}"
    );
    // Not an empty comparison: the units hold the deals and a checksum.
    assert!(gpu_text.contains("\"counts\":{\"deals\":"));
    gpu_seconds(&gpu);
    assert!(
        timing(&cpu).get("gpu_seconds").is_none(),
        "{}",
        timing(&cpu)
    );
    (dir, gpu, cpu)
}

#[test]
fn a_million_random_deals_give_the_cpu_engine_s_unit() {
    let (dir, gpu, _) = parity(&["--count", "1000000", "--seed", "7"]);
    // Merged with a CPU unit of another seed: each engine's cost a deal,
    // and the odds at each one's speed.
    let cpu = unit(
        dir.path(),
        "cpu-8.json",
        "cpu",
        &["--count", "1000000", "--seed", "8"],
    );
    let out = Command::new(env!("CARGO_BIN_EXE_poker"))
        .args(["camicia", "merge", "--json", "--target", "5000"])
        .args([&gpu, &cpu])
        .output()
        .expect("poker runs");
    assert!(out.status.success(), "{}", stderr(&out));
    let merged: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let costs = merged["costs"].as_array().expect("the costs");
    let on_gpu = costs
        .iter()
        .find(|c| c["engine"] == "gpu")
        .expect("the GPU's");
    let per_deal = gpu_seconds(&gpu) / 1e6;
    let near = |x: &serde_json::Value, want: f64| {
        x.as_f64().is_some_and(|x| (x - want).abs() <= 1e-9 * want)
    };
    assert!(near(&on_gpu["gpu_seconds_per_deal"], per_deal), "{on_gpu}");
    let cpu_time = timing(&cpu)["cpu_seconds"].as_f64().unwrap();
    let on_cpu = costs
        .iter()
        .find(|c| c["engine"] != "gpu")
        .expect("the CPU's");
    assert!(
        near(&on_cpu["cpu_seconds_per_deal"], cpu_time / 1e6),
        "{on_cpu}"
    );
    let tail = &merged["odds"]["without_extension"];
    assert!(near(&tail["gpu_seconds_per_deal"], per_deal), "{tail}");
    assert!(
        tail["gpu_years"].as_f64().is_some() && tail["cpu_years"].as_f64().is_some(),
        "{tail}"
    );
}

#[test]
fn the_per_deal_kernel_gives_the_cpu_engine_s_unit_too() {
    // The kernel the persistent one replaced, kept for the benchmark.
    let dir = tempfile::tempdir().expect("a scratch folder");
    let args = ["--count", "300000", "--seed", "5"];
    let gpu = dir.path().join("gpu.json");
    let mut all = vec![
        "--engine",
        "gpu",
        "--json",
        "--output",
        gpu.to_str().unwrap(),
    ];
    all.extend(args);
    let out = search(dir.path(), &all, &[("POKER_GPU_KERNEL", "per-deal")]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("\"kernel\":\"per-deal\""),
        "the summary names the kernel"
    );
    let cpu = unit(dir.path(), "cpu.json", "cpu", &args);
    assert_eq!(comparable(&gpu).1, comparable(&cpu).1);
    // A kernel that does not exist is refused, naming the two.
    let out = search(
        dir.path(),
        &["--engine", "gpu", "--count", "10"],
        &[("POKER_GPU_KERNEL", "fast")],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("POKER_GPU_KERNEL=fast is not a kernel: persistent or per-deal"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_shard_of_random_deals_gives_the_cpu_engine_s_unit() {
    parity(&["--count", "1000000", "--seed", "7", "--shard", "1/3"]);
}

/// A million indices around the 8344-card record (so the range holds it).
const RANGE: &str = "447247122283565619055..447247122283566619055";

#[test]
fn a_million_indices_give_the_cpu_engine_s_unit() {
    parity(&["--range", RANGE]);
}

#[test]
fn a_shard_of_a_range_gives_the_cpu_engine_s_unit() {
    parity(&["--range", RANGE, "--shard", "1/3"]);
}

#[test]
fn a_range_past_64_bits_with_a_loop_gives_the_cpu_engine_s_unit() {
    // Around the 2024 non-terminating game (index > 2^64): its loop and
    // the neighbours' games, extension off and every deal ranked.
    let casella: u128 = 472_460_898_658_889_399_111;
    let range = format!("{}..{}", casella - 20_000, casella + 20_000);
    parity(&["--range", &range, "--extend-from", "off", "--top", "50"]);
}

#[test]
fn every_published_record_and_the_casella_loop_come_out_as_published() {
    let records: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/camicia/records.json"),
        )
        .expect("records.json"),
    )
    .expect("JSON");
    let dir = tempfile::tempdir().expect("a scratch folder");
    let records = records["records"].as_array().expect("a list");
    assert_eq!(records.len(), 10);
    for (i, r) in records.iter().enumerate() {
        let index: u128 = r["index"].as_str().unwrap().parse().unwrap();
        let range = format!("{index}..{}", index + 1);
        let path = unit(
            dir.path(),
            &format!("record-{i}.json"),
            "gpu",
            &["--range", &range, "--top", "1", "--extend-from", "off"],
        );
        let file: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(file["engine"], "gpu");
        let game = if r["status"] == "loop" {
            &file["loops"][0]
        } else {
            &file["best"][0]
        };
        for field in ["a", "b", "status", "cards", "tricks", "index"] {
            assert_eq!(game[field], r[field], "{} ({field})", r["finder"]);
        }
        if r["status"] == "loop" {
            // The spec: its cycle is 62 tricks long (440 cards, docs/camicia.md).
            assert_eq!(game["cycle"]["tricks"], 62);
            assert_eq!(game["cycle"]["cards"], 440);
        }
    }
}

/// The kernel with a jack that makes the opponent pay 2 cards.
const WRONG_JACK: (&str, &str) = ("POKER_GPU_TEST_JACK_PAYS", "2");

#[test]
fn a_wrong_kernel_s_claims_are_refused_naming_the_deal() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let out = search(
        dir.path(),
        &[
            "--engine", "gpu", "--count", "100000", "--seed", "7", "--output", "u.json",
        ],
        &[WRONG_JACK],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the GPU engine is wrong on deal index "),
        "{err}"
    );
    assert!(err.contains("nothing from it was counted"), "{err}");
    assert!(
        !dir.path().join("u.json").exists(),
        "a refused run writes no unit"
    );
}

#[test]
fn a_wrong_kernel_on_short_games_is_caught_by_the_sample() {
    // No best games kept and no extension: the GPU claims nothing but
    // possible loops, so only the sampled deals can show it wrong.
    let dir = tempfile::tempdir().expect("a scratch folder");
    let out = search(
        dir.path(),
        &[
            "--engine",
            "gpu",
            "--count",
            "100000",
            "--seed",
            "7",
            "--top",
            "0",
            "--extend-from",
            "off",
        ],
        &[WRONG_JACK],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the GPU engine is wrong on deal index "),
        "{err}"
    );
    assert!(err.contains(", draw "), "the message names the draw: {err}");
}

#[test]
fn the_right_kernel_passes_the_sample_alone() {
    // The same run as above with the real kernel: every sample agrees.
    let dir = tempfile::tempdir().expect("a scratch folder");
    let out = search(
        dir.path(),
        &[
            "--engine",
            "gpu",
            "--count",
            "100000",
            "--seed",
            "7",
            "--top",
            "0",
            "--extend-from",
            "off",
            "--json",
        ],
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let summary: serde_json::Value = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["kind"] == "summary")
        .expect("a summary line");
    // 100,000 deals are 7 blocks: one sample each, none a claim.
    assert_eq!(summary["gpu"]["samples_compared"], 7, "{summary}");
    assert_eq!(summary["gpu"]["claims_replayed"], 0, "{summary}");
}

/// The environment of a machine without any Vulkan driver.
const NO_VULKAN: [(&str, &str); 2] = [
    ("VK_DRIVER_FILES", "/nonexistent"),
    ("VK_ICD_FILENAMES", "/nonexistent"),
];

#[test]
fn without_a_vulkan_device_gpu_fails_and_auto_uses_the_cpu_saying_why() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let out = search(
        dir.path(),
        &["--engine", "gpu", "--count", "1000"],
        &NO_VULKAN,
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("no Vulkan or Metal device found"), "{err}");
    let out = search(
        dir.path(),
        &["--count", "1000", "--output", "auto.json"],
        &NO_VULKAN,
    );
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains(
            "poker: searching with the CPU engine: no GPU engine: no Vulkan or Metal device found"
        ),
        "{err}"
    );
    let (engine, _) = comparable(&dir.path().join("auto.json"));
    assert_ne!(engine, "gpu");
}

#[test]
fn auto_passes_over_lavapipe_and_gpu_takes_it() {
    // Only Mesa's lavapipe (a CPU): auto says so and uses the CPU engine.
    let icd = [
        "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json",
        "/usr/share/vulkan/icd.d/lvp_icd.json",
    ]
    .into_iter()
    .find(|p| Path::new(p).exists())
    .expect("Mesa's lavapipe (Debian: mesa-vulkan-drivers) is installed");
    let only_lavapipe = [("VK_DRIVER_FILES", icd), ("VK_ICD_FILENAMES", icd)];
    let dir = tempfile::tempdir().expect("a scratch folder");
    let out = search(
        dir.path(),
        &["--count", "1000", "--output", "auto.json"],
        &only_lavapipe,
    );
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("the only Vulkan or Metal device is a CPU (llvmpipe"),
        "{err}"
    );
    assert_ne!(comparable(&dir.path().join("auto.json")).0, "gpu");
    let out = search(
        dir.path(),
        &["--engine", "gpu", "--count", "1000", "--output", "gpu.json"],
        &only_lavapipe,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(comparable(&dir.path().join("gpu.json")).0, "gpu");
}

#[test]
fn a_gpu_unit_stopped_by_term_resumes_to_the_cpu_engine_s_unit() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let args = ["--count", "1000000", "--seed", "3"];
    let gpu = dir.path().join("gpu.json");
    let checkpoint = dir.path().join("gpu.checkpoint");
    let run = || {
        Command::new(env!("CARGO_BIN_EXE_poker"))
            .args(["camicia", "search", "--quiet", "--engine", "gpu"])
            .args(args)
            .args(["--checkpoint-every", "0", "--output"])
            .arg(&gpu)
            .arg("--checkpoint")
            .arg(&checkpoint)
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("poker starts")
    };
    let mut first = run();
    // Stopped once its first checkpoint is there.
    while !checkpoint.exists() && first.try_wait().unwrap().is_none() {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let stopped = first.try_wait().unwrap().is_none();
    if stopped {
        let pid = first.id().to_string();
        assert!(
            Command::new("kill")
                .args(["-TERM", &pid])
                .status()
                .unwrap()
                .success()
        );
    }
    let status = first.wait().unwrap();
    if stopped && status.code() == Some(143) {
        assert!(checkpoint.exists(), "a stopped unit leaves its checkpoint");
        assert!(run().wait().unwrap().success(), "the unit resumes");
    } else {
        // A device fast enough to finish before the signal (not lavapipe).
        assert!(status.success(), "{status:?}");
    }
    assert!(
        !checkpoint.exists(),
        "a finished unit removes its checkpoint"
    );
    let cpu = unit(dir.path(), "cpu.json", "cpu", &args);
    assert_eq!(comparable(&gpu).1, comparable(&cpu).1);
    // Both runs' GPU-seconds, as both runs' seconds.
    gpu_seconds(&gpu);
}
