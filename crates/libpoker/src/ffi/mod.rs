//! Every `extern "C"` export of libpoker, thin: check pointers and ranges,
//! convert, call the safe Rust API, map errors to codes ([`error`]: the one
//! code table and the thread's last error). No panic crosses the boundary:
//! each body runs under [`std::panic::catch_unwind`].
//!
//! The header `include/poker.h` is generated from this module by cbindgen.

pub mod camicia;
pub mod camicia_extend;
pub mod contest;
pub mod contest_exit;
mod deck_env_error;
pub mod error;
pub(crate) mod fork_server;
pub mod freecell;
pub mod game;
pub mod hand;
mod inherited;
pub mod optimum;
pub(crate) mod runtime;
mod session;
pub mod version;

/// The per-process runtime behind `p_*`, public only to the benchmarks
/// (feature `bench`): not part of the library's API.
#[cfg(feature = "bench")]
#[doc(hidden)]
pub use runtime::{Session, Step};

pub(crate) use error::guard;

use crate::cards::{Card, CardError};
use crate::contest::decode_card;
use std::os::raw::c_int;

/// The `n` cards of two C arrays in the contest encoding, as entries for a
/// [`crate::card_list::CardList`] to validate (a value or color out of range
/// is its entry's error).
///
/// # Safety
/// Both pointers are non-NULL and point to `n` readable ints that outlive
/// the iterator.
pub(crate) unsafe fn contest_entries<'a>(
    values: *const c_int,
    colors: *const c_int,
    n: usize,
) -> impl Iterator<Item = Result<Card, CardError>> + 'a {
    // SAFETY: the caller guarantees `n` readable ints behind each pointer.
    let (values, colors): (&'a [c_int], &'a [c_int]) = unsafe {
        (
            std::slice::from_raw_parts(values, n),
            std::slice::from_raw_parts(colors, n),
        )
    };
    values
        .iter()
        .zip(colors)
        .enumerate()
        .map(|(i, (&v, &c))| decode_card(v, c, i + 1))
}
