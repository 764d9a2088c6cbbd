//! Backward extension of a Camicia deal from C: the longest deal of its
//! basin (see `docs/camicia.md` and the Rust `poker::camicia::extend`).

use super::camicia::CamiciaResult;
use super::error::{
    POKER_ERR_INTERNAL, POKER_ERR_LOOP, POKER_ERR_NOT_FULL_DECK, POKER_OK, fail,
    fail_camicia_token, fail_null,
};
use crate::camicia::extend::{ExtendError, extend};
use crate::camicia::{Player, notation, parse_deck_bytes, penalties};
use std::ffi::CStr;
use std::os::raw::{c_char, c_int};

/// The longest deal of a deal's basin, and where its game joins the
/// deal's. Every field has a fixed size: nothing to free.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CamiciaExtension {
    /// The longest deal's hand A, top card first, 26 characters in `-`
    /// notation (`-` a number card, `J` `Q` `K` `A`), NUL-terminated: ready
    /// for `camicia_simulate`.
    pub a: [c_char; 27],
    /// Its hand B, likewise.
    pub b: [c_char; 27],
    /// Its index in the numbering of all 52-card deals (decimal, up to 21
    /// digits, NUL-terminated): `poker camicia deal INDEX` prints it.
    pub index: [c_char; 24],
    /// Its game: finished, `original.cards + added` cards.
    pub longest: CamiciaResult,
    /// The game of the deal given.
    pub original: CamiciaResult,
    /// Cards the longest deal's game plays beyond the original's (0: the
    /// deal given is the longest of its basin).
    pub added: u64,
    /// Tricks of the original game played before the round start where
    /// the longest deal's game joins it.
    pub joins_trick: u64,
    /// Cards of the original game played before that round start.
    pub joins_card: u64,
    /// Cards the longest deal's game plays before it joins.
    pub before_join: u64,
    /// States of the predecessor trees searched.
    pub nodes: u64,
}

/// Copies `text` (ASCII, shorter than `N`) into a NUL-terminated array.
fn text_field<const N: usize>(text: &str) -> [c_char; N] {
    let mut field = [0; N];
    for (place, &byte) in field.iter_mut().zip(text.as_bytes().iter().take(N - 1)) {
        *place = byte as c_char;
    }
    field
}

/// Extends a Camicia deal backwards: searches the predecessor trees of
/// every round start of its game (exact) and writes the longest deal of
/// its basin to `*out` (ties: the smallest index), with its game and where
/// that game joins the deal's. A few thousand to fifty thousand states, a
/// millisecond or so; Mann and Wu's 2007 deal (7157 cards) extends to
/// Anderson's 2013 deal (7225 cards), Collins 2006 (6913) to a deal of
/// 7544 cards.
///
/// `player_a`, `player_b`: as for `camicia_simulate` (NUL-terminated
/// strings, top card first), and together a full deck: 26 and 26 cards,
/// four each of J, Q, K and A (the number cards' values do not matter).
///
/// Returns `POKER_OK` (0); `POKER_ERR_NULL` if any pointer is NULL;
/// `POKER_ERR_TOKEN` for a token that is not a card; `POKER_ERR_NOT_FULL_DECK`
/// for hands that are not a full deck; `POKER_ERR_LOOP` if the game loops
/// (a loop has no longest deal). `poker_last_error` says why. `*out` is
/// written only on success. Thread-safe.
///
/// # Safety
/// Each non-NULL pointer must be valid: the strings NUL-terminated and
/// readable, `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn camicia_extend(
    player_a: *const c_char,
    player_b: *const c_char,
    out: *mut CamiciaExtension,
) -> c_int {
    super::guard(POKER_ERR_INTERNAL, || {
        if player_a.is_null() || player_b.is_null() || out.is_null() {
            return fail_null("a player string or the result");
        }
        // SAFETY: both are non-null and, as documented, NUL-terminated.
        let (a, b) = unsafe { (CStr::from_ptr(player_a), CStr::from_ptr(player_b)) };
        let decks = parse_deck_bytes(a.to_bytes(), Player::A)
            .and_then(|a| Ok((a, parse_deck_bytes(b.to_bytes(), Player::B)?)));
        let (a, b) = match decks {
            Ok(decks) => decks,
            Err(e) => return fail_camicia_token(&e),
        };
        let found = match extend(&penalties(&a), &penalties(&b)) {
            Ok(found) => found,
            Err(e @ ExtendError::Loop(_)) => return fail(POKER_ERR_LOOP, e.to_string()),
            Err(e) => return fail(POKER_ERR_NOT_FULL_DECK, e.to_string()),
        };
        let result = CamiciaExtension {
            a: text_field(&notation(found.deal.a())),
            b: text_field(&notation(found.deal.b())),
            index: text_field(&found.deal.rank().to_string()),
            longest: found.outcome.into(),
            original: found.original.into(),
            added: found.added,
            joins_trick: found.joins_trick,
            joins_card: found.joins_card,
            before_join: found.before_join,
            nodes: found.nodes,
        };
        // SAFETY: non-null, and the caller's to write.
        unsafe { *out = result };
        POKER_OK
    })
}
