//! LuaJIT's `ffi.cdef` reads C declarations but no preprocessor lines, so
//! the Lua example takes poker.h's declarations from
//! examples/ffi/lua/poker_h.lua, which this test derives from the committed
//! header and compares (regenerate it with
//! `POKER_BLESS=1 cargo test -p libpoker --test c_api lua_declarations`):
//! a function, type or code added to or changed in poker.h fails here
//! until the Lua file follows.

use crate::common;
use std::collections::BTreeMap;

/// The file's path in the repository.
const LUA_FILE: &str = "examples/ffi/lua/poker_h.lua";

/// `text` without its `/* ... */` comments.
fn without_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("/*") {
        out.push_str(&rest[..start]);
        let end = rest[start..].find("*/").expect("every comment is closed");
        rest = &rest[start + end + 2..];
    }
    out.push_str(rest);
    out
}

/// The `NAME = VALUE` of an enumerator line of the deprecated codes'
/// `enum { ... };` (`  NAME POKER_DEPRECATED("note") = VALUE,`).
fn deprecated_enumerator(line: &str) -> Option<(String, String)> {
    let (name, rest) = line.trim().split_once(" POKER_DEPRECATED(\"")?;
    let (_note, value) = rest.split_once("\") = ")?;
    Some((name.to_string(), value.trim_end_matches(',').to_string()))
}

/// `line` without its `POKER_DEPRECATED("...") ` marks, which LuaJIT does
/// not know (the macro is the preprocessor's).
fn without_deprecation(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find("POKER_DEPRECATED(\"") {
        out.push_str(&rest[..start]);
        let end = rest[start..]
            .find("\") ")
            .expect("a closed POKER_DEPRECATED mark");
        rest = &rest[start + end + 3..];
    }
    out.push_str(rest);
    out
}

/// The Lua module holding poker.h's declarations for `ffi.cdef`: its
/// typedefs, structs and functions as they are (without their deprecation
/// marks), and each `#define NAME VALUE` and deprecated code (`enum {
/// NAME POKER_DEPRECATED("...") = VALUE }`), aliases resolved, as `static
/// const int NAME = VALUE;`. LuaJIT's constants are 32-bit: a value outside
/// that range is left out, and named in the file's heading.
fn lua_module(header: &str) -> String {
    let code = without_comments(header);
    let mut declarations = String::new();
    let mut defines: Vec<(String, String)> = Vec::new();
    let mut skipping_cpp = false;
    let mut in_enum = false;
    for line in code.lines() {
        let line = line.trim_end();
        if let Some(directive) = line.strip_prefix('#') {
            let mut words = directive.split_whitespace();
            match (words.next(), words.next(), words.next()) {
                (Some("ifdef"), Some("__cplusplus"), None) => skipping_cpp = true,
                (Some("endif"), None, None) => skipping_cpp = false,
                // A function-like macro (POKER_DEPRECATED) is no constant.
                (Some("define"), Some(name), Some(value)) if !name.contains('(') => {
                    defines.push((name.to_string(), value.to_string()));
                }
                // The include guard, <stdint.h> (LuaJIT knows its types).
                _ => {}
            }
            continue;
        }
        if skipping_cpp {
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        if line == "enum {" {
            in_enum = true;
            continue;
        }
        if in_enum {
            if line == "};" {
                in_enum = false;
            } else {
                let enumerator = deprecated_enumerator(line)
                    .unwrap_or_else(|| panic!("poker.h: {line:?} is no deprecated code"));
                defines.push(enumerator);
            }
            continue;
        }
        declarations.push_str(&without_deprecation(line));
        declarations.push('\n');
        // A blank line after each top-level declaration.
        if !line.starts_with(' ') && line.ends_with(';') {
            declarations.push('\n');
        }
    }
    let known: BTreeMap<&str, &str> = defines
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let mut constants = String::new();
    let mut left_out = Vec::new();
    for (name, value) in &defines {
        let mut value = value.as_str();
        while let Some(next) = known.get(value) {
            value = next;
        }
        let number: i64 = value
            .parse()
            .unwrap_or_else(|_| panic!("poker.h: #define {name} {value} is not a number"));
        if i32::try_from(number).is_ok() {
            constants.push_str(&format!("static const int {name} = {number};\n"));
        } else {
            left_out.push(format!("{name} ({number})"));
        }
    }
    format!(
        "-- include/poker.h's declarations for LuaJIT's ffi.cdef, which reads no\n\
         -- preprocessor lines: its types and functions as they are, its #define\n\
         -- codes as constants. Generated from the header by\n\
         -- crates/libpoker/tests/c_api/lua_declarations.rs, which fails when the two\n\
         -- differ; do not edit (regenerate with:\n\
         -- POKER_BLESS=1 cargo test -p libpoker --test c_api lua_declarations).\n\
         -- Left out, as LuaJIT's constants are 32-bit: {}.\n\
         return [[\n{}\n\n{}]]\n",
        left_out.join(", "),
        declarations.trim_end(),
        constants
    )
}

#[test]
fn lua_declarations_match_the_header() {
    let header = std::fs::read_to_string(common::root().join("include/poker.h")).unwrap();
    let generated = lua_module(&header);
    let path = common::root().join(LUA_FILE);
    if std::env::var_os("POKER_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{LUA_FILE} differs from include/poker.h: run \
         `POKER_BLESS=1 cargo test -p libpoker --test c_api lua_declarations` and commit it"
    );
}

#[test]
fn the_lua_declarations_hold_every_function_of_the_header() {
    let header = std::fs::read_to_string(common::root().join("include/poker.h")).unwrap();
    let lua = lua_module(&header);
    for name in [
        "poker_game_new_text",
        "camicia_simulate",
        "freecell_deal",
        "p_place",
    ] {
        assert!(lua.contains(&format!("{name}(")), "{name}");
    }
    assert!(lua.contains("static const int POKER_ERR_TOKEN = -17;\n"));
    assert!(lua.contains("static const int POKER_HAND_ERR_NULL = -1;\n"));
    assert!(lua.contains("static const int CAMICIA_OK = 0;\n"));
    assert!(lua.contains("\nint camicia_simulate_ex(const char *player_a,"));
    assert!(!lua.contains("POKER_DEPRECATED"));
    assert!(lua.lines().all(|l| !l.starts_with('#')));
    assert!(!lua.contains("extern \"C\""));
}
