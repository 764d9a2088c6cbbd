//! The one progress bar of the `poker` command's long runs (`eval`,
//! `bench`, `camicia search`, `freecell --find`): on standard error, drawn
//! only on a terminal, hidden by `--quiet`.

use indicatif::{
    HumanCount, HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle,
};
use std::fmt::Write;
use std::time::Duration;

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

/// As [`bar`], for items that may each take up to `per_item` (a game's
/// time limit and the evaluator's margin): the time left is given as the
/// estimate from the pace so far and the bound the limits set, since one
/// slow contestant after fast ones makes the estimate alone far too low.
pub fn bounded_bar(len: u64, unit: &'static str, quiet: bool, per_item: Duration) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let template = format!(
        "{{elapsed_precise}} [{{bar:30}}] {{human_pos}}/{{human_len}} {unit} ({{rate}}, {{left}}) {{msg}}"
    );
    let style = ProgressStyle::with_template(&template)
        .expect("the progress template is valid")
        .with_key(
            "rate",
            move |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                let _ = out.write_str(&rate(state.per_sec(), unit));
            },
        )
        .with_key(
            "left",
            move |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                let remaining = state.len().unwrap_or(0).saturating_sub(state.pos());
                let _ = out.write_str(&time_left(state.eta(), remaining, per_item));
            },
        );
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(style);
    bar
}

/// "about 3s left, at most 50s": the estimate, and `remaining` items of at
/// most `per_item` each.
pub fn time_left(estimate: Duration, remaining: u64, per_item: Duration) -> String {
    let bound = per_item.saturating_mul(u32::try_from(remaining).unwrap_or(u32::MAX));
    format!(
        "about {} left, at most {}",
        HumanDuration(estimate.min(bound)),
        HumanDuration(bound)
    )
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
    use super::{rate, time_left};
    use std::time::Duration;

    #[test]
    fn time_left_gives_the_limits_bound_beside_the_estimate() {
        // Ten games of at most 6 s each (a 5 s limit and 1 s of margin).
        assert_eq!(
            time_left(Duration::ZERO, 10, Duration::from_secs(6)),
            "about 0 seconds left, at most 60 seconds"
        );
        assert_eq!(
            time_left(Duration::from_secs(3), 1, Duration::from_secs(6)),
            "about 3 seconds left, at most 6 seconds"
        );
    }

    #[test]
    fn rates_read_as_whole_numbers_with_separators_or_one_decimal() {
        assert_eq!(rate(12_345.6, "deals"), "12,346 deals/s");
        assert_eq!(rate(1_234_567.0, "deals"), "1,234,567 deals/s");
        assert_eq!(rate(7.46, "games"), "7.5 games/s");
        assert_eq!(rate(0.0, "games"), "- games/s");
        assert_eq!(rate(f64::NAN, "games"), "- games/s");
    }
}
