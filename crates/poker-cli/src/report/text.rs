//! Text a contestant controls (its file name, the reasons quoting its
//! messages, its stderr) as reports show it: characters that would change
//! how a line reads, rather than add to it, written as escapes.

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// Whether `c` is not shown as itself: a control character (newline,
/// escape, ...), a format character (Unicode category Cf: bidirectional
/// overrides and isolates, zero-width characters, the byte-order mark, ...)
/// or a line or paragraph separator.
pub fn unseen(c: char) -> bool {
    matches!(
        c.general_category(),
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
    )
}

/// `text` with every [`unseen`] character and every backslash written as a
/// Rust-style escape (`\n`, `\u{1b}`, `\u{202e}`, `\\`): safe to print on a
/// terminal or a page, one line, still readable. Not for shell commands,
/// which are quoted once by [`super::shell`] and never escaped again.
pub fn escape(text: &str) -> String {
    let mut shown = String::with_capacity(text.len());
    for c in text.chars() {
        if unseen(c) || c == '\\' {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escape("a\nb\u{1b}[2J\\"), "a\\nb\\u{1b}[2J\\\\");
        assert_eq!(escape("plain é ♠"), "plain é ♠");
    }

    // Code points and their category Cf from the Unicode Character
    // Database (UnicodeData.txt).
    #[test]
    fn format_characters_are_escaped() {
        assert_eq!(escape("abc\u{202e}d"), "abc\\u{202e}d");
        for c in [
            '\u{ad}',
            '\u{200b}',
            '\u{200e}',
            '\u{202a}',
            '\u{2066}',
            '\u{2069}',
            '\u{feff}',
            '\u{e0001}',
        ] {
            assert_eq!(escape(&c.to_string()), format!("\\u{{{:x}}}", c as u32));
        }
        assert_eq!(escape("\u{2028}\u{2029}"), "\\u{2028}\\u{2029}");
    }
}
