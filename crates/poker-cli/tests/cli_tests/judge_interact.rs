//! `poker interact` spoken to directly (this test plays the submission's
//! side of the protocol), `poker validate-deck` and `poker rank`.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

const ORDERED: &str = "9C 9D 9H 9S TC TD TH TS JC JD JH JS QC QD QH QS KC KD KH KS AC AD AH AS";

fn poker() -> Command {
    crate::common::poker()
}

/// A test's input and feedback folder, fresh for `name`.
fn test_files(name: &str, input: &str) -> (PathBuf, PathBuf) {
    let dir = common::scratch("judge_interact").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let feedback = dir.join("feedback");
    std::fs::create_dir_all(&feedback).unwrap();
    let path = dir.join("test.in");
    std::fs::write(&path, input).unwrap();
    (path, feedback)
}

struct Outcome {
    status: Option<i32>,
    replies: Vec<String>,
    score: Option<String>,
    message: String,
}

/// Sends each of `requests` (raw bytes, one message each) and reads one
/// reply line after each, until the interactor stops answering or a
/// message is left unfinished; then closes the channel.
fn converse(name: &str, requests: &[&[u8]]) -> Outcome {
    let (input, feedback) = test_files(name, &format!("{ORDERED}\n"));
    let mut child = poker()
        .arg("interact")
        .arg(&input)
        .arg(&input)
        .arg(&feedback)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut to = child.stdin.take().unwrap();
    let mut from = BufReader::new(child.stdout.take().unwrap());
    let mut replies = Vec::new();
    for request in requests {
        if to.write_all(request).is_err() {
            break;
        }
        if !request.ends_with(b"\n") && request.len() < 256 {
            break; // an unfinished message, then the channel closes
        }
        let mut line = String::new();
        if from.read_line(&mut line).unwrap_or(0) == 0 {
            break;
        }
        replies.push(line.trim_end().to_string());
    }
    drop(to);
    let status = child.wait().unwrap().code();
    Outcome {
        status,
        replies,
        score: std::fs::read_to_string(feedback.join("score.txt")).ok(),
        message: std::fs::read_to_string(feedback.join("judgemessage.txt")).unwrap_or_default(),
    }
}

fn round_robin() -> Vec<Vec<u8>> {
    let mut requests = vec![b"S\n".to_vec()];
    for i in 0..20 {
        requests.push(b"L\n".to_vec());
        requests.push(format!("P {}\n", i % 4 + 1).into_bytes());
    }
    requests
}

#[test]
fn a_complete_game_is_accepted_with_its_total_as_the_score() {
    let requests = round_robin();
    let refs: Vec<&[u8]> = requests.iter().map(|r| r.as_slice()).collect();
    let out = converse("complete", &refs);
    // Round robin on the ordered deck: 9-10-J-Q-K of one suit per column,
    // four straight flushes of 8 points (the contest's scoring table).
    assert_eq!(out.status, Some(42), "{}", out.message);
    assert_eq!(out.score.as_deref(), Some("32\n"));
    assert_eq!(out.replies.last().map(String::as_str), Some("END 32"));
    // The first card of the ordered deck is the 9 of clubs: value 1, color 4.
    assert_eq!(out.replies[1], "C 1 4");
}

#[test]
fn a_broken_rule_is_wrong_answer_naming_the_rule_without_a_score() {
    let out = converse("violation", &[b"S\n", b"P 1\n"]);
    assert_eq!(out.status, Some(43));
    assert!(out.score.is_none());
    assert!(out.replies[1].starts_with("V "), "{:?}", out.replies);
    assert!(out.message.contains("call 2, p_place"), "{}", out.message);
}

#[test]
fn garbage_and_early_ends_are_wrong_answer_never_a_judge_error() {
    let junk: [&[u8]; 7] = [
        b"hello\n",
        b"NaN\n",
        b"\x00\n",
        b"\xff\xfe\n",
        b"S\nS\n",
        b"(()",
        &[b'x'; 300],
    ];
    for (i, bytes) in junk.iter().enumerate() {
        let out = converse(&format!("junk{i}"), &[bytes]);
        assert_eq!(out.status, Some(43), "{bytes:?}: {}", out.message);
        assert!(out.score.is_none(), "{bytes:?}");
        assert!(!out.message.is_empty(), "{bytes:?}");
    }
    let out = converse("early", &[b"S\n", b"L\n"]);
    assert_eq!(out.status, Some(43));
    assert!(out.message.contains("incomplete"), "{}", out.message);
    assert!(out.message.contains("0 of 20"), "{}", out.message);
    let out = converse("nothing", &[]);
    assert_eq!(out.status, Some(43));
}

#[test]
fn a_bad_test_input_is_a_judge_error() {
    for (name, input) in [
        ("two_decks", format!("{ORDERED}\n{ORDERED}\n")),
        ("not_a_deck", "hello\n".to_string()),
    ] {
        let (path, feedback) = test_files(name, &input);
        let output = poker()
            .arg("interact")
            .arg(&path)
            .arg(&path)
            .arg(&feedback)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let code = output.status.code();
        assert!(code != Some(42) && code != Some(43), "{name}: {code:?}");
        assert!(common::stderr(&output).contains("poker: error"), "{name}");
    }
}

fn validate(input: &[u8]) -> Option<i32> {
    let mut child = poker()
        .arg("validate-deck")
        .stdin(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait().unwrap().code()
}

#[test]
fn the_input_validator_takes_exactly_one_canonical_deck_line() {
    assert_eq!(validate(format!("{ORDERED}\n").as_bytes()), Some(42));
    for bad in [
        ORDERED.to_string(),
        format!("{ORDERED}\n\n"),
        format!("{ORDERED} \n"),
        format!("{}\n", ORDERED.replace("AS", "AC")),
        format!("{}\n", ORDERED.to_lowercase()),
    ] {
        assert_eq!(validate(bad.as_bytes()), Some(43), "{bad:?}");
    }
}

fn rank(text: &str) -> std::process::Output {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = common::scratch("judge_interact").join(format!("rank{n}.txt"));
    std::fs::write(&path, text).unwrap();
    poker().arg("rank").arg(&path).output().unwrap()
}

#[test]
fn rank_scales_the_best_total_to_ten_points_as_the_contest_text_does() {
    // The contest text's example: best 180, so 120 -> 6.666 -> 7 and
    // 60 -> 3.333 -> 3.
    let output = rank("# scoreboard\nthird one 60\nbest 180\n\nsecond 120\n");
    assert!(output.status.success(), "{}", common::stderr(&output));
    let rows: Vec<Vec<String>> = common::stdout(&output)
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect();
    assert_eq!(
        rows,
        [
            vec!["1", "best", "180", "10"],
            vec!["2", "second", "120", "7"],
            vec!["3", "third", "one", "60", "3"],
        ]
    );
}

#[test]
fn rank_refuses_malformed_scoreboards_with_the_line_named() {
    for (text, expected) in [
        ("alone\n", "line 1"),
        ("a 10\nb -1\n", "line 2"),
        ("a 10\nb x\n", "line 2"),
        ("a 10\na 11\n", "twice"),
        ("# nothing\n", "no contestants"),
        ("a 99999999999\n", "line 1"),
    ] {
        let output = rank(text);
        assert_eq!(output.status.code(), Some(2), "{text:?}");
        assert!(
            common::stderr(&output).contains(expected),
            "{text:?}: {}",
            common::stderr(&output)
        );
    }
}
