//! The one progress bar of the `poker` command's long runs (`eval`,
//! `bench`, `camicia search`, `freecell --find`): on standard error, drawn
//! only on a terminal, hidden by `--quiet`.

use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use poker_core::numbers::rate;
use std::time::Duration;

/// A bar counting `len` `unit`s (plural, e.g. `"games"`): elapsed time, the
/// bar, done/total, the rate and the time left, then the bar's message.
pub fn bar(len: u64, unit: &'static str, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let template = format!(
        "{{elapsed_precise}} [{{bar:30}}] {{human_pos}}/{{human_len}} {unit} ({{pace}}) {{msg}}"
    );
    let style = ProgressStyle::with_template(&template)
        .expect("the progress template is valid")
        .with_key(
            "pace",
            move |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                let measured = state.pos() > 0;
                let _ = out.write_str(&pace(measured, state.per_sec(), unit, state.eta(), None));
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
        "{{elapsed_precise}} [{{bar:30}}] {{human_pos}}/{{human_len}} {unit} ({{pace}}) {{msg}}"
    );
    let style = ProgressStyle::with_template(&template)
        .expect("the progress template is valid")
        .with_key(
            "pace",
            move |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                let remaining = state.len().unwrap_or(0).saturating_sub(state.pos());
                let bound = bound(remaining, per_item);
                let measured = state.pos() > 0;
                let text = pace(measured, state.per_sec(), unit, state.eta(), Some(bound));
                let _ = out.write_str(&text);
            },
        );
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(style);
    bar
}

/// How long `remaining` items of at most `per_item` each can take.
fn bound(remaining: u64, per_item: Duration) -> Duration {
    per_item.saturating_mul(u32::try_from(remaining).unwrap_or(u32::MAX))
}

/// "about 3 seconds left, at most 50 seconds": the estimate, and the
/// bound the limits set.
pub fn time_left(estimate: Duration, bound: Duration) -> String {
    format!(
        "about {} left, at most {}",
        HumanDuration(estimate.min(bound)),
        HumanDuration(bound)
    )
}

/// The bar's parenthesis: the rate and the time left once something was
/// `measured` (an item done); before that no rate and no estimate, only
/// the limits' `bound` when there is one.
fn pace(
    measured: bool,
    per_second: f64,
    unit: &str,
    estimate: Duration,
    bound: Option<Duration>,
) -> String {
    match (measured, bound) {
        (false, None) => "starting".to_string(),
        (false, Some(bound)) => format!("at most {} left", HumanDuration(bound)),
        (true, None) => format!(
            "{}, about {} left",
            rate(per_second, unit),
            HumanDuration(estimate)
        ),
        (true, Some(bound)) => {
            format!("{}, {}", rate(per_second, unit), time_left(estimate, bound))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{bound, pace, time_left};
    use std::time::Duration;

    #[test]
    fn time_left_gives_the_limits_bound_beside_the_estimate() {
        // Ten games of at most 6 s each (a 5 s limit and 1 s of margin).
        assert_eq!(
            time_left(Duration::from_secs(3), bound(1, Duration::from_secs(6))),
            "about 3 seconds left, at most 6 seconds"
        );
    }

    #[test]
    fn nothing_measured_gives_no_rate_and_no_estimate() {
        let six = Duration::from_secs(6);
        assert_eq!(
            pace(false, 0.0, "games", Duration::ZERO, Some(bound(10, six))),
            "at most 60 seconds left"
        );
        assert_eq!(
            pace(false, f64::NAN, "deals", Duration::ZERO, None),
            "starting"
        );
        assert_eq!(
            pace(true, 7.46, "games", Duration::from_secs(3), Some(six)),
            "7.5 games/s, about 3 seconds left, at most 6 seconds"
        );
        assert_eq!(
            pace(true, 12_345.6, "deals", Duration::from_secs(40), None),
            "12,346 deals/s, about 40 seconds left"
        );
    }
}
