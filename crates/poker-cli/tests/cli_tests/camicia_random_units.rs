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
