//! Running the contest on a judge system (Kattis/problemtools, DOMjudge),
//! without I/O: the input validator's decision ([`validate_input`]) and the
//! interactor's game ([`interact`], [`verdict`]). The `poker validate-deck`
//! and `poker interact` commands read and write the files and streams
//! around them.
//!
//! Both follow the Kattis validator conventions: exit status [`ACCEPT`]
//! (42) accepts, [`REJECT`] (43) rejects; any other status is a judge error.

mod input;
mod interactor;

pub use input::{MAX_INPUT, test_input, validate_input};
pub use interactor::{JudgeVerdict, PATIENCE, interact, verdict};

/// Kattis' "accepted" exit status for validators.
pub const ACCEPT: u8 = 42;
/// Kattis' "wrong answer" exit status for validators.
pub const REJECT: u8 = 43;
