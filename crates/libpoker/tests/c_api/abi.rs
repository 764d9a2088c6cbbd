//! The C ABI check: the built libpoker.so exports exactly the names listed
//! in abi/libpoker.symbols (`nm -D --defined-only`), only the C API's
//! prefixes, and every exported function is declared in include/poker.h
//! and the other way round. The list records the release series it belongs
//! to (`version 0.3`, the SONAME libpoker.so.0.3), which must be the
//! crate's: removing or renaming an export means a new series.

use crate::common;
use crate::common::tier::{self, needs};
use std::collections::BTreeSet;
use std::process::Command;

/// The prefixes of the C API; nothing else may be exported.
const PREFIXES: &[&str] = &["p_", "poker_", "freecell_", "camicia_"];

/// The release series of a version: `0.3` for 0.3.x, `1` for 1.x (the
/// SONAME's suffix, as cargo-c names them).
fn series(version: &str) -> String {
    let mut parts = version.split('.');
    let (major, minor) = (parts.next().unwrap(), parts.next().unwrap());
    if major == "0" {
        format!("{major}.{minor}")
    } else {
        major.to_string()
    }
}

/// The list file: its `version` line and its names.
struct SymbolList {
    version: String,
    names: BTreeSet<String>,
}

fn read_list() -> SymbolList {
    let path = common::root().join("abi/libpoker.symbols");
    let text = std::fs::read_to_string(&path).expect("abi/libpoker.symbols is readable");
    let mut version = None;
    let mut names = BTreeSet::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.strip_prefix("version ") {
            Some(v) => version = Some(v.trim().to_string()),
            None => assert!(names.insert(line.to_string()), "{line} listed twice"),
        }
    }
    SymbolList {
        version: version.expect("abi/libpoker.symbols has a `version` line"),
        names,
    }
}

/// The names `nm -D --defined-only` gives for the freshly built library.
fn exported() -> BTreeSet<String> {
    let lib = common::lib_dir().join("libpoker.so");
    let output = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(&lib)
        .output()
        .expect("run nm");
    assert!(output.status.success(), "{}", common::stderr(&output));
    common::stdout(&output)
        .lines()
        .filter_map(|line| line.split_whitespace().last().map(str::to_string))
        .collect()
}

/// What differs between the list and the library, as a message telling
/// what to do; None when they agree.
fn compare(list: &SymbolList, exported: &BTreeSet<String>, version: &str) -> Option<String> {
    let crate_series = series(version);
    let mut problems = Vec::new();
    let removed: Vec<_> = list.names.difference(exported).collect();
    let added: Vec<_> = exported.difference(&list.names).collect();
    if !removed.is_empty() {
        problems.push(format!(
            "libpoker.so no longer exports {removed:?}, which abi/libpoker.symbols lists for \
             the series {}: programs linked against libpoker.so.{} would fail to load. \
             A removed or renamed export needs a new series: raise Cargo.toml's version \
             (0.3.x -> 0.4.0), then update the list and its `version` line",
            list.version, list.version
        ));
    }
    if !added.is_empty() {
        problems.push(format!(
            "libpoker.so exports {added:?}, which abi/libpoker.symbols does not list: add \
             {} to the list (if this is a rename, the old name is a removal: see above)",
            if added.len() == 1 { "it" } else { "them" }
        ));
    }
    if list.version != crate_series {
        problems.push(format!(
            "abi/libpoker.symbols belongs to the series {} but the crate is {version} \
             (series {crate_series}): list the exports of {crate_series} and set \
             `version {crate_series}`",
            list.version
        ));
    }
    (!problems.is_empty()).then(|| problems.join("\n"))
}

#[test]
fn the_library_exports_exactly_the_listed_c_api() {
    needs!(tier::BINUTILS);
    let list = read_list();
    if let Some(message) = compare(&list, &exported(), env!("CARGO_PKG_VERSION")) {
        panic!("the exported C API changed:\n{message}");
    }
}

#[test]
fn only_the_c_api_prefixes_are_exported() {
    needs!(tier::BINUTILS);
    let foreign: Vec<_> = exported()
        .into_iter()
        .filter(|name| !PREFIXES.iter().any(|p| name.starts_with(p)))
        .collect();
    assert!(
        foreign.is_empty(),
        "libpoker.so exports {foreign:?}, outside the C API's prefixes {PREFIXES:?}"
    );
}

/// The functions include/poker.h declares: `type name(args);` lines, a
/// deprecated one after its `POKER_DEPRECATED("note") ` mark.
fn header_functions() -> BTreeSet<String> {
    let text = std::fs::read_to_string(common::root().join("include/poker.h")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with(' ') && !l.starts_with('#') && l.ends_with(");"))
        .filter_map(|l| {
            let l = match l.strip_prefix("POKER_DEPRECATED(\"") {
                Some(marked) => &marked[marked.find("\") ")? + 3..],
                None => l,
            };
            let before = &l[..l.find('(')?];
            let name = before.rsplit([' ', '*']).next()?;
            Some(name.to_string())
        })
        .collect()
}

#[test]
fn every_export_is_declared_in_the_header_and_the_other_way_round() {
    needs!(tier::BINUTILS);
    let declared = header_functions();
    assert!(
        declared.len() >= 20,
        "only {} functions parsed",
        declared.len()
    );
    let exported = exported();
    let undeclared: Vec<_> = exported.difference(&declared).collect();
    let missing: Vec<_> = declared.difference(&exported).collect();
    assert!(
        undeclared.is_empty(),
        "exported, not in poker.h: {undeclared:?}"
    );
    assert!(missing.is_empty(), "in poker.h, not exported: {missing:?}");
}

/// The check itself, on lists that differ from a library as a change
/// would make them.
#[test]
fn the_check_names_a_removed_an_added_and_a_renamed_export() {
    let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    let list = SymbolList {
        version: "0.3".into(),
        names: names(&["p_look", "p_place", "poker_version"]),
    };
    assert_eq!(
        compare(
            &list,
            &names(&["p_look", "p_place", "poker_version"]),
            "0.3.2"
        ),
        None
    );
    let removed = compare(&list, &names(&["p_look", "p_place"]), "0.3.2").unwrap();
    assert!(
        removed.contains("no longer exports [\"poker_version\"]"),
        "{removed}"
    );
    let added = compare(
        &list,
        &names(&["p_look", "p_place", "poker_version", "poker_x"]),
        "0.3.2",
    )
    .unwrap();
    assert!(added.contains("exports [\"poker_x\"]"), "{added}");
    assert!(!added.contains("no longer"), "{added}");
    let renamed = compare(&list, &names(&["p_look", "p_place", "poker_ver"]), "0.3.2").unwrap();
    assert!(
        renamed.contains("no longer exports") && renamed.contains("\"poker_ver\""),
        "{renamed}"
    );
    let bumped = compare(
        &list,
        &names(&["p_look", "p_place", "poker_version"]),
        "0.4.0",
    )
    .unwrap();
    assert!(bumped.contains("`version 0.4`"), "{bumped}");
    assert_eq!(series("1.2.0"), "1");
}
