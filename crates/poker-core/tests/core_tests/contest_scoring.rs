//! Contest scoring over the whole 24-card deck: the number of five-card
//! hands in each points class must match the figures given in issue 2
//! (computed independently of this code).

use poker_core::contest::ContestDeck;
use poker_core::hand::categorize;

#[test]
fn category_counts_over_all_42504_contest_hands() {
    let deck = ContestDeck::ordered();
    let cards = deck.cards();
    let mut by_points = [0u32; 9];
    let n = cards.len();
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                for d in c + 1..n {
                    for e in d + 1..n {
                        let hand = [cards[a], cards[b], cards[c], cards[d], cards[e]];
                        by_points[usize::from(categorize(&hand).contest_points())] += 1;
                    }
                }
            }
        }
    }
    // Points 0..=8.
    assert_eq!(by_points, [4080, 23040, 8640, 3840, 2040, 720, 120, 16, 8]);
    assert_eq!(by_points.iter().sum::<u32>(), 42504);
}
