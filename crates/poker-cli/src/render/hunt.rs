//! The HTML page of a merged Camicia search (`poker camicia merge --html`):
//! the counts, the best games, the cycles, the distribution of game lengths
//! on a log scale (the tail is what record hunters look at) and the
//! longest game's plot. For units of random deals also the tail's fit and
//! the target on the histogram, the histogram after extension beside it,
//! the deals found by extension and the odds of a record.

use super::{camicia_svg, environment};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use poker_core::camicia::reference::Trace;
use poker_hunt::merge::{Merged, random_coverage};
use serde::Serialize;

const GREEN: RGBColor = RGBColor(46, 107, 58);
const BLUE: RGBColor = RGBColor(40, 80, 160);
const RED: RGBColor = RGBColor(190, 40, 40);

#[derive(Serialize)]
struct HuntView<'a> {
    #[serde(flatten)]
    merged: &'a Merged,
    /// `indices START..END` or `N random deals`.
    title: String,
    /// How the units cover the deals.
    coverage: String,
    histogram: String,
    histogram_extended: Option<String>,
    odds_lines: Vec<String>,
    /// What a deal cost each engine, one line each.
    cost_lines: Vec<String>,
    longest: Option<String>,
}

/// The tail fit drawn over a histogram: games per bin from `from` cards on,
/// `games · (1 - q) · q^k` in bin `k` past `from` for `q = e^(-bin/decay)`.
struct Fit {
    from: u64,
    games: u64,
    decay: f64,
}

/// The page for `merged`, with `longest`'s plot when given.
pub fn camicia_merge_page(merged: &Merged, longest: Option<&Trace>) -> anyhow::Result<String> {
    let bin = merged.lengths.bin_cards;
    let random = merged.mode == "random";
    let tail = merged
        .odds
        .as_ref()
        .and_then(|o| o.without_extension.as_ref());
    let fit = tail.map(|t| Fit {
        from: t.from_cards,
        games: t.games,
        decay: t.decay_cards,
    });
    let target = merged.odds.as_ref().map(|o| o.target);
    // Both histograms on the same axes, the target in view.
    let longest_bin = merged
        .lengths_extended
        .as_ref()
        .map_or(0, |l| l.counts.len())
        .max(merged.lengths.counts.len()) as u64;
    let x_max = (longest_bin * bin)
        .max(target.map_or(0, |t| t + 2 * bin))
        .max(bin);
    // Bars rise from half a game; with a fit, the axis runs on down to a
    // twentieth of one, where the fit's line stops (its value at the
    // target, far smaller, is in the odds).
    let most = (merged.lengths.counts.iter())
        .chain(merged.lengths_extended.iter().flat_map(|l| &l.counts))
        .copied()
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let games = (if fit.is_some() { 0.05 } else { 0.5 }, most * 2.0);
    let view = HuntView {
        merged,
        title: if random {
            format!(
                "{} random deals",
                poker_core::numbers::count(merged.counts.deals)
            )
        } else {
            format!("indices {}..{}", merged.start, merged.end)
        },
        coverage: if random {
            random_coverage(merged)
        } else {
            format!("{} unit(s), every index covered exactly once", merged.units)
        },
        histogram: length_histogram(
            &merged.lengths.counts,
            bin,
            (x_max, games),
            fit.as_ref(),
            target,
            GREEN,
            "cards played (each deal's own game)",
        )?,
        histogram_extended: merged
            .lengths_extended
            .as_ref()
            .map(|l| {
                length_histogram(
                    &l.counts,
                    bin,
                    (x_max, games),
                    None,
                    target,
                    BLUE,
                    "cards played (after extension)",
                )
            })
            .transpose()?,
        odds_lines: merged
            .odds
            .as_ref()
            .map(|o| o.to_string().lines().map(str::to_string).collect())
            .unwrap_or_default(),
        cost_lines: merged.costs.iter().map(ToString::to_string).collect(),
        longest: longest.map(camicia_svg).transpose()?,
    };
    let mut env = environment();
    env.add_template("hunt.html", include_str!("hunt.html"))?;
    Ok(env.get_template("hunt.html")?.render(view)?)
}

/// Finished games per length bin, as bars on a log scale of games, with
/// the tail's fit as a red line and the target as a dashed one.
fn length_histogram(
    counts: &[u64],
    bin: u64,
    (x_max, (floor, top)): (u64, (f64, f64)),
    fit: Option<&Fit>,
    target: Option<u64>,
    color: RGBColor,
    x_desc: &str,
) -> anyhow::Result<String> {
    let q = fit.map(|f| (-(bin as f64) / f.decay).exp());
    let fitted = |x: u64| {
        let (f, q) = (fit?, q?);
        let k = (x.saturating_sub(f.from) / bin) as f64;
        Some(f.games as f64 * (1.0 - q) * q.powf(k))
    };
    let mut svg = String::new();
    {
        // A small canvas with large text (as the bench histogram): readable
        // shown at its own width and at a phone's.
        let root = SVGBackend::with_string(&mut svg, (560, 360)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(84)
            .build_cartesian_2d(0u64..x_max, (floor..top).log_scale())?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .label_style(("sans-serif", 20))
            .axis_desc_style(("sans-serif", 20))
            .x_labels(5)
            .y_labels(6)
            .x_desc(x_desc)
            .y_desc("games (log scale)")
            .y_label_formatter(&|y| {
                if *y >= 1.0 {
                    format!("{y:.0}")
                } else {
                    format!("{y:.0e}")
                }
            })
            .draw()?;
        chart.draw_series(
            counts
                .iter()
                .enumerate()
                .filter(|&(_, &n)| n > 0)
                .map(|(i, &n)| {
                    let x = i as u64 * bin;
                    Rectangle::new([(x, 0.5), (x + bin, n as f64)], color.filled())
                }),
        )?;
        if let Some(f) = fit {
            let end = target.unwrap_or(x_max).min(x_max);
            let points = (f.from..=end)
                .step_by(bin as usize)
                .filter_map(|x| Some((x, fitted(x)?)))
                .take_while(|&(_, y)| y >= floor);
            chart.draw_series(LineSeries::new(points, RED.stroke_width(3)))?;
        }
        if let Some(t) = target.filter(|&t| t < x_max) {
            // Dashes of equal height on the log scale, drawn one by one:
            // plotters' DashedLineSeries calls hypotf, whose glibc 2.35
            // version would lift the wheel's manylinux floor.
            let (lo, hi) = (floor.ln(), top.ln());
            let step = (hi - lo) / 24.0;
            chart.draw_series((0..24).step_by(2).map(|i| {
                let y = |k: f64| (lo + step * k).exp();
                PathElement::new(
                    [(t, y(i as f64)), (t, y(i as f64 + 1.0))],
                    BLACK.stroke_width(2),
                )
            }))?;
            chart.draw_series(std::iter::once(Text::new(
                format!("target {t}"),
                (t, top / 2.0),
                ("sans-serif", 20)
                    .into_text_style(&root)
                    .pos(Pos::new(HPos::Right, VPos::Top)),
            )))?;
        }
        root.present()?;
    }
    Ok(svg)
}
