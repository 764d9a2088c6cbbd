//! Sizes as people write them (`64M`, `256MiB`, `1G`, `1.5 GiB`, a bare
//! number of MiB) and as reports print them: the one parser and the one
//! printer of every size option and limit.
//!
//! Suffixes are binary, whatever their spelling: `K`, `KB`, `KiB` are
//! 1024 bytes, `M`, `MB`, `MiB` are 1024² and so on up to `T`; `B` (or
//! `bytes`) is bytes; case does not matter. A bare number is MiB, as the
//! size options have always taken it.

/// Bytes in a MiB.
pub const MIB: u64 = 1 << 20;

/// The bytes of one unit named by `suffix` (lower case), if it is one.
fn unit(suffix: &str) -> Option<u64> {
    Some(match suffix {
        "" => MIB,
        "b" | "byte" | "bytes" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => MIB,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => return None,
    })
}

/// The size in bytes that `text` writes: a decimal number (`64`, `1.5`),
/// optionally a space, then an optional suffix (see the module's doc); the
/// result is rounded to the nearest byte.
///
/// Errors ([`SizeError`], whose message quotes `text`): it is empty,
/// negative, has an unknown suffix or more than 9 decimals
/// ([`SizeError::Invalid`], saying what a size looks like), or exceeds
/// `u64::MAX` bytes ([`SizeError::TooLarge`]).
pub fn parse_size(text: &str) -> Result<u64, SizeError> {
    let bad = || SizeError::Invalid(text.to_string());
    let trimmed = text.trim();
    let end = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(trimmed.len());
    let (number, suffix) = trimmed.split_at(end);
    let unit = unit(&suffix.trim_start().to_ascii_lowercase()).ok_or_else(bad)?;
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && fraction.is_empty() || fraction.len() > 9 || fraction.contains('.') {
        return Err(bad());
    }
    let digits = |s: &str| -> Result<u128, SizeError> {
        if s.is_empty() {
            Ok(0)
        } else {
            s.parse::<u128>().map_err(|_| bad())
        }
    };
    let scale = 10u128.pow(fraction.len() as u32);
    let bytes = digits(whole)? * u128::from(unit)
        + (digits(fraction)? * u128::from(unit) + scale / 2) / scale;
    u64::try_from(bytes).map_err(|_| SizeError::TooLarge(text.to_string()))
}

/// Why a text is not a size ([`parse_size`]); each holds the text as given.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SizeError {
    /// Not a number with an optional binary suffix.
    Invalid(String),
    /// More than `u64::MAX` bytes.
    TooLarge(String),
}

impl std::fmt::Display for SizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SizeError::Invalid(text) => write!(
                f,
                "invalid size {text:?}: write a number of MiB or a number with a binary suffix \
                 (64M, 256MiB, 1G, 512K)"
            ),
            SizeError::TooLarge(text) => write!(f, "size {text:?} is too large"),
        }
    }
}

impl std::error::Error for SizeError {}

/// `bytes` as a report prints it, in a form [`parse_size`] reads back
/// exactly: `256 MiB` for whole MiB, else `1536 KiB` for whole KiB, else
/// `1000 B`.
pub fn format_size(bytes: u64) -> String {
    if bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} B")
    }
}

#[cfg(test)]
mod tests {
    use super::{format_size, parse_size};

    // Expected values: the suffixes' binary definitions, by hand.
    #[test]
    fn sizes_are_read_as_people_write_them() {
        assert_eq!(parse_size("64"), Ok(64 * 1_048_576));
        assert_eq!(parse_size("64M"), Ok(67_108_864));
        assert_eq!(parse_size("256MiB"), Ok(268_435_456));
        assert_eq!(parse_size("256 mib"), Ok(268_435_456));
        assert_eq!(parse_size("1G"), Ok(1_073_741_824));
        assert_eq!(parse_size("1gb"), Ok(1_073_741_824));
        assert_eq!(parse_size("1.5G"), Ok(1_610_612_736));
        assert_eq!(parse_size("512K"), Ok(524_288));
        assert_eq!(parse_size("1T"), Ok(1_099_511_627_776));
        assert_eq!(parse_size("1000B"), Ok(1000));
        assert_eq!(parse_size("0.5"), Ok(524_288));
        assert_eq!(parse_size(".5M"), Ok(524_288));
    }

    #[test]
    fn malformed_sizes_are_refused() {
        for text in [
            "",
            "M",
            "-1",
            "64X",
            "1.2.3M",
            "64 M B",
            "1e6",
            "1.0000000001G",
        ] {
            assert!(parse_size(text).is_err(), "{text:?}");
        }
        assert!(parse_size("99999999999999999999T").is_err());
    }

    #[test]
    fn sizes_print_in_mib_and_read_back() {
        assert_eq!(format_size(268_435_456), "256 MiB");
        assert_eq!(format_size(1 << 30), "1024 MiB");
        assert_eq!(format_size(524_288), "512 KiB");
        assert_eq!(format_size(1000), "1000 B");
        for bytes in [1 << 20, 3 << 19, 1000, 64 << 20, 5 << 30] {
            assert_eq!(parse_size(&format_size(bytes)), Ok(bytes));
        }
    }
}
