//! The integration tests of poker-core: the games through their public API.
//! One test binary with a module per subject, so a change links once.
// Tests call the C API with pointers and lengths made beside each call;
// a SAFETY comment on each of them would repeat the line.
#![allow(clippy::undocumented_unsafe_blocks)]

mod camicia;
mod camicia_agreement;
mod camicia_cycles;
mod camicia_extend;
mod camicia_records;
mod camicia_search;
mod camicia_vector;
#[path = "../../../../tests/common/mod.rs"]
mod common;
mod contest_scoring;
mod freecell_batch;
mod freecell_board;
mod freecell_find;
mod import_cycles;
