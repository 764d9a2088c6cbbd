//! Build script: generates the C header with cbindgen (into OUT_DIR; the
//! `header` test compares it with the committed include/poker.h), and
//! compiles the C contestants in c_examples/ as a strict-warnings check.
//! It cannot link them: the library does not exist yet when this runs.
//! It reruns only when one of the files it reads changes.

use std::path::{Path, PathBuf};
use syn_unified as syn;

fn main() {
    let crate_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let root = crate_dir.join("../..");
    // cbindgen reads src/ffi (the modules src/ffi/mod.rs declares);
    // the C examples include include/poker.h.
    // src/ffi/error.rs's deprecated codes become the header's enumerators.
    println!("cargo::rerun-if-changed=src/ffi");
    println!("cargo::rerun-if-changed=cbindgen.toml");
    println!(
        "cargo::rerun-if-changed={}",
        root.join("c_examples").display()
    );
    println!(
        "cargo::rerun-if-changed={}",
        root.join("include/poker.h").display()
    );
    // Only src/ffi (and the modules it declares) feeds the header, so core
    // constants and types stay out of it.

    let header = out_dir.join("poker.h");
    let mut config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("cbindgen.toml is readable");
    let errors = std::fs::read_to_string(crate_dir.join("src/ffi/error.rs"))
        .expect("src/ffi/error.rs is readable");
    let deprecated = deprecated_codes(&errors);
    config
        .export
        .exclude
        .extend(deprecated.iter().map(|code| code.name.clone()));
    config.trailer = Some(format!(
        "{}{}",
        deprecated_enum(&deprecated),
        config.trailer.unwrap_or_default()
    ));
    cbindgen::Builder::new()
        .with_src(crate_dir.join("src/ffi/mod.rs"))
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header")
        .write_to_file(&header);
    println!(
        "cargo::rustc-env=POKER_GENERATED_HEADER={}",
        header.display()
    );

    check_c_examples(&root, &out_dir);
}

/// A result code that `#[deprecated(note = "...")]` marks in src/ffi/error.rs:
/// an alias (`value` names the code it stands for).
struct DeprecatedCode {
    name: String,
    note: String,
    value: String,
}

/// The deprecated codes of src/ffi/error.rs, in the file's order.
fn deprecated_codes(source: &str) -> Vec<DeprecatedCode> {
    let file = syn::parse_file(source).expect("src/ffi/error.rs parses");
    let mut codes = Vec::new();
    for item in &file.items {
        let syn::Item::Const(constant) = item else {
            continue;
        };
        let mut note = None;
        for attr in constant
            .attrs
            .iter()
            .filter(|a| a.path().is_ident("deprecated"))
        {
            attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("note") {
                    note = Some(meta.value()?.parse::<syn::LitStr>()?.value());
                }
                Ok(())
            })
            .expect("#[deprecated(note = \"...\")]");
        }
        let Some(note) = note else {
            continue;
        };
        let name = constant.ident.to_string();
        let value = match &*constant.expr {
            syn::Expr::Path(path) => path.path.get_ident().map(|i| i.to_string()),
            _ => None,
        }
        .unwrap_or_else(|| panic!("deprecated {name} is not an alias of another code"));
        assert!(
            !note.contains(['"', '\\']),
            "{name}'s note must be a plain C string"
        );
        codes.push(DeprecatedCode { name, note, value });
    }
    codes
}

/// The deprecated codes as enumerators that carry `POKER_DEPRECATED`, so
/// that a compiler warns where a program uses one. cbindgen writes a Rust
/// constant as `#define`, which no attribute can mark (and it deprecates
/// only functions, structs and enums, whose C output ends its enumerators
/// with a comma, a C89 error): so the constants leave its output and come
/// back in this block, one enumerator a line.
fn deprecated_enum(codes: &[DeprecatedCode]) -> String {
    if codes.is_empty() {
        return String::new();
    }
    let enumerators: Vec<String> = codes
        .iter()
        .map(|c| {
            format!(
                "  {} POKER_DEPRECATED(\"{}\") = {}",
                c.name, c.note, c.value
            )
        })
        .collect();
    format!(
        "\n/*\n \
         Deprecated result codes: the 0.1 names, aliases of the codes above,\n \
         removed in 0.4.0. Enumerators, so that the compiler warns where a\n \
         program uses one.\n \
         */\n\
         enum {{\n{}\n}};\n",
        enumerators.join(",\n")
    )
}

/// Compiles every c_examples/*.c (not linked) against the freshly generated
/// header, with warnings as errors.
fn check_c_examples(root: &Path, header_dir: &Path) {
    let mut sources: Vec<PathBuf> = std::fs::read_dir(root.join("c_examples"))
        .map(|dir| dir.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    sources.retain(|p| p.extension().is_some_and(|e| e == "c"));
    sources.sort();
    if sources.is_empty() {
        return;
    }
    cc::Build::new()
        .files(&sources)
        .include(header_dir)
        .std("c99")
        .flag("-Wall")
        .flag("-Wextra")
        .flag("-pedantic")
        .warnings_into_errors(true)
        .cargo_metadata(false)
        .compile_intermediates();
}
