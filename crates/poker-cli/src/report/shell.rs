//! Commands as reports print them, for a person to paste into bash: the one
//! place an argument vector and its environment settings become a shell
//! line. The text, HTML and JSON reports all take their commands from here
//! and never escape them again (HTML only HTML-escapes them).
//!
//! A line is always a single line of visible characters, whatever the
//! words hold (a contestant names its own files):
//!
//! - a word of letters, digits and `_-./:,+%@=` alone is written as it is;
//! - a word holding a control character (newline, escape, ...), a Unicode
//!   format character (category Cf: bidirectional overrides, zero-width
//!   characters) or a line or paragraph separator is written as `$'...'`,
//!   those characters (and `'`) as `\xHH` escapes of their UTF-8 bytes, a
//!   backslash as `\\`;
//! - any other word is written as `'...'`, a `'` in it as `'\''`.
//!
//! `$'...'` is bash's (also zsh's, ksh's, and POSIX.1-2024's); Debian's
//! `dash` does not know it, so these lines are for bash.

use super::text::unseen;

/// The shell line that runs `argv` with the environment `settings`
/// (`NAME=value` before the command, as bash reads them). Each name must
/// be a shell identifier (`[A-Za-z_][A-Za-z0-9_]*`).
pub fn command_line(settings: &[(String, String)], argv: &[String]) -> String {
    let settings = settings.iter().map(|(name, value)| {
        debug_assert!(identifier(name), "not a variable name: {name:?}");
        format!("{name}={}", quote(value))
    });
    let command = argv.split_first().map(|(first, args)| {
        std::iter::once(command_word(first)).chain(args.iter().map(|a| quote(a)))
    });
    settings
        .chain(command.into_iter().flatten())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `word` as one shell word that bash reads back as exactly `word`.
pub fn quote(word: &str) -> String {
    if plain(word) {
        word.to_string()
    } else if word.chars().any(unseen) {
        let mut quoted = String::from("$'");
        for c in word.chars() {
            match c {
                '\\' => quoted.push_str("\\\\"),
                // Not `\'`: a pasted line goes through bash's history
                // expansion, which does not read `\'` inside `$'...'` as a
                // quote's escape.
                '\'' => quoted.push_str("\\x27"),
                c if unseen(c) => {
                    let mut bytes = [0; 4];
                    for b in c.encode_utf8(&mut bytes).bytes() {
                        quoted.push_str(&format!("\\x{b:02x}"));
                    }
                }
                c => quoted.push(c),
            }
        }
        quoted.push('\'');
        quoted
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The command's own word: quoted also when, unquoted, bash would read it
/// as an assignment (`A=b`) or a reserved word (`if`, `!`, ...).
fn command_word(word: &str) -> String {
    const RESERVED: &[&str] = &[
        "!", "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if",
        "in", "select", "then", "time", "until", "while",
    ];
    if plain(word) && (word.contains('=') || RESERVED.contains(&word)) {
        format!("'{word}'")
    } else {
        quote(word)
    }
}

/// Whether `word` needs no quoting anywhere in a command.
fn plain(word: &str) -> bool {
    !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:,+%@=".contains(c))
}

fn identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    // Expected lines written by hand from bash's quoting rules (bash(1),
    // QUOTING); the integration tests run such lines through bash.
    #[test]
    fn words_are_quoted_only_when_needed() {
        assert_eq!(quote("./greedy"), "./greedy");
        assert_eq!(quote("-Wl,-rpath,/usr/lib"), "-Wl,-rpath,/usr/lib");
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote("$(rm -rf /)"), "'$(rm -rf /)'");
        assert_eq!(quote("a\\b"), "'a\\b'");
        assert_eq!(quote(""), "''");
    }

    #[test]
    fn unseen_characters_are_escaped_on_one_line() {
        assert_eq!(quote("a\nb"), "$'a\\x0ab'");
        assert_eq!(quote("x'\n\\"), "$'x\\x27\\x0a\\\\'");
        assert_eq!(quote("r\u{202e}c.c"), "$'r\\xe2\\x80\\xaec.c'");
        assert_eq!(quote("zero\u{200b}width"), "$'zero\\xe2\\x80\\x8bwidth'");
        assert_eq!(quote("é \u{2028}"), "$'é \\xe2\\x80\\xa8'");
    }

    #[test]
    fn settings_come_first_and_the_command_is_never_an_assignment() {
        let settings = [("POKER_DECK".to_string(), "9S TS".to_string())];
        assert_eq!(
            command_line(&settings, &words(&["./greedy"])),
            "POKER_DECK='9S TS' ./greedy"
        );
        assert_eq!(command_line(&[], &words(&["A=b", "C=d"])), "'A=b' C=d");
        assert_eq!(command_line(&[], &words(&["if", "if"])), "'if' if");
        assert_eq!(command_line(&[], &[]), "");
    }
}
