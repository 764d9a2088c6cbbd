//! The embeddable game API (`poker_game_*`, `poker_hand_score`): tested as
//! C (tests/c/game_api.c, compiled against the fresh library) and from Rust
//! through the same exports. Expected values come from the contest text
//! (seed 001) and hand-checked hands, never from the code under test.

use crate::common;
use poker::contest::ContestDeck;
use poker::ffi::game::*;
use std::ffi::{CStr, CString, c_char};
use std::process::Command;

#[test]
fn c_program_passes_every_check_of_the_game_api() {
    let src = common::root().join("tests/c/game_api.c");
    let exe = common::compile_c_file("game_api", &src, &["-std=c99", "-pthread"]);
    let output = Command::new(&exe).output().expect("run game_api");
    assert!(
        output.status.success(),
        "{}{}",
        common::stdout(&output),
        common::stderr(&output)
    );
    assert_eq!(common::stdout(&output), "ok\n");
}

#[test]
fn c_program_builds_as_strict_c89() {
    // The API needs nothing beyond C89 (plus <stdint.h> for the seed).
    let dir = common::scratch("c");
    let src = dir.join("game_c89.c");
    std::fs::write(
        &src,
        "#include \"poker.h\"\n\
         int main(void) {\n\
         \x20   int v, c, i, total;\n\
         \x20   PokerGame *game = poker_game_new(7);\n\
         \x20   for (i = 0; i < 20; i++) { poker_game_look(game, &v, &c); poker_game_place(game, i % 4 + 1); }\n\
         \x20   total = poker_game_score(game, 0);\n\
         \x20   poker_game_free(game);\n\
         \x20   return total >= 0 && total <= 32 ? 0 : 1;\n\
         }\n",
    )
    .unwrap();
    let exe = common::compile_c_file("game_c89", &src, &["-std=c89"]);
    assert!(Command::new(exe).status().unwrap().success());
}

fn last_error() -> String {
    let mut buf = [0 as c_char; 256];
    // SAFETY: a writable buffer of its length.
    unsafe { poker_last_error(buf.as_mut_ptr(), buf.len() as i32) };
    // SAFETY: poker_last_error NUL-terminates.
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

/// Plays round robin; returns the total and the columns.
fn round_robin(game: *mut PokerGame) -> (i32, [i32; 4]) {
    let (mut v, mut c) = (0, 0);
    for i in 0..20 {
        // SAFETY: a live handle and writable ints.
        unsafe {
            assert_eq!(poker_game_look(game, &mut v, &mut c), POKER_OK);
            let expected = if i == 19 { POKER_FINISHED } else { POKER_OK };
            assert_eq!(poker_game_place(game, i % 4 + 1), expected);
        }
    }
    let mut columns = [0; 4];
    // SAFETY: a live handle and 4 writable ints.
    let total = unsafe { poker_game_score(game, columns.as_mut_ptr()) };
    (total, columns)
}

#[test]
fn seed_example_deck_scores_eleven_from_rust() {
    let deck =
        CString::new("JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH")
            .unwrap();
    // SAFETY: a NUL-terminated string.
    let game = unsafe { poker_game_new_text(deck.as_ptr()) };
    assert!(!game.is_null());
    assert_eq!(round_robin(game), (11, [2, 5, 1, 3]));
    // SAFETY: freed once.
    unsafe { poker_game_free(game) };
}

#[test]
fn a_seeded_game_deals_the_practice_mode_deck_of_that_seed() {
    // README: POKER_SEED=42 and poker_game_new(42) give the same deck.
    let game = poker_game_new(42);
    let deck = ContestDeck::shuffled(42);
    let (mut v, mut c) = (0, 0);
    for (i, card) in deck.cards().iter().take(20).enumerate() {
        // SAFETY: a live handle and writable ints.
        unsafe {
            assert_eq!(poker_game_look(game, &mut v, &mut c), POKER_OK);
            poker_game_place(game, i as i32 % 4 + 1);
        }
        assert_eq!(Some((v, c)), poker::contest::card_code(*card));
    }
    // SAFETY: freed once.
    unsafe { poker_game_free(game) };
}

#[test]
fn bad_decks_and_hands_leave_a_message_naming_the_problem() {
    let text = CString::new("9S 9S").unwrap();
    // SAFETY: a NUL-terminated string.
    assert!(unsafe { poker_game_new_text(text.as_ptr()) }.is_null());
    assert!(last_error().contains("more than once"), "{}", last_error());

    let values = [1, 2, 3, 4, 9];
    let colors = [1, 1, 1, 1, 1];
    // SAFETY: 5 readable ints each.
    let rc = unsafe { poker_hand_score(values.as_ptr(), colors.as_ptr()) };
    assert_eq!(rc, POKER_ERR_CARD);
    assert!(last_error().contains("card 5"), "{}", last_error());
}

#[test]
fn the_last_error_is_per_thread() {
    // SAFETY: NULL handle is documented.
    assert_eq!(
        unsafe { poker_game_place(std::ptr::null_mut(), 1) },
        POKER_ERR_NULL
    );
    assert!(last_error().contains("NULL"));
    let other = std::thread::spawn(last_error).join().unwrap();
    assert_eq!(other, "");
}

#[test]
fn error_codes_are_distinct_and_negative() {
    let mut codes = vec![
        POKER_ERR_NULL,
        POKER_ERR_ARGUMENT,
        POKER_ERR_NOT_STARTED,
        POKER_ERR_STARTED_TWICE,
        POKER_ERR_LOOKED_TWICE,
        POKER_ERR_PLACE_WITHOUT_LOOK,
        POKER_ERR_COLUMN_OUT_OF_RANGE,
        POKER_ERR_UNBALANCED,
        POKER_ERR_LOOK_NULL,
        POKER_ERR_GAME_OVER,
        POKER_ERR_IN_PROGRESS,
        POKER_ERR_INTERNAL,
        POKER_ERR_CARD,
        POKER_ERR_DUPLICATE,
        POKER_ERR_NOT_IN_DECK,
        POKER_ERR_COUNT,
        POKER_ERR_TOKEN,
        POKER_ERR_DEAL_NUMBER,
    ];
    assert!(codes.iter().all(|&c| c < 0));
    codes.sort();
    codes.dedup();
    assert_eq!(codes.len(), 18);
}
