//! Numbers as every text report of the kit prints them for people (the
//! `poker` command, the evaluator's report, the hunt's merge and odds), one
//! style throughout: counts with thousands separators (`1,577,600 deals`,
//! `8,344 cards`), rates as whole numbers with separators from 100 up and
//! one decimal below (`1,577,600 deals/s`, `7.5 games/s`), `-` for a rate
//! not measured yet; times as a number, a space and a unit (`0.041 s`,
//! `5 s`, `200 ms`), sizes as `256 MiB`.
//!
//! Numbers that name rather than count stay plain, so that they can be
//! pasted back into a command: deal indices and ranges, seeds, deal and
//! deck numbers, process ids. Machine-readable output (JSON, CSV, deck
//! files, replay lines) keeps plain numbers.

/// A whole number of things, of any unsigned type, for [`count`].
pub trait Count {
    /// The number, widened.
    fn widened(self) -> u128;
}

macro_rules! count_types {
    ($($t:ty),*) => {$(
        impl Count for $t {
            fn widened(self) -> u128 {
                self as u128
            }
        }
    )*};
}

count_types!(u8, u16, u32, u64, u128, usize);

/// `n` with a comma every three digits: `1,577,600`.
pub fn count(n: impl Count) -> String {
    let digits = n.widened().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// `per_second` `unit`s a second: `12,346 deals/s`, `7.5 games/s`, or
/// `- games/s` when nothing was measured (zero, negative or not finite).
pub fn rate(per_second: f64, unit: &str) -> String {
    format!("{} {unit}/s", amount(per_second))
}

/// `amount` as [`rate`] writes it, without a unit: `1,234`, `7.5`, `-`.
pub fn amount(amount: f64) -> String {
    if !amount.is_finite() || amount <= 0.0 {
        "-".to_string()
    } else if amount >= 100.0 {
        count(amount.round() as u128)
    } else {
        format!("{amount:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_have_thousands_separators() {
        assert_eq!(count(0u64), "0");
        assert_eq!(count(999u64), "999");
        assert_eq!(count(1000u64), "1,000");
        assert_eq!(count(1_577_600u64), "1,577,600");
        assert_eq!(count(100_000_000_000u128), "100,000,000,000");
    }

    #[test]
    fn rates_read_as_whole_numbers_with_separators_or_one_decimal() {
        assert_eq!(rate(12_345.6, "deals"), "12,346 deals/s");
        assert_eq!(rate(1_234_567.0, "deals"), "1,234,567 deals/s");
        assert_eq!(rate(7.46, "games"), "7.5 games/s");
        assert_eq!(rate(0.0, "games"), "- games/s");
        assert_eq!(rate(f64::NAN, "games"), "- games/s");
        assert_eq!(amount(2_960_000.4), "2,960,000");
    }
}
