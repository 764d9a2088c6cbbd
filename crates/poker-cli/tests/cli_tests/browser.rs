//! Headless Chromium for the page tests: load a page inside a frame of a
//! given width in a harness page, run a measuring script there, and read
//! its findings back from the dumped DOM; take screenshots.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The Chromium command, or `None` when the browser tier cannot run here
/// (`common::tier::ready`: under CI=true that fails the test).
pub fn chromium() -> Option<&'static str> {
    use super::common::tier;
    tier::ready(&[&tier::BROWSER]).then_some("chromium")
}

/// Flags for a headless run here (root, network closed), with a fresh
/// profile in `profile`.
fn flags(profile: &Path) -> Vec<String> {
    [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--virtual-time-budget=10000",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect()
}

/// `text` escaped for an HTML attribute value in double quotes.
fn attribute(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A harness page showing `page` (HTML text) in a `width` px wide frame
/// (same origin, through srcdoc), running `script` on the frame's document
/// once everything loaded: `script` is the body of `function (doc, win)`
/// returning a JSON-serialisable value, written into `<pre id="result">`.
pub fn harness(page: &str, width: u32, script: &str) -> String {
    format!(
        r#"<!DOCTYPE html><html><head><meta charset="utf-8">
<style>body {{ margin: 0; }} iframe {{ border: 0; width: {width}px; height: 1400px; display: block; }}</style>
</head><body><iframe id="frame" srcdoc="{}"></iframe><pre id="result">pending</pre>
<script>
window.addEventListener("load", function () {{
  var f = document.getElementById("frame");
  var out;
  try {{ out = (function (doc, win) {{ {script} }})(f.contentDocument, f.contentWindow); }}
  catch (e) {{ out = {{ error: String(e) }}; }}
  document.getElementById("result").textContent = JSON.stringify(out);
}});
</script></body></html>"#,
        attribute(page)
    )
}

/// Loads `file` in Chromium with a `width` x `height` window and returns
/// the text of `<pre id="result">` of the rendered DOM.
pub fn measure(chromium: &str, file: &Path, width: u32, height: u32) -> String {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(chromium)
        .args(flags(profile.path()))
        .arg(format!("--window-size={width},{height}"))
        .arg("--dump-dom")
        .arg(url(file))
        .output()
        .expect("run chromium");
    let dom = String::from_utf8_lossy(&out.stdout);
    let start = dom
        .find("<pre id=\"result\">")
        .unwrap_or_else(|| panic!("no result in the DOM: {dom:.2000}"));
    let rest = &dom[start + "<pre id=\"result\">".len()..];
    let end = rest.find("</pre>").expect("closed result");
    rest[..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// Screenshots `file` with a `width` x `height` window into `png`.
pub fn screenshot(chromium: &str, file: &Path, width: u32, height: u32, png: &Path) {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(chromium)
        .args(flags(profile.path()))
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--screenshot={}", png.display()))
        .arg(url(file))
        .output()
        .expect("run chromium");
    assert!(
        png.is_file(),
        "no screenshot: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn url(file: &Path) -> String {
    let absolute: PathBuf = std::fs::canonicalize(file).unwrap();
    format!("file://{}", absolute.display())
}
