//! FreeCell deals by number for C: `freecell_deal` and `freecell_format`.

use super::error::{POKER_ERR_ARGUMENT, POKER_ERR_INTERNAL, copy_message, fail, fail_null};
use crate::freecell::{self, Deal, DealNumber, Layout, Tens};
use std::os::raw::{c_char, c_int, c_uchar};

/// The 0.1 names of this family's codes, now aliases in [`super::error`].
pub use super::error::{
    FREECELL_ERR_ARGUMENT, FREECELL_ERR_INTERNAL, FREECELL_ERR_NULL, FREECELL_ERR_RANGE,
};

/// Success.
pub const FREECELL_OK: c_int = 0;

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
/// Returns `FREECELL_OK` (0); `POKER_ERR_NULL` if `cards` is NULL;
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
        FREECELL_OK
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
