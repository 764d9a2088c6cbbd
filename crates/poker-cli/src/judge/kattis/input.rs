//! The input validator's decision: is a test's input exactly one deck, in
//! the one format the package writes? If not, why not.

use poker_core::cards::CardError;
use poker_core::contest::ContestDeck;
use std::fmt;

/// The largest input the validator reads; a deck line is 72 bytes.
pub const MAX_INPUT: u64 = 4096;

/// A test's input for `deck`, as the problem package writes it: the deck's
/// 24 cards as upper-case two-letter tokens separated by single spaces, and
/// one newline.
pub fn test_input(deck: &ContestDeck) -> String {
    format!("{deck}\n")
}

/// The deck of a valid test input, or why `bytes` are not one.
///
/// Valid is exactly one line: the 24 cards of the contest deck (9, T, J, Q,
/// K, A of S, H, D, C, each once), as upper-case two-letter tokens separated
/// by single spaces, ending with one newline and nothing after it (what
/// [`test_input`] writes). No comments, blank lines, lower case, `10` or
/// carriage returns.
pub fn validate_input(bytes: &[u8]) -> Result<ContestDeck, InputError> {
    if bytes.len() as u64 > MAX_INPUT {
        return Err(InputError::TooLong);
    }
    let text = std::str::from_utf8(bytes).map_err(|_| InputError::NotUtf8)?;
    let line = text.strip_suffix('\n').ok_or(InputError::NoFinalNewline)?;
    if line.contains('\n') {
        return Err(InputError::MoreThanOneLine);
    }
    let deck = ContestDeck::parse(line).map_err(InputError::BadDeck)?;
    if deck.to_string() != line {
        return Err(InputError::NotExact {
            expected: deck.to_string(),
        });
    }
    Ok(deck)
}

/// Why the input validator rejects a test's input
/// ([`validate_input`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// Longer than [`MAX_INPUT`] bytes.
    TooLong,
    /// Not UTF-8 text.
    NotUtf8,
    /// The last line has no newline.
    NoFinalNewline,
    /// More than one line.
    MoreThanOneLine,
    /// The line is not the contest's 24 cards.
    BadDeck(CardError),
    /// The cards are a deck but not written exactly as the package writes
    /// it: the line that was expected.
    NotExact {
        /// The deck as the package writes it.
        expected: String,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::TooLong => write!(f, "longer than {} bytes", MAX_INPUT),
            InputError::NotUtf8 => f.write_str("not UTF-8 text"),
            InputError::NoFinalNewline => f.write_str("the input does not end with a newline"),
            InputError::MoreThanOneLine => f.write_str("more than one line"),
            InputError::BadDeck(e) => write!(f, "{e}"),
            InputError::NotExact { expected } => {
                write!(f, "not in the exact format: expected {expected:?}")
            }
        }
    }
}

impl std::error::Error for InputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InputError::BadDeck(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_canonical_line_is_valid() {
        let line = "9S TS JS QS KS AS 9H TH JH QH KH AH 9D TD JD QD KD AD 9C TC JC QC KC AC";
        let deck = validate_input(format!("{line}\n").as_bytes()).unwrap();
        assert_eq!(deck.to_string(), line);
        for bad in [
            line.to_string(),
            format!("{line}\n\n"),
            format!("{line} \n"),
            format!(" {line}\n"),
            format!("{}\n", line.to_lowercase()),
            format!("{}\n", line.replace("AC", "AS")),
            format!("{}\n", line.replace(" AC", "")),
            format!("{}\n", line.replace(' ', "  ")),
            format!("{}\n", line.replace("TS", "10S")),
            format!("{line} # deck 1\n"),
            format!("{line}\r\n"),
            "\n".to_string(),
            String::new(),
        ] {
            assert!(validate_input(bad.as_bytes()).is_err(), "{bad:?}");
        }
        // Without its newline the line is refused, with the reason.
        let refused = validate_input(line.as_bytes()).unwrap_err();
        assert_eq!(refused, InputError::NoFinalNewline);
        assert_eq!(refused.to_string(), "the input does not end with a newline");
        assert!(validate_input(b"\xff\n").is_err());
        assert!(validate_input(&[b'9'; 5000]).is_err());
    }
}
