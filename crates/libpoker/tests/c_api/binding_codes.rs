//! The Python binding's constants agree with include/poker.h, both ways:
//! every result code of the header (`*_ERR_*`, `*_OK`, the status values)
//! is in bindings/python/libpoker.py with the same value, and every
//! constant of the module is in the header with the same value. Aliases
//! (`#define OLD NEW`, `OLD = NEW`) are resolved on both sides. The
//! header's codes are also distinct negative numbers, one table.

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

/// `#define NAME VALUE` lines of the header, resolved.
fn header() -> BTreeMap<String, i64> {
    let text = std::fs::read_to_string(common::root().join("include/poker.h")).unwrap();
    let mut raw = BTreeMap::new();
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
    let mut values: Vec<i64> = Vec::new();
    for (name, &value) in &header {
        if name.starts_with("POKER_ERR_") {
            assert!(value < 0, "{name} = {value}");
            values.push(value);
        } else if name.contains("_ERR_") {
            // An old family name: an alias of a POKER_ERR_* code.
            let alias = format!("#define {name} POKER_ERR_");
            assert!(
                text.contains(&alias),
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
