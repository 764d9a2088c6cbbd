//! `poker_optimum`: the hindsight optimum of a deal, over the
//! contest's card encoding.

use super::error::{POKER_ERR_COUNT, POKER_ERR_INTERNAL, POKER_ERR_NULL, fail, fail_cards};
use crate::card_list::CardList;
use crate::contest::PLACEMENTS;
use crate::optimum::optimum_of_entries;
use std::os::raw::c_int;

/// The hindsight optimum of a deal: the best total (0..32) that any
/// placement keeping the balance rule could reach if all the dealt cards
/// were known in advance (each block of 4 consecutive cards goes one to
/// each column). A bound on what any contestant can score on this deck.
///
/// `values[i]`, `colors[i]` (i = 0..count-1): the cards in dealing order,
/// in the contest's encoding (as `p_look` gives them): value 1 = 9, 2 = 10,
/// 3 = J, 4 = Q, 5 = K, 6 = A; color 1 = spades, 2 = hearts, 3 = diamonds,
/// 4 = clubs.
/// `count`: 20 (the dealt cards) or 24 (a whole deck; its last 4 cards are
/// never dealt and do not count, but are still checked).
/// `columns_out`: NULL, or room for 20 ints; on success `columns_out[i]` is
/// the column (1..4) of the i-th card in one placement reaching the
/// optimum. Placing the cards in order into those columns keeps the
/// balance rule. Left untouched on error.
///
/// Returns the optimum (>= 0), or `POKER_ERR_NULL` (values or colors is
/// NULL), `POKER_ERR_COUNT` (count not 20 or 24), `POKER_ERR_CARD` (a
/// value or color out of range), `POKER_ERR_DUPLICATE` (a card twice);
/// `poker_last_error` then says why. Rules and scoring: the contest text.
///
/// # Safety
/// Non-NULL `values` and `colors` must point to `count` readable ints, and
/// a non-NULL `columns_out` to 20 writable ints.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn poker_optimum(
    values: *const c_int,
    colors: *const c_int,
    count: c_int,
    columns_out: *mut c_int,
) -> c_int {
    super::guard(POKER_ERR_INTERNAL, || {
        if values.is_null() || colors.is_null() {
            return fail(POKER_ERR_NULL, "poker_optimum: values or colors is NULL");
        }
        let list = CardList::CONTEST_DEAL;
        let count = match usize::try_from(count).map(|n| (n, list.check_count(n))) {
            Ok((n, Ok(()))) => n,
            Ok((_, Err(error))) => return fail_cards("poker_optimum", &error),
            Err(_) => {
                return fail(
                    POKER_ERR_COUNT,
                    format!("poker_optimum: count {count} is negative, not 20 or 24"),
                );
            }
        };
        // SAFETY: both pointers are non-NULL and the caller promises
        // `count` readable ints behind each.
        let cards = unsafe { super::contest_entries(values, colors, count) };
        let best = match optimum_of_entries(cards) {
            Ok(best) => best,
            Err(error) => return fail_cards("poker_optimum", &error),
        };
        if !columns_out.is_null() {
            // SAFETY: non-NULL, and the caller promises 20 writable ints.
            let out = unsafe { std::slice::from_raw_parts_mut(columns_out, PLACEMENTS) };
            for (slot, &column) in out.iter_mut().zip(&best.columns) {
                *slot = c_int::from(column);
            }
        }
        c_int::from(best.total)
    })
}
