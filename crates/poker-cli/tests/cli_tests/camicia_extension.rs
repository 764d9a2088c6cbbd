//! Backward extension from the outside: `poker camicia extend`, search
//! units that extend (format 2), and `merge` reading format 1 and 2,
//! replaying every extended claim and fitting the odds. Expected values:
//! the records' known extensions (tests/data/camicia/extensions.json, from
//! a separate implementation), the same unit searched without extension,
//! and files forged on purpose.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

fn poker(args: &[&str]) -> Output {
    crate::common::poker().args(args).output().unwrap()
}

fn ok(args: &[&str]) -> String {
    let out = poker(args);
    assert!(
        out.status.success(),
        "poker {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("camicia_extension")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn extensions() -> Vec<Value> {
    let path = crate::common::root().join("tests/data/camicia/extensions.json");
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    data["extensions"].as_array().unwrap().clone()
}

fn record(finder: &str, year: u64) -> (String, String) {
    let path = crate::common::root().join("tests/data/camicia/records.json");
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let r = data["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["finder"] == finder && r["year"] == year)
        .unwrap();
    (
        r["a"].as_str().unwrap().into(),
        r["b"].as_str().unwrap().into(),
    )
}

#[test]
fn extend_prints_the_longest_deal_of_the_basin_in_text_json_and_svg() {
    let dir = scratch("extend");
    for want in extensions() {
        let (a, b) = record(
            want["finder"].as_str().unwrap(),
            want["year"].as_u64().unwrap(),
        );
        let json: Value =
            serde_json::from_str(&ok(&["camicia", "extend", "--json", &a, &b])).unwrap();
        assert_eq!(json["extends"], want["extends"], "{want}");
        if want["extends"] == true {
            assert_eq!(json["longest"]["cards"], want["cards"], "{want}");
            let added = json["longest"]["cards"].as_u64().unwrap()
                - json["deal"]["cards"].as_u64().unwrap();
            assert_eq!(json["added"], added);
        } else {
            assert_eq!(json["longest"], json["deal"]);
        }
        if let Some(wa) = want["a"].as_str() {
            assert_eq!(
                (json["longest"]["a"].as_str(), json["longest"]["b"].as_str()),
                (Some(wa), want["b"].as_str())
            );
        }
    }
    let (a, b) = record("Richard P. Mann and Nicolas Wu", 2007);
    let svg = dir.join("longest.svg");
    let text = ok(&["camicia", "extend", &a, &b, "--svg", svg.to_str().unwrap()]);
    assert!(
        text.contains("--A-Q--J--J---Q--AJ-K---K- -J-------Q------A--A--QKK-"),
        "{text}"
    );
    assert!(text.contains("added:   68 cards"), "{text}");
    // Anderson's game: a point per round start, 1017 of them.
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(
        drawn.starts_with("<svg") || drawn.contains("<svg"),
        "not an SVG"
    );
    let (a, b) = record("Brayden Casella", 2024);
    let out = poker(&["camicia", "extend", &a, &b]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("loop"));
    let out = poker(&["camicia", "extend", "AAAA", "KKKK"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("26 and 26"));
}

/// Neighbours of Nessler's 2022 record: many long games.
const RANGE: &str = "447247122283566110000..447247122283566126000";

fn unit(dir: &Path, name: &str, extend_from: &str) -> PathBuf {
    let file = dir.join(name);
    ok(&[
        "camicia",
        "search",
        "--quiet",
        "--top",
        "6",
        "--range",
        RANGE,
        "--extend-from",
        extend_from,
        "--output",
        file.to_str().unwrap(),
    ]);
    file
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn merge(files: &[&Path], extra: &[&str]) -> Output {
    let mut args = vec!["camicia", "merge"];
    args.extend(extra);
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    poker(&args)
}

#[test]
fn a_unit_with_and_without_extension_agree_on_every_deals_own_game() {
    let dir = scratch("agree");
    let with = read(&unit(&dir, "with.json", "300"));
    let without = read(&unit(&dir, "without.json", "off"));
    assert_eq!(with["format"], "poker-camicia-unit/2");
    for field in [
        "start", "end", "counts", "checksum", "lengths", "best", "loops",
    ] {
        assert_eq!(with[field], without[field], "{field}");
    }
    assert_eq!(without["extension"], Value::Null);
    assert_eq!(without["extended"], serde_json::json!([]));
    let extended = with["extended"].as_array().unwrap();
    assert_eq!(extended.len(), 6);
    // (Nessler's record, the range's longest game, is the longest of its
    // basin: the extended deals are other basins' longest.)
    assert!(extended.iter().all(|e| e["added"].as_u64().unwrap() > 0));
    let mut indices: Vec<&str> = extended
        .iter()
        .map(|e| e["index"].as_str().unwrap())
        .collect();
    indices.dedup();
    assert_eq!(indices.len(), 6, "a deal listed twice");
    let finished = with["counts"]["finished"].as_u64().unwrap();
    let after: u64 = with["lengths_extended"]["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(after, finished);
    // The two merge together only once: they cover the same indices.
    let err = merge(&[&dir.join("with.json"), &dir.join("without.json")], &[]);
    assert!(!err.status.success());
    assert!(String::from_utf8_lossy(&err.stderr).contains("overlap"));
}

#[test]
fn merge_replays_extended_claims_and_catches_a_forged_one() {
    let dir = scratch("forged");
    let good = unit(&dir, "good.json", "300");
    let out = merge(&[&good], &["--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(merged["extended"], read(&good)["extended"]);
    // 6 best games and 6 extended deals replayed.
    assert_eq!(merged["verified_games"], 12);
    let forge = |name: &str, change: &dyn Fn(&mut Value)| {
        let mut v = read(&good);
        change(&mut v["extended"][0]);
        let path = dir.join(name);
        std::fs::write(&path, serde_json::to_vec(&v).unwrap()).unwrap();
        let out = merge(&[&path], &[]);
        assert!(!out.status.success(), "{name} merged");
        String::from_utf8(out.stderr).unwrap()
    };
    // Longer than it plays.
    let err = forge("cards.json", &|e| {
        e["cards"] = (e["cards"].as_u64().unwrap() + 1000).into();
        e["added"] = (e["added"].as_u64().unwrap() + 1000).into();
    });
    assert!(err.contains("forged"), "{err}");
    // A real long deal (the record) claimed as the extension of a deal
    // of the range whose game it never meets.
    let (a, b) = record("Reed Nessler", 2022);
    let err = forge("stranger.json", &|e| {
        let from_cards = e["cards"].as_u64().unwrap() - e["added"].as_u64().unwrap();
        e["index"] = "447247122283566119055".into();
        e["a"] = a.clone().into();
        e["b"] = b.clone().into();
        e["cards"] = 8344.into();
        e["tricks"] = 1164.into();
        e["added"] = (8344 - from_cards).into();
    });
    assert!(err.contains("does not meet"), "{err}");
    // From an index outside the unit.
    let err = forge("outside.json", &|e| e["from"] = "5".into());
    assert!(err.contains("outside the indices covered"), "{err}");
}

#[test]
fn a_format_1_unit_still_merges_beside_format_2() {
    let dir = scratch("format1");
    let shard = |i: &str, extend: &str| {
        let file = dir.join(format!("unit-{i}.json"));
        ok(&[
            "camicia",
            "search",
            "--quiet",
            "--top",
            "3",
            "--range",
            RANGE,
            "--shard",
            &format!("{i}/2"),
            "--extend-from",
            extend,
            "--output",
            file.to_str().unwrap(),
        ]);
        file
    };
    let old = shard("0", "off");
    // What the format 1 writer wrote: no extension fields.
    let mut v = read(&old);
    let map = v.as_object_mut().unwrap();
    for field in ["extension", "lengths_extended", "extended", "random"] {
        map.remove(field);
    }
    map.insert("format".into(), "poker-camicia-unit/1".into());
    map["timing"]
        .as_object_mut()
        .unwrap()
        .remove("extension_seconds");
    std::fs::write(&old, serde_json::to_vec(&v).unwrap()).unwrap();
    let new = shard("1", "300");
    let out = merge(&[&old, &new], &["--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(merged["counts"]["deals"], 16_000);
    assert_eq!(merged["extended"], read(&new)["extended"]);
    let settings = merged["extension"].as_array().unwrap();
    assert_eq!(settings.len(), 2, "{settings:?}");
}

#[test]
fn merge_fits_the_odds_on_random_units_only() {
    let dir = scratch("odds");
    let random = |seed: &str| {
        let file = dir.join(format!("random-{seed}.json"));
        ok(&[
            "camicia",
            "search",
            "--quiet",
            "--count",
            "400000",
            "--seed",
            seed,
            "--extend-from",
            "1000",
            "--output",
            file.to_str().unwrap(),
        ]);
        file
    };
    let (r1, r2) = (random("1"), random("2"));
    let out = merge(&[&r1, &r2], &["--json", "--target", "5000"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let merged: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(merged["mode"], "random");
    let odds = &merged["odds"];
    assert_eq!(odds["target"], 5000);
    let (without, with) = (&odds["without_extension"], &odds["with_extension"]);
    // Random deals' games fall e-fold every 205 cards or so.
    let decay = without["decay_cards"].as_f64().unwrap();
    assert!((150.0..300.0).contains(&decay), "{decay}");
    assert!(with["chance"].as_f64().unwrap() > without["chance"].as_f64().unwrap());
    assert!(without["cpu_years_low"].as_f64().unwrap() <= without["cpu_years"].as_f64().unwrap());
    // The same seed twice draws the same deals.
    let out = merge(&[&r1, &r1], &[]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("seed 1"));
    // Range units: no odds, and merge says why when asked.
    let range = unit(&dir, "range.json", "off");
    let text = String::from_utf8(merge(&[&range], &["--target", "8344"]).stdout).unwrap();
    assert!(text.contains("not a random sample"), "{text}");
}
