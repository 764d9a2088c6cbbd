//! Build script: builds the sandbox's reaper (src/reaper.c), a
//! freestanding static program the evaluator embeds and copies into each
//! jail. It reruns only when reaper.c changes.

use std::path::{Path, PathBuf};

fn main() {
    let crate_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    println!("cargo::rerun-if-changed=src/reaper.c");
    build_reaper(&crate_dir, &out_dir);
}

/// Compiles src/reaper.c into OUT_DIR/poker-reaper: static, no C
/// library (its own `_start` and system calls), stripped: about 9 KB.
///
/// It takes none of the Rust build's instrumentation: under cargo-fuzz (or
/// any `-Zsanitizer=address` build) `cc` passes `-fsanitize=address` on from
/// `CARGO_CFG_SANITIZE`, and coverage flags from the rustflags, and the
/// reaper, which links no runtime, would not link. So no inherited
/// rustflags, and `-fno-sanitize=all` after `cc`'s own flags.
fn build_reaper(crate_dir: &Path, out_dir: &Path) {
    let compiler = cc::Build::new()
        .cargo_metadata(false)
        .inherit_rustflags(false)
        .get_compiler();
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
            "-fno-sanitize=all",
            "-o",
        ])
        .arg(&out)
        .arg(crate_dir.join("src/reaper.c"))
        .status()
        .expect("the C compiler runs");
    assert!(status.success(), "building the sandbox's reaper failed");
}
