//! The hindsight optimum against an exhaustive search and hand-checked
//! decks (issue 7).

use poker::card_list::parse_cards;
use poker::cards::{Card, CardError};
use poker::contest::ContestDeck;
use poker::ffi::error::{POKER_ERR_CARD, POKER_ERR_COUNT, POKER_ERR_DUPLICATE, POKER_ERR_NULL};
use poker::ffi::optimum::poker_optimum;
use poker::hand::categorize;
use poker::optimum::{deck_optimum, optimum};

/// The 24 orders of four things.
fn permutations() -> Vec<[usize; 4]> {
    let mut all = Vec::new();
    for a in 0..4 {
        for b in 0..4 {
            for c in 0..4 {
                for d in 0..4 {
                    let p = [a, b, c, d];
                    if (0..4).all(|x| p.contains(&x)) {
                        all.push(p);
                    }
                }
            }
        }
    }
    all
}

/// The oracle: every balanced placement of the 20 dealt cards, scored with
/// `hand::categorize`. Block 0's card j names column j (columns are
/// interchangeable); blocks 1..4 go to the columns in every one of the 24
/// orders each: 24^4 placements. Each hand's points are looked up from a
/// table of `categorize` results, so the search itself stays exhaustive.
fn brute_force(dealt: &[Card]) -> u8 {
    // points[j][a][b][c][d]: block 0's card j with card a of block 1, ...
    let mut points = vec![0u8; 4 * 256];
    for (i, slot) in points.iter_mut().enumerate() {
        let j = i >> 8;
        let pick = |k: usize| dealt[4 * k + ((i >> (2 * (4 - k))) & 3)];
        let hand = [dealt[j], pick(1), pick(2), pick(3), pick(4)];
        *slot = categorize(&hand).contest_points();
    }
    let perms = permutations();
    let mut best = 0;
    for p1 in &perms {
        for p2 in &perms {
            for p3 in &perms {
                for p4 in &perms {
                    let total: u8 = (0..4)
                        .map(|j| points[j << 8 | p1[j] << 6 | p2[j] << 4 | p3[j] << 2 | p4[j]])
                        .sum();
                    best = best.max(total);
                }
            }
        }
    }
    best
}

fn deck(text: &str) -> ContestDeck {
    ContestDeck::parse(text).unwrap()
}

/// The arrangement is balanced and scores the claimed total on a board.
fn assert_arrangement_reaches(dealt: &[Card], columns: &[u8; 20], total: u8) {
    for block in columns.chunks(4) {
        let mut sorted = block.to_vec();
        sorted.sort();
        assert_eq!(sorted, [1, 2, 3, 4], "each block uses each column once");
    }
    let mut hands: [Vec<Card>; 4] = Default::default();
    for (&card, &column) in dealt.iter().zip(columns) {
        hands[usize::from(column - 1)].push(card);
    }
    let scored: u8 = hands
        .iter()
        .map(|h| categorize(&h[..].try_into().unwrap()).contest_points())
        .sum();
    assert_eq!(scored, total);
}

#[test]
fn optimum_equals_brute_force_on_random_decks() {
    let decks = if cfg!(debug_assertions) { 40 } else { 1000 };
    let mut sum = 0u32;
    for seed in 0..decks {
        let deck = ContestDeck::shuffled(seed);
        let best = deck_optimum(&deck);
        let dealt = &deck.cards()[..20];
        assert_eq!(best.total, brute_force(dealt), "seed {seed}: {deck}");
        assert_arrangement_reaches(dealt, &best.columns, best.total);
        assert_eq!(best.board().score().unwrap().total, best.total);
        sum += u32::from(best.total);
    }
    // Issue 7 measured a mean of 17.7 on 4,000 decks: a loose sanity check.
    let mean = f64::from(sum) / decks as f64;
    assert!((15.0..20.0).contains(&mean), "mean {mean}");
}

#[test]
fn four_straight_flushes_in_block_order_score_32() {
    // Block k holds rank 9+k in all four suits: column by suit gives four
    // straight flushes 9-K, the most any deal can score.
    let d = deck("9S 9H 9D 9C TS TH TD TC JS JH JD JC QS QH QD QC KS KH KD KC AS AH AD AC");
    assert_eq!(brute_force(&d.cards()[..20]), 32);
    assert_eq!(deck_optimum(&d).total, 32);
}

#[test]
fn ranks_9_t_j_q_a_by_block_score_four_flushes() {
    // Every column gets one each of 9, T, J, Q, A: never a pair nor a
    // straight, so at best a flush (7) each, reached by sorting by suit.
    let d = deck("AS AH AD AC 9S 9H 9D 9C TS TH TD TC JS JH JD JC QS QH QD QC KS KH KD KC");
    assert_eq!(deck_optimum(&d).total, 28);
}

#[test]
fn suits_by_block_score_four_quads_not_four_straights() {
    // Blocks 0..3 are 9-Q of one suit each, block 4 the kings: no column
    // can be one suit, so 6 (four of a kind) is the most per column, reached
    // by one rank per column; four straights would give only 16.
    let d = deck("9S TS JS QS 9H TH JH QH 9D TD JD QD 9C TC JC QC KS KH KD KC AS AH AD AC");
    assert_eq!(deck_optimum(&d).total, 24);
}

#[test]
fn seed_example_deal_reaches_at_least_its_eleven() {
    // The contest text's worked example places its deal for 11 points, in
    // the dealing order 3 1 2 4 / 7 6 8 5 / 9 10 11 12 / 16 13 15 14 /
    // 18 19 17 20 (rows top to bottom, columns 1..4).
    let rows = [
        ["JC", "TH", "9H", "QS"],
        ["9S", "TD", "AS", "QD"],
        ["KC", "TC", "KS", "KD"],
        ["KH", "AC", "9C", "QH"],
        ["JD", "AD", "JH", "9D"],
    ];
    let order = [
        [3, 1, 2, 4],
        [7, 6, 8, 5],
        [9, 10, 11, 12],
        [16, 13, 15, 14],
        [18, 19, 17, 20],
    ];
    let mut dealt = vec![parse_cards("9S").unwrap()[0]; 20];
    let mut columns = [0u8; 20];
    for r in 0..5 {
        for c in 0..4 {
            dealt[order[r][c] - 1] = rows[r][c].parse().unwrap();
            columns[order[r][c] - 1] = c as u8 + 1;
        }
    }
    assert_arrangement_reaches(&dealt, &columns, 11);
    let best = optimum(&dealt).unwrap();
    assert_eq!(best.total, brute_force(&dealt));
    assert!(best.total >= 11);
}

#[test]
fn twenty_and_twenty_four_cards_agree_and_bad_lists_are_refused() {
    let d = ContestDeck::shuffled(7);
    let all = d.cards();
    assert_eq!(optimum(&all[..20]).unwrap(), optimum(&all[..]).unwrap());
    assert!(matches!(
        optimum(&all[..19]),
        Err(CardError::WrongCount { found: 19, .. })
    ));
    let mut twice = all.to_vec();
    twice[23] = twice[0];
    assert!(matches!(optimum(&twice), Err(CardError::Duplicate { .. })));
    let mut low = all.to_vec();
    low[5] = "8S".parse().unwrap();
    assert!(matches!(optimum(&low), Err(CardError::NotInDeck { .. })));
}

/// The deck in the contest's (value, color) encoding.
fn codes(d: &ContestDeck) -> (Vec<i32>, Vec<i32>) {
    d.cards()
        .iter()
        .map(|&c| poker::contest::card_code(c).unwrap())
        .unzip()
}

#[test]
fn c_function_returns_the_optimum_and_a_placement() {
    let d = ContestDeck::shuffled(11);
    let (values, colors) = codes(&d);
    let mut columns = [0i32; 20];
    for count in [20, 24] {
        columns = [0; 20];
        // SAFETY: both arrays hold 24 ints, columns 20.
        let total = unsafe {
            poker_optimum(
                values.as_ptr(),
                colors.as_ptr(),
                count,
                columns.as_mut_ptr(),
            )
        };
        assert_eq!(total, i32::from(brute_force(&d.cards()[..20])));
    }
    let columns = columns.map(|c| u8::try_from(c).unwrap());
    let total = deck_optimum(&d).total;
    assert_arrangement_reaches(&d.cards()[..20], &columns, total);
    // SAFETY: NULL columns_out is allowed.
    let again =
        unsafe { poker_optimum(values.as_ptr(), colors.as_ptr(), 24, std::ptr::null_mut()) };
    assert_eq!(again, i32::from(total));
}

#[test]
fn c_function_reports_each_error_code() {
    let d = ContestDeck::shuffled(3);
    let (mut values, mut colors) = codes(&d);
    let mut columns = [0i32; 20];
    let call = |values: &[i32], colors: &[i32], count: i32, out: &mut [i32; 20]| unsafe {
        // SAFETY: the slices hold 24 ints, `out` 20.
        poker_optimum(values.as_ptr(), colors.as_ptr(), count, out.as_mut_ptr())
    };
    // SAFETY: NULL inputs are checked before any read.
    let null =
        unsafe { poker_optimum(std::ptr::null(), colors.as_ptr(), 24, columns.as_mut_ptr()) };
    assert_eq!(null, POKER_ERR_NULL);
    for count in [-1, 0, 19, 21, 23, 25] {
        assert_eq!(call(&values, &colors, count, &mut columns), POKER_ERR_COUNT);
    }
    values[22] = 7;
    assert_eq!(call(&values, &colors, 24, &mut columns), POKER_ERR_CARD);
    // Only the first 20 are read when count is 20.
    assert!(call(&values, &colors, 20, &mut columns) >= 0);
    values[22] = values[0];
    colors[22] = colors[0];
    assert_eq!(
        call(&values, &colors, 24, &mut columns),
        POKER_ERR_DUPLICATE
    );
    colors[1] = 0;
    let before = columns;
    assert_eq!(call(&values, &colors, 20, &mut columns), POKER_ERR_CARD);
    assert_eq!(columns, before, "left untouched on error");
}
