//! The integration tests of poker-core: the games through their public API.
//! One test binary with a module per subject, so a change links once.

mod camicia;
mod camicia_agreement;
mod camicia_cycles;
mod camicia_records;
mod camicia_search;
mod camicia_vector;
#[path = "../../../../tests/common/mod.rs"]
mod common;
mod contest_scoring;
mod freecell_batch;
mod freecell_board;
mod freecell_find;
