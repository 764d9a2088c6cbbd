//! `poker bench --html`, `poker camicia --svg` and `poker freecell --svg`,
//! loaded in headless Chromium and checked as rendered: the histogram's
//! bars and means against round robin's games scored by hand, the Camicia
//! chart's points and loop mark, the FreeCell tableau's cards against the
//! published deal.

use crate::browser;
use crate::common;

use poker_core::contest::{Board, ContestDeck};
use poker_core::optimum::deck_optimum;
use serde_json::Value;
use std::path::Path;

fn poker(args: &[&str]) -> std::process::Output {
    crate::common::poker()
        .args(args)
        .output()
        .expect("run poker")
}

/// Loads `page` (HTML or SVG text) at `width` px in Chromium, runs
/// `script`, screenshots it next to `file`, and returns the findings.
pub(crate) fn in_browser(chromium: &str, file: &Path, width: u32, script: &str) -> Value {
    let page = std::fs::read_to_string(file).unwrap();
    let harness = file.with_extension(format!("{width}.html"));
    std::fs::write(&harness, browser::harness(&page, width, script)).unwrap();
    let measured = browser::measure(chromium, &harness, width.max(500) + 20, 900);
    let shot = file.with_extension(format!("{width}.png"));
    browser::screenshot(chromium, &harness, width.max(500) + 20, 900, &shot);
    let value: Value =
        serde_json::from_str(&measured).unwrap_or_else(|e| panic!("{e}: {measured}"));
    assert!(value["error"].is_null(), "{value}");
    value
}

/// Boxes in the page and whether two meet (more than half a pixel), for
/// the scripts below.
pub(crate) const BOXES: &str = r##"
function box(e) { var b = e.getBoundingClientRect(); return { l: b.left, t: b.top, r: b.right, b: b.bottom }; }
function meet(a, b) { return a.l < b.r - 0.5 && b.l < a.r - 0.5 && a.t < b.b - 0.5 && b.t < a.b - 0.5; }
function within(a, b) { return a.l >= b.l - 0.5 && a.r <= b.r + 0.5 && a.t >= b.t - 0.5 && a.b <= b.b + 0.5; }
function smallest_text(svg) { return Math.min.apply(null, Array.from(doc.querySelectorAll(svg + " text")).map(function (t) {
  return t.getBoundingClientRect().height; })); }
"##;

/// Round robin's total on `deck`, by hand: card i to column i mod 4.
fn round_robin_total(deck: &ContestDeck) -> u8 {
    let columns = std::array::from_fn(|c| std::array::from_fn(|row| deck.cards()[row * 4 + c]));
    Board::from_columns(columns).score().unwrap().total
}

#[test]
fn the_bench_page_shows_both_histograms_and_means() {
    let dir = common::scratch("html_bench");
    let html = dir.join("bench.html");
    let lib = common::lib_dir();
    let roundrobin = common::root().join("c_examples/roundrobin.c");
    let out = poker(&[
        "bench",
        roundrobin.to_str().unwrap(),
        "--games",
        "12",
        "--seed",
        "5",
        "--json",
        "--lib-dir",
        lib.to_str().unwrap(),
        "--html",
        html.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    // Deck i is the practice deck of POKER_SEED = 5 + i.
    let decks: Vec<ContestDeck> = (1..=12).map(|i| ContestDeck::shuffled(5 + i)).collect();
    let totals: Vec<u8> = decks.iter().map(round_robin_total).collect();
    let optima: Vec<u8> = decks.iter().map(|d| deck_optimum(d).total).collect();
    let mean = totals.iter().map(|&t| f64::from(t)).sum::<f64>() / 12.0;
    assert!(
        (json["mean"].as_f64().unwrap() - mean).abs() < 1e-9,
        "{json}"
    );
    assert!(json["standard_error"].is_number() && json["stderr"].is_null());
    let min = *totals.iter().min().unwrap();
    let min_deck = totals.iter().position(|&t| t == min).unwrap() as u64 + 1;
    assert_eq!(json["min"], min);
    assert_eq!(json["min_seed"], 5 + min_deck);
    let max = *totals.iter().max().unwrap();
    let max_deck = totals.iter().position(|&t| t == max).unwrap() as u64 + 1;
    assert_eq!(json["max_seed"], 5 + max_deck);
    // bench's default: one fork server per job, said on the page too.
    assert_eq!(json["mode"], "fork-server");
    let text = std::fs::read_to_string(&html).unwrap();
    assert!(text.contains("processes: fork-server"), "{text:.2000}");

    let Some(chromium) = browser::chromium() else {
        return;
    };
    let distinct = |v: &[u8]| {
        let mut v = v.to_vec();
        v.sort();
        v.dedup();
        v.len()
    };
    let script = BOXES.to_string()
        + r##"
      var rects = Array.from(doc.querySelectorAll("svg rect"));
      var texts = Array.from(doc.querySelectorAll("svg text"));
      // The legend's lines cover no bar; the y axis's title no tick label.
      var legend = texts.filter(function (t) { return t.textContent.indexOf("mean") >= 0; }).map(box);
      // A swatch sits left of its legend line, on the same row.
      var swatches = rects.filter(function (r) { var b = box(r); return legend.some(function (l) {
        return b.r <= l.l && Math.abs((b.t + b.b) / 2 - (l.t + l.b) / 2) < 8; }); });
      var bar_boxes = rects.filter(function (r) { var f = r.getAttribute("fill"); return f === "#2E6B3A" || f === "#3D5A80"; })
        .filter(function (r) { return swatches.indexOf(r) < 0; }).map(box);
      var svg_el = doc.querySelector("svg");
      // The chart's text as rendered, against the page's.
      var scale = svg_el.getBoundingClientRect().width / svg_el.viewBox.baseVal.width;
      var chart_font = Math.max.apply(null, texts.map(function (t) { return parseFloat(win.getComputedStyle(t).fontSize); })) * scale;
      var tick_values = texts.filter(function (t) { return t.getAttribute("text-anchor") === "end"; })
        .map(function (t) { return parseFloat(t.textContent); });
      var title = box(texts.filter(function (t) { return (t.getAttribute("transform") || "").indexOf("rotate") >= 0; })[0]);
      var ticks = texts.filter(function (t) { return t.getAttribute("text-anchor") === "end"; }).map(box);
      function bars(fill) { return rects.filter(function (r) { return r.getAttribute("fill") === fill; }).length; }
      var svg = doc.querySelector("svg").getBoundingClientRect();
      return { width: doc.documentElement.clientWidth, scroll_width: doc.documentElement.scrollWidth,
               played: bars("#2E6B3A"), best: bars("#3D5A80"), svg_right: svg.right,
               mean: doc.getElementById("mean").innerText, texts: doc.body.innerText,
               legend_lines: legend.length,
               legend_over_bars: bar_boxes.filter(function (b) { return legend.some(function (l) { return meet(b, l); }); }).length,
               top_tick: Math.max.apply(null, tick_values), gridlines: doc.querySelectorAll("svg line").length,
               chart_font: chart_font, page_font: parseFloat(win.getComputedStyle(doc.body).fontSize),
               bars_outside_legend: bar_boxes.length,
               title_over_ticks: ticks.filter(function (t) { return meet(t, title); }).length, ticks: ticks.length,
               svg_texts: Array.from(doc.querySelectorAll("svg text")).map(function (t) { return t.textContent; }).join("|"),
               smallest_text: Math.min.apply(null, Array.from(doc.querySelectorAll("svg text")).map(function (t) {
                 return t.getBoundingClientRect().height; })) };
    "##;
    for width in [1280, 390] {
        let page = in_browser(chromium, &html, width, &script);
        assert_eq!(page["width"], width);
        assert_eq!(page["legend_lines"], 2, "{page}");
        assert_eq!(
            page["legend_over_bars"], 0,
            "the legend covers a bar: {page}"
        );
        // The y axis ends a little above the tallest bar (its highest
        // labelled line at most a fifth above it, plus rounding to a whole
        // game), and draws a line at its labels only.
        let tallest = [&totals, &optima]
            .iter()
            .flat_map(|v| v.iter().map(|t| v.iter().filter(|u| *u == t).count()))
            .max()
            .unwrap() as f64;
        let top_tick = page["top_tick"].as_f64().unwrap();
        assert!(
            top_tick <= tallest * 1.2 + 1.0,
            "the y axis runs to {top_tick} over bars of at most {tallest}: {page}"
        );
        assert!(
            page["gridlines"].as_u64() <= page["ticks"].as_u64(),
            "minor gridlines: {page}"
        );
        // On a laptop the chart's text is no larger than the page's.
        if width == 1280 {
            let (chart, text) = (
                page["chart_font"].as_f64().unwrap(),
                page["page_font"].as_f64().unwrap(),
            );
            assert!(
                chart <= text + 0.5,
                "chart text {chart} px, page text {text} px: {page}"
            );
        }
        assert!(page["bars_outside_legend"].as_u64() > Some(0), "{page}");
        assert_eq!(
            page["title_over_ticks"], 0,
            "'games' covers a tick label: {page}"
        );
        assert!(page["ticks"].as_u64() > Some(2), "{page}");
        assert!(
            page["scroll_width"].as_u64() <= page["width"].as_u64(),
            "{page}"
        );
        assert!(page["svg_right"].as_f64().unwrap() <= f64::from(width) + 0.5);
        // One bar per distinct total (plus one legend swatch each).
        assert_eq!(page["played"], distinct(&totals) + 1, "{page}");
        assert_eq!(page["best"], distinct(&optima) + 1, "{page}");
        let shown: f64 = page["mean"].as_str().unwrap()["contestant: mean ".len()..]
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!((shown - mean).abs() < 0.0006, "{page}");
        // The chart's text stays readable on a phone (at least 11 px), and
        // means are written mean ± error, as on the rest of the page.
        let smallest = page["smallest_text"].as_f64().unwrap();
        assert!(
            smallest >= 11.0,
            "chart text {smallest} px high at {width} px"
        );
        let svg_texts = page["svg_texts"].as_str().unwrap();
        assert!(
            svg_texts.contains(" ± ") && !svg_texts.contains("+-"),
            "{svg_texts}"
        );
        let texts = page["texts"].as_str().unwrap();
        assert!(
            texts.contains(&format!("POKER_SEED={}", 5 + min_deck)),
            "{texts}"
        );
    }
}

#[test]
fn bench_fails_when_every_game_fails() {
    let bad = common::root().join("tests/contestants/bad_column.c");
    let lib = common::lib_dir();
    let out = poker(&[
        "bench",
        bad.to_str().unwrap(),
        "--games",
        "3",
        "--lib-dir",
        lib.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(common::stderr(&out).contains("every game failed"));
    assert!(common::stdout(&out).contains("stderr: poker: rule broken"));
}

const SVG_SCRIPT: &str = r##"
  var svg = doc.querySelector("svg");
  var box = svg.getBoundingClientRect();
  function near(a, b) { var p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
    return p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom; }
  var marker = Array.from(svg.querySelectorAll("polyline")).filter(function (p) {
    return p.getAttribute("stroke-width") === "2" && p.getAttribute("stroke") === "#000000"; });
  var key = Array.from(svg.querySelectorAll("text")).filter(function (t) { return /player A|loop starts/.test(t.textContent); });
  return {
    key_over_marker: key.filter(function (t) { return marker.some(function (m) { return near(t, m); }); }).length,
    markers: marker.length,
    y_ticks: Array.from(svg.querySelectorAll("text")).filter(function (t) { return t.getAttribute("text-anchor") === "end"; })
      .map(function (t) { return parseFloat(t.textContent); }),
    texts: Array.from(svg.querySelectorAll("text")).map(function (t) { return [t.textContent.trim(), t.getAttribute("fill")]; }),
    lines: Array.from(svg.querySelectorAll("polyline")).map(function (p) {
      return [p.getAttribute("stroke"), p.getAttribute("points").trim().split(/\s+/).length, p.getAttribute("points").trim()]; }),
    rects: Array.from(svg.querySelectorAll("rect")).filter(function (r) {
      var b = r.getBoundingClientRect(); return b.right > box.right + 0.5 || b.bottom > box.bottom + 0.5; }).length
  };
"##;

#[test]
fn the_camicia_chart_has_a_point_per_trick_and_marks_a_loop() {
    let Some(chromium) = browser::chromium() else {
        return;
    };
    let dir = common::scratch("html_camicia");
    for (a, b, is_loop) in [
        ("J 2 3", "4 J 5", true),
        ("2 A 7 8 Q 10", "3 4 5 6 K 9 J", false),
    ] {
        let svg = dir.join(if is_loop { "loop.svg" } else { "finished.svg" });
        let out = poker(&["camicia", "--json", "--svg", svg.to_str().unwrap(), a, b]);
        assert!(out.status.success(), "{}", common::stderr(&out));
        let result: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(result["status"] == "loop", is_loop, "{result}");
        let tricks = result["tricks"].as_u64().unwrap() as usize;
        let page = in_browser(chromium, &svg, 820, SVG_SCRIPT);
        let lines = page["lines"].as_array().unwrap();
        // Player A's line: the deal, then one point per trick. B holds the
        // rest, so B's line would only mirror it: it is not drawn.
        let line = lines
            .iter()
            .find(|l| l[0] == "#2E6B3A")
            .unwrap_or_else(|| panic!("no line for A: {page}"));
        assert_eq!(line[1], tricks + 1, "{line}");
        assert!(!lines.iter().any(|l| l[0] == "#C62828"), "{page}");
        let texts = page["texts"].to_string();
        assert_eq!(texts.contains("the loop starts here"), is_loop, "{texts}");
        assert_eq!(page["markers"], u64::from(is_loop), "{page}");
        assert_eq!(
            page["key_over_marker"], 0,
            "the key covers the loop mark: {page}"
        );
        // The axis runs to the cards in play, not beyond: A holds at most
        // all of them.
        let cards = (a.split_whitespace().count() + b.split_whitespace().count()) as f64;
        let top = page["y_ticks"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_f64)
            .fold(0.0, f64::max);
        assert!(
            top > 0.0 && top <= cards,
            "y axis to {top} for {cards} cards: {page}"
        );
        assert_eq!(page["rects"], 0);
    }
}

#[test]
fn the_freecell_drawing_shows_the_published_deal_in_colour() {
    let Some(chromium) = browser::chromium() else {
        return;
    };
    let svg = common::scratch("html_freecell").join("deal1.svg");
    let out = poker(&["freecell", "1", "--svg", svg.to_str().unwrap()]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let page = in_browser(chromium, &svg, 760, SVG_SCRIPT);
    // Deal 1's columns as published (tests/data/freecell/deals.tsv).
    let published = "JD KD 2S 4C 3S 6D 6S|2D KC KS 5C TD 8S 9C|9H 9S 9D TS 4S 8D 2H|JC 5S QD QH TH QS 6H|5D AD JS 4H 8H 6C|7H QC AS AC 2C 3D|7C KH AH 4D JH 8C|5H 3H 3C 7S 7D TC";
    let expected: Vec<String> = published
        .split('|')
        .flat_map(|c| c.split(' '))
        .map(|t| {
            t.replace('T', "10")
                .replace('S', "\u{2660}")
                .replace('H', "\u{2665}")
                .replace('D', "\u{2666}")
                .replace('C', "\u{2663}")
        })
        .collect();
    let texts = page["texts"].as_array().unwrap();
    assert_eq!(texts[0][0], "FreeCell deal 1");
    let cards: Vec<&str> = texts[1..].iter().map(|t| t[0].as_str().unwrap()).collect();
    assert_eq!(cards, expected);
    for t in &texts[1..] {
        let red = t[0].as_str().unwrap().contains(['\u{2665}', '\u{2666}']);
        assert_eq!(t[1] == "#C62828", red, "{t}");
    }
    assert_eq!(page["rects"], 0, "cards inside the drawing");
}

// `poker camicia merge --html` at a phone's width and a laptop's: nothing
// wider than the screen (the cards and tricks columns visible), each game's
// deal in a few lines rather than a column one character wide, chart text
// at least 11 px high at both widths.
#[test]
fn the_merge_page_reads_on_a_phone_and_a_laptop() {
    let dir = common::scratch("html_merge");
    let files = crate::camicia_units::four_units(&dir);
    let html = dir.join("hunt.html");
    let mut args = vec!["camicia", "merge", "--html", html.to_str().unwrap()];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let out = poker(&args);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let Some(chromium) = browser::chromium() else {
        return;
    };
    let script = BOXES.to_string()
        + r##"
      function lines(el) { var r = doc.createRange(); r.selectNodeContents(el);
        var tops = {}; Array.from(r.getClientRects()).forEach(function (b) { if (b.width > 0) tops[Math.round(b.top)] = 1; });
        return Object.keys(tops).length; }
      var width = doc.documentElement.clientWidth;
      var cells = Array.from(doc.querySelectorAll("#best td, #best th, #cycle-table td, #cycle-table th"));
      return { width: width, scroll_width: doc.documentElement.scrollWidth,
               cells_outside: cells.filter(function (c) { return box(c).r > width + 0.5; }).length,
               deals: Array.from(doc.querySelectorAll("#best td.deal")).map(lines),
               headers: Array.from(doc.querySelectorAll("#best th, #cycle-table th")).map(lines),
               cards: Array.from(doc.querySelectorAll("#best tr.numbers td:nth-child(2)")).map(function (c) { return c.innerText; }),
               lengths_text: smallest_text("#lengths svg"), longest_text: smallest_text("#longest svg") };
    "##;
    for width in [390, 1280] {
        let page = in_browser(chromium, &html, width, &script);
        assert_eq!(page["width"], width);
        assert!(
            page["scroll_width"].as_u64() <= page["width"].as_u64(),
            "wider than the screen at {width} px: {page}"
        );
        assert_eq!(page["cells_outside"], 0, "{page}");
        let deals = page["deals"].as_array().unwrap();
        assert_eq!(deals.len(), 3, "{page}");
        assert!(deals.iter().all(|n| n.as_u64() <= Some(4)), "{page}");
        // Headers are words, each on at most three lines ("cards a turn").
        let headers = page["headers"].as_array().unwrap();
        assert!(headers.iter().all(|n| n.as_u64() <= Some(3)), "{page}");
        // A count with thousands separators, as the text reports write it.
        let cards = page["cards"][0].as_str().unwrap();
        assert!(cards.replace(',', "").parse::<u32>().is_ok(), "{page}");
        for chart in ["lengths_text", "longest_text"] {
            let smallest = page[chart].as_f64().unwrap();
            assert!(smallest >= 11.0, "{chart}: {smallest} px at {width} px");
        }
    }
}
