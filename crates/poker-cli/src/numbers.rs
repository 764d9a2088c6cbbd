//! Numbers as the `poker` command prints them for people, one style
//! throughout: counts with thousands separators (`1,577,600`), rates as
//! whole numbers with separators from 100 up and one decimal below
//! (`1,577,600 deals/s`, `7.5 games/s`), `-` for a rate not measured yet.
//! JSON output keeps plain numbers.

/// `n` with a comma every three digits: `1,577,600`.
pub fn count(n: impl Into<u128>) -> String {
    let digits = n.into().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
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
