//! The Python binding's constants agree with include/poker.h, both ways:
//! every result code of the header (`*_ERR_*`, `*_OK`, the status values)
//! is in bindings/python/libpoker.py with the same value, and every
//! constant of the module is in the header with the same value. Aliases
//! (`#define OLD NEW`, `OLD = NEW`) are resolved on both sides. The
//! header's codes are also distinct negative numbers, one table; no code
//! shipped since 0.2 changed its number or went away; retired numbers stay
//! reserved; success has one name; the 0.1 names are announced for removal
//! in 0.4.0 and are gone from then on.

use crate::common;
use std::collections::BTreeMap;

/// Resolves `NAME -> value text` where a value may name another entry.
fn resolve(raw: &BTreeMap<String, String>, what: &str) -> BTreeMap<String, i64> {
    let mut out = BTreeMap::new();
    for (name, value) in raw {
        let mut value = value.as_str();
        let mut hops = 0;
        while let Some(next) = raw.get(value) {
            value = next;
            hops += 1;
            assert!(hops < 10, "{what}: alias loop at {name}");
        }
        if let Ok(n) = value.parse::<i64>() {
            out.insert(name.clone(), n);
        }
    }
    out
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !s.starts_with(|c: char| c.is_ascii_digit())
}

/// The header's deprecated codes, `NAME -> VALUE` from their enumerator
/// lines (`  NAME POKER_DEPRECATED("note") = VALUE,`).
fn header_deprecated(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|line| {
            let (name, rest) = line.trim().split_once(" POKER_DEPRECATED(\"")?;
            let (_note, value) = rest.split_once("\") = ")?;
            Some((name.to_string(), value.trim_end_matches(',').to_string()))
        })
        .collect()
}

/// `#define NAME VALUE` lines and deprecated codes of the header, resolved.
fn header() -> BTreeMap<String, i64> {
    let text = std::fs::read_to_string(common::root().join("include/poker.h")).unwrap();
    let mut raw = header_deprecated(&text);
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("#define ") else {
            continue;
        };
        let mut words = rest.split_whitespace();
        if let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) {
            raw.insert(name.to_string(), value.to_string());
        }
    }
    resolve(&raw, "poker.h")
}

/// Top-level `NAME = VALUE` lines of the module (NAME in capitals), with
/// the header's name for each: `OK` is `POKER_OK`, `ERR_X` is `POKER_ERR_X`,
/// `FINISHED` is `POKER_FINISHED`, other names are the header's own.
fn python() -> BTreeMap<String, i64> {
    let path = common::root().join("bindings/python/libpoker.py");
    let text = std::fs::read_to_string(path).unwrap();
    let mut raw = BTreeMap::new();
    for line in text.lines() {
        let Some((name, value)) = line.split_once(" = ") else {
            continue;
        };
        let value = value.trim();
        let constant = is_name(name) && name.chars().all(|c| !c.is_ascii_lowercase());
        if constant && (value.parse::<i64>().is_ok() || is_name(value)) {
            raw.insert(name.to_string(), value.to_string());
        }
    }
    resolve(&raw, "libpoker.py")
        .into_iter()
        .map(|(name, value)| (header_name(&name), value))
        .collect()
}

fn header_name(python: &str) -> String {
    match python {
        "OK" | "FINISHED" => format!("POKER_{python}"),
        _ if python.starts_with("ERR_") => format!("POKER_{python}"),
        _ => python.to_string(),
    }
}

/// A result code: an error, or one of the success and status values.
fn is_code(name: &str) -> bool {
    name.contains("_ERR_")
        || name.ends_with("_OK")
        || ["POKER_FINISHED", "CAMICIA_FINISHED", "CAMICIA_LOOP"].contains(&name)
}

#[test]
fn every_header_code_is_in_the_python_binding_with_its_value() {
    let (header, python) = (header(), python());
    let codes: Vec<_> = header.iter().filter(|(name, _)| is_code(name)).collect();
    assert!(codes.len() >= 20, "only {} codes parsed", codes.len());
    for (name, value) in codes {
        assert_eq!(
            python.get(name),
            Some(value),
            "{name} = {value} in poker.h, but libpoker.py has {:?}",
            python.get(name)
        );
    }
}

#[test]
fn every_python_constant_is_in_the_header_with_its_value() {
    let (header, python) = (header(), python());
    assert!(python.len() >= 20, "only {} constants parsed", python.len());
    for (name, value) in &python {
        assert_eq!(
            header.get(name),
            Some(value),
            "{name} = {value} in libpoker.py, but poker.h has {:?}",
            header.get(name)
        );
    }
}

#[test]
fn the_header_has_one_table_of_distinct_negative_error_codes() {
    let header = header();
    let text = std::fs::read_to_string(common::root().join("include/poker.h")).unwrap();
    let deprecated = header_deprecated(&text);
    let mut values: Vec<i64> = Vec::new();
    for (name, &value) in &header {
        if name.starts_with("POKER_ERR_") {
            assert!(value < 0, "{name} = {value}");
            values.push(value);
        } else if name.contains("_ERR_") {
            // An old family name: an alias of a POKER_ERR_* code.
            assert!(
                deprecated
                    .get(name)
                    .is_some_and(|alias| alias.starts_with("POKER_ERR_")),
                "{name} is not an alias of a POKER_ERR_* code"
            );
        }
    }
    let count = values.len();
    values.sort();
    values.dedup();
    assert_eq!(values.len(), count, "two POKER_ERR_* codes share a value");
    assert!(count >= 18, "only {count} POKER_ERR_* codes");
}

/// Every result code of the 0.2 releases (their include/poker.h, 0.2.0 and
/// 0.2.1 alike), by name: from 0.2 on a number keeps its meaning for good.
const SHIPPED_SINCE_0_2: &[(&str, i64)] = &[
    ("POKER_OK", 0),
    ("POKER_FINISHED", 1),
    ("POKER_ERR_NULL", -1),
    ("POKER_ERR_ARGUMENT", -2),
    ("POKER_ERR_NOT_STARTED", -3),
    ("POKER_ERR_STARTED_TWICE", -4),
    ("POKER_ERR_LOOKED_TWICE", -5),
    ("POKER_ERR_PLACE_WITHOUT_LOOK", -6),
    ("POKER_ERR_COLUMN_OUT_OF_RANGE", -7),
    ("POKER_ERR_UNBALANCED", -8),
    ("POKER_ERR_LOOK_NULL", -9),
    ("POKER_ERR_GAME_OVER", -10),
    ("POKER_ERR_IN_PROGRESS", -11),
    ("POKER_ERR_INTERNAL", -12),
    ("POKER_ERR_CARD", -13),
    ("POKER_ERR_DUPLICATE", -14),
    ("POKER_ERR_NOT_IN_DECK", -15),
    ("POKER_ERR_COUNT", -16),
    ("POKER_ERR_TOKEN", -17),
    ("POKER_ERR_DEAL_NUMBER", -18),
];

/// Numbers 0.1 shipped (`FREECELL_ERR_INTERNAL`, `POKER_HAND_ERR_INTERNAL`:
/// -99) that no code of 0.2 on carries: reserved, never to mean anything else.
const RETIRED: &[i64] = &[-99];

#[test]
fn no_code_shipped_since_0_2_changed_its_number_or_went_away() {
    let header = header();
    for &(name, value) in SHIPPED_SINCE_0_2 {
        let now = header.get(name).copied();
        assert!(
            now == Some(value)
                || header.get(&format!("POKER_ERR_RESERVED_{}", -value)) == Some(&value),
            "{name} was {value} in 0.2 but poker.h now has {now:?}: a shipped number keeps its \
             meaning; a code that goes out of use stays as POKER_ERR_RESERVED_{}",
            -value
        );
    }
}

#[test]
fn retired_numbers_are_reserved_and_mean_nothing_else() {
    let header = header();
    for &value in RETIRED {
        let reserved = format!("POKER_ERR_RESERVED_{}", -value);
        assert_eq!(header.get(&reserved), Some(&value), "{reserved} missing");
        let users: Vec<_> = header
            .iter()
            .filter(|(name, v)| **v == value && is_code(name) && **name != reserved)
            .map(|(name, _)| name)
            .collect();
        assert!(
            users.is_empty(),
            "{users:?} reuse the reserved number {value}"
        );
    }
}

#[test]
fn success_has_one_name_and_the_others_are_its_aliases() {
    let text = std::fs::read_to_string(common::root().join("include/poker.h")).unwrap();
    assert!(text.contains("\n#define POKER_OK 0\n"), "POKER_OK is not 0");
    let mut aliases = header_deprecated(&text);
    for line in text.lines().filter(|l| l.starts_with("#define ")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() == 3 {
            aliases.insert(words[1].to_string(), words[2].to_string());
        }
    }
    let mut checked = 0;
    for (name, value) in &aliases {
        if name.ends_with("_OK") && name != "POKER_OK" {
            assert_eq!(value, "POKER_OK", "{name} = {value}: a second success code");
            checked += 1;
        }
    }
    assert!(checked >= 2, "only {checked} success aliases parsed");
}

/// The version of Cargo.toml's [package], as (major, minor).
fn crate_version() -> (u64, u64) {
    let mut parts = env!("CARGO_PKG_VERSION")
        .split('.')
        .map(|p| p.parse().unwrap());
    (parts.next().unwrap(), parts.next().unwrap())
}

#[test]
fn the_0_1_names_are_announced_for_removal_and_gone_in_0_4() {
    let text = std::fs::read_to_string(common::root().join("include/poker.h")).unwrap();
    let readme = std::fs::read_to_string(common::root().join("docs/bindings.md")).unwrap();
    let old = [
        "POKER_HAND_ERR_",
        "FREECELL_ERR_",
        "CAMICIA_ERR_",
        "FREECELL_OK",
        "CAMICIA_OK",
        "camicia_simulate_ex",
        "CamiciaError",
    ];
    if crate_version() < (0, 4) {
        for doc in [&text, &readme] {
            assert!(
                doc.contains("removed in 0.4.0"),
                "the removal release is not announced"
            );
        }
    } else {
        let left: Vec<_> = old.iter().filter(|name| text.contains(*name)).collect();
        assert!(
            left.is_empty(),
            "0.4.0 removes the 0.1 names, but poker.h still has {left:?}"
        );
    }
}
