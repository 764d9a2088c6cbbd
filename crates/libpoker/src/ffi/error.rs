//! The library's one table of result codes, for every C function: 0
//! (`POKER_OK`) or more is success, each failure has its own negative
//! `POKER_ERR_*` code wherever it happens, and every failing call records
//! the code and a message as the calling thread's last error
//! (`poker_last_error`, `poker_last_error_code`): the one way to learn why
//! a call failed. Typed Rust errors become codes here and only here.
//!
//! # Every number ever shipped
//!
//! From 0.2 on a number keeps its meaning for good: a code that goes out of
//! use stays in this table as reserved (`POKER_ERR_RESERVED_*`) and is never
//! given another meaning; new codes take new numbers.
//!
//! | code | 0.2 and later | 0.1 |
//! |------|---------------|-----|
//! | 0 | `POKER_OK` | `POKER_OK`, `FREECELL_OK`, `CAMICIA_OK` |
//! | -1 | `POKER_ERR_NULL` | the same, and `POKER_HAND_ERR_NULL`, `FREECELL_ERR_NULL`, `CAMICIA_ERR_NULL` |
//! | -2 | `POKER_ERR_ARGUMENT` | `POKER_ERR_ARGUMENT`; `FREECELL_ERR_RANGE`, `POKER_HAND_ERR_CARD`, `CAMICIA_ERR_TOKEN` |
//! | -3 | `POKER_ERR_NOT_STARTED` | `POKER_ERR_NOT_STARTED`; `FREECELL_ERR_ARGUMENT`, `POKER_HAND_ERR_DUPLICATE`, `CAMICIA_ERR_PENALTY` |
//! | -4 | `POKER_ERR_STARTED_TWICE` | `POKER_ERR_STARTED_TWICE`; `CAMICIA_ERR_INTERNAL` |
//! | -5 .. -14 | as below | the same |
//! | -15 .. -18 | as below | (none) |
//! | -19, -20 | as below | (none) |
//! | -99 | reserved: `POKER_ERR_RESERVED_99` | `FREECELL_ERR_INTERNAL`, `POKER_HAND_ERR_INTERNAL` |
//!
//! The one collision is 0.1's -2: `freecell_deal` returned it for a deal
//! number out of range (`FREECELL_ERR_RANGE`), the hand functions for a bad
//! card and the Camicia functions for a bad token, while from 0.2 on -2 is
//! `POKER_ERR_ARGUMENT`, which `freecell_format` and the buffer-filling
//! functions return. 0.1's other family numbers (-3, -4, -99) are not
//! returned by those families since 0.2 (-3 and -4 are contest rules, -99 is
//! reserved). Programs built against 0.1 must be recompiled.
//!
//! The 0.1 family names (`POKER_HAND_ERR_*`, `FREECELL_ERR_*`,
//! `CAMICIA_ERR_*`, `FREECELL_OK`, `CAMICIA_OK`) are deprecated aliases of
//! the `POKER_*` codes, with the 0.2 values: they are removed in 0.4.0.

use crate::camicia;
use crate::cards::CardError;
use crate::contest::Violation;
use crate::freecell::DealNumberError;
use std::cell::RefCell;
use std::ffi::c_char;
use std::os::raw::c_int;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Success.
pub const POKER_OK: c_int = 0;
/// `poker_game_place`: that placement was the 20th; the game is over and
/// `poker_game_score` gives its points.
pub const POKER_FINISHED: c_int = 1;

/// A required pointer (a game handle, a card array, a text, an output
/// struct, a buffer with a nonzero length) is NULL.
pub const POKER_ERR_NULL: c_int = -1;
/// An argument outside its documented values: a negative buffer length, an
/// unknown `freecell_format` layout, a category `poker_hand_name` does not
/// know. The one collision with 0.1, whose `FREECELL_ERR_RANGE`,
/// `POKER_HAND_ERR_CARD` and `CAMICIA_ERR_TOKEN` were also -2.
pub const POKER_ERR_ARGUMENT: c_int = -2;
/// Rule: a call before `p_startgame` (not returned by `poker_game_*`: a new
/// game is already started). (0.1's `FREECELL_ERR_ARGUMENT`,
/// `POKER_HAND_ERR_DUPLICATE` and `CAMICIA_ERR_PENALTY` were -3; those
/// functions never return this code.)
pub const POKER_ERR_NOT_STARTED: c_int = -3;
/// Rule: `p_startgame` a second time (not returned by `poker_game_*`).
/// (0.1's `CAMICIA_ERR_INTERNAL` was -4; the Camicia functions never return
/// this code.)
pub const POKER_ERR_STARTED_TWICE: c_int = -4;
/// Rule: a look twice without a placement between.
pub const POKER_ERR_LOOKED_TWICE: c_int = -5;
/// Rule: a placement without a look before it.
pub const POKER_ERR_PLACE_WITHOUT_LOOK: c_int = -6;
/// Rule: a column outside 1..4.
pub const POKER_ERR_COLUMN_OUT_OF_RANGE: c_int = -7;
/// Rule: the placement would make the longest and shortest columns differ
/// by more than 1.
pub const POKER_ERR_UNBALANCED: c_int = -8;
/// Rule: a look given a NULL `value` or `color` pointer (a broken rule that
/// ends the game, unlike `POKER_ERR_NULL`).
pub const POKER_ERR_LOOK_NULL: c_int = -9;
/// Rule: a call after the game ended (20 placements or a broken rule).
pub const POKER_ERR_GAME_OVER: c_int = -10;
/// `poker_game_score` while the game is still going.
pub const POKER_ERR_IN_PROGRESS: c_int = -11;
/// libpoker itself failed (a bug: please report it).
pub const POKER_ERR_INTERNAL: c_int = -12;
/// A card given as a number outside its encoding: a contest value outside
/// 1..6 or color outside 1..4, a card index outside 0..51, a Camicia
/// penalty above 4.
pub const POKER_ERR_CARD: c_int = -13;
/// The same card twice in a list that must hold each card once (a deck, a
/// hand, a deal).
pub const POKER_ERR_DUPLICATE: c_int = -14;
/// A card that the deck in use does not hold: a 2..8 in the contest's
/// 24-card deck (9, 10, J, Q, K, A).
pub const POKER_ERR_NOT_IN_DECK: c_int = -15;
/// A list with the wrong number of cards: a deck that is not 24 cards,
/// a `poker_optimum` count other than 20 or 24.
pub const POKER_ERR_COUNT: c_int = -16;
/// Text that is not card tokens: a token that is no card (a contest deck
/// text, a Camicia player string), or text that is not UTF-8.
pub const POKER_ERR_TOKEN: c_int = -17;
/// A FreeCell deal number outside 1..8589934591 (2^33 - 1).
pub const POKER_ERR_DEAL_NUMBER: c_int = -18;
/// A Camicia game that ends in a loop where a finished game is needed
/// (`camicia_extend`: a loop has no longest deal).
pub const POKER_ERR_LOOP: c_int = -19;
/// Camicia hands that are not a full deck where one is needed
/// (`camicia_extend`): 26 and 26 cards, four each of J, Q, K and A.
pub const POKER_ERR_NOT_FULL_DECK: c_int = -20;
/// Reserved, never returned: 0.1's `FREECELL_ERR_INTERNAL` and
/// `POKER_HAND_ERR_INTERNAL` (since 0.2 `POKER_ERR_INTERNAL`). Kept so that
/// the number is never given another meaning.
pub const POKER_ERR_RESERVED_99: c_int = -99;

/// Deprecated 0.1 name of `POKER_ERR_NULL`; removed in 0.4.0.
#[deprecated(note = "removed in 0.4.0: use POKER_ERR_NULL")]
pub const POKER_HAND_ERR_NULL: c_int = POKER_ERR_NULL;
/// Deprecated 0.1 name of `POKER_ERR_CARD`; removed in 0.4.0.
#[deprecated(note = "removed in 0.4.0: use POKER_ERR_CARD")]
pub const POKER_HAND_ERR_CARD: c_int = POKER_ERR_CARD;
/// Deprecated 0.1 name of `POKER_ERR_DUPLICATE`; removed in 0.4.0.
#[deprecated(note = "removed in 0.4.0: use POKER_ERR_DUPLICATE")]
pub const POKER_HAND_ERR_DUPLICATE: c_int = POKER_ERR_DUPLICATE;
/// Deprecated 0.1 name of `POKER_ERR_INTERNAL`; removed in 0.4.0.
#[deprecated(note = "removed in 0.4.0: use POKER_ERR_INTERNAL")]
pub const POKER_HAND_ERR_INTERNAL: c_int = POKER_ERR_INTERNAL;
/// Deprecated 0.1 name of `POKER_ERR_NULL`; removed in 0.4.0.
#[deprecated(note = "removed in 0.4.0: use POKER_ERR_NULL")]
pub const FREECELL_ERR_NULL: c_int = POKER_ERR_NULL;
/// Deprecated 0.1 name of `POKER_ERR_DEAL_NUMBER`; removed in 0.4.0.
#[deprecated(note = "removed in 0.4.0: use POKER_ERR_DEAL_NUMBER")]
pub const FREECELL_ERR_RANGE: c_int = POKER_ERR_DEAL_NUMBER;
/// Deprecated 0.1 name of `POKER_ERR_ARGUMENT`; removed in 0.4.0.
#[deprecated(note = "removed in 0.4.0: use POKER_ERR_ARGUMENT")]
pub const FREECELL_ERR_ARGUMENT: c_int = POKER_ERR_ARGUMENT;
/// Deprecated 0.1 name of `POKER_ERR_INTERNAL`; removed in 0.4.0.
#[deprecated(note = "removed in 0.4.0: use POKER_ERR_INTERNAL")]
pub const FREECELL_ERR_INTERNAL: c_int = POKER_ERR_INTERNAL;
/// Deprecated 0.1 name of `POKER_ERR_NULL`; removed in 0.4.0.
#[deprecated(note = "removed in 0.4.0: use POKER_ERR_NULL")]
pub const CAMICIA_ERR_NULL: c_int = POKER_ERR_NULL;
/// Deprecated 0.1 name of `POKER_ERR_TOKEN`; removed in 0.4.0.
#[deprecated(note = "removed in 0.4.0: use POKER_ERR_TOKEN")]
pub const CAMICIA_ERR_TOKEN: c_int = POKER_ERR_TOKEN;
/// Deprecated 0.1 name of `POKER_ERR_CARD` (a penalty above 4); removed
/// in 0.4.0.
#[deprecated(note = "removed in 0.4.0: use POKER_ERR_CARD")]
pub const CAMICIA_ERR_PENALTY: c_int = POKER_ERR_CARD;
/// Deprecated 0.1 name of `POKER_ERR_INTERNAL`; removed in 0.4.0.
#[deprecated(note = "removed in 0.4.0: use POKER_ERR_INTERNAL")]
pub const CAMICIA_ERR_INTERNAL: c_int = POKER_ERR_INTERNAL;
/// Deprecated 0.1 name of `POKER_OK` (the FreeCell functions' success);
/// removed in 0.4.0.
#[deprecated(note = "removed in 0.4.0: use POKER_OK")]
pub const FREECELL_OK: c_int = POKER_OK;
/// Deprecated 0.1 name of `POKER_OK` (the Camicia functions' success);
/// removed in 0.4.0.
#[deprecated(note = "removed in 0.4.0: use POKER_OK")]
pub const CAMICIA_OK: c_int = POKER_OK;

thread_local! {
    /// The code and message of this thread's last failing call.
    static LAST_ERROR: RefCell<Option<(c_int, String)>> = const { RefCell::new(None) };
}

/// Records `code` and `message` as this thread's last error; returns `code`.
pub(crate) fn fail(code: c_int, message: impl Into<String>) -> c_int {
    // After the thread's storage is gone (atexit handlers, thread-exit
    // destructors) the message is dropped; the code is still returned.
    let message = message.into();
    let _ = LAST_ERROR.try_with(|last| *last.borrow_mut() = Some((code, message)));
    code
}

/// Records a NULL pointer; `what` names it ("the game handle").
pub(crate) fn fail_null(what: &str) -> c_int {
    fail(POKER_ERR_NULL, format!("{what} is NULL"))
}

/// Records a failure of libpoker itself; `what` says where.
pub(crate) fn fail_internal(what: &str) -> c_int {
    fail(
        POKER_ERR_INTERNAL,
        format!("internal error in libpoker ({what}): please report it"),
    )
}

/// The code of a rejected card list.
pub(crate) fn card_error_code(error: &CardError) -> c_int {
    match error {
        CardError::BadToken { .. } => POKER_ERR_TOKEN,
        CardError::OutOfRange { .. } => POKER_ERR_CARD,
        CardError::Duplicate { .. } => POKER_ERR_DUPLICATE,
        CardError::NotInDeck { .. } => POKER_ERR_NOT_IN_DECK,
        CardError::WrongCount { .. } => POKER_ERR_COUNT,
    }
}

/// Records a rejected card list; `what` names the list ("bad deck").
pub(crate) fn fail_cards(what: &str, error: &CardError) -> c_int {
    fail(card_error_code(error), format!("{what}: {error}"))
}

/// Records a deal number that has no FreeCell deal.
pub(crate) fn fail_deal_number(error: &DealNumberError) -> c_int {
    fail(POKER_ERR_DEAL_NUMBER, error.to_string())
}

/// Records a Camicia player string that is not cards.
pub(crate) fn fail_camicia_token(error: &camicia::ParseError) -> c_int {
    fail(POKER_ERR_TOKEN, error.to_string())
}

/// The code of a broken rule.
pub(crate) fn violation_code(violation: Violation) -> c_int {
    match violation {
        Violation::NotStarted => POKER_ERR_NOT_STARTED,
        Violation::StartedTwice => POKER_ERR_STARTED_TWICE,
        Violation::LookedTwice => POKER_ERR_LOOKED_TWICE,
        Violation::PlaceWithoutLook => POKER_ERR_PLACE_WITHOUT_LOOK,
        Violation::ColumnOutOfRange(_) => POKER_ERR_COLUMN_OUT_OF_RANGE,
        Violation::Unbalanced { .. } => POKER_ERR_UNBALANCED,
        Violation::NullPointer => POKER_ERR_LOOK_NULL,
        Violation::GameOver => POKER_ERR_GAME_OVER,
    }
}

/// Copies a message into `buf` snprintf-style (truncated, NUL-terminated
/// when `len` > 0); returns the message's full length, or an error code for
/// a negative `len` or a NULL `buf` with `len` > 0.
pub(crate) fn copy_message(message: Option<&str>, buf: *mut c_char, len: c_int) -> c_int {
    let Ok(len) = usize::try_from(len) else {
        return fail(
            POKER_ERR_ARGUMENT,
            format!("buffer length {len} is negative"),
        );
    };
    if buf.is_null() && len > 0 {
        return fail_null("the buffer");
    }
    let bytes = message.unwrap_or("").as_bytes();
    if len > 0 {
        let n = bytes.len().min(len - 1);
        // SAFETY: `len` writable bytes, as the caller promises; n < len.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr().cast::<c_char>(), buf, n);
            *buf.add(n) = 0;
        }
    }
    c_int::try_from(bytes.len()).unwrap_or(c_int::MAX)
}

/// This thread's last error, if any and if its storage is still there.
fn last() -> Option<(c_int, String)> {
    LAST_ERROR
        .try_with(|last| last.borrow().clone())
        .ok()
        .flatten()
}

/// Writes the message of the last error that a libpoker call returned in
/// this thread (each thread has its own; every failing call of every
/// function but the contest's `p_*` records one) into `buf` of `len` bytes,
/// snprintf-style: if `len` > 0, up to `len` - 1 bytes then a NUL; `buf`
/// may be NULL only when `len` is 0 (to ask for the length).
///
/// Returns the message's full length in bytes (without the NUL; cut short
/// if this is >= `len`), 0 if no call of this thread failed yet (successful
/// calls do not clear it), or `POKER_ERR_ARGUMENT` for a negative `len` /
/// `POKER_ERR_NULL` for a NULL `buf` with `len` > 0 (which then become the
/// last error).
///
/// # Safety
/// `buf` is NULL or points to `len` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn poker_last_error(buf: *mut c_char, len: c_int) -> c_int {
    guard(POKER_ERR_INTERNAL, || {
        let message = last().map(|(_, message)| message);
        copy_message(message.as_deref(), buf, len)
    })
}

/// The code (`POKER_ERR_*`) of the last error that a libpoker call returned
/// in this thread, 0 (`POKER_OK`) if none failed yet: how a caller learns
/// why a function that returns a pointer (`poker_game_new_deck`, ...) gave
/// NULL.
#[unsafe(no_mangle)]
pub extern "C" fn poker_last_error_code() -> c_int {
    guard(POKER_ERR_INTERNAL, || {
        last().map_or(POKER_OK, |(code, _)| code)
    })
}

/// Runs `body`, turning a panic into `fallback` (and the thread's last
/// error into `POKER_ERR_INTERNAL`) so it never unwinds into C.
pub(crate) fn guard<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|_| {
        fail_internal("a panic");
        fallback
    })
}
