//! Fuzz target `freecell_board`: see `checks::freecell_board` for the properties it asserts.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::freecell_board(data));
