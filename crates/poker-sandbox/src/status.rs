//! How a program ended, read from what reports it: a `waitpid` status
//! word, and the flat JSON objects bubblewrap and the reaper write.

/// How a game's program ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProgramEnding {
    /// The program exited with this code (0–255).
    Exited(i32),
    /// The program was killed by this signal. In the sandbox its wait status
    /// comes from the reaper ([`super::REAPER_PATH`]), so a program that calls
    /// `exit(139)` is `Exited(139)`; only if the reaper itself was killed
    /// (by its own program) is bubblewrap's 128 + n read as signal n.
    Signaled(i32),
    /// bubblewrap failed before the program started: its error message
    /// (from the stderr the caller captured) or its exit status.
    FailedToStart(String),
}

/// The ending a `waitpid` status word describes.
pub(crate) fn wait_status_ending(status: i32) -> ProgramEnding {
    let signal = status & 0x7f;
    if signal == 0 {
        ProgramEnding::Exited((status >> 8) & 0xff)
    } else {
        ProgramEnding::Signaled(signal)
    }
}

/// The integer value of `"key":` in bubblewrap's status objects (it writes
/// only flat objects of string keys and integer values).
pub(crate) fn status_field(text: &str, key: &str) -> Option<i64> {
    let quoted = format!("\"{key}\"");
    let rest = &text[text.find(&quoted)? + quoted.len()..];
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '-'))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wait_statuses_are_decoded_as_waitpid_documents_them() {
        // exit(139): status 139 << 8; SIGSEGV: 11; SIGKILL with a core
        // flag off: 9; exit(0): 0 (glibc's WIFEXITED/WEXITSTATUS).
        assert_eq!(wait_status_ending(139 << 8), ProgramEnding::Exited(139));
        assert_eq!(wait_status_ending(11), ProgramEnding::Signaled(11));
        assert_eq!(wait_status_ending(0x80 | 11), ProgramEnding::Signaled(11));
        assert_eq!(wait_status_ending(9), ProgramEnding::Signaled(9));
        assert_eq!(wait_status_ending(0), ProgramEnding::Exited(0));
    }

    #[test]
    fn status_fields_are_read_from_bubblewraps_objects() {
        let text = "{ \"child-pid\": 4242 }\n{ \"exit-code\": 139 }\n";
        assert_eq!(status_field(text, "child-pid"), Some(4242));
        assert_eq!(status_field(text, "exit-code"), Some(139));
        assert_eq!(status_field("{ \"child-pid\": 7 }", "exit-code"), None);
    }
}
