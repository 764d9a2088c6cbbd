//! The HTML page of a merged Camicia search (`poker camicia merge --html`):
//! the counts, the best games, the cycles, the distribution of game lengths
//! on a log scale (the tail is what record hunters look at) and the
//! longest game's plot.

use super::{camicia_svg, environment};
use plotters::prelude::*;
use poker_core::camicia::reference::Trace;
use poker_hunt::merge::Merged;
use serde::Serialize;

const GREEN: RGBColor = RGBColor(46, 107, 58);

#[derive(Serialize)]
struct HuntView<'a> {
    #[serde(flatten)]
    merged: &'a Merged,
    histogram: String,
    longest: Option<String>,
}

/// The page for `merged`, with `longest`'s plot when given.
pub fn camicia_merge_page(merged: &Merged, longest: Option<&Trace>) -> anyhow::Result<String> {
    let view = HuntView {
        merged,
        histogram: length_histogram(&merged.lengths.counts, merged.lengths.bin_cards)?,
        longest: longest.map(camicia_svg).transpose()?,
    };
    let mut env = environment();
    env.add_template("hunt.html", include_str!("hunt.html"))?;
    Ok(env.get_template("hunt.html")?.render(view)?)
}

/// Finished games per length bin, as bars on a log scale of games.
fn length_histogram(counts: &[u64], bin: u64) -> anyhow::Result<String> {
    let top = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
    let cards = (counts.len() as u64 * bin).max(bin);
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
            .build_cartesian_2d(0u64..cards, (0.5f64..top * 2.0).log_scale())?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .label_style(("sans-serif", 20))
            .axis_desc_style(("sans-serif", 20))
            .x_labels(5)
            .x_desc("cards played (finished games)")
            .y_desc("games (log scale)")
            .y_label_formatter(&|y| format!("{y:.0}"))
            .draw()?;
        chart.draw_series(
            counts
                .iter()
                .enumerate()
                .filter(|&(_, &n)| n > 0)
                .map(|(i, &n)| {
                    let x = i as u64 * bin;
                    Rectangle::new([(x, 0.5), (x + bin, n as f64)], GREEN.filled())
                }),
        )?;
        root.present()?;
    }
    Ok(svg)
}
