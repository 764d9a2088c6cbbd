//! The properties the fuzz targets check, one function per input surface.
//!
//! Shared by the cargo-fuzz targets (`fuzz/fuzz_targets/*.rs`, nightly) and
//! by `crates/poker-cli/tests/cli_tests/fuzz_regressions.rs`, which replays the committed seed corpus
//! and every crash found on stable: each function takes the raw fuzz input
//! and panics when a property fails. No libfuzzer here, only libpoker.
#![allow(dead_code)]

use poker::ffi::game::*;
use poker_core::camicia::{self, Player, Simulator, notation, parse_deck_bytes, penalties};
use poker_core::card_list::parse_cards;
use poker_core::cards::Card;
use poker_core::contest::{ContestDeck, Game, card_code};
use poker_core::freecell::{self, Deal, DealNumber, Layout, Tens, parse_board};
use poker_core::optimum::deck_optimum;
use poker_judge::evaluator::decks::parse_deck_file;
use poker_protocol::{Breach, LineAssembler, MAX_LINE, Reply, Request};
use std::ffi::{CString, c_char, c_int};

/// The judge system's input validator and interactor, from the `poker`
/// command's source (a program, so not a crate to depend on).
#[path = "../crates/poker-cli/src/judge/kattis/mod.rs"]
#[allow(unused_imports)]
mod kattis;

/// The codes `poker_game_new_text` may give for a text that is not a
/// deck.
const DECK_TEXT_ERRORS: [c_int; 4] = [
    POKER_ERR_TOKEN,
    POKER_ERR_NOT_IN_DECK,
    POKER_ERR_DUPLICATE,
    POKER_ERR_COUNT,
];

/// Cards written back as tokens, tens as `T` or as `10`, with `sep` between.
fn tokens(cards: &[Card], ten: bool, sep: &str) -> String {
    cards
        .iter()
        .map(|c| {
            if ten {
                c.token_with_ten()
            } else {
                c.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(sep)
}

/// Card tokens and `POKER_DECK` (whose parser is `ContestDeck::parse`; the
/// runtime reads it from the environment, so the parse function is fuzzed):
/// parse, format, parse gives the same cards, in both ten notations and in
/// lower case; a contest deck formats to the text it parses from.
pub fn cards(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse_cards(text) {
        Ok(cards) => {
            assert_eq!(cards.len(), text.split_whitespace().count());
            for ten in [false, true] {
                let written = tokens(&cards, ten, " ");
                assert_eq!(parse_cards(&written).as_ref(), Ok(&cards), "{written:?}");
                let lower = written.to_lowercase();
                assert_eq!(parse_cards(&lower).as_ref(), Ok(&cards), "{lower:?}");
            }
            // No duplicates survive.
            let mut seen = std::collections::HashSet::new();
            assert!(cards.iter().all(|c| seen.insert(c.index())));
        }
        Err(error) => {
            let _ = error.to_string();
        }
    }
    match ContestDeck::parse(text) {
        Ok(deck) => {
            assert_eq!(deck.cards().len(), 24);
            assert!(deck.cards().iter().all(|&c| card_code(c).is_some()));
            let written = deck.to_string();
            assert_eq!(ContestDeck::parse(&written), Ok(deck));
            let ten = tokens(deck.cards(), true, "\t");
            assert_eq!(ContestDeck::parse(&ten), Ok(deck));
            // The same text through the C entry point gives the same deck.
            if let Ok(c_text) = CString::new(text) {
                // SAFETY: a NUL-terminated string; the handle is freed below.
                let game = unsafe { poker_game_new_text(c_text.as_ptr()) };
                assert!(!game.is_null());
                let (mut v, mut c) = (0, 0);
                // SAFETY: a live handle and two writable ints.
                assert_eq!(unsafe { poker_game_look(game, &mut v, &mut c) }, POKER_OK);
                assert_eq!(Some((v, c)), card_code(deck.cards()[0]));
                // SAFETY: freed once.
                unsafe { poker_game_free(game) };
            }
        }
        Err(error) => {
            let _ = error.to_string();
            if let Ok(c_text) = CString::new(text) {
                // SAFETY: a NUL-terminated string.
                let game = unsafe { poker_game_new_text(c_text.as_ptr()) };
                assert!(game.is_null());
                let code = poker_last_error_code();
                assert!(DECK_TEXT_ERRORS.contains(&code), "code {code}");
            }
        }
    }
}

/// Deck files (`poker eval --decks`): parse, write back, parse gives the same
/// decks; every deck is a contest deck.
pub fn deck_file(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse_deck_file(text) {
        Ok(decks) => {
            assert!(!decks.is_empty());
            let written = poker_judge::evaluator::decks::deck_file(7, &decks);
            let parsed = |text: &str| parse_deck_file(text).map_err(|e| e.to_string());
            assert_eq!(parsed(&written), Ok(decks.clone()));
            let crlf: String = decks.iter().map(|d| format!("{d}\r\n")).collect();
            assert_eq!(parsed(&crlf), Ok(decks));
        }
        Err(error) => assert!(!error.to_string().is_empty()),
    }
}

/// The longest pair of decks compared with the reference: it keeps every
/// round's state to detect loops, so a long game of long decks outgrows the
/// fuzzer's 2 GB (found: 114 cards, fuzz/regressions/camicia/reference_oom).
const REFERENCE_CARDS: usize = 64;

/// Camicia deck strings and the `-` notation, then the games: parse, write,
/// parse gives the same cards; the fast engine equals the card-by-card
/// reference (`camicia::reference`) up to 64 cards in all. The first byte picks text mode (two deck
/// strings split at the first `|`) or raw penalties (bytes, any value).
pub fn camicia(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode & 1 == 0 {
        let (a, b) = match rest.iter().position(|&c| c == b'|') {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &[][..]),
        };
        let a = parse_deck_bytes(a, Player::A);
        let b = parse_deck_bytes(b, Player::B);
        let (a, b) = match (a, b) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => {
                let _ = e.to_string();
                return;
            }
        };
        for deck in [&a, &b] {
            let written: Vec<String> = deck.iter().map(|c| c.to_string()).collect();
            let written = written.join(" ");
            let again = camicia::parse_deck(&written, Player::A).unwrap();
            assert_eq!(&again, deck, "{written:?}");
            // The notation keeps the penalties (number cards become `-`).
            let record = notation(&penalties(deck));
            let again = camicia::parse_deck(&record, Player::B).unwrap();
            assert_eq!(penalties(&again), penalties(deck), "{record:?}");
        }
        if a.len() + b.len() <= REFERENCE_CARDS {
            assert_eq!(
                camicia::simulate(&a, &b),
                camicia::reference::simulate(&a, &b)
            );
        } else {
            let _ = camicia::simulate(&a, &b);
        }
    } else {
        // Raw penalties: any byte; the checked entry point refuses > 4.
        let split = usize::from(mode >> 1).min(rest.len());
        let (a, b) = rest.split_at(split);
        let (a, b) = (&a[..a.len().min(100)], &b[..b.len().min(100)]);
        let mut simulator = Simulator::new();
        match simulator.run(a, b) {
            Ok(outcome) if a.len() + b.len() > REFERENCE_CARDS => {
                assert_eq!(simulator.run(a, b), Ok(outcome));
            }
            Ok(outcome) => {
                let cards = |p: &[u8]| -> Vec<camicia::Card> {
                    p.iter()
                        .map(|&p| camicia::Card::from_penalty(p).unwrap())
                        .collect()
                };
                assert_eq!(outcome, camicia::reference::simulate(&cards(a), &cards(b)));
                // A reused simulator gives the same answer.
                assert_eq!(simulator.run(a, b), Ok(outcome));
            }
            Err(error) => {
                assert!(error.value > 4);
                let _ = simulator.run_unchecked(a, b);
            }
        }
    }
}

/// A board's 52 cards laid out as text (the three layouts, both tens).
fn board_text(order: &[Card; 52], layout: Layout, ten: bool) -> String {
    let token = |c: &Card| {
        if ten {
            c.token_with_ten()
        } else {
            c.to_string()
        }
    };
    match layout {
        Layout::Order => order.iter().map(token).collect::<Vec<_>>().join(" ") + "\n",
        Layout::Rows => order
            .chunks(8)
            .map(|row| row.iter().map(token).collect::<Vec<_>>().join(" ") + "\n")
            .collect(),
        Layout::Columns => (0..8)
            .map(|c| {
                let column: Vec<String> = order.iter().skip(c).step_by(8).map(token).collect();
                column.join(" ") + "\n"
            })
            .collect(),
    }
}

/// FreeCell boards for `--find`: any text the parser accepts is a full deck
/// that every layout writes back to; and a board dealt by a deal number
/// (`freecell_deal`'s deal), written in any accepted notation, parses back
/// to that deal, which the find function then finds. The first byte picks:
/// even, the rest is board text; odd, the next 8 bytes are a deal number and
/// the one after picks the notation.
pub fn freecell_board(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let layouts = [Layout::Columns, Layout::Rows, Layout::Order];
    if mode & 1 == 0 {
        let text = String::from_utf8_lossy(rest);
        match parse_board(&text) {
            Ok(order) => {
                let mut seen = [false; 52];
                for card in order {
                    assert!(!std::mem::replace(
                        &mut seen[usize::from(card.index())],
                        true
                    ));
                }
                for layout in layouts {
                    for ten in [false, true] {
                        let written = board_text(&order, layout, ten);
                        assert_eq!(parse_board(&written), Ok(order), "{written:?}");
                    }
                }
            }
            Err(error) => {
                let _ = error.to_string();
            }
        }
    } else {
        if rest.len() < 9 {
            return;
        }
        let raw = u64::from_le_bytes(rest[..8].try_into().unwrap());
        let number = raw % freecell::MAX_DEAL + 1;
        let style = rest[8];
        let deal = Deal::new(DealNumber::new(number as i64).unwrap());
        if style & 128 != 0 {
            let count = usize::from(rest.get(9).copied().unwrap_or(0)) % 52 + 1;
            return freecell_prefix(&deal, count, style);
        }
        let layout = layouts[usize::from(style % 3)];
        let tens = if style & 4 == 0 { Tens::T } else { Tens::Ten };
        let mut text = deal.format(layout, tens);
        if style & 8 != 0 {
            text = text.to_lowercase();
        }
        if style & 16 != 0 {
            text = format!("# deal {number}\n\n{}", text.replace('\n', " # note\n"));
        }
        if style & 32 != 0 && layout == Layout::Columns {
            // fc-solve writes a `:` before each column.
            text = text.lines().map(|l| format!(": {l}\n")).collect();
        } else if style & 64 != 0 {
            // The seed's array notation: brackets, quotes, commas.
            text = text
                .lines()
                .map(|l| {
                    let cards: Vec<String> =
                        l.split_whitespace().map(|t| format!("'{t}'")).collect();
                    format!("[{}],\n", cards.join(", "))
                })
                .collect();
        }
        let board = parse_board(&text).unwrap_or_else(|e| panic!("{e}: {text:?}"));
        assert_eq!(board, deal.cards(), "{text:?}");
        // The C export deals the same indices.
        let mut indices = [0u8; 52];
        // SAFETY: 52 writable bytes.
        let code =
            unsafe { poker::ffi::freecell::freecell_deal(number as i64, indices.as_mut_ptr()) };
        assert_eq!(code, poker::ffi::error::POKER_OK);
        assert_eq!(board.map(|c| c.index()), indices);
        // A window around the number: the whole range takes seconds a board.
        let low = DealNumber::new(number.saturating_sub(300).max(1) as i64).unwrap();
        let high = DealNumber::new((number + 300).min(freecell::MAX_DEAL) as i64).unwrap();
        let found = freecell::find_deals_between(&board, low, high);
        assert!(
            found.contains(&deal.number()),
            "deal {number} not found: {found:?}"
        );
        // The fast search (inverting the generator) agrees with the scan:
        // for one board in 16 (it searches the whole range, milliseconds a
        // board, which would hold the fuzzer to a few inputs a second).
        if !number.is_multiple_of(16) {
            return;
        }
        let fast = freecell::find_deals(&board);
        assert!(fast.contains(&deal.number()), "{fast:?}");
        let in_window: Vec<DealNumber> = fast
            .into_iter()
            .filter(|d| (low..=high).contains(d))
            .collect();
        assert_eq!(in_window, found);
    }
}

/// How many deal numbers `freecell_prefix` asks `find_prefix` to list.
const PREFIX_LISTED: usize = 16;

/// The first `count` cards (1..=52) of `deal`, written on one line in a
/// notation `style` picks (T or 10, case, comments, fc-solve's `:`, the
/// seed's array brackets): `parse_partial_board` gives them back in dealing
/// order, and `find_prefix` counts and lists the deals that start so: the
/// list is ascending, as long as the count allows, and holds the deal (or,
/// when more than `PREFIX_LISTED` match, stops before it); over a window of
/// 601 numbers around the deal it agrees with the scan
/// (`scan_prefix_between`).
fn freecell_prefix(deal: &Deal, count: usize, style: u8) {
    let prefix = &deal.cards()[..count];
    let mut text = tokens(prefix, style & 1 != 0, " ");
    if style & 2 != 0 {
        text = text.to_lowercase();
    }
    if style & 4 != 0 {
        let cards: Vec<String> = text.split(' ').map(|t| format!("'{t}'")).collect();
        text = format!("[{}],", cards.join(", "));
    } else if style & 8 != 0 {
        text = format!(": {text}");
    }
    if style & 16 != 0 {
        text = format!(
            "# the start of deal {}

{text} # {count} cards",
            deal.number().get()
        );
    }
    let parsed = freecell::parse_partial_board(&text).unwrap_or_else(|e| panic!("{e}: {text:?}"));
    assert_eq!(parsed, prefix, "{text:?}");
    let number = deal.number();
    let n = number.get();
    let low = DealNumber::new(n.saturating_sub(300).max(1) as i64).unwrap();
    let high = DealNumber::new((n + 300).min(freecell::MAX_DEAL) as i64).unwrap();
    let scanned = freecell::scan_prefix_between(prefix, low, high);
    assert!(scanned.contains(&number));
    // The whole range, for one prefix in 16 (as for full boards).
    if !n.is_multiple_of(16) {
        return;
    }
    let matches = freecell::find_prefix(&parsed, PREFIX_LISTED).unwrap();
    let listed = &matches.deals;
    assert!(matches.total >= 1);
    assert_eq!(listed.len() as u64, matches.total.min(PREFIX_LISTED as u64));
    assert!(listed.windows(2).all(|w| w[0] < w[1]), "{listed:?}");
    let complete = matches.total <= PREFIX_LISTED as u64;
    if complete {
        assert!(listed.contains(&number), "{number:?} not in {listed:?}");
    } else {
        assert!(listed.contains(&number) || Some(&number) > listed.last());
    }
    // Up to where the list is known complete, the two agree.
    let end = if complete {
        high
    } else {
        *listed.last().unwrap()
    };
    let known = |d: &&DealNumber| (low..=high).contains(*d) && **d <= end;
    let a: Vec<_> = listed.iter().filter(known).collect();
    let b: Vec<_> = scanned.iter().filter(known).collect();
    assert_eq!(a, b, "{count} cards of deal {n}");
}

/// What the assembler must answer after `pending` grew by one chunk: an
/// independent statement of the protocol (one line of < MAX_LINE bytes, sent
/// alone, UTF-8).
fn expected(pending: &[u8]) -> Result<Option<String>, Breach> {
    match pending.iter().position(|&b| b == b'\n') {
        None if pending.len() >= MAX_LINE => Err(Breach::TooLong),
        None => Ok(None),
        Some(end) if end >= MAX_LINE => Err(Breach::TooLong),
        Some(end) if end + 1 < pending.len() => Err(Breach::OutOfTurn),
        Some(end) => String::from_utf8(pending[..end].to_vec())
            .map(Some)
            .map_err(|_| Breach::NotText),
    }
}

/// The evaluator's side of the channel: arbitrary bytes cut into arbitrary
/// chunks (each chunk is a length byte then that many bytes; the chunk
/// boundaries stand for timing), through `LineAssembler::feed` and
/// `Request::decode` as the manager uses them, then the rule checker and the
/// replies. Checked: the assembler answers what the protocol says for every
/// chunk; decoded requests and every reply round-trip; a reply fits a line.
pub fn channel(data: &[u8]) {
    let mut assembler = LineAssembler::new();
    let mut pending = Vec::new();
    let mut game = Game::new(ContestDeck::shuffled(u64::from(data.len() as u32)));
    let mut i = 0;
    while i < data.len() {
        let len = usize::from(data[i]);
        let chunk = &data[i + 1..(i + 1 + len).min(data.len())];
        i += 1 + len;
        pending.extend_from_slice(chunk);
        let got = assembler.feed(chunk);
        assert_eq!(got, expected(&pending), "after {pending:?}");
        let line = match got {
            Ok(None) => continue,
            Ok(Some(line)) => line,
            Err(breach) => {
                // The manager ends the game here.
                let _ = breach.to_string();
                return;
            }
        };
        pending.clear();
        assert!(!line.contains('\n') && line.len() < MAX_LINE);
        let Some(request) = Request::decode(&line) else {
            assert!(!matches!(line.as_str(), "S" | "L" | "N"));
            return;
        };
        let encoded = request.encode();
        assert_eq!(
            Request::decode(encoded.trim_end_matches('\n')),
            Some(request)
        );
        // The manager's reply to it.
        let (reply, over) = match poker_protocol::apply(&mut game, request) {
            Ok(Reply::End(total)) => (Reply::End(total), true),
            Ok(reply) => (reply, false),
            Err(error) => (Reply::Violation(error.to_string()), true),
        };
        let line = reply.encode();
        assert!(line.len() <= MAX_LINE && line.ends_with('\n'));
        assert_eq!(line.matches('\n').count(), 1);
        let decoded = Reply::decode(line.trim_end_matches('\n')).expect("a reply decodes");
        match (&reply, &decoded) {
            (Reply::Violation(sent), Reply::Violation(got)) => {
                assert!(sent.replace('\n', " ").starts_with(got.as_str()))
            }
            _ => assert_eq!(decoded, reply),
        }
        if over {
            return;
        }
    }
}

/// The game API as random call sequences through the exported C functions:
/// never a panic, always a documented code, and exactly the code an
/// independent model of the contest rules predicts; a finished game's total
/// is its columns' sum and at most the deck's hindsight optimum.
pub fn game_api(data: &[u8]) {
    let Some((&how, mut ops)) = data.split_first() else {
        return;
    };
    let mut take = |n: usize| -> Option<Vec<u8>> {
        let (head, tail) = ops.split_at_checked(n)?;
        ops = tail;
        Some(head.to_vec())
    };
    let (game, deck) = match how % 3 {
        0 => {
            let Some(seed) = take(8) else { return };
            let seed = u64::from_le_bytes(seed.try_into().unwrap());
            (poker_game_new(seed), ContestDeck::shuffled(seed))
        }
        1 => {
            // 48 small ints, values then colors, mostly in range.
            let Some(raw) = take(48) else { return };
            let ints: Vec<c_int> = raw.iter().map(|&b| c_int::from(b as i8)).collect();
            let (values, colors) = ints.split_at(24);
            // SAFETY: 24 readable ints each.
            let game = unsafe { poker_game_new_deck(values.as_ptr(), colors.as_ptr()) };
            let entries = values.iter().zip(colors).map(|(&v, &c)| {
                poker_core::contest::card_from_code(v, c).ok_or(
                    poker_core::cards::CardError::WrongCount {
                        expected: 0,
                        found: 0,
                    },
                )
            });
            match ContestDeck::from_entries(entries) {
                Ok(deck) => (game, deck),
                Err(_) => {
                    assert!(game.is_null());
                    let code = poker_last_error_code();
                    assert!(
                        [POKER_ERR_CARD, POKER_ERR_DUPLICATE].contains(&code),
                        "{code}"
                    );
                    return;
                }
            }
        }
        _ => {
            let Some(len) = take(1) else { return };
            let Some(text) = take(usize::from(len[0])) else {
                return;
            };
            let text: Vec<u8> = text.into_iter().filter(|&b| b != 0).collect();
            let c_text = CString::new(text.clone()).unwrap();
            // SAFETY: a NUL-terminated string.
            let game = unsafe { poker_game_new_text(c_text.as_ptr()) };
            match std::str::from_utf8(&text).ok().map(ContestDeck::parse) {
                Some(Ok(deck)) => (game, deck),
                _ => {
                    assert!(game.is_null());
                    let code = poker_last_error_code();
                    assert!(DECK_TEXT_ERRORS.contains(&code), "{code}");
                    return;
                }
            }
        }
    };
    assert!(!game.is_null());
    // The model: heights, whether a card is waiting, how the game ended.
    let mut heights = [0u8; 4];
    let mut looked = false;
    let mut turned = 0usize;
    let mut over: Option<u8> = None; // Some(total) once finished or lost
    let mut broken = false;
    let mut optimum = None;
    for &op in ops {
        let arg = op >> 3;
        match op & 7 {
            0 | 1 => {
                let (mut v, mut c) = (-1, -1);
                let null = op & 7 == 1 && arg % 4 != 0;
                let (vp, cp): (*mut c_int, *mut c_int) = match (null, arg % 4) {
                    (false, _) => (&mut v, &mut c),
                    (true, 1) => (std::ptr::null_mut(), &mut c),
                    (true, 2) => (&mut v, std::ptr::null_mut()),
                    _ => (std::ptr::null_mut(), std::ptr::null_mut()),
                };
                // SAFETY: a live handle; each pointer NULL or writable.
                let code = unsafe { poker_game_look(game, vp, cp) };
                let want = if over.is_some() {
                    POKER_ERR_GAME_OVER
                } else if null {
                    POKER_ERR_LOOK_NULL
                } else if looked {
                    POKER_ERR_LOOKED_TWICE
                } else {
                    POKER_OK
                };
                assert_eq!(code, want, "look");
                if code == POKER_OK {
                    assert_eq!(Some((v, c)), card_code(deck.cards()[turned]));
                    turned += 1;
                    looked = true;
                } else {
                    assert_eq!((v, c), (-1, -1), "nothing written on an error");
                    assert_eq!(poker_last_error_code(), code);
                    if over.is_none() {
                        over = Some(0);
                        broken = true;
                    }
                }
            }
            2..=4 => {
                // Mostly 1..4, sometimes anything.
                let column = if op & 7 == 4 {
                    c_int::from(arg as i8 - 16) * 0x0100_0001
                } else {
                    c_int::from(arg % 4) + 1
                };
                // SAFETY: a live handle.
                let code = unsafe { poker_game_place(game, column) };
                let lowest = *heights.iter().min().unwrap();
                let want = if over.is_some() {
                    POKER_ERR_GAME_OVER
                } else if !looked {
                    POKER_ERR_PLACE_WITHOUT_LOOK
                } else if !(1..=4).contains(&column) {
                    POKER_ERR_COLUMN_OUT_OF_RANGE
                } else if heights[(column - 1) as usize] > lowest {
                    POKER_ERR_UNBALANCED
                } else if turned == 20 {
                    POKER_FINISHED
                } else {
                    POKER_OK
                };
                assert_eq!(code, want, "place {column}");
                match code {
                    POKER_OK | POKER_FINISHED => {
                        heights[(column - 1) as usize] += 1;
                        looked = false;
                        if code == POKER_FINISHED {
                            over = Some(u8::MAX); // total read below
                        }
                    }
                    _ => {
                        assert_eq!(poker_last_error_code(), code);
                        if over.is_none() {
                            over = Some(0);
                            broken = true;
                        }
                    }
                }
            }
            5 => {
                let mut columns = [-1 as c_int; 5];
                let out = if arg & 1 == 0 {
                    columns.as_mut_ptr()
                } else {
                    std::ptr::null_mut()
                };
                // SAFETY: a live handle; NULL or 4 writable ints.
                let total = unsafe { poker_game_score(game, out) };
                match over {
                    None => {
                        assert_eq!(total, POKER_ERR_IN_PROGRESS);
                        assert_eq!(columns, [-1; 5]);
                    }
                    Some(_) if broken => {
                        assert_eq!(total, 0);
                        if !out.is_null() {
                            assert_eq!(columns, [0, 0, 0, 0, -1]);
                        }
                    }
                    Some(_) => {
                        assert!((0..=32).contains(&total), "{total}");
                        if !out.is_null() {
                            assert_eq!(columns[4], -1, "wrote past 4 ints");
                            assert!(columns[..4].iter().all(|p| (0..=8).contains(p)));
                            assert_eq!(columns[..4].iter().sum::<c_int>(), total);
                        }
                        let best = *optimum.get_or_insert_with(|| deck_optimum(&deck).total);
                        assert!(total <= c_int::from(best), "{total} > optimum {best}");
                    }
                }
            }
            6 => {
                let len = c_int::from(arg) - 4; // -4..27
                let mut buf = [0x55 as c_char; 40];
                let ptr = if arg == 31 {
                    std::ptr::null_mut()
                } else {
                    buf.as_mut_ptr()
                };
                // SAFETY: a live handle; buf holds 40 >= len bytes.
                let code = unsafe { poker_game_error(game, ptr, len) };
                if len < 0 {
                    assert_eq!(code, POKER_ERR_ARGUMENT);
                } else if ptr.is_null() && len > 0 {
                    assert_eq!(code, POKER_ERR_NULL);
                } else if !broken {
                    assert_eq!(code, 0);
                } else {
                    assert!(code > 0, "{code}");
                    if len > 0 {
                        let written = (code as usize).min(len as usize - 1);
                        assert_eq!(buf[written], 0, "NUL after the message");
                        assert!(buf[..written].iter().all(|&b| b != 0));
                    }
                    assert!(buf[len.max(0) as usize..].iter().all(|&b| b == 0x55));
                }
                if len <= 0 {
                    assert!(buf.iter().all(|&b| b == 0x55));
                }
            }
            _ => {
                // NULL handles: refused with a code, never a crash.
                // SAFETY: NULL is allowed everywhere.
                unsafe {
                    assert_eq!(poker_game_place(std::ptr::null_mut(), 1), POKER_ERR_NULL);
                    let (mut v, mut c) = (0, 0);
                    assert_eq!(
                        poker_game_look(std::ptr::null_mut(), &mut v, &mut c),
                        POKER_ERR_NULL
                    );
                    assert_eq!(
                        poker_game_score(std::ptr::null(), std::ptr::null_mut()),
                        POKER_ERR_NULL
                    );
                    assert_eq!(
                        poker_game_error(std::ptr::null(), std::ptr::null_mut(), 0),
                        POKER_ERR_NULL
                    );
                    poker_game_free(std::ptr::null_mut());
                }
            }
        }
    }
    // SAFETY: a live handle, freed once.
    unsafe { poker_game_free(game) };
}

/// 52-card deals for the search's vector engine: each 17 bytes of input
/// give a deal (16 bytes: an index, taken modulo the number of deals) and
/// how many of its index neighbours follow it (the low 3 bits of the 17th;
/// neighbours share most of their games, as in a range search). The vector
/// engine, on both of its paths, in one batch and deal by deal, gives the
/// fast engine's outcome for every deal.
pub fn camicia_deals(data: &[u8]) {
    use poker_core::camicia::search::Engine;
    use poker_core::camicia::{DEAL_COUNT, Deal, GameEnd, Outcome, VectorSimulator};
    let mut deals = Vec::new();
    for chunk in data.chunks_exact(17).take(64) {
        let index = u128::from_le_bytes(chunk[..16].try_into().unwrap()) % DEAL_COUNT;
        let mut deal = Deal::unrank(index).unwrap();
        deals.push(deal);
        for _ in 0..chunk[16] & 7 {
            if deal.advance() {
                deals.push(deal);
            }
        }
    }
    let mut fast = Simulator::new();
    let want: Vec<Outcome> = deals
        .iter()
        .map(|d| fast.run_unchecked(d.a(), d.b()))
        .collect();
    for vector in [true, false] {
        let mut sim = VectorSimulator::with_vector(vector);
        let mut got = vec![Outcome::new(GameEnd::Finished, 0, 0); deals.len()];
        sim.run_batch(&deals, &mut got);
        assert_eq!(got, want, "vector path {vector}");
        for (deal, want) in deals.iter().zip(&want).take(4) {
            assert_eq!(sim.run(deal), *want, "{deal}");
        }
    }
}

/// A byte reader for the structured modes: the next byte, 0 once the input
/// is used up (so every input is a valid script).
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
}

/// The judge's input validator (`poker validate-deck`): it accepts exactly
/// one deck line in the package's format, the 24 cards written upper case,
/// tens `T`, single spaces, one newline, nothing else. The first byte picks:
/// even, the rest is the input; odd, the next 8 bytes seed a deck whose
/// line the byte after may spoil in one of several ways.
///
/// Checked against an independent statement of that format (the deck file
/// parser finds one deck, and the bytes are its cards' tokens joined by
/// single spaces plus a newline): an accepted input gives that deck, the
/// package's writer (`test_input`) writes it back byte for byte and is
/// accepted again with the same deck, and the deck-file writer's file
/// parses back to it; a spoiled line is refused with a reason.
pub fn input_validator(data: &[u8]) {
    use kattis::{MAX_INPUT, test_input, validate_input};
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let (input, spoiled) = if mode & 1 == 0 {
        (rest.to_vec(), None)
    } else {
        let mut bytes = Bytes(rest);
        let seed = u64::from_le_bytes(std::array::from_fn(|_| bytes.next()));
        let deck = ContestDeck::shuffled(seed);
        let line = tokens(deck.cards(), false, " ");
        let how = bytes.next() % 12;
        let at = usize::from(bytes.next()) % 24;
        let spoil = |i: usize, f: &dyn Fn(&Card) -> String| -> String {
            let cards: Vec<String> = deck
                .cards()
                .iter()
                .enumerate()
                .map(|(j, c)| if j == i { f(c) } else { c.to_string() })
                .collect();
            cards.join(" ") + "\n"
        };
        let text = match how {
            0 => format!("{line}\n"),
            1 => line.clone(),
            2 => format!("{line}\r\n"),
            3 => format!("{line}\n\n"),
            4 => format!("{line} # deck 1\n"),
            5 => spoil(at, &|c| c.to_string().to_lowercase()),
            6 => {
                deck.cards()
                    .iter()
                    .map(|c| c.token_with_ten())
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            }
            7 => spoil(at, &|c| format!(" {c}")),
            8 => format!("\u{feff}{line}\n"),
            9 => format!("# a test\n{line}\n"),
            10 => spoil(at, &|_| deck.cards()[(at + 1) % 24].to_string()),
            _ => format!("{line}\n{line}\n"),
        };
        // Every contest deck holds the four tens, so case 6 always spoils.
        (text.into_bytes(), Some((deck, how != 0)))
    };
    let got = validate_input(&input);
    // The independent statement of the format.
    let expected = (input.len() as u64 <= MAX_INPUT)
        .then(|| std::str::from_utf8(&input).ok())
        .flatten()
        .and_then(|text| match parse_deck_file(text) {
            Ok(decks) if decks.len() == 1 => {
                let line = tokens(decks[0].cards(), false, " ") + "\n";
                (line == text).then_some(decks[0])
            }
            _ => None,
        });
    match (&got, expected) {
        (Ok(deck), Some(want)) => {
            assert_eq!(*deck, want);
            let written = test_input(deck);
            assert_eq!(written.as_bytes(), &input[..]);
            assert_eq!(validate_input(written.as_bytes()), Ok(*deck));
            let file = poker_judge::evaluator::decks::deck_file(7, &[*deck]);
            let parsed = parse_deck_file(&file).map_err(|e| e.to_string());
            assert_eq!(parsed, Ok(vec![*deck]));
        }
        (Err(reason), None) => assert!(!reason.to_string().is_empty()),
        (got, want) => panic!("validator {got:?}, format says {want:?}: {input:?}"),
    }
    if let Some((deck, spoiled)) = spoiled {
        if spoiled {
            assert!(got.is_err(), "a spoiled line accepted: {input:?}");
        } else {
            assert_eq!(got, Ok(deck));
        }
    }
}

/// One reply as the protocol allows it: one line under `MAX_LINE` bytes
/// (newline included at most `MAX_LINE`), UTF-8, that decodes.
fn check_reply(reply: &str) -> Reply {
    assert!(reply.len() <= MAX_LINE, "{reply:?}");
    assert!(
        reply.ends_with('\n') && reply.matches('\n').count() == 1,
        "{reply:?}"
    );
    Reply::decode(reply.trim_end_matches('\n')).unwrap_or_else(|| panic!("{reply:?}"))
}

/// The judge's interactor (`poker interact`) over bytes in memory. The first
/// byte picks the mode and the next 8 seed the deck.
///
/// Even: the rest is the submission's output as chunks (a length byte, then
/// that many bytes). Checked: no panic; the game ends accepted with the
/// total the board's scoring gives (0..=32) after 20 placements, or
/// rejected with a message, never a judge error; every reply is one line
/// that fits and decodes; `END` is the last reply exactly when accepted.
///
/// Odd: a scripted game. Each byte picks one legal column for the next card
/// (among the lowest columns); a byte may name one rule break (at a card the
/// script picks) or a protocol break, and every line is cut in two at a
/// byte-chosen point (timing). A legal game is accepted with the score the
/// library's board scoring gives for the board the script built, every
/// `L` answered with that card's code; any break is rejected, a rule break
/// with the number of the card it happened at.
pub fn interactor(data: &[u8]) {
    use kattis::{JudgeVerdict, interact};
    use poker_core::contest::Board;
    if data.len() < 9 {
        return;
    }
    let mode = data[0];
    let seed = u64::from_le_bytes(data[1..9].try_into().unwrap());
    let deck = ContestDeck::shuffled(seed);
    let rest = &data[9..];
    if mode & 1 == 0 {
        let mut chunks = Vec::new();
        let mut i = 0;
        while i < rest.len() {
            let len = usize::from(rest[i]);
            chunks.push(&rest[i + 1..(i + 1 + len).min(rest.len())]);
            i += 1 + len;
        }
        let played = interact(deck, chunks.iter().copied());
        let replies: Vec<Reply> = played.replies.iter().map(|r| check_reply(r)).collect();
        match &played.verdict {
            JudgeVerdict::Accepted { total, message } => {
                let score = played.game.board().score().expect("a full board");
                assert_eq!(*total, score.total);
                assert!(*total <= 32);
                assert_eq!(played.game.placements(), 20);
                assert_eq!(replies.last(), Some(&Reply::End(*total)));
                assert!(message.contains(&format!("total {total}")));
            }
            JudgeVerdict::Rejected(message) => {
                assert!(!message.is_empty() && message.ends_with('\n'));
                assert!(!matches!(replies.last(), Some(Reply::End(_))));
                assert!(played.game.placements() < 20);
            }
            JudgeVerdict::JudgeError(what) => panic!("a judge error in memory: {what}"),
        }
        // Only the last reply may end the game.
        for reply in replies.iter().rev().skip(1) {
            assert!(matches!(reply, Reply::Ok | Reply::Card(..)), "{reply:?}");
        }
        return;
    }
    let mut bytes = Bytes(rest);
    // The break, if any: kind 0 none, else 1..=10 at card `at` (0-based).
    let kind = match bytes.next() {
        b if b < 128 => 0,
        b => 1 + b % 10,
    };
    let at = usize::from(bytes.next()) % 20;
    let mut lines: Vec<String> = Vec::new();
    let mut heights = [0usize; 4];
    let mut columns: [Vec<Card>; 4] = Default::default();
    let mut broken = false;
    if kind != 1 {
        lines.push("S".into());
    }
    for (k, &card) in deck.cards().iter().take(20).enumerate() {
        let lowest = *heights.iter().min().unwrap();
        let legal: Vec<usize> = (0..4).filter(|&c| heights[c] == lowest).collect();
        let column = legal[usize::from(bytes.next()) % legal.len()];
        let here = k == at || kind == 1;
        if here && !broken && kind != 0 {
            broken = true;
            let above: Vec<usize> = (0..4).filter(|&c| heights[c] > lowest).collect();
            match kind {
                1 => lines.push("L".into()), // no S: the first call is a look
                2 => lines.push("S".into()),
                3 => lines.extend(["L".into(), "L".into()]),
                4 => lines.push(format!("P {}", column + 1)),
                5 => {
                    let bad = [0, 5, -1, 9, i32::MAX][usize::from(bytes.next()) % 5];
                    lines.extend(["L".into(), format!("P {bad}")]);
                }
                6 if !above.is_empty() => {
                    let c = above[usize::from(bytes.next()) % above.len()];
                    lines.extend(["L".into(), format!("P {}", c + 1)]);
                }
                6 => lines.extend(["L".into(), "P 0".into()]),
                7 => lines.push("N".into()),
                8 => {} // the submission stops before card k
                9 => lines.push("X".into()),
                _ => lines.push(format!("L\nP {}", column + 1)), // out of turn
            }
            break;
        }
        lines.extend(["L".into(), format!("P {}", column + 1)]);
        heights[column] += 1;
        columns[column].push(card);
    }
    let script: Vec<Vec<u8>> = lines
        .iter()
        .map(|l| format!("{l}\n").into_bytes())
        .collect();
    let mut chunks: Vec<&[u8]> = Vec::new();
    for line in &script {
        if line.iter().filter(|&&b| b == b'\n').count() > 1 {
            chunks.push(line); // two lines sent at once
            continue;
        }
        let cut = usize::from(bytes.next()) % line.len() + 1;
        let (a, b) = line.split_at(cut);
        chunks.push(a);
        if !b.is_empty() {
            chunks.push(b);
        }
    }
    let played = interact(deck, chunks.iter().copied());
    let replies: Vec<Reply> = played.replies.iter().map(|r| check_reply(r)).collect();
    if !broken {
        let board = Board::from_columns(columns.map(|c| c.try_into().expect("5 cards a column")));
        let expected = board.score().expect("a full board").total;
        assert_eq!(
            played.verdict,
            JudgeVerdict::Accepted {
                total: expected,
                message: format!(
                    "20 cards placed, total {expected}; deck {deck}\n{}",
                    board.report()
                ),
            }
        );
        assert_eq!(replies.len(), 41);
        assert_eq!(replies[40], Reply::End(expected));
        for (k, card) in deck.cards().iter().take(20).enumerate() {
            let (v, c) = card_code(*card).unwrap();
            assert_eq!(replies[1 + 2 * k], Reply::Card(v, c));
        }
        return;
    }
    let JudgeVerdict::Rejected(message) = &played.verdict else {
        panic!(
            "break {kind} at card {} accepted: {:?}",
            at + 1,
            played.verdict
        );
    };
    let card = if kind == 1 { 1 } else { at + 1 };
    match kind {
        1..=7 => {
            let want = format!("rule broken at card {card} ");
            assert!(message.starts_with(&want), "{message:?}, want {want:?}");
            assert!(matches!(replies.last(), Some(Reply::Violation(_))));
        }
        8 => assert_eq!(
            message,
            &format!("incomplete: the submission stopped after {at} of 20 placements\n")
        ),
        _ => assert!(message.starts_with("the submission sent "), "{message:?}"),
    }
}
