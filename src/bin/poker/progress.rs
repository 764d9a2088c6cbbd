//! The one progress bar of the `poker` command's long runs (`eval`,
//! `bench`, `camicia search`, `freecell --find`): on standard error, drawn
//! only on a terminal, hidden by `--quiet`.

use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::fmt::Write;

/// A bar counting `len` `unit`s (plural, e.g. `"games"`): elapsed time, the
/// bar, done/total, the rate and the time left, then the bar's message.
pub fn bar(len: u64, unit: &'static str, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let template = format!(
        "{{elapsed_precise}} [{{bar:30}}] {{human_pos}}/{{human_len}} {unit} ({{rate}}, about {{eta}} left) {{msg}}"
    );
    let style = ProgressStyle::with_template(&template)
        .expect("the progress template is valid")
        .with_key(
            "rate",
            move |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                let _ = out.write_str(&rate(state.per_sec(), unit));
            },
        );
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(style);
    bar
}

/// A rate for people: whole numbers with thousands separators from 100 a
/// second up, one decimal below (`12,346 deals/s`, `7.5 games/s`).
pub fn rate(per_second: f64, unit: &str) -> String {
    let mut text = String::new();
    if !per_second.is_finite() || per_second <= 0.0 {
        let _ = write!(text, "- {unit}/s");
    } else if per_second >= 100.0 {
        let _ = write!(text, "{} {unit}/s", HumanCount(per_second.round() as u64));
    } else {
        let _ = write!(text, "{per_second:.1} {unit}/s");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::rate;

    #[test]
    fn rates_read_as_whole_numbers_with_separators_or_one_decimal() {
        assert_eq!(rate(12_345.6, "deals"), "12,346 deals/s");
        assert_eq!(rate(1_234_567.0, "deals"), "1,234,567 deals/s");
        assert_eq!(rate(7.46, "games"), "7.5 games/s");
        assert_eq!(rate(0.0, "games"), "- games/s");
        assert_eq!(rate(f64::NAN, "games"), "- games/s");
    }
}
