//! Playing a trick backwards: every round-start state from which one trick
//! leads to a given state.
//!
//! # Why it is a finite, exact list
//! The player who collected the last trick leads the next round, and the
//! pile went under their deck in the order it was played: it is a tail of
//! the leader's deck. A trick that ends normally ends with a payment card
//! followed by exactly as many number cards as that card demands, paid by
//! the other player. Before that card come, walking backwards, a chain of
//! payment cards, each followed by a run of number cards shorter than its
//! penalty (the payment it interrupted), and in front of the chain a free
//! run of number cards, played alternately from the leader on. Every choice
//! of where the chain starts and how long the free run is gives one way
//! the trick could have been played; who played which card follows from
//! the rules once it is known whether the trick's leader won it.
//!
//! A trick that ends the game may also end because the loser, due to play,
//! had no card left: after the winner's number card of a free run, after
//! the winner's payment card, or part-way through paying it. Those endings
//! are only possible into a state where the loser holds nothing.
//!
//! A state's predecessors each replay forward, in one trick, to it; the
//! state a game actually came from is always among them.

use super::card::Player;
use super::reference::RoundStart;

/// One way the last trick could have been played: the pile was the
/// winner's cards from `start` on, and the trick's leader was the winner
/// (`winner_led`) or the loser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pile {
    pub start: usize,
    pub winner_led: bool,
}

/// Calls `emit` with every way the trick into the state "winner holds `w`,
/// loser holds `loser_cards` cards" could have been played, a state whose
/// leader is the winner (penalties, top first). Each way leaves both
/// players at least one card before the trick.
pub(crate) fn piles(w: &[u8], loser_cards: usize, mut emit: impl FnMut(Pile)) {
    let n = w.len();
    let trailing = w.iter().rev().take_while(|&&p| p == 0).count();
    let mut emit_valid = |start: usize| {
        let pile = &w[start..];
        let winner_led = decisive_by_leader(pile);
        let (_, loser_played) = split_counts(pile, winner_led);
        if loser_played + loser_cards > 0 {
            emit(Pile { start, winner_led });
        }
    };
    // A normal ending: the last payment card, then exactly its penalty in
    // number cards.
    if (1..=4).contains(&trailing) && trailing < n && usize::from(w[n - 1 - trailing]) == trailing {
        chain(w, n - 1 - trailing, &mut emit_valid);
    }
    if loser_cards == 0 {
        // The loser had to play and could not: a pile of number cards only
        // (the winner's last), or the winner's last payment card followed by
        // fewer number cards than it demands.
        for free in 1..=trailing {
            emit_valid(n - free);
        }
        if trailing < n && usize::from(w[n - 1 - trailing]) > trailing {
            chain(w, n - 1 - trailing, &mut emit_valid);
        }
    }
}

/// Every pile start from the payment card at `last` backwards: each link
/// of the chain of payment cards ending at `last` may be the pile's first
/// payment card, after a free run of any of the number cards before it.
fn chain(w: &[u8], last: usize, emit: &mut impl FnMut(usize)) {
    let mut at = last;
    loop {
        let zeros = w[..at].iter().rev().take_while(|&&p| p == 0).count();
        for free in 0..=zeros {
            emit(at - free);
        }
        // The run before `at` was a payment interrupted by `w[at]`: the card
        // before it demanded more.
        match at.checked_sub(zeros + 1) {
            Some(before) if usize::from(w[before]) > zeros => at = before,
            _ => return,
        }
    }
}

/// Who plays each card of a pile, by the rules, given who leads it: true
/// for the leader. Calls `each(card, by_leader)` in playing order.
fn assign(pile: &[u8], mut each: impl FnMut(u8, bool)) {
    // Before the first payment card the turn alternates; after it, the
    // payer plays until a payment card turns the debt round.
    let mut turn = true;
    let mut paying = false;
    for &card in pile {
        each(card, turn);
        if !paying || card != 0 {
            turn = !turn;
        }
        paying |= card != 0;
    }
}

/// Whether the pile's decisive card (its last payment card, or its last
/// card if it holds none) is the leader's: the winner played it.
fn decisive_by_leader(pile: &[u8]) -> bool {
    let decisive = pile.iter().rposition(|&p| p != 0).unwrap_or(pile.len() - 1);
    let mut by_leader = true;
    let mut i = 0;
    assign(pile, |_, leader| {
        if i == decisive {
            by_leader = leader;
        }
        i += 1;
    });
    by_leader
}

/// Cards of the pile the winner and the loser played.
fn split_counts(pile: &[u8], winner_led: bool) -> (usize, usize) {
    let mut winner = 0;
    assign(pile, |_, leader| {
        winner += usize::from(leader == winner_led)
    });
    (winner, pile.len() - winner)
}

/// Writes the state before the trick `pile` into the state where the winner
/// holds `w` and the loser `l`: the leader's deck then the other's into
/// `out` (of length `w.len() + l.len()`). Returns the leader's deck length.
pub(crate) fn write_before(w: &[u8], l: &[u8], pile: Pile, out: &mut [u8]) -> usize {
    let cards = &w[pile.start..];
    let (winner_played, loser_played) = split_counts(cards, pile.winner_led);
    let (winner_len, loser_len) = (winner_played + pile.start, loser_played + l.len());
    // Leader first.
    let (winner_at, loser_at) = if pile.winner_led {
        (0, winner_len)
    } else {
        (loser_len, 0)
    };
    let (mut wi, mut li) = (winner_at, loser_at);
    assign(cards, |card, leader| {
        if leader == pile.winner_led {
            out[wi] = card;
            wi += 1;
        } else {
            out[li] = card;
            li += 1;
        }
    });
    out[wi..wi + pile.start].copy_from_slice(&w[..pile.start]);
    out[li..li + l.len()].copy_from_slice(l);
    if pile.winner_led {
        winner_len
    } else {
        loser_len
    }
}

/// Every round-start state from which one trick leads to `state`: each
/// replays forward to it, and the state a game came from is always among
/// them. The state's leader is the player who collected that trick; a
/// state where the leader holds nothing has no predecessor.
///
/// ```
/// use poker_core::camicia::Player;
/// use poker_core::camicia::predecessor::predecessors;
/// use poker_core::camicia::reference::RoundStart;
///
/// // A leads holding `-J-` after collecting `J-`: A's jack paid by B's
/// // number card (A held `J-`, B `--`), or the pile was `-J-`, B leading
/// // `---` against A's `J`.
/// let state = RoundStart { a: vec![0, 1, 0], b: vec![0], lead: Player::A };
/// let before = predecessors(&state);
/// assert_eq!(before.len(), 2);
/// assert!(before.contains(&RoundStart { a: vec![1, 0], b: vec![0, 0], lead: Player::A }));
/// assert!(before.contains(&RoundStart { a: vec![1], b: vec![0, 0, 0], lead: Player::B }));
/// ```
pub fn predecessors(state: &RoundStart) -> Vec<RoundStart> {
    let lead = state.lead;
    let (w, l) = match lead {
        Player::A => (&state.a, &state.b),
        Player::B => (&state.b, &state.a),
    };
    let mut found = Vec::new();
    piles(w, l.len(), |pile| {
        let mut out = vec![0; w.len() + l.len()];
        let split = write_before(w, l, pile, &mut out);
        let leader = if pile.winner_led { lead } else { lead.other() };
        let (first, second) = (out[..split].to_vec(), out[split..].to_vec());
        found.push(match leader {
            Player::A => RoundStart {
                a: first,
                b: second,
                lead: leader,
            },
            Player::B => RoundStart {
                a: second,
                b: first,
                lead: leader,
            },
        });
    });
    found
}
