//! FreeCell deals against independent vectors (pysol-cards, in
//! tests/data/freecell/deals.tsv) and the seed's own examples (deals 1 and
//! 617, as printed in seed 000), through the Rust API and the C functions.

use poker::ffi::error::{POKER_ERR_ARGUMENT, POKER_ERR_DEAL_NUMBER, POKER_ERR_NULL, POKER_OK};
use poker::ffi::freecell::{
    FREECELL_LAYOUT_COLUMNS, FREECELL_LAYOUT_ORDER, FREECELL_LAYOUT_ROWS, FREECELL_TEN_AS_10,
    FREECELL_TEXT_MAX, freecell_deal, freecell_format,
};
use poker::freecell::{Deal, DealNumber, DealRange, Layout, Tens};
use std::os::raw::c_char;

struct Row {
    deal: i64,
    range: String,
    ok: bool,
    order: String,
    columns: String,
}

fn rows() -> Vec<Row> {
    let text = include_str!("../../../../tests/data/freecell/deals.tsv");
    let rows: Vec<Row> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("deal\t"))
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            Row {
                deal: f[0].parse().unwrap(),
                range: f[1].to_string(),
                ok: f[2] == "ok",
                order: f.get(3).unwrap_or(&"").to_string(),
                columns: f.get(4).unwrap_or(&"").to_string(),
            }
        })
        .collect();
    assert_eq!(rows.len(), 45, "every vector row is read");
    rows
}

fn c_format(n: i64, format: i32) -> (i32, String) {
    let mut buf = [0 as c_char; FREECELL_TEXT_MAX as usize];
    // SAFETY: the buffer holds FREECELL_TEXT_MAX bytes.
    let code = unsafe { freecell_format(n, format, buf.as_mut_ptr(), FREECELL_TEXT_MAX) };
    // SAFETY: freecell_format NUL-terminates within the buffer.
    let text = unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) };
    (code, text.to_str().unwrap().to_string())
}

#[test]
fn every_accepted_vector_deals_bit_for_bit() {
    for row in rows().iter().filter(|r| r.ok) {
        let n = DealNumber::new(row.deal).unwrap();
        let deal = Deal::new(n);
        let expected_range = match row.range.as_str() {
            "ms31" => DealRange::Microsoft,
            "fcpro_or8000" => DealRange::ProOr8000,
            "fcpro_16bit_plus1" => DealRange::Pro16BitPlus1,
            other => panic!("unknown range {other}"),
        };
        assert_eq!(n.range(), expected_range, "deal {}", row.deal);
        assert_eq!(
            deal.format(Layout::Order, Tens::T).trim_end(),
            row.order,
            "deal {} order",
            row.deal
        );
        assert_eq!(
            deal.format(Layout::Columns, Tens::T)
                .trim_end()
                .replace('\n', "|"),
            row.columns,
            "deal {} columns",
            row.deal
        );
    }
}

#[test]
fn every_accepted_vector_deals_bit_for_bit_through_c() {
    for row in rows().iter().filter(|r| r.ok) {
        let mut cards = [0xFFu8; 52];
        assert_eq!(
            unsafe { freecell_deal(row.deal, cards.as_mut_ptr()) },
            POKER_OK
        );
        // Microsoft index: rank * 4 + suit, ranks A 2..9 T J Q K, suits C D H S.
        let tokens: Vec<String> = cards
            .iter()
            .map(|&c| {
                let rank = "A23456789TJQK".as_bytes()[usize::from(c / 4)] as char;
                let suit = "CDHS".as_bytes()[usize::from(c % 4)] as char;
                format!("{rank}{suit}")
            })
            .collect();
        assert_eq!(tokens.join(" "), row.order, "deal {}", row.deal);
        let (len, text) = c_format(row.deal, FREECELL_LAYOUT_ORDER);
        assert_eq!(text, format!("{}\n", row.order));
        assert_eq!(len as usize, text.len());
        let (_, text) = c_format(row.deal, FREECELL_LAYOUT_COLUMNS);
        assert_eq!(text.trim_end().replace('\n', "|"), row.columns);
    }
}

#[test]
fn every_rejected_vector_is_an_error() {
    let rejected: Vec<Row> = rows().into_iter().filter(|r| !r.ok).collect();
    assert_eq!(rejected.len(), 7);
    for row in rejected {
        assert!(DealNumber::new(row.deal).is_err(), "deal {}", row.deal);
        assert!(row.deal.to_string().parse::<DealNumber>().is_err());
        let mut cards = [0xAAu8; 52];
        assert_eq!(
            unsafe { freecell_deal(row.deal, cards.as_mut_ptr()) },
            POKER_ERR_DEAL_NUMBER
        );
        assert_eq!(cards, [0xAA; 52], "nothing written for deal {}", row.deal);
        assert_eq!(
            c_format(row.deal, FREECELL_LAYOUT_COLUMNS).0,
            POKER_ERR_DEAL_NUMBER
        );
    }
}

#[test]
fn other_numbers_without_a_deal_are_errors() {
    for n in [i64::MIN, -(1 << 33), 1 << 34, i64::MAX, (1 << 33) + 12345] {
        assert!(DealNumber::new(n).is_err(), "{n}");
        assert_eq!(
            unsafe { freecell_deal(n, [0u8; 52].as_mut_ptr()) },
            POKER_ERR_DEAL_NUMBER
        );
    }
    let message = DealNumber::new(0).unwrap_err().to_string();
    assert!(message.contains("1 to 8589934591"), "{message}");
}

/// Seed 000, "Game #1" and "Game #617", copied from the seed's text.
const SEED_GAME_1: &str = "\
JD 2D 9H JC 5D 7H 7C 5H
KD KC 9S 5S AD QC KH 3H
2S KS 9D QD JS AS AH 3C
4C 5C TS QH 4H AC 4D 7S
3S TD 4S TH 8H 2C JH 7D
6D 8S 8D QS 6C 3D 8C TC
6S 9C 2H 6H
";
const SEED_GAME_617: &str = "\
7D AD 5C 3S 5S 8C 2D AH
TD 7S QD AC 6D 8H AS KH
TH QC 3H 9D 6S 8D 3D TC
KD 5H 9S 3C 8S 7H 4D JS
4C QS 9C 9H 7C 6H 2C 2S
4S TS 2H 5D JC 6C JH QH
JD KS KC 4H
";

#[test]
fn seed_games_1_and_617_deal_as_the_seed_prints_them() {
    for (n, rows) in [(1, SEED_GAME_1), (617, SEED_GAME_617)] {
        let deal = Deal::new(DealNumber::new(n).unwrap());
        assert_eq!(deal.format(Layout::Rows, Tens::T), rows, "game {n}");
        assert_eq!(c_format(n, FREECELL_LAYOUT_ROWS).1, rows, "game {n} via C");
    }
}

#[test]
fn tens_can_be_written_10() {
    let deal = Deal::new(DealNumber::new(1).unwrap());
    let rows = deal.format(Layout::Rows, Tens::Ten);
    assert_eq!(rows, SEED_GAME_1.replace('T', "10"));
    assert_eq!(
        c_format(1, FREECELL_LAYOUT_ROWS | FREECELL_TEN_AS_10).1,
        rows
    );
    // The longest text any deal can have fits FREECELL_TEXT_MAX with its NUL.
    let (len, _) = c_format(1, FREECELL_LAYOUT_COLUMNS | FREECELL_TEN_AS_10);
    assert!(len < FREECELL_TEXT_MAX);
}

#[test]
fn c_functions_reject_null_and_bad_arguments() {
    assert_eq!(
        unsafe { freecell_deal(1, std::ptr::null_mut()) },
        POKER_ERR_NULL
    );
    let mut buf = [0 as c_char; 8];
    assert_eq!(
        unsafe { freecell_format(1, FREECELL_LAYOUT_COLUMNS, std::ptr::null_mut(), 8) },
        POKER_ERR_NULL
    );
    assert_eq!(
        unsafe { freecell_format(1, 3, buf.as_mut_ptr(), 8) },
        POKER_ERR_ARGUMENT
    );
    assert_eq!(
        unsafe { freecell_format(1, FREECELL_LAYOUT_COLUMNS, buf.as_mut_ptr(), -1) },
        POKER_ERR_ARGUMENT
    );
}

#[test]
fn c_format_truncates_like_snprintf() {
    // Deal 1 in columns: 4 lines of 7 cards and 4 of 6, "XX " each, so
    // 28 * 3 + 24 * 3 = 156 bytes.
    let needed = unsafe { freecell_format(1, FREECELL_LAYOUT_COLUMNS, std::ptr::null_mut(), 0) };
    assert_eq!(needed, 156);
    let mut buf = [b'?' as c_char; 8];
    let n = unsafe { freecell_format(1, FREECELL_LAYOUT_COLUMNS, buf.as_mut_ptr(), 6) };
    assert_eq!(n, 156);
    let bytes: Vec<u8> = buf.iter().map(|&c| c as u8).collect();
    assert_eq!(&bytes, b"JD KD\0??");
    let n = unsafe { freecell_format(1, FREECELL_LAYOUT_COLUMNS, buf.as_mut_ptr(), 1) };
    assert_eq!((n, buf[0]), (156, 0));
}
