//! Camicia's C API: called from Rust, and from a strict C89 program
//! (tests/c/camicia.c) compiled against include/poker.h and linked to the
//! freshly built libpoker.so. Expected values come from the seed's examples
//! and records.json.

use crate::common;
use poker::ffi::camicia::*;
use poker::ffi::error::{POKER_ERR_CARD, POKER_ERR_NULL, POKER_ERR_TOKEN};
use std::ffi::CString;
use std::process::Command;

/// The deprecated entry, which keeps working until its removal.
#[allow(deprecated)]
fn simulate_ex(a: &str, b: &str) -> (i32, CamiciaResult, CamiciaError) {
    let (a, b) = (CString::new(a).unwrap(), CString::new(b).unwrap());
    let mut out = CamiciaResult::default();
    let mut err = CamiciaError::default();
    // SAFETY: valid strings and writable results.
    let code = unsafe { camicia_simulate_ex(a.as_ptr(), b.as_ptr(), &mut out, &mut err) };
    (code, out, err)
}

#[test]
#[allow(deprecated)] // CAMICIA_OK, which keeps working until its removal.
fn c_entry_reports_status_cards_and_tricks_of_the_seeds_examples() {
    let (code, out, _) = simulate_ex("2 A 7 8 Q 10", "3 4 5 6 K 9 J");
    assert_eq!(
        (code, out.status, out.cards, out.tricks),
        (CAMICIA_OK, CAMICIA_FINISHED, 13, 1)
    );
    let (code, out, _) = simulate_ex("J 2 3", "4 J 5");
    assert_eq!(
        (code, out.status, out.cards, out.tricks),
        (CAMICIA_OK, CAMICIA_LOOP, 8, 3)
    );
}

#[test]
fn c_entry_names_the_bad_tokens_player_and_position() {
    let (code, _, err) = simulate_ex("2 A x9", "3");
    assert_eq!(code, POKER_ERR_TOKEN);
    assert_eq!((err.player, err.token, err.offset), (0, 2, 4));
}

#[test]
fn c_entries_reject_null_pointers_without_writing() {
    let mut out = CamiciaResult {
        status: 7,
        cards: 7,
        tricks: 7,
    };
    let two = CString::new("2").unwrap();
    // SAFETY: every non-NULL pointer is valid; the NULLs are the test.
    unsafe {
        assert_eq!(
            camicia_simulate(std::ptr::null(), two.as_ptr(), &mut out),
            POKER_ERR_NULL
        );
        assert_eq!(
            camicia_simulate(two.as_ptr(), two.as_ptr(), std::ptr::null_mut()),
            POKER_ERR_NULL
        );
        assert_eq!(
            camicia_simulate_penalties(std::ptr::null(), 2, [0u8].as_ptr(), 1, &mut out),
            POKER_ERR_NULL
        );
    }
    assert_eq!((out.status, out.cards, out.tricks), (7, 7, 7));
}

#[test]
fn penalty_entry_rejects_values_above_four() {
    let mut out = CamiciaResult::default();
    // SAFETY: both arrays hold their lengths; `out` is writable.
    let code =
        unsafe { camicia_simulate_penalties([0u8, 9].as_ptr(), 2, [0u8].as_ptr(), 1, &mut out) };
    assert_eq!(code, POKER_ERR_CARD);
}

#[test]
fn a_strict_c89_program_gets_the_same_results_through_the_header() {
    let src = common::root().join("tests/c/camicia.c");
    let exe = common::compile_c_file("camicia_c", &src, &["-std=c89"]);
    let run = Command::new(&exe).output().unwrap();
    assert!(
        run.status.success(),
        "C check failed at line {:?}: {}",
        run.status.code(),
        String::from_utf8_lossy(&run.stderr)
    );
}

#[test]
fn a_strict_c89_program_extends_the_published_records() {
    let src = common::root().join("tests/c/camicia_extend.c");
    let exe = common::compile_c_file("camicia_extend_c", &src, &["-std=c89"]);
    let run = Command::new(&exe).output().unwrap();
    assert!(
        run.status.success(),
        "C check failed at line {:?}: {}",
        run.status.code(),
        String::from_utf8_lossy(&run.stderr)
    );
}
