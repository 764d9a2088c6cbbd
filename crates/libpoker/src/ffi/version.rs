//! The library's version, as header macros (checked against Cargo.toml by
//! `crates/poker-cli/tests/cli_tests/install.rs`) and at run time.

use std::ffi::c_char;
use std::os::raw::c_int;

/// Major version of the libpoker this header belongs to (Cargo.toml).
pub const POKER_VERSION_MAJOR: c_int = 0;
/// Minor version of the libpoker this header belongs to (Cargo.toml).
pub const POKER_VERSION_MINOR: c_int = 3;
/// Patch version of the libpoker this header belongs to (Cargo.toml).
pub const POKER_VERSION_PATCH: c_int = 0;

const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");

/// The version of the library actually loaded, e.g. `"0.3.0"` (a static
/// NUL-terminated string, never NULL): compare it with the header's
/// `POKER_VERSION_*` macros to detect a mismatched install.
#[unsafe(no_mangle)]
pub extern "C" fn poker_version() -> *const c_char {
    VERSION.as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_macros_match_the_crate_version() {
        let numbers = format!("{POKER_VERSION_MAJOR}.{POKER_VERSION_MINOR}.{POKER_VERSION_PATCH}");
        assert_eq!(numbers, env!("CARGO_PKG_VERSION"));
    }
}
