//! Five-card hand recognition over the full 52-card deck: hand-made hands of
//! every category, the textbook counts over all 2,598,960 hands, the C
//! function and the `poker hand` command.

use poker::ffi::error::{POKER_ERR_CARD, POKER_ERR_DUPLICATE, POKER_ERR_NULL};
use poker::ffi::hand::{
    POKER_HAND_FLUSH, POKER_HAND_FULL_HOUSE, POKER_HAND_HIGH_CARD, POKER_HAND_STRAIGHT,
    POKER_HAND_STRAIGHT_FLUSH, poker_hand_category,
};
use poker_core::cards::{Card, standard_deck};
use poker_core::hand::{Category, categorize, parse_hand};

fn category(text: &str) -> Category {
    categorize(&parse_hand(text).unwrap())
}

#[test]
fn known_hands_of_every_category() {
    let cases = [
        ("AS KS QS JS TS", Category::StraightFlush),
        ("5H 4H 3H 2H AH", Category::StraightFlush), // the steel wheel
        ("9C 8C 7C 6C 5C", Category::StraightFlush),
        ("7D 7C 7H 7S 2D", Category::FourOfAKind),
        ("2C 2D 2H 2S AS", Category::FourOfAKind),
        ("KH KD KC 3S 3H", Category::FullHouse),
        ("3S 3H 3D KH KD", Category::FullHouse),
        ("AH JH 8H 4H 2H", Category::Flush),
        ("KD QD JD TD 8D", Category::Flush),
        ("TS 9H 8D 7C 6S", Category::Straight),
        ("AS 2D 3C 4H 5S", Category::Straight), // the wheel
        ("AD KC QH JS TC", Category::Straight),
        ("QC QD QH 9S 2C", Category::ThreeOfAKind),
        ("JH JD 4C 4S AC", Category::TwoPair),
        ("8S 8D 5C 3H 2D", Category::OnePair),
        ("AS KD 9C 5H 3S", Category::HighCard),
        ("KS AD 2C 3H 4S", Category::HighCard), // K-A-2-3-4 does not wrap
        ("AH 2H 3H 4H 6H", Category::Flush),
    ];
    for (text, expected) in cases {
        assert_eq!(category(text), expected, "{text}");
    }
    // Tokens in any case, ten as 10.
    assert_eq!(category("10s js qs ks as"), Category::StraightFlush);
}

#[test]
fn counts_over_all_five_card_hands_match_the_textbook() {
    let deck = standard_deck();
    let mut counts = [0u64; 9];
    let mut hand = [deck[0]; 5];
    for a in 0..52 {
        hand[0] = deck[a];
        for b in a + 1..52 {
            hand[1] = deck[b];
            for c in b + 1..52 {
                hand[2] = deck[c];
                for d in c + 1..52 {
                    hand[3] = deck[d];
                    for &card in &deck[d + 1..] {
                        hand[4] = card;
                        counts[categorize(&hand) as usize] += 1;
                    }
                }
            }
        }
    }
    let expected = [
        (Category::StraightFlush, 40),
        (Category::FourOfAKind, 624),
        (Category::FullHouse, 3744),
        (Category::Flush, 5108),
        (Category::Straight, 10200),
        (Category::ThreeOfAKind, 54912),
        (Category::TwoPair, 123552),
        (Category::OnePair, 1098240),
        (Category::HighCard, 1302540),
    ];
    for (category, count) in expected {
        assert_eq!(counts[category as usize], count, "{category}");
    }
    assert_eq!(counts.iter().sum::<u64>(), 2_598_960);
}

fn indices(text: &str) -> [u8; 5] {
    parse_hand(text).unwrap().map(Card::index)
}

#[test]
fn the_c_function_names_categories_and_rejects_bad_hands() {
    let call = |cards: [u8; 5]| unsafe { poker_hand_category(cards.as_ptr()) };
    assert_eq!(call(indices("AS KS QS JS TS")), POKER_HAND_STRAIGHT_FLUSH);
    assert_eq!(call(indices("KH KD KC 3S 3H")), POKER_HAND_FULL_HOUSE);
    assert_eq!(call(indices("AH JH 8H 4H 2H")), POKER_HAND_FLUSH);
    assert_eq!(call(indices("AS 2D 3C 4H 5S")), POKER_HAND_STRAIGHT);
    assert_eq!(call(indices("AS KD 9C 5H 3S")), POKER_HAND_HIGH_CARD);
    // Raw Microsoft indices: 0 = AC, 4 = 2C, 8 = 3C, 12 = 4C, 16 = 5C.
    assert_eq!(call([0, 4, 8, 12, 16]), POKER_HAND_STRAIGHT_FLUSH);
    assert_eq!(call([0, 4, 8, 12, 52]), POKER_ERR_CARD);
    assert_eq!(call([0, 4, 8, 12, 4]), POKER_ERR_DUPLICATE);
    assert_eq!(
        unsafe { poker_hand_category(std::ptr::null()) },
        POKER_ERR_NULL
    );
}

fn poker(args: &[&str]) -> (bool, String, String) {
    let out = crate::common::poker().args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn the_command_names_a_hand() {
    assert_eq!(
        poker(&["hand", "AS KS QS JS TS"]),
        (
            true,
            "straight flush (8 points as a Poker American column)\n".into(),
            String::new()
        )
    );
    let (ok, out, _) = poker(&["hand", "10h", "10d", "4c", "4s", "4h"]);
    assert!(ok);
    assert_eq!(out, "full house\n");
    // In the contest a flush (7) outranks four of a kind (6): seed 001.
    let (ok, out, _) = poker(&["hand", "9s", "js", "ks", "as", "qs"]);
    assert!(ok);
    assert_eq!(out, "flush (7 points as a Poker American column)\n");
    let (_, out, _) = poker(&["hand", "9s", "9h", "9d", "9c", "as"]);
    assert_eq!(
        out,
        "four of a kind (6 points as a Poker American column)\n"
    );
}

#[test]
fn the_command_explains_bad_hands() {
    for (args, needle) in [
        (vec!["hand", "AS KS QS JS"], "expected 5 cards, found 4"),
        (
            vec!["hand", "AS KS QS JS TS 9S"],
            "expected 5 cards, found 6",
        ),
        (vec!["hand", "AS KS QS JS AS"], "AS appears more than once"),
        (vec!["hand", "AS KS QS JS 1S"], "'1S' is not a card"),
    ] {
        let (ok, out, err) = poker(&args);
        assert!(!ok, "{args:?}");
        assert!(out.is_empty());
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}
