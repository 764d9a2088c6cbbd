//! Units of random deals, from the outside: `--shard I/N` with `--count`
//! (slices of the run's blocks of 16,384 deals) and their merge, and
//! `status` over folders of random units. Expected values: one unsharded
//! run of the same seed, block slices computed by hand, and totals counted
//! by hand from the files.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

fn poker(args: &[&str]) -> Output {
    crate::common::poker().args(args).output().unwrap()
}

fn ok(args: &[&str]) -> Output {
    let out = poker(args);
    assert!(
        out.status.success(),
        "poker {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("camicia_random_units")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `search --count 100000 --seed 5 [--shard I/N] --output FILE`.
fn random_unit(file: &Path, shard: Option<&str>) {
    let mut args = vec![
        "camicia", "search", "--quiet", "--jobs", "1", "--count", "100000", "--seed", "5",
        "--output",
    ];
    args.push(file.to_str().unwrap());
    if let Some(shard) = shard {
        args.extend(["--shard", shard]);
    }
    ok(&args);
}

fn read(file: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap()
}

fn merge(files: &[&Path], extra: &[&str]) -> Output {
    let mut args = vec!["camicia", "merge"];
    args.extend(extra);
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    poker(&args)
}

#[test]
fn four_shards_of_a_random_run_merge_to_the_unsharded_run() {
    let dir = scratch("shards");
    let whole = dir.join("whole.json");
    random_unit(&whole, None);
    let shards: Vec<PathBuf> = (0..4)
        .map(|i| {
            let file = dir.join(format!("random-5-{i}.json"));
            random_unit(&file, Some(&format!("{i}/4")));
            file
        })
        .collect();
    // 100,000 deals are 7 blocks (6 x 16,384 = 98,304); slice I of 4 takes
    // blocks floor(7I/4) .. floor(7(I+1)/4): 0..1, 1..3, 3..5, 5..7.
    let expected = [
        ([0, 1], 0, 16_384),
        ([1, 3], 16_384, 49_152),
        ([3, 5], 49_152, 81_920),
        ([5, 7], 81_920, 100_000),
    ];
    for (i, (file, (blocks, start, end))) in shards.iter().zip(expected).enumerate() {
        let unit = read(file);
        assert_eq!(unit["shard"]["index"], i);
        assert_eq!(unit["shard"]["count"], 4);
        assert_eq!(unit["shard"]["start"], "0");
        assert_eq!(unit["shard"]["end"], "100000");
        assert_eq!(unit["shard"]["blocks"], serde_json::json!(blocks));
        assert_eq!(unit["random"]["seed"], 5);
        assert_eq!(
            (unit["start"].as_str(), unit["end"].as_str()),
            (
                Some(start.to_string().as_str()),
                Some(end.to_string().as_str())
            )
        );
        assert_eq!(unit["counts"]["deals"], end - start);
    }
    let files: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    let four: Value = serde_json::from_slice(&ok_merge(&files).stdout).unwrap();
    let one: Value = serde_json::from_slice(&ok_merge(&[&whole]).stdout).unwrap();
    for field in [
        "counts",
        "checksum",
        "lengths",
        "lengths_extended",
        "best",
        "extended",
        "loops",
        "start",
        "end",
        "mode",
        "seeds",
    ] {
        assert_eq!(four[field], one[field], "{field}");
    }
    assert_eq!(four["counts"]["deals"], 100_000);
    assert_eq!(four["units"], 4);

    // A shard missing, and one given twice beside the whole run: refused,
    // each problem by name.
    let err = String::from_utf8(merge(&[files[0], files[1], files[3]], &[]).stderr).unwrap();
    assert!(
        err.contains(&format!(
            "gap: draws 49152..81920 of seed 5 are in no unit (after {}, before {})",
            files[1].display(),
            files[3].display()
        )),
        "{err}"
    );
    assert!(err.contains("missing shards of seed 5: 2/4"), "{err}");
    let err = String::from_utf8(merge(&[files[0], &whole], &[]).stderr).unwrap();
    assert!(
        err.contains(&format!(
            "overlap: draws 0..16384 of seed 5 are in both {} and {}",
            files[0].display(),
            whole.display()
        )) || err.contains(&format!(
            "overlap: draws 0..16384 of seed 5 are in both {} and {}",
            whole.display(),
            files[0].display()
        )),
        "{err}"
    );
    // Two whole runs of one seed drew the same deals.
    let again = dir.join("again.json");
    std::fs::copy(&whole, &again).unwrap();
    let err = String::from_utf8(merge(&[&whole, &again], &[]).stderr).unwrap();
    assert!(err.contains("all drew the random deals of seed 5"), "{err}");
    // A shard whose blocks were edited is named.
    let mut forged = read(&shards[2]);
    forged["shard"]["blocks"] = serde_json::json!([3, 4]);
    let bad = dir.join("forged.json");
    std::fs::write(&bad, forged.to_string()).unwrap();
    let err = String::from_utf8(merge(&[files[0], files[1], &bad, files[3]], &[]).stderr).unwrap();
    assert!(
        err.contains(&format!(
            "{}: its shard takes blocks 3..5, but it says blocks 3..4",
            bad.display()
        )),
        "{err}"
    );
}

fn ok_merge(files: &[&Path]) -> Output {
    let out = merge(files, &["--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Sets a unit file's recorded running time to `seconds` (wall and CPU).
fn set_time(file: &Path, seconds: f64) -> Value {
    let mut unit = read(file);
    unit["timing"]["seconds"] = seconds.into();
    unit["timing"]["cpu_seconds"] = (2.0 * seconds).into();
    std::fs::write(file, unit.to_string()).unwrap();
    unit
}

/// A random unit of `count` deals from `seed`, its time set to `seconds`.
fn finished_random(dir: &Path, seed: &str, count: &str, seconds: f64) -> Value {
    let file = dir.join(format!("random-{seed}.json"));
    ok(&[
        "camicia",
        "search",
        "--quiet",
        "--jobs",
        "1",
        "--count",
        count,
        "--seed",
        seed,
        "--extend-from",
        "off",
        "--top",
        "3",
        "--output",
        file.to_str().unwrap(),
    ]);
    set_time(&file, seconds)
}

/// Shard 0/2 of 20,000,000 random deals of seed 9, stopped by SIGTERM
/// after its first checkpoint: the checkpoint, its time set to `seconds`.
fn running_random(dir: &Path, seconds: f64) -> Value {
    let (output, checkpoint) = (
        dir.join("random-9-0.json"),
        dir.join("random-9-0.checkpoint"),
    );
    let mut child = crate::common::poker()
        .args([
            "camicia",
            "search",
            "--quiet",
            "--jobs",
            "1",
            "--count",
            "20000000",
            "--seed",
            "9",
            "--shard",
            "0/2",
            "--extend-from",
            "off",
            "--top",
            "3",
            "--checkpoint-every",
            "0",
            "--output",
            output.to_str().unwrap(),
            "--checkpoint",
            checkpoint.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    while !checkpoint.exists() {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let pid = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(143));
    assert!(!output.exists());
    set_time(&checkpoint, seconds)
}

fn status(dir: &Path, extra: &[&str]) -> (Value, String) {
    let mut args = vec!["camicia", "status", "--json", dir.to_str().unwrap()];
    args.extend(extra);
    let json = serde_json::from_slice(&ok(&args).stdout).unwrap();
    args.remove(2);
    (json, String::from_utf8(ok(&args).stdout).unwrap())
}

fn deals(unit: &Value) -> u64 {
    unit["counts"]["deals"].as_u64().unwrap()
}

fn close(x: &Value, want: f64) -> bool {
    x.as_f64()
        .is_some_and(|x| (x - want).abs() <= 1e-9 * want.abs().max(1.0))
}

#[test]
fn status_reads_finished_and_running_random_units_and_a_mix() {
    // Finished random units: 50,000 deals in 0.5 s and 30,000 in 0.25 s.
    let done = scratch("status-done");
    let one = finished_random(&done, "1", "50000", 0.5);
    let two = finished_random(&done, "2", "30000", 0.25);
    let (s, text) = status(&done, &[]);
    assert_eq!(s["done"], "80000");
    assert_eq!(s["total"], "80000");
    assert_eq!(s["random"]["seeds"], serde_json::json!([1, 2]));
    assert_eq!(s["random"]["finished_units"], 2);
    assert_eq!(s["random"]["running_units"], 0);
    let loops = one["counts"]["loops"].as_u64().unwrap() + two["counts"]["loops"].as_u64().unwrap();
    assert_eq!(s["random"]["loops"], loops);
    assert_eq!(s["random"]["finished_games"], 80_000 - loops);
    assert!(s["range"].is_null());
    // 80,000 deals over the units' own 0.75 s, 1.5 CPU-seconds.
    assert!(close(&s["deals_per_unit_second"], 80_000.0 / 0.75), "{s}");
    assert!(close(&s["deals_per_cpu_second"], 80_000.0 / 1.5), "{s}");
    assert!(close(&s["deals_per_second"], 0.0), "nothing runs: {s}");
    // The longest game of the two units' lists.
    let longest = [&one, &two]
        .iter()
        .map(|u| u["best"][0]["cards"].as_u64().unwrap())
        .max()
        .unwrap();
    assert_eq!(s["best"]["cards"], longest);
    assert!(
        text.contains("random deals: 80,000 of 80,000 deals done (seed(s) 1, 2): 2 unit(s) finished, 0 with a checkpoint"),
        "{text}"
    );
    assert!(text.contains("nothing left"), "{text}");

    // A running shard, seen through its checkpoint: its own rate over its
    // recorded 2 s, and the whole sharded run of 20,000,000 deals planned.
    let running = scratch("status-running");
    let checkpoint = running_random(&running, 2.0);
    let held = deals(&checkpoint);
    assert!(held > 0 && held.is_multiple_of(16_384), "{held}");
    let (s, text) = status(&running, &[]);
    assert_eq!(s["done"], held.to_string());
    assert_eq!(s["random"]["planned"], "20000000");
    assert_eq!(s["random"]["running_units"], 1);
    assert!(close(&s["deals_per_second"], held as f64 / 2.0), "{s}");
    assert!(
        close(
            &s["seconds_left"],
            (20_000_000 - held) as f64 / (held as f64 / 2.0)
        ),
        "{s}"
    );
    assert!(text.contains("1 unit(s) running at"), "{text}");
    assert!(
        text.contains("(a running unit counts as of its last checkpoint"),
        "{text}"
    );

    // A mix: both folders' units and a finished range shard, 0..10,000 of
    // 0..20,000, recorded in 0.25 s.
    let mix = scratch("status-mix");
    for (from, name) in [
        (&done, "random-1.json"),
        (&done, "random-2.json"),
        (&running, "random-9-0.checkpoint"),
    ] {
        std::fs::copy(from.join(name), mix.join(name)).unwrap();
    }
    let range = mix.join("range-0.json");
    ok(&[
        "camicia",
        "search",
        "--quiet",
        "--jobs",
        "1",
        "--range",
        "0..20000",
        "--shard",
        "0/2",
        "--extend-from",
        "off",
        "--top",
        "3",
        "--output",
        range.to_str().unwrap(),
    ]);
    set_time(&range, 0.25);
    let (s, text) = status(&mix, &[]);
    let all = 80_000 + held + 10_000;
    assert_eq!(s["done"], all.to_string());
    assert_eq!(s["total"], (20_000 + 80_000 + 20_000_000u64).to_string());
    assert_eq!((&s["start"], &s["end"]), (&"0".into(), &"20000".into()));
    assert_eq!(s["range"]["done"], "10000");
    assert_eq!(s["random"]["done"], (80_000 + held).to_string());
    assert_eq!(
        (s["finished_units"].as_u64(), s["running_units"].as_u64()),
        (Some(3), Some(1))
    );
    assert!(close(&s["deals_per_unit_second"], all as f64 / 3.0), "{s}");
    assert!(close(&s["deals_per_second"], held as f64 / 2.0), "{s}");
    assert!(
        text.contains("range 0..20000: 10,000 of 20,000 deals done (50.00%): 1 unit(s) finished"),
        "{text}"
    );
}

#[test]
fn jobs_are_bounded_alike_in_search_and_bench() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let too_many = (4 * cores + 1).to_string();
    let want = format!(
        "poker: error: --jobs must be from 1 to {} (4 per core on this machine), not {too_many}\n",
        4 * cores
    );
    let search = poker(&["camicia", "search", "--count", "10", "--jobs", &too_many]);
    let bench = poker(&["bench", "--jobs", &too_many, "c_examples/greedy.c"]);
    for out in [search, bench] {
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(String::from_utf8(out.stderr).unwrap(), want);
    }
    let zero = poker(&["camicia", "search", "--count", "10", "--jobs", "0"]);
    assert!(
        String::from_utf8(zero.stderr)
            .unwrap()
            .contains("--jobs must be from 1 to")
    );
}

// `merge --html` of random units at a phone's width and a laptop's: the
// title and coverage of random deals, the tail's fit and the target on the
// histogram, the histogram after extension beside it (below it on a
// phone), the deals found by extension, the odds as the text gives them;
// nothing wider than the screen, chart text at least 11 px high.
#[test]
fn the_merge_page_of_random_units_shows_the_odds_and_the_extension() {
    let dir = scratch("page");
    let files: Vec<PathBuf> = (0..4)
        .map(|i| {
            let file = dir.join(format!("random-3-{i}.json"));
            ok(&[
                "camicia",
                "search",
                "--quiet",
                "--jobs",
                "1",
                "--count",
                "400000",
                "--seed",
                "3",
                "--shard",
                &format!("{i}/4"),
                "--extend-from",
                "1000",
                "--top",
                "5",
                "--output",
                file.to_str().unwrap(),
            ]);
            file
        })
        .collect();
    let html = dir.join("hunt.html");
    let mut args = vec!["camicia", "merge", "--html", html.to_str().unwrap()];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let text = String::from_utf8(ok(&args).stdout).unwrap();
    let odds: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("odds of a game beyond 8,344 cards"))
        .collect();
    assert!(odds.len() >= 4, "{text}");
    let page = std::fs::read_to_string(&html)
        .unwrap()
        .replace("&#x27;", "'")
        .replace("&amp;", "&");
    // The odds exactly as the text has them.
    for line in &odds {
        assert!(page.contains(line.trim()), "the page lacks {line:?}");
    }
    let Some(chromium) = crate::browser::chromium() else {
        return;
    };
    let script = crate::html_pictures::BOXES.to_string()
        + r##"
      var width = doc.documentElement.clientWidth;
      var cells = Array.from(doc.querySelectorAll("table td, table th"));
      function text(s) { var e = doc.querySelector(s); return e ? e.textContent : null; }
      var before = doc.querySelector("#lengths svg"), after = doc.querySelector("#lengths-extended svg");
      return { width: width, scroll_width: doc.documentElement.scrollWidth,
               cells_outside: cells.filter(function (c) { return box(c).r > width + 0.5; }).length,
               title: text("h1"), coverage: text("#coverage"), odds: text("#odds"),
               before: box(before), after: box(after),
               fit_lines: doc.querySelectorAll("#lengths svg polyline[stroke='#BE2828']").length,
               target: Array.from(doc.querySelectorAll("#lengths svg text, #lengths-extended svg text"))
                 .filter(function (t) { return t.textContent.trim() == "target 8344"; }).length,
               extended: Array.from(doc.querySelectorAll("#extended td.deal")).map(function (c) { return c.textContent; }),
               text_px: Math.min(smallest_text("#lengths svg"), smallest_text("#lengths-extended svg")) };
    "##;
    for width in [390, 1280] {
        let p = crate::html_pictures::in_browser(chromium, &html, width, &script);
        assert_eq!(p["width"], width);
        assert!(
            p["scroll_width"].as_u64() <= p["width"].as_u64(),
            "{width} px: {p}"
        );
        assert_eq!(p["cells_outside"], 0, "{p}");
        assert_eq!(p["title"], "Camicia search: 400,000 random deals", "{p}");
        let coverage = p["coverage"].as_str().unwrap();
        assert!(coverage.starts_with("4 unit(s) of 1 seed(s)"), "{p}");
        assert!(!coverage.contains("every index"), "{p}");
        let shown = p["odds"].as_str().unwrap();
        assert!(shown.contains("with extension: chance per deal"), "{p}");
        assert_eq!(p["fit_lines"], 1, "the tail's fit: {p}");
        assert_eq!(p["target"], 2, "the target on both histograms: {p}");
        let extended = p["extended"].as_array().unwrap();
        assert!(!extended.is_empty(), "{p}");
        assert!(
            extended
                .iter()
                .all(|d| d.as_str().unwrap().contains("extended from index")),
            "{p}"
        );
        // Beside each other on a laptop, one above the other on a phone.
        let (before, after) = (&p["before"], &p["after"]);
        let side_by_side = after["l"].as_f64() >= before["r"].as_f64()
            && after["t"].as_f64() == before["t"].as_f64();
        assert_eq!(side_by_side, width == 1280, "{p}");
        // 11 px, to a rounding of the layout.
        assert!(
            p["text_px"].as_f64().unwrap() >= 11.0 - 1e-3,
            "{width} px: {p}"
        );
    }
}

#[test]
fn status_of_a_folder_without_units_is_an_error() {
    let dir = scratch("status-empty");
    std::fs::write(dir.join("notes.txt"), "not a unit\n").unwrap();
    for extra in [&[][..], &["--range", "0..1000"], &["--json"]] {
        let mut args = vec!["camicia", "status", dir.to_str().unwrap()];
        args.extend_from_slice(extra);
        let out = poker(&args);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        assert!(out.stdout.is_empty(), "{extra:?}");
        assert_eq!(
            String::from_utf8(out.stderr).unwrap(),
            format!(
                "poker: error: no work units in {}: no result file or checkpoint of poker \
                 camicia search (--output, --checkpoint) there yet\n",
                dir.display()
            )
        );
    }
}

/// Seconds in a year of 365.25 days.
const YEAR: f64 = 365.25 * 24.0 * 3600.0;

#[test]
fn merge_prices_each_engine_at_its_own_seconds_a_deal() {
    // Two units of 400,000 random deals, each timed at 0.5 s and 1 CPU-s;
    // the second relabelled as the GPU engine's, with 0.08 GPU-seconds.
    let dir = scratch("costs");
    let cpu = finished_random(&dir, "1", "400000", 0.5);
    finished_random(&dir, "2", "400000", 0.5);
    let (cpu_file, gpu_file) = (dir.join("random-1.json"), dir.join("random-2.json"));
    let mut gpu = read(&gpu_file);
    gpu["engine"] = "gpu".into();
    gpu["timing"]["gpu_seconds"] = 0.08.into();
    std::fs::write(&gpu_file, gpu.to_string()).unwrap();
    // The CPU's unit has no `gpu_seconds`: as units written before it.
    assert!(cpu["timing"].get("gpu_seconds").is_none(), "{cpu}");
    let cpu_engine = cpu["engine"].as_str().unwrap().to_string();

    let out = merge(&[&cpu_file, &gpu_file], &["--json", "--target", "5000"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged: Value = serde_json::from_slice(&out.stdout).unwrap();
    // Per deal: 1 / 400,000 = 2.5e-6 CPU-seconds each; 0.08 / 400,000 =
    // 2e-7 GPU-seconds for the GPU engine. Engines in name order.
    let costs = merged["costs"].as_array().unwrap();
    assert_eq!(costs.len(), 2, "{costs:?}");
    let (g, c) = (&costs[0], &costs[1]);
    assert_eq!(
        (
            g["engine"].as_str(),
            g["units"].as_u64(),
            g["deals"].as_u64()
        ),
        (Some("gpu"), Some(1), Some(400_000))
    );
    assert!(close(&g["gpu_seconds_per_deal"], 2e-7), "{g}");
    assert!(close(&g["cpu_seconds_per_deal"], 2.5e-6), "{g}");
    assert!(close(&g["gpu_seconds"], 0.08), "{g}");
    assert_eq!(c["engine"].as_str(), Some(cpu_engine.as_str()));
    assert!(close(&c["cpu_seconds_per_deal"], 2.5e-6), "{c}");
    assert!(c.get("gpu_seconds_per_deal").is_none(), "{c}");
    // The odds, one chance per deal for both, priced at each engine's
    // own speed: CPU-years from the CPU's unit only, GPU-years from the
    // GPU's GPU-seconds.
    let t = &merged["odds"]["without_extension"];
    let chance = t["chance"].as_f64().unwrap();
    assert!(close(&t["cpu_seconds_per_deal"], 2.5e-6), "{t}");
    assert!(close(&t["gpu_seconds_per_deal"], 2e-7), "{t}");
    let years = |x: &Value| x.as_f64().unwrap();
    let near = |x: f64, want: f64| (x - want).abs() <= 1e-9 * want;
    assert!(near(years(&t["cpu_years"]), 2.5e-6 / chance / YEAR), "{t}");
    assert!(near(years(&t["gpu_years"]), 2e-7 / chance / YEAR), "{t}");
    let high = t["chance_high"].as_f64().unwrap();
    assert!(near(years(&t["gpu_years_low"]), 2e-7 / high / YEAR), "{t}");

    let text =
        String::from_utf8(merge(&[&cpu_file, &gpu_file], &["--target", "5000"]).stdout).unwrap();
    assert!(
        text.contains(
            "cost per deal, engine gpu: 1 unit(s), 400,000 deals, 2.000e-7 GPU-seconds and \
             2.500e-6 CPU-seconds a deal"
        ),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "cost per deal, engine {cpu_engine}: 1 unit(s), 400,000 deals, 2.500e-6 CPU-seconds a deal"
        )),
        "{text}"
    );
    assert!(
        text.contains("CPU-years") && text.contains("at 2.500e-6 CPU-seconds a deal"),
        "{text}"
    );
    assert!(
        text.contains("GPU-years") && text.contains("at 2.000e-7 GPU-seconds a deal"),
        "{text}"
    );

    // A GPU unit without GPU-seconds: its cost and no GPU-years.
    gpu["timing"].as_object_mut().unwrap().remove("gpu_seconds");
    std::fs::write(&gpu_file, gpu.to_string()).unwrap();
    let out = merge(&[&gpu_file], &["--json", "--target", "5000"]);
    let merged: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        merged["costs"][0].get("gpu_seconds_per_deal").is_none(),
        "{merged}"
    );
    let t = &merged["odds"]["without_extension"];
    assert!(
        t.get("gpu_years").is_none() && t.get("cpu_years").is_none(),
        "{t}"
    );
}
