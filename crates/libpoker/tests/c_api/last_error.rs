//! Every failing call of every exported function (but the contest's
//! p_startgame/p_look/p_place, which end the process) returns the code its
//! header documentation names and records that code and a message as the
//! thread's last error. Each case runs on a fresh thread, whose last error
//! starts empty. Expected codes are those of the doc comments in
//! include/poker.h.

use poker::ffi::camicia::*;
use poker::ffi::error::*;
use poker::ffi::freecell::*;
use poker::ffi::game::*;
use poker::ffi::hand::*;
use poker::ffi::optimum::poker_optimum;
use std::ffi::{CStr, c_char, c_int};
use std::ptr::{null, null_mut};

/// Runs `call` on a fresh thread; returns what it returned and the thread's
/// last error code and message afterwards.
fn on_fresh_thread(call: fn() -> c_int) -> (c_int, c_int, String) {
    std::thread::spawn(move || {
        let code = call();
        let mut buf = [0 as c_char; 256];
        // SAFETY: a writable buffer of its length, NUL-terminated after.
        let message = unsafe {
            poker_last_error(buf.as_mut_ptr(), buf.len() as c_int);
            CStr::from_ptr(buf.as_ptr()).to_string_lossy().into_owned()
        };
        (code, poker_last_error_code(), message)
    })
    .join()
    .unwrap()
}

/// For functions that return a pointer: NULL means failure, and the code is
/// the last error's.
fn code_of<T>(pointer: *const T) -> c_int {
    if pointer.is_null() {
        poker_last_error_code()
    } else {
        POKER_OK
    }
}

/// The contest deck 9S 9H 9D 9C TS ... in (value, color) codes.
fn ordered() -> ([c_int; 24], [c_int; 24]) {
    let values = std::array::from_fn(|i| i as c_int / 4 + 1);
    let colors = std::array::from_fn(|i| i as c_int % 4 + 1);
    (values, colors)
}

/// What is called, the code its documentation names, the call.
type Case = (&'static str, c_int, fn() -> c_int);

const CASES: &[Case] = &[
    ("poker_game_new_deck(NULL)", POKER_ERR_NULL, || unsafe {
        code_of(poker_game_new_deck(null(), null()))
    }),
    (
        "poker_game_new_deck, a card twice",
        POKER_ERR_DUPLICATE,
        || {
            let (values, mut colors) = ordered();
            colors[23] = 1;
            unsafe { code_of(poker_game_new_deck(values.as_ptr(), colors.as_ptr())) }
        },
    ),
    ("poker_game_new_deck, color 5", POKER_ERR_CARD, || {
        let (values, mut colors) = ordered();
        colors[3] = 5;
        unsafe { code_of(poker_game_new_deck(values.as_ptr(), colors.as_ptr())) }
    }),
    ("poker_game_new_text(NULL)", POKER_ERR_NULL, || unsafe {
        code_of(poker_game_new_text(null()))
    }),
    ("poker_game_new_text, 2 cards", POKER_ERR_COUNT, || unsafe {
        code_of(poker_game_new_text(c"9S TS".as_ptr()))
    }),
    (
        "poker_game_new_text, a 2",
        POKER_ERR_NOT_IN_DECK,
        || unsafe { code_of(poker_game_new_text(c"9S 2S".as_ptr())) },
    ),
    (
        "poker_game_new_text, a bad token",
        POKER_ERR_TOKEN,
        || unsafe { code_of(poker_game_new_text(c"9S XX".as_ptr())) },
    ),
    (
        "poker_game_new_text, not UTF-8",
        POKER_ERR_TOKEN,
        || unsafe { code_of(poker_game_new_text(c"9S \xff".as_ptr())) },
    ),
    (
        "poker_game_new_text, a card twice",
        POKER_ERR_DUPLICATE,
        || unsafe { code_of(poker_game_new_text(c"9S 9s".as_ptr())) },
    ),
    ("poker_game_look(NULL)", POKER_ERR_NULL, || unsafe {
        poker_game_look(null_mut(), null_mut(), null_mut())
    }),
    (
        "poker_game_look, NULL value",
        POKER_ERR_LOOK_NULL,
        || unsafe {
            let game = poker_game_new(1);
            let code = poker_game_look(game, null_mut(), null_mut());
            poker_game_free(game);
            code
        },
    ),
    ("poker_game_look twice", POKER_ERR_LOOKED_TWICE, || unsafe {
        let game = poker_game_new(1);
        let (mut v, mut c) = (0, 0);
        poker_game_look(game, &mut v, &mut c);
        let code = poker_game_look(game, &mut v, &mut c);
        poker_game_free(game);
        code
    }),
    ("poker_game_place(NULL)", POKER_ERR_NULL, || unsafe {
        poker_game_place(null_mut(), 1)
    }),
    (
        "poker_game_place, no look",
        POKER_ERR_PLACE_WITHOUT_LOOK,
        || unsafe {
            let game = poker_game_new(1);
            let code = poker_game_place(game, 1);
            poker_game_free(game);
            code
        },
    ),
    (
        "poker_game_place, column 0",
        POKER_ERR_COLUMN_OUT_OF_RANGE,
        || unsafe {
            let game = poker_game_new(1);
            let (mut v, mut c) = (0, 0);
            poker_game_look(game, &mut v, &mut c);
            let code = poker_game_place(game, 0);
            poker_game_free(game);
            code
        },
    ),
    ("poker_game_score(NULL)", POKER_ERR_NULL, || unsafe {
        poker_game_score(null(), null_mut())
    }),
    (
        "poker_game_score, in progress",
        POKER_ERR_IN_PROGRESS,
        || unsafe {
            let game = poker_game_new(1);
            let code = poker_game_score(game, null_mut());
            poker_game_free(game);
            code
        },
    ),
    ("poker_game_error(NULL)", POKER_ERR_NULL, || unsafe {
        poker_game_error(null(), null_mut(), 0)
    }),
    ("poker_game_error, len -1", POKER_ERR_ARGUMENT, || unsafe {
        let game = poker_game_new(1);
        let code = poker_game_error(game, null_mut(), -1);
        poker_game_free(game);
        code
    }),
    ("poker_last_error, NULL buf", POKER_ERR_NULL, || unsafe {
        poker_last_error(null_mut(), 8)
    }),
    ("poker_hand_score(NULL)", POKER_ERR_NULL, || unsafe {
        poker_hand_score(null(), null())
    }),
    ("poker_hand_score, value 7", POKER_ERR_CARD, || unsafe {
        poker_hand_score([1, 2, 3, 4, 7].as_ptr(), [1; 5].as_ptr())
    }),
    (
        "poker_hand_score, a card twice",
        POKER_ERR_DUPLICATE,
        || unsafe { poker_hand_score([1, 1, 3, 4, 5].as_ptr(), [1; 5].as_ptr()) },
    ),
    ("poker_optimum(NULL)", POKER_ERR_NULL, || unsafe {
        poker_optimum(null(), null(), 24, null_mut())
    }),
    ("poker_optimum, count 21", POKER_ERR_COUNT, || {
        let (values, colors) = ordered();
        unsafe { poker_optimum(values.as_ptr(), colors.as_ptr(), 21, null_mut()) }
    }),
    ("poker_optimum, value 0", POKER_ERR_CARD, || {
        let (mut values, colors) = ordered();
        values[7] = 0;
        unsafe { poker_optimum(values.as_ptr(), colors.as_ptr(), 24, null_mut()) }
    }),
    ("poker_optimum, a card twice", POKER_ERR_DUPLICATE, || {
        let (values, mut colors) = ordered();
        colors[1] = 1;
        unsafe { poker_optimum(values.as_ptr(), colors.as_ptr(), 20, null_mut()) }
    }),
    ("poker_hand_category(NULL)", POKER_ERR_NULL, || unsafe {
        poker_hand_category(null())
    }),
    ("poker_hand_category, index 52", POKER_ERR_CARD, || unsafe {
        poker_hand_category([0, 1, 2, 3, 52].as_ptr())
    }),
    (
        "poker_hand_category, a card twice",
        POKER_ERR_DUPLICATE,
        || unsafe { poker_hand_category([0, 1, 2, 3, 3].as_ptr()) },
    ),
    ("poker_hand_name(9)", POKER_ERR_ARGUMENT, || {
        code_of(poker_hand_name(9))
    }),
    ("poker_card_token(-1)", POKER_ERR_CARD, || {
        code_of(poker_card_token(-1))
    }),
    ("poker_card_token(52)", POKER_ERR_CARD, || {
        code_of(poker_card_token(52))
    }),
    ("poker_shuffle(NULL)", POKER_ERR_NULL, || unsafe {
        poker_shuffle(1, null_mut())
    }),
    ("freecell_deal(NULL)", POKER_ERR_NULL, || unsafe {
        freecell_deal(1, null_mut())
    }),
    ("freecell_deal(0)", POKER_ERR_DEAL_NUMBER, || unsafe {
        freecell_deal(0, [0u8; 52].as_mut_ptr())
    }),
    ("freecell_format(2^33)", POKER_ERR_DEAL_NUMBER, || unsafe {
        freecell_format(FREECELL_MAX_DEAL + 1, 0, null_mut(), 0)
    }),
    ("freecell_format, format 7", POKER_ERR_ARGUMENT, || unsafe {
        freecell_format(1, 7, null_mut(), 0)
    }),
    ("freecell_format, len -1", POKER_ERR_ARGUMENT, || unsafe {
        freecell_format(1, FREECELL_LAYOUT_ROWS, null_mut(), -1)
    }),
    ("freecell_format, NULL buf", POKER_ERR_NULL, || unsafe {
        freecell_format(1, FREECELL_LAYOUT_ROWS, null_mut(), 5)
    }),
    ("camicia_simulate(NULL)", POKER_ERR_NULL, || unsafe {
        camicia_simulate(null(), c"2".as_ptr(), &mut CamiciaResult::default())
    }),
    (
        "camicia_simulate, a bad token",
        POKER_ERR_TOKEN,
        || unsafe {
            camicia_simulate(
                c"2 Z".as_ptr(),
                c"2".as_ptr(),
                &mut CamiciaResult::default(),
            )
        },
    ),
    (
        "camicia_simulate_ex, a bad token",
        POKER_ERR_TOKEN,
        #[allow(deprecated)] // It keeps working until its removal.
        || unsafe {
            let out = &mut CamiciaResult::default();
            camicia_simulate_ex(c"2".as_ptr(), c"1".as_ptr(), out, null_mut())
        },
    ),
    (
        "camicia_simulate_penalties(NULL)",
        POKER_ERR_NULL,
        || unsafe {
            camicia_simulate_penalties(null(), 1, null(), 0, &mut CamiciaResult::default())
        },
    ),
    ("camicia_simulate_penalties, 5", POKER_ERR_CARD, || unsafe {
        let out = &mut CamiciaResult::default();
        camicia_simulate_penalties([0u8, 5].as_ptr(), 2, [0u8].as_ptr(), 1, out)
    }),
];

#[test]
fn every_failing_call_returns_its_documented_code_and_records_it() {
    for &(what, expected, call) in CASES {
        let (returned, last, message) = on_fresh_thread(call);
        assert_eq!(returned, expected, "{what}: returned code");
        assert_eq!(last, expected, "{what}: last error code");
        assert!(!message.is_empty(), "{what}: no message");
    }
}

#[test]
fn messages_name_the_problem_in_the_users_terms() {
    let (_, _, message) = on_fresh_thread(CASES[2].2);
    assert!(message.contains("card 4: value 1 color 5"), "{message}");
    let (_, _, message) = on_fresh_thread(|| unsafe { freecell_deal(0, [0u8; 52].as_mut_ptr()) });
    assert!(message.contains("deal 0"), "{message}");
    for (_, _, call) in CASES {
        let (_, _, message) = on_fresh_thread(*call);
        assert!(
            !message.contains("seed 0") && !message.contains("issue"),
            "{message}"
        );
    }
}

#[test]
fn a_thread_with_no_failure_has_no_last_error() {
    let (code, last, message) = on_fresh_thread(|| POKER_OK);
    assert_eq!((code, last, message.as_str()), (POKER_OK, POKER_OK, ""));
}

#[test]
fn a_camicia_token_error_says_where_as_camicia_error_did() {
    // The location `camicia_simulate_ex` gives as a CamiciaError for these
    // decks (docs/camicia.md: player 1 = B, token 2 from 0, byte 4) is in
    // the message of the thread's last error, the one way to learn why.
    let (code, last, message) = on_fresh_thread(|| unsafe {
        camicia_simulate(
            c"2 3".as_ptr(),
            c"4 5 Z".as_ptr(),
            &mut CamiciaResult::default(),
        )
    });
    assert_eq!((code, last), (POKER_ERR_TOKEN, POKER_ERR_TOKEN));
    assert!(
        message.contains("player B: 'Z' is not a card (token 2, byte 4, both counted from 0)"),
        "{message}"
    );
}
