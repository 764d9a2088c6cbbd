//! The embeddable game API: many contest games in one process, through
//! handles, for bots, simulations and training. Each handle wraps one
//! [`Game`], the same rule checker the contest functions and the evaluator
//! use; nothing here ends the process.

use super::error::{copy_message, fail, fail_cards, fail_internal, fail_null, violation_code};
use crate::card_list::CardList;
use crate::cards::Card;
use crate::contest::{COLUMNS, ContestDeck, Game, Progress, RuleError};
use crate::hand::categorize;
use std::ffi::{CStr, c_char};
use std::os::raw::c_int;

pub use super::error::*;

/// One game of the contest, created by `poker_game_new` or
/// `poker_game_new_deck` and released by `poker_game_free`. Opaque to C.
pub struct PokerGame {
    game: Game,
}

impl PokerGame {
    fn new(deck: ContestDeck) -> *mut PokerGame {
        let mut game = Game::new(deck);
        game.start().expect("a fresh game starts");
        Box::into_raw(Box::new(PokerGame { game }))
    }

    /// Records a broken rule as the thread's last error; returns its code.
    fn rule(&mut self, error: RuleError) -> c_int {
        fail(violation_code(error.violation), error.to_string())
    }
}

fn bad_deck(error: crate::cards::CardError) -> *mut PokerGame {
    fail_cards("bad deck", &error);
    std::ptr::null_mut()
}

/// Creates a game over the 24-card deck shuffled from `seed`: the same deck
/// a contestant gets in practice mode with `POKER_SEED=seed`. The game is
/// already started (the contest's `p_startgame`): next comes a look.
///
/// Returns a handle to free with `poker_game_free`, or NULL only if memory
/// runs out or libpoker fails.
#[unsafe(no_mangle)]
pub extern "C" fn poker_game_new(seed: u64) -> *mut PokerGame {
    super::guard(std::ptr::null_mut(), || {
        PokerGame::new(ContestDeck::shuffled(seed))
    })
}

/// Creates a started game over a deck given card by card, in dealing order
/// (card 0 is turned first): `values[i]` 1..6 (9, 10, J, Q, K, A) and
/// `colors[i]` 1..4 (spades, hearts, diamonds, clubs), 24 of each, every
/// contest card exactly once.
///
/// Returns a handle to free with `poker_game_free`, or NULL when a pointer is
/// NULL (`POKER_ERR_NULL`) or the deck is not the 24 cards once each
/// (`POKER_ERR_CARD` for a value or color out of range,
/// `POKER_ERR_DUPLICATE` for a card twice); `poker_last_error_code` and
/// `poker_last_error` then say why.
///
/// # Safety
/// Each pointer is NULL or points to 24 readable ints.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn poker_game_new_deck(
    values: *const c_int,
    colors: *const c_int,
) -> *mut PokerGame {
    super::guard(std::ptr::null_mut(), || {
        if values.is_null() || colors.is_null() {
            fail_null("a deck array");
            return std::ptr::null_mut();
        }
        // SAFETY: non-NULL, and the caller promises 24 ints each.
        let cards = unsafe { super::contest_entries(values, colors, crate::contest::DECK_SIZE) };
        ContestDeck::from_entries(cards).map_or_else(bad_deck, PokerGame::new)
    })
}

/// Creates a started game over a deck written as 24 card tokens separated by
/// white space, in dealing order: rank `9`, `T` or `10`, `J`, `Q`, `K`, `A`
/// then suit `S`, `H`, `D`, `C` (either case), e.g. `"9S TH JD ..."`, every
/// contest card exactly once (the format of `POKER_DECK`).
///
/// Returns a handle to free with `poker_game_free`, or NULL when `deck` is
/// NULL (`POKER_ERR_NULL`) or not such a deck: `POKER_ERR_TOKEN` (a token
/// that is no card, or text that is not UTF-8), `POKER_ERR_NOT_IN_DECK` (a
/// card such as `2S` outside the 24), `POKER_ERR_DUPLICATE` (a card twice),
/// `POKER_ERR_COUNT` (not 24 tokens); `poker_last_error_code` and
/// `poker_last_error` then say why.
///
/// # Safety
/// `deck` is NULL or a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn poker_game_new_text(deck: *const c_char) -> *mut PokerGame {
    super::guard(std::ptr::null_mut(), || {
        if deck.is_null() {
            fail_null("the deck text");
            return std::ptr::null_mut();
        }
        // SAFETY: non-NULL and NUL-terminated, as the caller promises.
        let Ok(text) = unsafe { CStr::from_ptr(deck) }.to_str() else {
            fail(POKER_ERR_TOKEN, "bad deck: the text is not UTF-8");
            return std::ptr::null_mut();
        };
        ContestDeck::parse(text).map_or_else(bad_deck, PokerGame::new)
    })
}

/// Turns the next card (the contest's `p_look`) and writes its value 1..6
/// (9, 10, J, Q, K, A) and color 1..4 (spades, hearts, diamonds, clubs).
///
/// Returns `POKER_OK`, or: `POKER_ERR_NULL` for a NULL `game`;
/// `POKER_ERR_LOOK_NULL` for a NULL `value` or `color` (a broken rule, as in
/// the contest); `POKER_ERR_LOOKED_TWICE` after a look with no placement
/// since; `POKER_ERR_GAME_OVER` once the game has ended. A broken rule ends
/// the game with 0 points, like the contest; `poker_game_error` names it.
///
/// # Safety
/// `game` is NULL or a live handle used by one thread at a time; `value` and
/// `color` are NULL or point to writable ints.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn poker_game_look(
    game: *mut PokerGame,
    value: *mut c_int,
    color: *mut c_int,
) -> c_int {
    super::guard(POKER_ERR_INTERNAL, || {
        // SAFETY: NULL or a live handle, as the caller promises.
        let Some(game) = (unsafe { game.as_mut() }) else {
            return fail_null("the game handle");
        };
        if value.is_null() || color.is_null() {
            let error = game.game.look_with_null_pointer();
            return game.rule(error);
        }
        match game.game.look_code() {
            Ok((v, c)) => {
                // SAFETY: both non-NULL and writable, as the caller promises.
                unsafe {
                    *value = v;
                    *color = c;
                }
                POKER_OK
            }
            Err(error) => game.rule(error),
        }
    })
}

/// Places the card just looked at in `column` 1..4 (the contest's
/// `p_place`). At every moment the longest and shortest columns may differ by
/// at most 1 (contest text), so each block of 4 cards goes one to each column.
///
/// Returns `POKER_OK` (0) when more cards follow, `POKER_FINISHED` (1) when
/// this was the 20th placement, or: `POKER_ERR_NULL` for a NULL `game`;
/// `POKER_ERR_PLACE_WITHOUT_LOOK`, `POKER_ERR_COLUMN_OUT_OF_RANGE`,
/// `POKER_ERR_UNBALANCED`, `POKER_ERR_GAME_OVER` for a broken rule, which
/// ends the game with 0 points; `poker_game_error` names it.
///
/// # Safety
/// `game` is NULL or a live handle used by one thread at a time.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn poker_game_place(game: *mut PokerGame, column: c_int) -> c_int {
    super::guard(POKER_ERR_INTERNAL, || {
        // SAFETY: NULL or a live handle, as the caller promises.
        let Some(game) = (unsafe { game.as_mut() }) else {
            return fail_null("the game handle");
        };
        match game.game.place(column) {
            Ok(Progress::Continue) => POKER_OK,
            Ok(Progress::Finished(_)) => POKER_FINISHED,
            Err(error) => game.rule(error),
        }
    })
}

/// The game's points once it is over: 0..32 after the 20th placement (the
/// sum of the four columns' hands: straight flush 8, flush 7, four of a kind
/// 6, full house 5, straight 4, three of a kind 3, two pair 2, one pair 1,
/// nothing 0), or 0 after a broken rule (the contest's score for it).
/// If `columns_out` is not NULL, it receives each column's points (all 0
/// after a broken rule).
///
/// Returns the total, or `POKER_ERR_NULL` for a NULL `game`, or
/// `POKER_ERR_IN_PROGRESS` while cards remain to be placed (`columns_out`
/// is then left untouched).
///
/// # Safety
/// `game` is NULL or a live handle; `columns_out` is NULL or points to 4
/// writable ints.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn poker_game_score(
    game: *const PokerGame,
    columns_out: *mut c_int,
) -> c_int {
    super::guard(POKER_ERR_INTERNAL, || {
        // SAFETY: NULL or a live handle, as the caller promises.
        let Some(game) = (unsafe { game.as_ref() }) else {
            return fail_null("the game handle");
        };
        let Some(total) = game.game.final_total() else {
            return fail(
                POKER_ERR_IN_PROGRESS,
                format!(
                    "the game is not over: {} of 20 cards placed",
                    game.game.placements()
                ),
            );
        };
        let mut columns = [0; COLUMNS];
        if game.game.violation().is_none() {
            if let Some(score) = game.game.board().score() {
                columns = score.columns.map(|c| c_int::from(c.points));
            }
        }
        if !columns_out.is_null() {
            // SAFETY: non-NULL and 4 writable ints, as the caller promises.
            unsafe { std::ptr::copy_nonoverlapping(columns.as_ptr(), columns_out, COLUMNS) };
        }
        c_int::from(total)
    })
}

/// Releases a game. NULL is accepted and does nothing.
///
/// # Safety
/// `game` is NULL or a handle from `poker_game_new*` not yet freed; it must
/// not be used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn poker_game_free(game: *mut PokerGame) {
    if !game.is_null() {
        super::guard((), || {
            // SAFETY: a live handle from Box::into_raw, freed once.
            drop(unsafe { Box::from_raw(game) });
        });
    }
}

/// Writes the message of the first rule the game broke (one line such as
/// `rule broken at card 4 (call 9, p_place): placing in column 1 makes ...`) into
/// `buf` of `len` bytes, snprintf-style: if `len` > 0, up to `len` - 1 bytes
/// then a NUL; `buf` may be NULL only when `len` is 0 (to ask for the
/// length). An empty string if no rule was broken (a call after a finished
/// game is refused with `POKER_ERR_GAME_OVER` but breaks nothing: the score
/// stays).
///
/// Returns the message's full length in bytes (without the NUL; cut short
/// if this is >= `len`), 0 when no rule was broken, `POKER_ERR_NULL` for a
/// NULL `game` (or a NULL `buf` with `len` > 0), `POKER_ERR_ARGUMENT` for a
/// negative `len`.
///
/// # Safety
/// `game` is NULL or a live handle; `buf` is NULL or points to `len`
/// writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn poker_game_error(
    game: *const PokerGame,
    buf: *mut c_char,
    len: c_int,
) -> c_int {
    super::guard(POKER_ERR_INTERNAL, || {
        // SAFETY: NULL or a live handle, as the caller promises.
        let Some(game) = (unsafe { game.as_ref() }) else {
            return fail_null("the game handle");
        };
        let message = game.game.violation().map(|e| e.to_string());
        copy_message(message.as_deref(), buf, len)
    })
}

/// The contest points of five cards as one column (card order irrelevant):
/// straight flush 8, flush 7, four of a kind 6, full house 5, straight 4
/// (9-K or 10-A), three of a kind 3, two pair 2, one pair 1, nothing 0
/// (the contest text). Cards use the contest encoding: `values[i]`
/// 1..6 (9, 10, J, Q, K, A), `colors[i]` 1..4 (spades, hearts, diamonds,
/// clubs).
///
/// Returns 0..8, or `POKER_ERR_NULL` for a NULL array, `POKER_ERR_CARD` for
/// a value or color out of range, `POKER_ERR_DUPLICATE` for a card given
/// twice (`poker_last_error` says which).
///
/// # Safety
/// Each pointer is NULL or points to 5 readable ints.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn poker_hand_score(values: *const c_int, colors: *const c_int) -> c_int {
    super::guard(POKER_ERR_INTERNAL, || {
        if values.is_null() || colors.is_null() {
            return fail_null("a card array");
        }
        // SAFETY: non-NULL, and the caller promises 5 ints each.
        let cards = unsafe { super::contest_entries(values, colors, 5) };
        match CardList::CONTEST_HAND.validate(cards) {
            Ok(cards) => match <[Card; 5]>::try_from(cards) {
                Ok(hand) => c_int::from(categorize(&hand).contest_points()),
                Err(_) => fail_internal("five cards read"),
            },
            Err(error) => fail_cards("bad hand", &error),
        }
    })
}
