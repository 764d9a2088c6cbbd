//! The FreeCell, hand and shuffle C functions tested as C: a C program
//! (tests/data/freecell/deal_check.c) compiled with strict warnings against
//! the committed include/poker.h and linked with the freshly built libpoker.

use std::path::PathBuf;
use std::process::Command;

/// Compiles and links the C program; returns its path.
fn build_c_program() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // `cargo test` leaves the fresh libpoker.so next to the test binary
    // (target/<profile>/deps), see shared/notes/ffi-findings.md.
    let lib_dir = std::env::current_exe()
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("freecell_deal_check");
    let compiler = cc::Build::new()
        .target(env!("POKER_BUILD_TARGET"))
        .host(env!("POKER_BUILD_HOST"))
        .opt_level(0)
        .cargo_metadata(false)
        .get_compiler();
    let status = compiler
        .to_command()
        .args(["-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror"])
        .arg("-I")
        .arg(manifest.join("include"))
        .arg(manifest.join("tests/data/freecell/deal_check.c"))
        .arg("-o")
        .arg(&out)
        .arg(format!("-L{}", lib_dir.display()))
        .arg("-lpoker")
        // DT_RPATH (not RUNPATH) wins over LD_LIBRARY_PATH, which `cargo test`
        // points at target/<profile>, where a stale libpoker.so may lie.
        .arg("-Wl,--disable-new-dtags")
        .arg(format!("-Wl,-rpath,{}", lib_dir.display()))
        .status()
        .expect("a C compiler runs");
    assert!(status.success(), "the C program compiles and links");
    out
}

#[test]
fn c_program_deals_the_vectors_and_gets_every_error_code() {
    let text = include_str!("data/freecell/deals.tsv");
    let rows: Vec<(&str, &str)> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("deal\t"))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[2] == "ok").then(|| (f[0], f[3]))
        })
        .collect();
    assert_eq!(rows.len(), 38);
    let program = build_c_program();
    let out = Command::new(&program)
        .args(rows.iter().map(|r| r.0))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "C checks failed:\n{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2 * rows.len());
    for (pair, (deal, order)) in lines.chunks(2).zip(&rows) {
        assert_eq!(pair[0], *order, "freecell_deal, deal {deal}");
        assert_eq!(pair[1], *order, "freecell_format, deal {deal}");
    }
}
