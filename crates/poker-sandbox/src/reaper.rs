//! The reaper: a tiny program of our own (src/reaper.c, built by
//! build.rs) that runs a game's or a compilation's program inside the jail
//! and reports its exact wait status.
//!
//! bubblewrap reports a death by signal n as exit code 128 + n, the same as
//! a program that calls `exit(128 + n)`: without the reaper, `exit(139)`
//! read as a segmentation fault and `exit(152)` as a CPU-limit kill. The
//! reaper is embedded in the evaluator (so it ships wherever `poker` does)
//! and copied into each jail read-only at [`REAPER_PATH`].

/// The reaper: a static executable without a C library, about 9 KB.
pub(crate) const REAPER: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/poker-reaper"));

/// Where the reaper sits inside the jail.
pub const REAPER_PATH: &str = "/run/poker/reaper";

/// What the reaper reported: the wait status of its program, or the
/// `errno` of a program that could not be started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Report {
    /// `waitpid`'s status word.
    WaitStatus(i32),
    /// `execve` failed with this error number.
    ExecErrno(i32),
}

/// Reads the reaper's line (`{ "wait-status": N }` or
/// `{ "exec-errno": E }`) from what it wrote; `None` when it wrote nothing
/// (it was killed before its program ended).
pub(crate) fn parse(text: &str) -> Option<Report> {
    if let Some(e) = super::status::status_field(text, "exec-errno") {
        return Some(Report::ExecErrno(e as i32));
    }
    super::status::status_field(text, "wait-status").map(|s| Report::WaitStatus(s as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reaper_is_a_static_elf_executable() {
        assert_eq!(&REAPER[..4], b"\x7fELF");
        // e_type ET_EXEC (2): not position-independent, no interpreter.
        assert_eq!(u16::from_le_bytes([REAPER[16], REAPER[17]]), 2);
        assert!(REAPER.len() < 64 << 10, "{} bytes", REAPER.len());
    }

    #[test]
    fn its_lines_are_read() {
        assert_eq!(
            parse("{ \"wait-status\": 35584 }\n"),
            Some(Report::WaitStatus(35584))
        );
        assert_eq!(
            parse("{ \"exec-errno\": 2 }\n{ \"wait-status\": 32512 }\n"),
            Some(Report::ExecErrno(2))
        );
        assert_eq!(parse(""), None);
    }
}
