//! Fuzz target `camicia`: see `checks::camicia` for the properties it asserts.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::camicia(data));
