//! The FreeCell, hand, card-token and shuffle C functions tested as C: C
//! programs (tests/data/freecell/deal_check.c and the others named below)
//! compiled with strict warnings against the committed include/poker.h and
//! linked with the freshly built libpoker.

use crate::common;
use std::path::PathBuf;
use std::process::Command;

/// Compiles and links the C program; returns its path.
fn build_c_program() -> PathBuf {
    let src = common::root().join("tests/data/freecell/deal_check.c");
    common::compile_c_file("freecell_deal_check", &src, &["-std=c99"])
}

#[test]
fn c_program_deals_the_vectors_and_gets_every_error_code() {
    let text = include_str!("../../../../tests/data/freecell/deals.tsv");
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

/// tests/data/freecell/find_check.c: the batch dealer and the reverse
/// search from C, on the vector path (where the processor has it) and with
/// POKER_PLAIN=1 on the plain path.
#[test]
fn c_program_finds_boards_and_deals_ranges_on_both_paths() {
    let src = common::root().join("tests/data/freecell/find_check.c");
    let program = common::compile_c_file("freecell_find_check", &src, &["-std=c99"]);
    for plain in ["0", "1"] {
        let out = Command::new(&program)
            .env("POKER_PLAIN", plain)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "POKER_PLAIN={plain}:\n{stderr}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "ok\n");
    }
}

/// tests/c/card_token.c: `poker_card_token`'s tokens and its errors from
/// strict C89.
#[test]
fn c_program_gets_card_tokens_and_their_errors() {
    let src = common::root().join("tests/c/card_token.c");
    let program = common::compile_c_file("card_token", &src, &["-std=c89"]);
    let out = Command::new(&program).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}:\n{stderr}", out.status);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "ok\n");
}
