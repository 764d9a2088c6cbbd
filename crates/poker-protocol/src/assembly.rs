//! Bytes in, lines out, without I/O: the part of the protocol that both
//! sides share and that fuzzing drives with arbitrary chunks.

use super::MAX_LINE;
use std::fmt;

/// Why the bytes received break the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Breach {
    /// No newline within [`MAX_LINE`] bytes.
    TooLong,
    /// Bytes after a complete line: the peer sent before it was answered.
    OutOfTurn,
    /// A line that is not UTF-8 text.
    NotText,
}

impl fmt::Display for Breach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Breach::TooLong => write!(f, "a message longer than {MAX_LINE} bytes"),
            Breach::OutOfTurn => {
                f.write_str("a message out of turn (sent before the previous one was answered)")
            }
            Breach::NotText => f.write_str("a message that is not text"),
        }
    }
}

/// Collects the bytes of one message, whatever chunks they arrive in.
///
/// Each side sends exactly one line and then waits for the answer, so at
/// most one complete line is ever pending: anything after its newline is
/// a [`Breach::OutOfTurn`].
#[derive(Debug, Default)]
pub struct LineAssembler {
    pending: Vec<u8>,
}

impl LineAssembler {
    /// An empty assembler.
    pub fn new() -> LineAssembler {
        LineAssembler {
            pending: Vec::with_capacity(MAX_LINE),
        }
    }

    /// Adds received bytes: `Ok(Some(line))` (without its newline) once a
    /// whole line is in, `Ok(None)` while it is incomplete, or the breach.
    /// After a line or a breach the assembler starts empty.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Option<String>, Breach> {
        self.pending.extend_from_slice(bytes);
        let Some(end) = self.pending.iter().position(|&b| b == b'\n') else {
            if self.pending.len() >= MAX_LINE {
                self.pending.clear();
                return Err(Breach::TooLong);
            }
            return Ok(None);
        };
        let rest = self.pending.len() - end - 1;
        let mut line = std::mem::take(&mut self.pending);
        if end >= MAX_LINE {
            return Err(Breach::TooLong);
        }
        if rest > 0 {
            return Err(Breach::OutOfTurn);
        }
        line.truncate(end);
        String::from_utf8(line)
            .map(Some)
            .map_err(|_| Breach::NotText)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_in_any_chunks_comes_out_whole() {
        let mut lines = LineAssembler::new();
        assert_eq!(lines.feed(b"P"), Ok(None));
        assert_eq!(lines.feed(b" 3"), Ok(None));
        assert_eq!(lines.feed(b"\n"), Ok(Some("P 3".into())));
        assert_eq!(lines.feed(b"L\n"), Ok(Some("L".into())));
    }

    #[test]
    fn breaches_are_named() {
        assert_eq!(LineAssembler::new().feed(b"L\nL\n"), Err(Breach::OutOfTurn));
        assert_eq!(
            LineAssembler::new().feed(&[b'x'; 256]),
            Err(Breach::TooLong)
        );
        let mut long = vec![b'x'; 300];
        long.push(b'\n');
        assert_eq!(LineAssembler::new().feed(&long), Err(Breach::TooLong));
        assert_eq!(LineAssembler::new().feed(b"\xff\n"), Err(Breach::NotText));
        // 255 bytes and a newline is the longest line accepted.
        let mut longest = vec![b'x'; 255];
        longest.push(b'\n');
        assert!(LineAssembler::new().feed(&longest).unwrap().is_some());
    }
}
