//! Fuzz target `interactor`: see `checks::interactor` for the properties it asserts.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::interactor(data));
