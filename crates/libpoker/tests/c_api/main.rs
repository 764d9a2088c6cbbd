//! The integration tests of libpoker: the C API, from Rust and from C programs linked against the fresh library.
//! One test binary with a module per subject, so a change links once.
// Tests call the C API with pointers and lengths made beside each call;
// a SAFETY comment on each of them would repeat the line.
#![allow(clippy::undocumented_unsafe_blocks)]

mod abi;
mod binding_codes;
mod camicia_ffi;
#[path = "../../../../tests/common/mod.rs"]
mod common;
mod contest_module;
mod fork_server_threads;
mod freecell_c;
mod freecell_vectors;
mod game_api;
mod header;
mod last_error;
mod lua_declarations;
mod optimum;
mod other_languages;
mod sanitizers;
