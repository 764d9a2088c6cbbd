//! Build script: generates the C header with cbindgen (into OUT_DIR; the
//! `header` test compares it with the committed include/poker.h), and
//! compiles the C contestants in c_examples/ as a strict-warnings check.
//! It cannot link them: the library does not exist yet when this runs.
//! Also builds the sandbox's reaper (src/sandbox/reaper.c), a freestanding
//! static program the evaluator embeds and copies into each jail.

use std::path::{Path, PathBuf};

fn main() {
    let crate_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    println!("cargo::rerun-if-changed=src");
    println!("cargo::rerun-if-changed=cbindgen.toml");
    println!("cargo::rerun-if-changed=c_examples");
    println!("cargo::rerun-if-changed=include/poker.h");
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

    check_c_examples(&crate_dir, &out_dir);
    build_reaper(&crate_dir, &out_dir);
}

/// Compiles src/sandbox/reaper.c into OUT_DIR/poker-reaper: static, no C
/// library (its own `_start` and system calls), stripped: about 9 KB.
fn build_reaper(crate_dir: &Path, out_dir: &Path) {
    let compiler = cc::Build::new().cargo_metadata(false).get_compiler();
    let out = out_dir.join("poker-reaper");
    let status = compiler
        .to_command()
        .args([
            "-static",
            "-nostdlib",
            "-ffreestanding",
            "-fno-tree-loop-distribute-patterns",
            "-fno-stack-protector",
            "-fno-asynchronous-unwind-tables",
            "-fno-pie",
            "-no-pie",
            "-Os",
            "-s",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-o",
        ])
        .arg(&out)
        .arg(crate_dir.join("src/sandbox/reaper.c"))
        .status()
        .expect("the C compiler runs");
    assert!(status.success(), "building the sandbox's reaper failed");
}

/// Compiles every c_examples/*.c (not linked) against the freshly generated
/// header, with warnings as errors.
fn check_c_examples(crate_dir: &Path, header_dir: &Path) {
    let mut sources: Vec<PathBuf> = std::fs::read_dir(crate_dir.join("c_examples"))
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
