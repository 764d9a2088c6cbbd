//! The pictures of the docs (docs/pictures/) are screenshots of pages the
//! tool made, kept beside them (`NAME.html`). This test makes each page
//! again and fails when it differs from the kept one (sources, not pixels:
//! pixels vary with Chromium and fonts), so a picture never shows what the
//! tool no longer prints. `bash tests/pictures.sh` (this test with
//! POKER_BLESS=1) writes the pages and takes the screenshots again.

use crate::browser;
use crate::common;
use std::path::Path;

/// Where the checkout lies, as the kept pages write it: a neutral path, so
/// that they hold nothing of the machine that made them.
const NEUTRAL_ROOT: &str = "/home/organiser/libpoker";

/// A picture: its page's name and the widths it is shot at (height each).
struct Picture {
    name: &'static str,
    shots: &'static [(u32, u32)],
    make: fn(&Path) -> String,
}

const PICTURES: &[Picture] = &[Picture {
    name: "eval-report",
    shots: &[(1280, 2200), (390, 3000)],
    make: eval_report,
}];

/// `poker eval --html` of the docs (organiser.md): greedy, and a contestant
/// that breaks a rule, unsandboxed (the same page on every machine), in a
/// fixed order of games.
fn eval_report(dir: &Path) -> String {
    let html = dir.join("eval-report.html");
    let out = common::poker()
        .args([
            "eval",
            "--quiet",
            "--sandbox",
            "off",
            "--order-seed",
            "1",
            "--lib-dir",
        ])
        .arg(common::lib_dir())
        .arg("--html")
        .arg(&html)
        .args(["c_examples/greedy.c", "tests/contestants/bad_column.c"])
        .env_remove("POKER_MANAGER_FD")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::stderr(&out));
    std::fs::read_to_string(&html).unwrap()
}

/// `page` with the checkout's path made neutral, as the kept pages have it
/// (written plainly or with HTML's escaped slashes).
fn neutral(page: &str) -> String {
    let root = common::root().display().to_string();
    page.replace(&root, NEUTRAL_ROOT).replace(
        &root.replace('/', "&#x2f;"),
        &NEUTRAL_ROOT.replace('/', "&#x2f;"),
    )
}

/// `page` with what differs between runs and machines masked: the names
/// of temporary folders (a random suffix after `poker-eval-` or `build-`),
/// the compiler's name, the library's folder (the test build's), measured
/// times (`0.051 s`) and the warning about other processes' load (made
/// only on a busy machine, see [`busy_warning_removed`]).
fn masked(page: &str) -> String {
    let page = measured_times_masked(&busy_warning_removed(page));
    let mut out = String::with_capacity(page.len());
    let mut rest = page.as_str();
    while let Some(at) = ["poker-eval-", "build-"]
        .iter()
        .filter_map(|p| rest.find(p).map(|i| (i, p.len())))
        .min()
    {
        let (i, len) = at;
        out.push_str(&rest[..i + len]);
        rest = &rest[i + len..];
        let suffix = rest.chars().take_while(char::is_ascii_alphanumeric).count();
        if suffix == 6 {
            out.push_str("XXXXXX");
            rest = &rest[6..];
        }
    }
    out.push_str(rest);
    let lib = neutral(&common::lib_dir().display().to_string()).replace('/', "&#x2f;");
    out.split_inclusive([' ', '>', '<', ';'])
        .map(|word| {
            let bare = word.trim_end_matches([' ', '>', '<', ';']);
            if bare.contains("gcc") {
                word.replacen(bare, "CC", 1)
            } else {
                word.to_string()
            }
        })
        .collect::<String>()
        .replace(&lib, "LIB")
}

/// `page` without the paragraph that warns of other processes' load (the
/// line that held it stays, empty as on a quiet machine).
fn busy_warning_removed(page: &str) -> String {
    const WARNING: &str = "<p class=\"warning\">warning: other processes took";
    let mut out = String::with_capacity(page.len());
    let mut rest = page;
    while let Some(at) = rest.find(WARNING) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        rest = rest
            .find("</p>")
            .map_or("", |end| &rest[end + "</p>".len()..]);
    }
    out.push_str(rest);
    out
}

/// `text` with every decimal number followed by ` s` (a measured time)
/// written `#.# s`.
fn measured_times_masked(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(" s") {
        let before = &rest[..at];
        let digits = before
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .count();
        let number = &before[before.len() - digits..];
        if number.contains('.') && number.chars().any(|c| c.is_ascii_digit()) {
            out.push_str(&before[..before.len() - digits]);
            out.push_str("#.#");
        } else {
            out.push_str(before);
        }
        out.push_str(" s");
        rest = &rest[at + 2..];
    }
    out.push_str(rest);
    out
}

#[test]
fn masking_hides_measures_and_keeps_the_rest() {
    assert_eq!(
        measured_times_masked("wall 0.051 s · CPU 12.5 s · 5 s limit · plays"),
        "wall #.# s · CPU #.# s · 5 s limit · plays"
    );
    let page = "<p>a</p>\n<p class=\"warning\">warning: other processes took 1.05 s</p>\n\
                <code>/tmp/poker-eval-AbC123/build-xYz789/c x86_64-linux-gnu-gcc-12 -O2</code>\n";
    assert_eq!(
        masked(page),
        "<p>a</p>\n\n<code>/tmp/poker-eval-XXXXXX/build-XXXXXX/c CC -O2</code>\n"
    );
    // The warning's line stays, as a quiet machine's page has it: empty,
    // or with the other warnings (the template writes them on one line).
    let page = "<h1>E</h1>\n<p class=\"warning\">warning: no sandbox</p>\
                <p class=\"warning\">warning: other processes took 2 s</p>\n<ul>\n";
    assert_eq!(
        masked(page),
        "<h1>E</h1>\n<p class=\"warning\">warning: no sandbox</p>\n<ul>\n"
    );
}

#[test]
fn the_docs_pictures_show_what_the_tool_makes_now() {
    let dir = common::scratch("pictures");
    let kept_dir = common::root().join("docs/pictures");
    let bless = std::env::var_os("POKER_BLESS").is_some();
    for picture in PICTURES {
        let fresh = neutral(&(picture.make)(&dir));
        let kept_file = kept_dir.join(format!("{}.html", picture.name));
        if bless {
            std::fs::write(&kept_file, &fresh).unwrap();
            let chromium = browser::chromium().expect("Chromium, to take the pictures");
            for &(width, height) in picture.shots {
                let png = kept_dir.join(format!("{}-{width}.png", picture.name));
                browser::screenshot(chromium, &kept_file, width, height, &png);
            }
            continue;
        }
        let kept = std::fs::read_to_string(&kept_file)
            .unwrap_or_else(|e| panic!("{}: {e}", kept_file.display()));
        let (kept, fresh) = (masked(&kept), masked(&fresh));
        if kept != fresh {
            let line = kept
                .lines()
                .zip(fresh.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(kept.lines().count().min(fresh.lines().count()));
            panic!(
                "docs/pictures/{}.html is not what the tool makes now (first difference on \
                 line {}):\nkept:  {:.300}\nfresh: {:.300}\nrun `bash tests/pictures.sh` and \
                 commit what it writes",
                picture.name,
                line + 1,
                kept.lines().nth(line).unwrap_or(""),
                fresh.lines().nth(line).unwrap_or("")
            );
        }
        for &(width, _) in picture.shots {
            let png = kept_dir.join(format!("{}-{width}.png", picture.name));
            assert!(png.is_file(), "{} is missing", png.display());
        }
    }
}
