//! Charts and drawings through plotters' SVG backend: the benchmark
//! histograms, a Camicia game's card counts, a FreeCell tableau.

use super::{environment, suit_symbol};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use poker_core::camicia::reference::Trace;
use poker_core::cards::{Card, Rank, Suit};
use serde::Serialize;

const GREEN: RGBColor = RGBColor(46, 107, 58);
const SLATE: RGBColor = RGBColor(61, 90, 128);
const CARD_RED: RGBColor = RGBColor(198, 40, 40);

/// What the benchmark page shows.
#[derive(Serialize)]
pub struct BenchPage {
    /// The contestant's name (escaped by the caller for control characters).
    pub contestant: String,
    /// Number of games.
    pub games: usize,
    /// Base seed of the decks.
    pub seed: u64,
    /// Sandbox mode.
    pub sandbox: &'static str,
    /// How the games' processes were started: `fork-server` or
    /// `fresh-processes`.
    pub mode: &'static str,
    /// Where the games were played, why a fork server was given up, what
    /// its start-up cost each game: one line each (escaped by the caller).
    pub processes: Vec<String>,
    /// Mean and standard error of the contestant's totals.
    pub mean: f64,
    /// Standard error of its mean.
    pub mean_error: f64,
    /// Mean of the decks' hindsight optima.
    pub best_mean: f64,
    /// Standard error of that mean.
    pub best_mean_error: f64,
    /// Games that did not end ok.
    pub failed: usize,
    /// The lowest and highest totals, each with a deck's replay seed.
    pub min: (u8, u64),
    /// See `min`.
    pub max: (u8, u64),
    /// How many games totalled 0, 1, ... 32 (drawn here as an inline SVG
    /// histogram, not by the contestant).
    #[serde(skip)]
    pub totals: [u32; 33],
    /// How many decks had a hindsight optimum of 0, 1, ... 32.
    #[serde(skip)]
    pub optima: [u32; 33],
}

#[derive(Serialize)]
struct BenchView<'a> {
    #[serde(flatten)]
    page: &'a BenchPage,
    histogram: String,
}

/// The benchmark page: the histogram of the contestant's totals next to the
/// hindsight optimum's over the same decks, with each mean ± its
/// standard error.
pub fn bench_page(page: &BenchPage) -> anyhow::Result<String> {
    let histogram = histogram(page)?;
    let view = BenchView { page, histogram };
    Ok(environment().get_template("bench.html")?.render(view)?)
}

fn histogram(page: &BenchPage) -> anyhow::Result<String> {
    let (played, best) = (page.totals, page.optima);
    let top = played
        .iter()
        .chain(&best)
        .copied()
        .max()
        .unwrap_or(1)
        .max(1);
    let legend = [
        (
            format!("contestant: mean {:.2} ± {:.2}", page.mean, page.mean_error),
            GREEN,
        ),
        (
            format!(
                "hindsight optimum: mean {:.2} ± {:.2}",
                page.best_mean, page.best_mean_error
            ),
            SLATE,
        ),
    ];
    let mut svg = String::new();
    {
        // 480 units wide, shown at most 480 px wide, with plotters' size 19
        // (15.3 px): no larger than the page's text on a laptop, about
        // 11.5 px on a phone (360 px).
        let root = SVGBackend::with_string(&mut svg, (480, 346)).into_drawing_area();
        root.fill(&WHITE)?;
        // The legend above the plot, never over a bar.
        let (key, plot) = root.split_vertically(58);
        key_lines(&key, &legend, 19)?;
        let mut chart = ChartBuilder::on(&plot)
            .margin(8)
            .x_label_area_size(44)
            // Room for the tick labels and, left of them, the axis title.
            .y_label_area_size(64)
            // A tenth of headroom above the tallest bar.
            .build_cartesian_2d(-0.5f64..32.5f64, 0u32..top + top / 10 + 1)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            // The labelled lines only: minor lines crowded the bars.
            .light_line_style(TRANSPARENT)
            .label_style(("sans-serif", 19))
            .axis_desc_style(("sans-serif", 19))
            .x_desc("game total (points)")
            .y_desc("games")
            .x_labels(9)
            .y_labels(6)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .draw()?;
        let bars = |counts: [u32; 33], offset: f64, color: RGBColor| {
            counts
                .into_iter()
                .enumerate()
                .filter(|&(_, n)| n > 0)
                .map(move |(total, n)| {
                    let x = total as f64 + offset;
                    Rectangle::new([(x, 0), (x + 0.42, n)], color.filled())
                })
        };
        chart.draw_series(bars(played, -0.44, GREEN))?;
        chart.draw_series(bars(best, 0.02, SLATE))?;
        root.present()?;
    }
    Ok(svg)
}

/// A chart's key drawn in its own strip: a swatch and a label a line, in
/// text `size` units high.
fn key_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    lines: &[(String, RGBColor)],
    size: i32,
) -> anyhow::Result<()>
where
    DB::ErrorType: 'static,
{
    let top_left = Pos::new(HPos::Left, VPos::Top);
    for (i, (label, color)) in lines.iter().enumerate() {
        let y = 4 + i as i32 * (size + 6);
        area.draw(&Rectangle::new(
            [(16, y + 2), (16 + size - 2, y + size - 2)],
            color.filled(),
        ))?;
        area.draw(&Text::new(
            label.clone(),
            (16 + size + 8, y),
            ("sans-serif", size).into_font().color(&BLACK).pos(top_left),
        ))?;
    }
    Ok(())
}

/// A Camicia game as a chart: the cards player A holds at the start and
/// after every trick (B holds the rest: the two lines would mirror each
/// other); for a loop, the trick where the repeating part starts is marked.
pub fn camicia_svg(trace: &Trace) -> anyhow::Result<String> {
    // Round r starts after trick r - 1: its first row has an empty pile.
    let mut points: Vec<(u64, usize)> = Vec::new();
    for row in &trace.rows {
        if row.pile.is_empty() && points.last().is_none_or(|p| p.0 + 1 == row.round) {
            points.push((row.round, row.a.len()));
        }
    }
    let tricks = points.len().saturating_sub(1).max(1) as u64;
    let cards = trace
        .rows
        .first()
        .map_or(1, |r| r.a.len() + r.b.len() + r.pile.len())
        .max(1);
    let loop_start = trace.repeat.map(|(_, first)| first.saturating_sub(1));
    let mut key = vec![(
        format!("player A's cards (B holds the rest of the {cards})"),
        GREEN,
    )];
    if let Some(start) = loop_start {
        key.push((format!("the loop starts here (after trick {start})"), BLACK));
    }
    let mut svg = String::new();
    {
        // As the bench histogram: a small canvas with large text, readable
        // shown at its own width and at a phone's.
        let root = SVGBackend::with_string(&mut svg, (560, 400)).into_drawing_area();
        root.fill(&WHITE)?;
        let o = trace.outcome;
        let (top, plot) = root.split_vertically(36 + 26 * key.len() as u32);
        let (title, key_area) = top.split_vertically(32);
        title.draw(&Text::new(
            format!(
                "Camicia: {}, {} cards, {} tricks",
                o.status, o.cards, o.tricks
            ),
            (16, 6),
            ("sans-serif", 20)
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Left, VPos::Top)),
        ))?;
        // The key above the plot, never over the lines or the loop mark.
        key_lines(&key_area, &key, 20)?;
        let mut chart = ChartBuilder::on(&plot)
            .margin(12)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d(0u64..tricks, 0usize..cards)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .label_style(("sans-serif", 20))
            .axis_desc_style(("sans-serif", 20))
            .x_labels(5)
            .y_labels(5)
            .x_desc("tricks played")
            .y_desc("A's cards")
            .draw()?;
        if let Some(start) = loop_start {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(start, 0), (start, cards)],
                ShapeStyle::from(&BLACK).stroke_width(2),
            )))?;
        }
        chart.draw_series(LineSeries::new(
            points.iter().map(|p| (p.0 - 1, p.1)),
            GREEN.stroke_width(2),
        ))?;
        root.present()?;
    }
    Ok(svg)
}

/// A FreeCell tableau drawn as cards: `columns` left to right, each column's
/// cards fanned downwards in dealing order; `title` above.
pub fn freecell_svg(title: &str, columns: &[Vec<Card>]) -> anyhow::Result<String> {
    let (card_w, card_h, step, gap) = (76i32, 104i32, 34i32, 14i32);
    let deepest = columns.iter().map(Vec::len).max().unwrap_or(0) as i32;
    let width = gap + columns.len() as i32 * (card_w + gap);
    let height = 48 + (deepest - 1).max(0) * step + card_h + gap;
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (width as u32, height as u32)).into_drawing_area();
        root.fill(&RGBColor(46, 107, 58))?;
        let centre = Pos::new(HPos::Left, VPos::Top);
        root.draw(&Text::new(
            title.to_string(),
            (gap, 12),
            ("sans-serif", 20).into_font().color(&WHITE).pos(centre),
        ))?;
        for (i, column) in columns.iter().enumerate() {
            let x = gap + i as i32 * (card_w + gap);
            for (j, &card) in column.iter().enumerate() {
                let y = 48 + j as i32 * step;
                root.draw(&Rectangle::new(
                    [(x, y), (x + card_w, y + card_h)],
                    WHITE.filled(),
                ))?;
                root.draw(&Rectangle::new(
                    [(x, y), (x + card_w, y + card_h)],
                    RGBColor(90, 90, 90),
                ))?;
                let color = match card.suit {
                    Suit::Hearts | Suit::Diamonds => CARD_RED,
                    Suit::Clubs | Suit::Spades => BLACK,
                };
                let rank = if card.rank == Rank::TEN {
                    "10"
                } else {
                    card.rank.symbol()
                };
                root.draw(&Text::new(
                    format!("{rank}{}", suit_symbol(card.suit)),
                    (x + 6, y + 5),
                    ("sans-serif", 22).into_font().color(&color).pos(centre),
                ))?;
            }
        }
        root.present()?;
    }
    Ok(svg)
}
