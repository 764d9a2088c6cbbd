//! The integration tests of poker-judge: the sandbox, and the evaluator's channel with C programs linked against the fresh library.
//! One test binary with a module per subject, so a change links once.

mod channel_pipes;
#[path = "../../../../tests/common/mod.rs"]
mod common;
mod sandbox;
