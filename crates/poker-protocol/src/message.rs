//! The messages: one request per contest call, one reply per request.

use super::MAX_LINE;

/// A request from the stub, one per contest call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    /// `p_startgame()`.
    StartGame,
    /// `p_look(&value, &color)` with valid pointers.
    Look,
    /// `p_look` with a NULL pointer.
    LookNull,
    /// `p_place(column)`, the column exactly as passed.
    Place(i32),
}

/// The manager's answer to a request.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reply {
    /// The call was accepted.
    Ok,
    /// The turned card, in the contest encoding (value 1..6, color 1..4).
    Card(i32, i32),
    /// The 20th placement was accepted; the game's total.
    End(u8),
    /// A broken rule, as one line of text; the game is over.
    Violation(String),
}

impl Request {
    /// The request as a line, newline included.
    pub fn encode(self) -> String {
        match self {
            Request::StartGame => "S\n".into(),
            Request::Look => "L\n".into(),
            Request::LookNull => "N\n".into(),
            Request::Place(column) => format!("P {column}\n"),
        }
    }

    /// Parses a line (without its newline); `None` for anything else.
    pub fn decode(line: &str) -> Option<Request> {
        match line {
            "S" => Some(Request::StartGame),
            "L" => Some(Request::Look),
            "N" => Some(Request::LookNull),
            _ => line
                .strip_prefix("P ")
                .and_then(|n| n.parse().ok())
                .map(Request::Place),
        }
    }
}

impl Reply {
    /// The reply as a line, newline included; a violation message is cut to
    /// fit [`MAX_LINE`] and any newline in it is replaced.
    pub fn encode(&self) -> String {
        match self {
            Reply::Ok => "OK\n".into(),
            Reply::Card(value, color) => format!("C {value} {color}\n"),
            Reply::End(total) => format!("END {total}\n"),
            Reply::Violation(message) => {
                let mut line: String = message.replace('\n', " ");
                while line.len() > MAX_LINE - 3 {
                    line.pop();
                }
                format!("V {line}\n")
            }
        }
    }

    /// Parses a line (without its newline); `None` for anything else.
    pub fn decode(line: &str) -> Option<Reply> {
        if line == "OK" {
            return Some(Reply::Ok);
        }
        if let Some(message) = line.strip_prefix("V ") {
            return Some(Reply::Violation(message.to_string()));
        }
        if let Some(total) = line.strip_prefix("END ") {
            return total.parse().ok().map(Reply::End);
        }
        let rest = line.strip_prefix("C ")?;
        let (value, color) = rest.split_once(' ')?;
        Some(Reply::Card(value.parse().ok()?, color.parse().ok()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_round_trip() {
        for r in [
            Request::StartGame,
            Request::Look,
            Request::LookNull,
            Request::Place(-7),
            Request::Place(4),
        ] {
            assert_eq!(Request::decode(r.encode().trim_end()), Some(r));
        }
        for junk in ["", "P", "P x", "LL", "s", "P 99999999999"] {
            assert_eq!(Request::decode(junk), None, "{junk:?}");
        }
    }

    #[test]
    fn replies_round_trip() {
        for r in [
            Reply::Ok,
            Reply::Card(6, 4),
            Reply::End(32),
            Reply::Violation("column 9 is outside 1..4".into()),
        ] {
            assert_eq!(Reply::decode(r.encode().trim_end()), Some(r.clone()));
        }
        let long = Reply::Violation("x".repeat(1000)).encode();
        assert!(long.len() <= MAX_LINE);
    }
}
