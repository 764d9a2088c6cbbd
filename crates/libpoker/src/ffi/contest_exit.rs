//! The exit statuses a contestant's process ends with when the contest
//! module ends it (POKER.H's programs have no other way to hear of a
//! broken rule or a failed channel).

use std::io::Write;
use std::os::raw::c_int;

/// Exit status of a contestant after a broken rule (message on stderr).
pub const POKER_EXIT_VIOLATION: c_int = 3;
/// Exit status when the module cannot start: a malformed `POKER_DECK`
/// (24 card tokens) or `POKER_SEED` (a u64), or a `POKER_MANAGER_FD` that is
/// not a file descriptor number.
pub const POKER_EXIT_BAD_SETUP: c_int = 2;
/// Exit status when the evaluator's channel fails (evaluation mode only).
pub const POKER_EXIT_CHANNEL: c_int = 4;
/// Exit status when libpoker itself fails (a bug: please report it).
pub const POKER_EXIT_INTERNAL: c_int = 70;

/// Flushes the host program's C stdio, writes our text, and exits.
pub(crate) fn finish(code: i32, stdout: &str, stderr: &str) -> ! {
    // SAFETY: fflush(NULL) flushes every open C output stream.
    unsafe { libc::fflush(std::ptr::null_mut()) };
    let _ = std::io::stdout().write_all(stdout.as_bytes());
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().write_all(stderr.as_bytes());
    std::process::exit(code)
}
