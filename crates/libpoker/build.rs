//! Build script: generates the C header with cbindgen (into OUT_DIR; the
//! `header` test compares it with the committed include/poker.h), and
//! compiles the C contestants in c_examples/ as a strict-warnings check.
//! It cannot link them: the library does not exist yet when this runs.
//! It reruns only when one of the files it reads changes.

use std::path::{Path, PathBuf};

fn main() {
    let crate_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let root = crate_dir.join("../..");
    // cbindgen reads src/ffi (the modules src/ffi/mod.rs declares);
    // the C examples include include/poker.h.
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
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("cbindgen.toml is readable");
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
