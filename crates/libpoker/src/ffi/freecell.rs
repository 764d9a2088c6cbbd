//! FreeCell deals by number for C: `freecell_deal`, `freecell_deal_range`,
//! `freecell_format`, and the reverse, `freecell_find`.

use super::error::{
    POKER_ERR_ARGUMENT, POKER_ERR_COUNT, POKER_ERR_INTERNAL, POKER_OK, copy_message, fail,
    fail_cards, fail_null,
};
use crate::freecell::{self, Deal, DealNumber, Layout, Tens};
use std::os::raw::{c_char, c_int, c_uchar};

/// The 0.1 names of this family's codes, deprecated aliases in
/// [`super::error`] (removed in 0.4.0).
#[allow(deprecated)] // Re-exported for Rust users, who are warned where they use one.
pub use super::error::{
    FREECELL_ERR_ARGUMENT, FREECELL_ERR_INTERNAL, FREECELL_ERR_NULL, FREECELL_ERR_RANGE,
    FREECELL_OK,
};

/// The first deal number.
pub const FREECELL_MIN_DEAL: i64 = 1;
/// The last deal number, 2^33 - 1 (FreeCell Pro's extension).
pub const FREECELL_MAX_DEAL: i64 = 8589934591;

/// `freecell_format` layout: fc-solve's board, one line per column (8
/// lines of 7,7,7,7,6,6,6,6 cards), deepest card first.
pub const FREECELL_LAYOUT_COLUMNS: c_int = 0;
/// `freecell_format` layout: the seed's 7 rows (six of 8 cards, then 4).
pub const FREECELL_LAYOUT_ROWS: c_int = 1;
/// `freecell_format` layout: the 52 cards in dealing order on one line.
pub const FREECELL_LAYOUT_ORDER: c_int = 2;
/// `freecell_format` flag, OR'ed into the layout: write ten as `10`
/// instead of `T`.
pub const FREECELL_TEN_AS_10: c_int = 8;
/// A buffer of this many bytes holds any deal in any format, with its
/// terminating NUL.
pub const FREECELL_TEXT_MAX: c_int = 256;

const _: () = assert!(
    FREECELL_MIN_DEAL as u64 == freecell::MIN_DEAL
        && FREECELL_MAX_DEAL as u64 == freecell::MAX_DEAL
);

/// The deal number `n`, or the code of its error (recorded).
fn deal_number(n: i64) -> Result<DealNumber, c_int> {
    DealNumber::new(n).map_err(|error| super::error::fail_deal_number(&error))
}

/// Deals Microsoft FreeCell game `deal_number` (the Rosetta Code
/// "Deal cards for FreeCell" task; the ranges above 2^31 - 1 are FreeCell
/// Pro's, as pysol-cards and fc-solve deal them).
///
/// `deal_number`: 1..8589934591 (FREECELL_MIN_DEAL..FREECELL_MAX_DEAL).
/// 1..2147483647 are Microsoft's deals (1..32000 the classic ones).
///
/// `cards`: 52 writable bytes. On success `cards[k]` is the k-th card dealt,
/// which goes to column `k % 8` (0-based), row `k / 8`; columns 0-3 get 7
/// cards, 4-7 get 6, the first card of a column is the deepest. Each card is
/// Microsoft's index `rank * 4 + suit`: rank 0 = ace, 1 = deuce, ...,
/// 9 = ten, 10 = jack, 11 = queen, 12 = king; suit 0 = clubs, 1 = diamonds,
/// 2 = hearts, 3 = spades. So 0 = AC, 1 = AD, 4 = 2C, 51 = KS.
///
/// Returns `POKER_OK` (0); `POKER_ERR_NULL` if `cards` is NULL;
/// `POKER_ERR_DEAL_NUMBER` for a deal number outside 1..8589934591 (`cards`
/// is then left untouched).
///
/// # Safety
/// `cards` is NULL or points to 52 writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn freecell_deal(deal_number: i64, cards: *mut c_uchar) -> c_int {
    super::guard(POKER_ERR_INTERNAL, || {
        if cards.is_null() {
            return fail_null("the card array");
        }
        let n = match self::deal_number(deal_number) {
            Ok(n) => n,
            Err(code) => return code,
        };
        let dealt = freecell::deal_indices(n);
        // SAFETY: `cards` is non-null and the caller promises 52 writable
        // bytes, as the signature `unsigned char cards[52]` documents.
        unsafe { std::ptr::copy_nonoverlapping(dealt.as_ptr(), cards, dealt.len()) };
        POKER_OK
    })
}

/// Writes deal `deal_number` as text, snprintf-style.
///
/// `format`: FREECELL_LAYOUT_COLUMNS (fc-solve's board: 8 lines, one per
/// column, deepest card first; deal 1 starts "JD KD 2S 4C 3S 6D 6S"),
/// FREECELL_LAYOUT_ROWS (the seed's 7 rows; deal 1 starts
/// "JD 2D 9H JC 5D 7H 7C 5H") or FREECELL_LAYOUT_ORDER (one line, 52 cards
/// in dealing order), optionally OR'ed with FREECELL_TEN_AS_10. Cards are
/// rank (A 2-9 T J Q K) then suit (C D H S), separated by one space; every
/// line ends with '\n'.
///
/// `buf`, `len`: a buffer of `len` bytes. If `len` > 0, up to `len` - 1
/// bytes of the text are written, then a NUL. `buf` may be NULL only when
/// `len` is 0 (to ask for the length). FREECELL_TEXT_MAX bytes always suffice.
///
/// Returns the text's full length in bytes, without the NUL (the text was
/// cut short if this is >= `len`); `POKER_ERR_DEAL_NUMBER` for a deal number
/// outside 1..8589934591; `POKER_ERR_NULL` for a NULL `buf` with `len` > 0;
/// `POKER_ERR_ARGUMENT` for an unknown `format` or a negative `len`.
///
/// # Safety
/// `buf` is NULL or points to `len` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn freecell_format(
    deal_number: i64,
    format: c_int,
    buf: *mut c_char,
    len: c_int,
) -> c_int {
    super::guard(POKER_ERR_INTERNAL, || {
        let n = match self::deal_number(deal_number) {
            Ok(n) => n,
            Err(code) => return code,
        };
        let layout = match format & !FREECELL_TEN_AS_10 {
            FREECELL_LAYOUT_COLUMNS => Layout::Columns,
            FREECELL_LAYOUT_ROWS => Layout::Rows,
            FREECELL_LAYOUT_ORDER => Layout::Order,
            _ => {
                return fail(
                    POKER_ERR_ARGUMENT,
                    format!("format {format} is not a FREECELL_LAYOUT_* value"),
                );
            }
        };
        let tens = if format & FREECELL_TEN_AS_10 != 0 {
            Tens::Ten
        } else {
            Tens::T
        };
        let text = Deal::new(n).format(layout, tens);
        copy_message(Some(&text), buf, len)
    })
}

/// Finds the deal numbers whose first `ncards` cards, in dealing order, are
/// `cards`: a whole board (52 cards) or the start of one. Searches all of
/// 1..8589934591 by inverting the generator: 3 to 52 cards take about
/// 15 ms of one core, 2 cards about 90 ms. About 1,300 deals share their
/// first 4 cards and about 27 their first 5; from 6 cards on the deal is
/// normally unique. One card matches
/// about 165 million deals: the count is immediate, but listing `max` of
/// them scans about `52 * max` numbers.
///
/// `cards`: `ncards` card indices as `freecell_deal` writes them
/// (`rank * 4 + suit`, 0 = AC .. 51 = KS), distinct. `ncards`: 1..52.
///
/// `deal_numbers`: room for `max` deal numbers; the smallest `max` matches
/// are stored there, ascending. It may be NULL when `max` is 0 (to ask for
/// the count only).
///
/// Returns the total number of matching deals (0 if none; it may exceed
/// `max`, and then only `max` are stored); `POKER_ERR_NULL` for a NULL
/// `cards`, or a NULL `deal_numbers` with `max` > 0; `POKER_ERR_COUNT` for
/// `ncards` outside 1..52; `POKER_ERR_CARD` for an index above 51;
/// `POKER_ERR_DUPLICATE` for a card given twice; `POKER_ERR_ARGUMENT` for a
/// negative `max`. On an error nothing is stored.
///
/// # Safety
/// `cards` is NULL or points to `ncards` readable bytes; `deal_numbers` is
/// NULL or points to `max` writable `int64_t`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn freecell_find(
    cards: *const c_uchar,
    ncards: c_int,
    deal_numbers: *mut i64,
    max: i64,
) -> i64 {
    super::guard(i64::from(POKER_ERR_INTERNAL), || {
        if cards.is_null() {
            return i64::from(fail_null("the card array"));
        }
        let Ok(max) = usize::try_from(max) else {
            return i64::from(fail(
                POKER_ERR_ARGUMENT,
                format!("max is {max}: it must not be negative"),
            ));
        };
        if max > 0 && deal_numbers.is_null() {
            return i64::from(fail_null("the deal number array"));
        }
        let n = match usize::try_from(ncards) {
            Ok(n @ 1..=52) => n,
            _ => {
                return i64::from(fail(
                    POKER_ERR_COUNT,
                    format!("ncards is {ncards}: a board's first 1 to 52 cards are searched"),
                ));
            }
        };
        // SAFETY: non-null; the caller promises `ncards` readable bytes.
        let prefix = unsafe { std::slice::from_raw_parts(cards, n) };
        match freecell::find_prefix_indices(prefix, max) {
            Ok(found) => {
                let numbers: Vec<i64> = found.deals.iter().map(|d| d.get() as i64).collect();
                // SAFETY: at most `max` numbers, and `deal_numbers` holds
                // `max` (it is non-null whenever `max` > 0).
                if !numbers.is_empty() {
                    // SAFETY: as above; a fresh Vec never overlaps the caller's array.
                    unsafe {
                        std::ptr::copy_nonoverlapping(numbers.as_ptr(), deal_numbers, numbers.len())
                    };
                }
                found.total as i64
            }
            Err(error) => i64::from(fail_cards("bad board", &error)),
        }
    })
}

/// Deals the `count` consecutive games `first`, `first + 1`, ...,
/// `first + count - 1` into `cards`, 52 bytes per deal one after another:
/// bytes `52 * i .. 52 * i + 51` get deal `first + i` exactly as
/// `freecell_deal` writes it. Faster per deal than calling `freecell_deal`
/// in a loop (on x86-64 it uses AVX2 when the processor has it; the
/// environment variable `POKER_PLAIN=1` forces the plain path, which gives
/// the same cards). A range may cross 2147483648 and 4294967296.
///
/// `first`: 1..8589934591. `count`: 0 or more; 0 deals nothing and
/// succeeds for a valid `first` (`cards` may then be NULL). `cards`: `52 * count` writable
/// bytes.
///
/// Returns `POKER_OK` (0); `POKER_ERR_DEAL_NUMBER` if `first` is below 1
/// or `first + count - 1` is above 8589934591; `POKER_ERR_ARGUMENT` for a
/// negative `count` or a `52 * count` that does not fit in memory;
/// `POKER_ERR_NULL` for a NULL `cards` with `count` > 0. On an error
/// nothing is written.
///
/// # Safety
/// `cards` is NULL or points to `52 * count` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn freecell_deal_range(first: i64, count: i64, cards: *mut c_uchar) -> c_int {
    super::guard(POKER_ERR_INTERNAL, || {
        if count < 0 {
            return fail(
                POKER_ERR_ARGUMENT,
                format!("count is {count}: it must not be negative"),
            );
        }
        let start = match self::deal_number(first) {
            Ok(n) => n,
            Err(code) => return code,
        };
        if count == 0 {
            return POKER_OK;
        }
        if first
            .checked_add(count - 1)
            .is_none_or(|last| last > FREECELL_MAX_DEAL)
        {
            return fail(
                super::error::POKER_ERR_DEAL_NUMBER,
                format!(
                    "deals {first}..{} do not exist: deal numbers run from 1 to {FREECELL_MAX_DEAL}",
                    i128::from(first) + i128::from(count) - 1
                ),
            );
        }
        let fits = usize::try_from(count)
            .ok()
            .and_then(|n| n.checked_mul(freecell::CARDS))
            .is_some_and(|bytes| bytes <= isize::MAX as usize);
        if !fits {
            return fail(
                POKER_ERR_ARGUMENT,
                format!("count is {count}: 52 * count bytes do not fit in memory"),
            );
        }
        if cards.is_null() {
            return fail_null("the card array");
        }
        // SAFETY: non-null; the caller promises 52 * count writable bytes,
        // which fit in an isize; [u8; 52] has alignment 1.
        let out = unsafe {
            std::slice::from_raw_parts_mut(cards.cast::<[u8; freecell::CARDS]>(), count as usize)
        };
        match freecell::deal_range(start, out) {
            Ok(()) => POKER_OK,
            Err(error) => super::error::fail_deal_number(&error),
        }
    })
}
