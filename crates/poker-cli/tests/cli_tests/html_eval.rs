//! `poker eval --html`: the page loaded in headless Chromium at a laptop
//! width (1280 px) and a phone width (390 px, in a frame of a harness
//! page), checked as rendered: every board's cards, hand names and totals
//! against the contest's scorer and the hindsight optimum, the layout
//! (cards inside the viewport, none overlapping, no horizontal overflow,
//! the best board beside the played one when wide and below it when
//! narrow), escaping; and the audit block in JSON and text, its replay
//! commands run in practice mode.

use crate::browser;
use crate::common;

use poker_core::cards::Card;
use poker_core::contest::{Board, ContestDeck};
use poker_core::optimum::deck_optimum;
use poker_judge::evaluator::decks;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What the page looks like to a reader, measured in the browser.
const MEASURE: &str = r##"
var width = doc.documentElement.clientWidth;
function box(e) { var r = e.getBoundingClientRect();
  return { left: r.left + win.scrollX, top: r.top + win.scrollY, right: r.right + win.scrollX, bottom: r.bottom + win.scrollY }; }
function board(b) {
  var cols = Array.from(b.querySelectorAll(".column"));
  return {
    caption: b.querySelector("figcaption").textContent,
    cards: cols.map(function (c) { return Array.from(c.querySelectorAll(".card:not(.empty)")).map(function (k) { return k.innerText.replace(/\s+/g, ""); }); }),
    colors: cols.map(function (c) { return Array.from(c.querySelectorAll(".card:not(.empty)")).map(function (k) { return win.getComputedStyle(k).color; }); }),
    hands: cols.map(function (c) { return c.querySelector(".hand").innerText; }),
    points: cols.map(function (c) { return c.querySelector(".points").innerText; }),
    box: box(b)
  };
}
var cards = Array.from(doc.querySelectorAll(".card:not(.empty)")).map(box);
var outside = cards.filter(function (c) { return c.left < 0 || c.right > width + 0.5; }).length;
var overlaps = 0;
for (var i = 0; i < cards.length; i++) for (var j = i + 1; j < cards.length; j++) {
  var a = cards[i], b = cards[j];
  if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) overlaps++;
}
return {
  width: width,
  scroll_width: doc.documentElement.scrollWidth,
  title: doc.title,
  scripts: doc.querySelectorAll("script").length,
  cards: cards.length,
  outside: outside,
  overlaps: overlaps,
  ranking: Array.from(doc.querySelectorAll("#ranking tbody tr")).map(function (tr) {
    return Array.from(tr.cells).map(function (td) { return td.innerText; }); }),
  sha256: (doc.querySelector(".sha256") || {}).innerText,
  contestants: Array.from(doc.querySelectorAll("section.contestant")).map(function (s) {
    return {
      name: s.querySelector("h2").innerText,
      total: s.querySelector(".contestant-total").innerText,
      diagnostics: (s.querySelector(".diagnostics") || {}).innerText,
      games: Array.from(s.querySelectorAll(".game")).map(function (g) {
        return {
          heading: g.querySelector("h3").innerText,
          score: g.querySelector(".score").innerText,
          status: g.querySelector(".status").innerText,
          reason: (g.querySelector(".reason") || {}).innerText,
          stderr: (g.querySelector(".stderr") || {}).innerText,
          played: board(g.querySelector(".board.played")),
          best: board(g.querySelector(".board.best"))
        };
      })
    };
  })
};
"##;

/// A contestant that writes markup and escape codes to stderr and ends
/// without placing a card.
const HOSTILE: &str = r#"#include <stdio.h>
int main(void) {
    fprintf(stderr, "line one\n<script>document.title = 'owned';</script>\n\x1b[2Jlast line <b>bold</b>\n");
    return 1;
}
"#;

/// A contestant that does not compile: two errors on two lines.
const BROKEN: &str = "int main(void) {\n    undeclared_one = 1;\n    undeclared_two = 2;\n}\n";

fn poker() -> Command {
    let mut command = crate::common::poker();
    command.arg("eval").arg("--lib-dir").arg(common::lib_dir());
    command
}

/// A card as the page shows it (`10♥`) as a card.
fn shown_card(text: &str) -> Card {
    let token = text
        .replace("10", "T")
        .replace('\u{2660}', "S")
        .replace('\u{2665}', "H")
        .replace('\u{2666}', "D")
        .replace('\u{2663}', "C");
    token
        .parse()
        .unwrap_or_else(|_| panic!("not a card: {text}"))
}

fn shown_board(board: &Value) -> Vec<Vec<Card>> {
    board["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            c.as_array()
                .unwrap()
                .iter()
                .map(|t| shown_card(t.as_str().unwrap()))
                .collect()
        })
        .collect()
}

/// The full board of `columns`, scored by the contest's scorer.
fn scored(columns: &[Vec<Card>]) -> (Vec<&'static str>, u8) {
    let full: [[Card; 5]; 4] =
        std::array::from_fn(|i| <[Card; 5]>::try_from(columns[i].as_slice()).unwrap());
    let score = Board::from_columns(full).score().unwrap();
    (
        score.columns.iter().map(|c| c.category.name()).collect(),
        score.total,
    )
}

/// Round robin's board on `deck`, by hand: card i goes to column i mod 4.
fn round_robin(deck: &ContestDeck) -> Vec<Vec<Card>> {
    (0..4)
        .map(|c| (0..5).map(|row| deck.cards()[row * 4 + c]).collect())
        .collect()
}

struct Run {
    dir: PathBuf,
    text: String,
    stderr: String,
    html: PathBuf,
}

/// `poker eval --html` over the built-in decks with round robin, greedy,
/// a hostile and a broken contestant, in a fresh folder.
fn evaluate() -> Run {
    let dir = common::scratch("html_eval");
    let hostile = dir.join("<b>evil&'.c");
    std::fs::write(&hostile, HOSTILE).unwrap();
    let broken = dir.join("broken.c");
    std::fs::write(&broken, BROKEN).unwrap();
    let html = dir.join("report.html");
    let root = common::root();
    let out = poker()
        .arg("--html")
        .arg(&html)
        .arg(root.join("c_examples/roundrobin.c"))
        .arg(root.join("c_examples/greedy.c"))
        .arg(&hostile)
        .arg(&broken)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    Run {
        dir,
        text: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
        html,
    }
}

fn checked_page(run: &Run, chromium: &str, width: u32) -> Value {
    let page = std::fs::read_to_string(&run.html).unwrap();
    // eval's default: a fresh process per game, said on the page.
    assert!(page.contains("<li>processes: fresh-processes</li>"));
    let harness = run.dir.join(format!("harness_{width}.html"));
    std::fs::write(&harness, browser::harness(&page, width, MEASURE)).unwrap();
    let measured = browser::measure(chromium, &harness, width + 20, 900);
    let shot = run.dir.join(format!("report_{width}.png"));
    browser::screenshot(chromium, &harness, width.max(500) + 20, 1600, &shot);
    serde_json::from_str(&measured).unwrap_or_else(|e| panic!("{e}: {measured}"))
}

fn check(page: &Value, width: u32) {
    assert!(page["error"].is_null(), "{page}");
    let builtin = decks::builtin();
    assert_eq!(page["width"], width, "measured width");
    assert!(
        page["scroll_width"].as_u64() <= page["width"].as_u64(),
        "horizontal overflow: {page:.300}"
    );
    assert_eq!(page["title"], "Poker American evaluation", "a script ran");
    assert_eq!(page["scripts"], 0, "the report holds no script");
    assert_eq!(page["outside"], 0, "cards outside the viewport");
    assert_eq!(page["overlaps"], 0, "overlapping cards");

    let contestants = page["contestants"].as_array().unwrap();
    let names: Vec<&str> = contestants
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["roundrobin", "greedy", "<b>evil&'", "broken"]);
    // Played games: 3 contestants x 10 decks x 20 cards, and as many best
    // boards; the broken contestant shows no boards.
    assert_eq!(page["cards"], 3 * 10 * 2 * 20 - 10 * 20);

    let mut totals = Vec::new();
    for c in contestants {
        let mut total = 0u32;
        for (i, game) in c["games"].as_array().unwrap().iter().enumerate() {
            let deck = &builtin[i];
            let played = shown_board(&game["played"]);
            let best = shown_board(&game["best"]);
            // The hindsight-best board: the deck's 20 dealt cards, scoring
            // the optimum's total.
            let (best_hands, best_total) = scored(&best);
            assert_eq!(best_total, deck_optimum(deck).total);
            assert_eq!(game["best"]["hands"], serde_json::json!(best_hands));
            let mut dealt: Vec<Card> = deck.cards()[..20].to_vec();
            let mut shown: Vec<Card> = best.concat();
            dealt.sort();
            shown.sort();
            assert_eq!(dealt, shown, "the best board holds the dealt cards");
            assert!(
                game["best"]["caption"]
                    .as_str()
                    .unwrap()
                    .ends_with(&best_total.to_string())
            );
            let score: u32 = game["score"].as_str().unwrap().parse().unwrap();
            total += score;
            if game["status"] == "ok" {
                let (hands, points) = scored(&played);
                assert_eq!(game["played"]["hands"], serde_json::json!(hands));
                assert_eq!(score, u32::from(points), "{game}");
            }
            if c["name"] == "roundrobin" {
                assert_eq!(played, round_robin(deck), "deck {}", i + 1);
            }
            // Red suits red, black suits black.
            for (col, colors) in played
                .iter()
                .zip(game["played"]["colors"].as_array().unwrap())
            {
                for (card, color) in col.iter().zip(colors.as_array().unwrap()) {
                    let red = matches!(card.suit.letter(), 'H' | 'D');
                    assert_eq!(color != "rgb(17, 17, 17)", red, "{card}: {color}");
                }
            }
            // Wide: the best board beside the played one; narrow: below.
            let (p, b) = (&game["played"]["box"], &game["best"]["box"]);
            let f = |v: &Value, k: &str| v[k].as_f64().unwrap();
            if width >= 1000 {
                assert!((f(p, "top") - f(b, "top")).abs() < 1.0, "{p} {b}");
                assert!(f(b, "left") >= f(p, "right"), "{p} {b}");
            } else {
                assert!(f(b, "top") >= f(p, "bottom"), "{p} {b}");
            }
        }
        assert_eq!(c["total"].as_str().unwrap(), total.to_string());
        totals.push(total);
    }
    // The hostile contestant: each game incomplete, its stderr shown as
    // text (markup and all) on the first game, the escape code escaped.
    let evil = &contestants[2]["games"][0];
    assert_eq!(evil["status"], "incomplete");
    let stderr = evil["stderr"].as_str().unwrap();
    assert!(
        stderr.contains("<script>document.title = 'owned';</script>"),
        "{stderr}"
    );
    assert!(
        stderr.contains("\\u{1b}[2Jlast line <b>bold</b>"),
        "{stderr}"
    );
    assert!(contestants[2]["games"][1]["stderr"].is_null());
    // The broken one: its diagnostics line by line.
    let diagnostics = contestants[3]["diagnostics"].as_str().unwrap();
    assert!(diagnostics.lines().count() >= 2, "{diagnostics}");
    assert!(diagnostics.contains("undeclared_one") && diagnostics.contains("undeclared_two"));
    // The ranking as shown: greedy, roundrobin, then the two zeros sharing
    // third place.
    let ranking = page["ranking"].as_array().unwrap();
    let row = |i: usize| -> Vec<&str> {
        ranking[i]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect()
    };
    assert_eq!(row(0), ["1", "greedy", &totals[1].to_string(), "10"]);
    assert_eq!(row(1)[1..3], ["roundrobin", &totals[0].to_string()]);
    assert_eq!(row(2)[0], "3");
    assert_eq!(row(3)[0], "3");
    // The decks' fingerprint: sha256sum of the deck file without comments.
    let canonical: String = include_str!("../../../../data/decks.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(page["sha256"], sha256sum(&canonical));
}

/// SHA-256 of `text` by coreutils' sha256sum.
fn sha256sum(text: &str) -> String {
    use std::io::Write;
    let mut child = Command::new("sha256sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout).unwrap()[..64].to_string()
}

#[test]
fn the_report_draws_every_board_and_lays_out_at_laptop_and_phone_widths() {
    let run = evaluate();
    // The text report: failures once per contestant, diagnostics line by
    // line and once.
    let text = &run.text;
    assert!(text.contains("  [1] decks 1-10: exited with status 1 after 0 placements\n      stderr: line one\n      stderr: <script>"), "{text}");
    assert_eq!(
        text.matches("exited with status 1 after 0 placements")
            .count(),
        1
    );
    let diagnostic = text
        .lines()
        .find(|l| l.contains("undeclared_two"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        !diagnostic.contains("undeclared_one"),
        "one line each: {diagnostic}"
    );
    let everything = format!("{text}{}", run.stderr);
    assert_eq!(
        everything.matches("error: 'undeclared_two'").count(),
        1,
        "{everything}"
    );
    assert!(
        text.contains("broken.c:3:5: error: 'undeclared_two'"),
        "{text}"
    );

    let Some(chromium) = browser::chromium() else {
        return;
    };
    for width in [1280, 390] {
        check(&checked_page(&run, chromium, width), width);
    }
}

#[test]
fn the_audit_fingerprints_the_decks_and_replays_each_game_in_practice_mode() {
    let dir = common::scratch("html_audit");
    // The contest text's worked example (round robin scores 11 on it), then
    // two built-in decks.
    let builtin = decks::builtin();
    let example = "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH";
    let file_text = format!("# audit test\n{example}\n{}\n{}\n", builtin[0], builtin[1]);
    let deck_file = dir.join("decks.txt");
    std::fs::write(&deck_file, &file_text).unwrap();
    let out = poker()
        .args(["--json", "--sandbox", "auto", "--decks"])
        .arg(&deck_file)
        .arg(common::root().join("c_examples/roundrobin.c"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let audit = &json["audit"];
    assert_eq!(audit["version"], env!("CARGO_PKG_VERSION"));
    let canonical = format!("{example}\n{}\n{}\n", builtin[0], builtin[1]);
    assert_eq!(audit["decks_sha256"], sha256sum(&canonical));
    let compile = &audit["compile"][0];
    assert_eq!(compile["contestant"], "roundrobin");
    assert!(
        compile["command"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "-O2")
    );
    assert_eq!(audit["replay"].as_array().unwrap().len(), 3);
    assert_eq!(json["contestants"][0]["tests"][0]["score"], 11);
    // Each replay, run by hand in a fresh folder, prints the game's total.
    for replay in audit["replay"].as_array().unwrap() {
        let deck = replay["deck"].as_u64().unwrap() as usize;
        let work = dir.join(format!("replay_{deck}"));
        std::fs::create_dir_all(&work).unwrap();
        let mut last = String::new();
        for command in replay["commands"].as_array().unwrap() {
            let out = Command::new("sh")
                .arg("-c")
                .arg(command.as_str().unwrap())
                .current_dir(&work)
                .env_remove("POKER_SEED")
                .env_remove("POKER_MANAGER_FD")
                .output()
                .unwrap();
            assert!(out.status.success(), "{command}: {}", common::stderr(&out));
            last = common::stdout(&out);
        }
        let score = &json["contestants"][0]["tests"][deck - 1]["score"];
        assert!(
            last.trim_end().ends_with(&format!("total: {score}")),
            "deck {deck}: {last}"
        );
    }
    // The text report's short block.
    let out = poker()
        .args(["--sandbox", "auto", "--decks"])
        .arg(&deck_file)
        .arg(common::root().join("c_examples/roundrobin.c"))
        .output()
        .unwrap();
    let text = common::stdout(&out);
    assert!(
        text.contains(&format!("sha256 {}", sha256sum(&canonical))),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "roundrobin replays deck 1: POKER_DECK='{example}' "
        )),
        "{text}"
    );
    let _ = Path::new("");
}

/// Measures, in the report page: table cells and headings that take more
/// than one line, each board's points row (all columns' points at one
/// height?), how many games share the first row, and whether a game says
/// its stderr is "as on deck N above".
const LAYOUT: &str = r##"
function lines(el) { var r = doc.createRange(); r.selectNodeContents(el);
  var tops = {}; Array.from(r.getClientRects()).forEach(function (b) { if (b.width > 0) tops[Math.round(b.top)] = 1; });
  return Object.keys(tops).length; }
var cells = Array.from(doc.querySelectorAll("#ranking th, #ranking td.rank, #ranking td.total, #ranking td.scaled"));
var boards = Array.from(doc.querySelectorAll(".board"));
var ragged = boards.filter(function (b) {
  var tops = Array.from(b.querySelectorAll(".points")).map(function (p) { return Math.round(p.getBoundingClientRect().top); });
  return tops.some(function (t) { return t !== tops[0]; }); }).length;
var section = doc.querySelector("section.contestant[data-name='long_stderr']");
var games = section ? Array.from(section.querySelectorAll(".game")) : [];
var firstTop = games.length ? Math.round(games[0].getBoundingClientRect().top) : -1;
return {
  width: doc.documentElement.clientWidth,
  scroll_width: doc.documentElement.scrollWidth,
  wrapped: cells.filter(function (c) { return lines(c) > 1; }).map(function (c) { return c.innerText; }),
  name_lines: Array.from(doc.querySelectorAll("#ranking td:nth-child(2)")).map(lines),
  ragged_boards: ragged,
  boards: boards.length,
  first_row_games: games.filter(function (g) { return Math.round(g.getBoundingClientRect().top) === firstTop; }).length,
  as_above: Array.from(doc.querySelectorAll(".reason")).filter(function (r) { return r.innerText.indexOf("as on deck") >= 0; }).length
};
"##;

/// A program that breaks a rule on every deck with one very long line on
/// stderr.
const LONG_STDERR: &str = r#"#include <stdio.h>
#include "poker.h"
int main(void) {
    int v, c, i;
    fprintf(stderr, "a_very_long_line_of_standard_error_without_any_space_in_it_");
    for (i = 0; i < 12; i++) fprintf(stderr, "0123456789abcdef");
    fprintf(stderr, "\n");
    p_startgame();
    p_look(&v, &c);
    p_place(5);
    return 0;
}
"#;

/// A program that stops early on every deck, printing nothing.
const SILENT: &str = "#include \"poker.h\"\nint main(void) { p_startgame(); return 0; }\n";

#[test]
fn the_report_reads_on_a_phone_numbers_do_not_wrap_and_games_stay_two_up() {
    let dir = common::scratch("html_layout");
    let long_name = dir.join("a_contestant_with_a_very_long_descriptive_file_name_v2.c");
    std::fs::copy(common::root().join("c_examples/greedy.c"), &long_name).unwrap();
    let long_stderr = dir.join("long_stderr.c");
    std::fs::write(&long_stderr, LONG_STDERR).unwrap();
    let silent = dir.join("silent.c");
    std::fs::write(&silent, SILENT).unwrap();
    let html = dir.join("report.html");
    let out = poker()
        .args(["--quiet", "--sandbox", "off", "--html"])
        .arg(&html)
        .arg(&long_name)
        .arg(common::root().join("c_examples/roundrobin.c"))
        .arg(&long_stderr)
        .arg(&silent)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    let Some(chromium) = browser::chromium() else {
        return;
    };
    let page = std::fs::read_to_string(&html).unwrap();
    for width in [1280u32, 390] {
        let harness = dir.join(format!("layout_{width}.html"));
        std::fs::write(&harness, browser::harness(&page, width, LAYOUT)).unwrap();
        let measured = browser::measure(chromium, &harness, width + 20, 900);
        let v: Value =
            serde_json::from_str(&measured).unwrap_or_else(|e| panic!("{e}: {measured}"));
        assert_eq!(v["width"], width, "{v}");
        assert!(v["scroll_width"].as_u64() <= v["width"].as_u64(), "{v}");
        assert_eq!(
            v["wrapped"],
            serde_json::json!([]),
            "numbers or headings wrap at {width} px: {v}"
        );
        assert_eq!(
            v["ragged_boards"], 0,
            "points not in one row at {width} px: {v}"
        );
        assert!(v["boards"].as_u64().unwrap() >= 80, "{v}");
        // The silent program's games have no stderr: none says "as above".
        assert_eq!(
            v["as_above"], 9,
            "only the long stderr's decks 2-10 refer to deck 1: {v}"
        );
        if width == 1280 {
            assert!(
                v["first_row_games"].as_u64().unwrap() >= 2,
                "a long stderr line breaks the grid: {v}"
            );
        } else {
            // The long name wraps rather than widening the table.
            assert!(v["name_lines"][0].as_u64().unwrap() >= 2, "{v}");
        }
    }
    // Screenshots to look at beside the measures (docs/pictures/ has its
    // own, from tests/pictures.sh).
    for (width, height) in [(1280u32, 2200u32), (390, 3000)] {
        let shot = dir.join(format!("eval-report-{width}.png"));
        browser::screenshot(chromium, &html, width, height, &shot);
    }
}
