//! Fuzz target `game_api`: see `checks::game_api` for the properties it asserts.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::game_api(data));
