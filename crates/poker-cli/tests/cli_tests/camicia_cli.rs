//! `poker camicia` from the outside. Expected values: the seed's examples
//! and records.json (Nessler 2022's deal, index, cards and tricks).

fn poker(args: &[&str]) -> (bool, String) {
    let out = crate::common::poker().args(args).output().unwrap();
    (out.status.success(), String::from_utf8(out.stdout).unwrap())
}

const NESSLER_A: &str = "---AJ--Q---------QAKQJJ-QK";
const NESSLER_B: &str = "-----A----KJ-K--------A---";
const NESSLER_INDEX: &str = "447247122283566119055";

#[test]
fn play_prints_status_cards_and_tricks() {
    let (ok, out) = poker(&["camicia", "2 A 7 8 Q 10", "3 4 5 6 K 9 J"]);
    assert!(ok);
    assert_eq!(out, "status: finished\ncards: 13\ntricks: 1\n");
}

#[test]
fn a_deal_that_is_not_a_full_deck_is_played_with_a_warning() {
    let run = |args: &[&str]| {
        let out = crate::common::poker().args(args).output().unwrap();
        assert!(out.status.success());
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    // The seed's example: 6 and 7 cards, played as the rules say.
    let (out, err) = run(&["camicia", "2 A 7 8 Q 10", "3 4 5 6 K 9 J"]);
    assert_eq!(out, "status: finished\ncards: 13\ntricks: 1\n");
    assert_eq!(
        err,
        "poker: warning: not a full deck (a numbered deal has 26 cards per player, not 6 and \
         7); played as given\n"
    );
    // Nessler's record with one number card too many for B, and with a
    // number card typed as a king: warned, the JSON as it was.
    let (out, err) = run(&["camicia", NESSLER_A, &format!("{NESSLER_B}-"), "--json"]);
    assert!(
        out.starts_with("{\"cards\":") && !out.contains("warning"),
        "{out}"
    );
    assert!(err.contains("not 26 and 27"), "{err}");
    let (_, err) = run(&["camicia", NESSLER_A, &NESSLER_B.replacen('-', "K", 1)]);
    assert!(
        err.contains("not 4 J, 4 Q, 5 K, 4 A and 35 number cards"),
        "{err}"
    );
    // A full deck: no word.
    let (out, err) = run(&["camicia", NESSLER_A, NESSLER_B]);
    assert_eq!(
        (out.as_str(), err.as_str()),
        ("status: finished\ncards: 8,344\ntricks: 1,164\n", "")
    );
}

#[test]
fn play_accepts_dash_notation_and_prints_json() {
    let (ok, out) = poker(&["camicia", NESSLER_A, NESSLER_B, "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["status"], "finished");
    assert_eq!(
        (v["cards"].as_u64(), v["tricks"].as_u64()),
        (Some(8344), Some(1164))
    );
}

#[test]
fn trace_names_the_repeated_round_of_the_seeds_loop() {
    let (ok, out) = poker(&["camicia", "--trace", "J 2 3", "4 J 5"]);
    assert!(ok);
    assert!(out.contains("round 4 starts like round 2"));
    // The summary reads as the untraced form does.
    let (_, plain) = poker(&["camicia", "J 2 3", "4 J 5"]);
    assert_eq!(plain, "status: loop\ncards: 8\ntricks: 3\n");
    assert!(out.ends_with(&plain), "{out}");
}

#[test]
fn trace_table_is_aligned_for_a_terminal() {
    let (ok, out) = poker(&["camicia", "--trace", "J 2 3", "4 J 5"]);
    assert!(ok);
    let table: Vec<&str> = out.lines().filter(|l| l.starts_with('|')).collect();
    // A header, the separator and the 12 rows of the start and each card
    // played until round 4 repeats round 2.
    assert_eq!(table.len(), 14, "{out}");
    let bars = |line: &str| -> Vec<usize> {
        line.char_indices()
            .filter(|&(_, c)| c == '|')
            .map(|(i, _)| i)
            .collect()
    };
    for line in &table {
        assert_eq!(bars(line), bars(table[0]), "misaligned:\n{out}");
        assert_eq!(*line, line.trim_end());
    }
    assert!(table[1].starts_with("| ---"), "{out}");
    assert_eq!(
        table[2],
        format!(
            "| 1     | J 2 3    | 4 J 5    | (none) | -{} |",
            " ".repeat(10)
        )
    );
}

#[test]
fn a_bad_token_fails_with_status_2() {
    let (ok, _) = poker(&["camicia", "2 X", "3"]);
    assert!(!ok);
}

#[test]
fn index_and_deal_convert_both_ways() {
    let (ok, out) = poker(&["camicia", "index", NESSLER_A, NESSLER_B]);
    assert!(ok);
    assert_eq!(out.trim(), NESSLER_INDEX);
    let (ok, out) = poker(&["camicia", "deal", NESSLER_INDEX]);
    assert!(ok);
    assert_eq!(out.trim(), format!("{NESSLER_A} {NESSLER_B}"));
}

#[test]
fn a_range_search_finds_the_record_in_its_range_on_any_thread_count() {
    let range = "447247122283566110000..447247122283566130000";
    let run = |threads: &str| {
        poker(&[
            "camicia", "search", "--range", range, "--top", "3", "--json", "--quiet", "--jobs",
            threads,
        ])
    };
    let (ok1, one) = run("1");
    let (ok2, two) = run("2");
    assert!(ok1 && ok2);

    let best = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.contains("\"kind\":\"best\"") || l.contains("\"kind\":\"loop\""))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(best(&one), best(&two));
    // --threads, the older name, is the same option.
    let (ok3, three) = poker(&[
        "camicia",
        "search",
        "--range",
        range,
        "--top",
        "3",
        "--json",
        "--quiet",
        "--threads",
        "3",
    ]);
    assert!(ok3);
    assert_eq!(best(&three), best(&one));
    let first: serde_json::Value = serde_json::from_str(&best(&one)[0]).unwrap();
    assert_eq!(first["index"], NESSLER_INDEX);
    assert_eq!(first["cards"], 8344);
    assert_eq!(first["tricks"], 1164);
}

#[test]
fn the_search_reports_the_same_games_with_the_vector_path_forced_off() {
    // POKER_PLAIN=1 sends every deal to the fast engine.
    let run = |plain: &str, args: &[&str]| {
        let out = crate::common::poker()
            .args(["camicia", "search", "--top", "20", "--json", "--quiet"])
            .args(args)
            .env("POKER_PLAIN", plain)
            .output()
            .unwrap();
        assert!(out.status.success());
        let games: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .filter(|l| !l.contains("\"kind\":\"summary\""))
            .map(str::to_string)
            .collect();
        assert!(games.len() >= 20, "{args:?}: {games:?}");
        games
    };
    for args in [
        &["--count", "200000", "--seed", "5"][..],
        &["--range", "472460898658889389111..472460898658889409111"],
    ] {
        assert_eq!(run("1", args), run("0", args), "{args:?}");
    }
}
