//! Every `extern "C"` export of libpoker, thin: check pointers and ranges,
//! convert, call the safe Rust API, map errors to codes. No panic crosses
//! the boundary: each body runs under [`std::panic::catch_unwind`].
//!
//! The header `include/poker.h` is generated from this module by cbindgen.

pub mod camicia;
pub mod codes;
pub mod contest;
pub mod freecell;
pub mod game;
pub mod hand;
pub mod optimum;
pub mod runtime;
pub mod version;

use std::panic::{AssertUnwindSafe, catch_unwind};

/// Runs `body`, turning a panic into `fallback` so it never unwinds into C.
pub(crate) fn guard<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}
