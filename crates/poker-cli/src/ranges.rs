//! Ranges on the command line, one syntax for every command: `A..=B`
//! includes B, `A..B` is read as each command's help says (`freecell`:
//! inclusive, as it always was; `camicia search --range`: exclusive, a work
//! unit's half-open range).

use std::str::FromStr;

/// A range as written: its two ends and whether `..=` was used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written<T> {
    /// The first end, `A`.
    pub start: T,
    /// The second end, `B`.
    pub end: T,
    /// `A..=B` (true) or `A..B` (false).
    pub inclusive: bool,
}

/// Parses `A..B` or `A..=B` (spaces around the ends allowed); `None` when
/// `text` has no `..`. Errors say which end is not a `T`, with `parse_end`'s
/// message.
pub fn parse<T: FromStr>(text: &str) -> Option<Result<Written<T>, String>>
where
    T::Err: std::fmt::Display,
{
    let (start, rest) = text.split_once("..")?;
    let (end, inclusive) = match rest.strip_prefix('=') {
        Some(end) => (end, true),
        None => (rest, false),
    };
    let end_of = |which: &str, value: &str| {
        value
            .trim()
            .parse::<T>()
            .map_err(|e| format!("{text}: the {which} end {:?}: {e}", value.trim()))
    };
    Some((|| {
        Ok(Written {
            start: end_of("first", start)?,
            end: end_of("last", end)?,
            inclusive,
        })
    })())
}

#[cfg(test)]
mod tests {
    use super::{Written, parse};

    #[test]
    fn both_forms_parse() {
        assert_eq!(
            parse::<u64>("1..3"),
            Some(Ok(Written {
                start: 1,
                end: 3,
                inclusive: false
            }))
        );
        assert_eq!(
            parse::<u64>("1..=3"),
            Some(Ok(Written {
                start: 1,
                end: 3,
                inclusive: true
            }))
        );
        assert_eq!(
            parse::<u128>(" 0 .. 10 "),
            Some(Ok(Written {
                start: 0,
                end: 10,
                inclusive: false
            }))
        );
    }

    #[test]
    fn a_number_alone_is_no_range_and_bad_ends_are_named() {
        assert_eq!(parse::<u64>("7"), None);
        let err = parse::<u64>("1..x").unwrap().unwrap_err();
        assert!(err.contains("last end \"x\""), "{err}");
        let err = parse::<u64>("..3").unwrap().unwrap_err();
        assert!(err.contains("first end"), "{err}");
    }
}
