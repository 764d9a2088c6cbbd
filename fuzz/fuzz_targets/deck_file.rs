//! Fuzz target `deck_file`: see `checks::deck_file` for the properties it asserts.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::deck_file(data));
