//! Fuzz target `camicia_deals`: see `checks::camicia_deals` for the
//! properties it asserts.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::camicia_deals(data));
