//! Fuzz target `input_validator`: see `checks::input_validator` for the properties it asserts.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::input_validator(data));
