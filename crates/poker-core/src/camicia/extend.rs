//! Backward extension: the longest deal of a game's basin.
//!
//! A game is a path of round-start states. Every state has a finite set of
//! predecessors (see [`super::predecessor`]), and following them back from
//! each state of a game gives a tree of states whose games join it there.
//! Every state of that tree with 26 cards in each hand is a deal (with the
//! hands swapped if B leads it) whose game plays its way to the state where
//! it joins and then plays the rest of the game: it finishes, and its
//! length is the cards back to the join plus the cards of the game from
//! there. The *basin* of a deal is every deal found that way; [`extend`]
//! finds its longest deal, ties going to the smallest index.
//!
//! Forward play is deterministic, so the trees hanging off different states
//! of the game never share a state: nothing is searched twice.
//!
//! A game that ends in a loop is not extended: deals joining a cycle, or
//! the path into it, are another question.

use super::card::Player;
use super::index::{DEAL_CARDS, Deal, DealError, HAND_CARDS};
use super::predecessor::{piles, write_before};
use super::{GameEnd, Outcome, Simulator};
use std::fmt;

/// A round-start state of a 52-card game, the leader's deck first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node {
    cards: [u8; DEAL_CARDS],
    /// Cards in the leader's deck, `cards[..lead_len]`.
    lead_len: u8,
    lead: Player,
}

impl Node {
    fn hands(&self) -> (&[u8], &[u8]) {
        self.cards.split_at(usize::from(self.lead_len))
    }

    /// The deal that starts here: the leader's deck as A's (seats swapped
    /// if B leads, which plays the same game with names exchanged).
    fn deal(&self) -> Deal {
        Deal::from_permutation(self.cards)
    }

    /// Plays one trick: the next round start, the cards played, and
    /// whether the game is then finished.
    fn next(&self) -> (Node, u64, bool) {
        let (lead, other) = self.hands();
        let hands = [lead, other];
        let mut at = [0usize; 2];
        let mut pile = [0u8; DEAL_CARDS];
        let mut played = 0;
        let mut player = 0;
        let mut owed = 0u8;
        let winner = loop {
            let Some(&card) = hands[player].get(at[player]) else {
                break 1 - player;
            };
            at[player] += 1;
            pile[played] = card;
            played += 1;
            match (card, owed) {
                (0, 0) => player = 1 - player,
                (0, 1) => break 1 - player,
                (0, _) => owed -= 1,
                (p, _) => {
                    player = 1 - player;
                    owed = p;
                }
            }
        };
        let (w, l) = (
            &hands[winner][at[winner]..],
            &hands[1 - winner][at[1 - winner]..],
        );
        let mut cards = [0u8; DEAL_CARDS];
        cards[..w.len()].copy_from_slice(w);
        cards[w.len()..w.len() + played].copy_from_slice(&pile[..played]);
        let lead_len = w.len() + played;
        cards[lead_len..].copy_from_slice(l);
        let node = Node {
            cards,
            lead_len: lead_len as u8,
            lead: if winner == 0 {
                self.lead
            } else {
                self.lead.other()
            },
        };
        (node, played as u64, l.is_empty())
    }

    /// Calls `each(state, cards of its trick)` for every predecessor.
    fn predecessors(&self, mut each: impl FnMut(Node, u64)) {
        let (w, l) = self.hands();
        piles(w, l.len(), |pile| {
            let mut cards = [0u8; DEAL_CARDS];
            let lead_len = write_before(w, l, pile, &mut cards);
            let lead = if pile.winner_led {
                self.lead
            } else {
                self.lead.other()
            };
            each(
                Node {
                    cards,
                    lead_len: lead_len as u8,
                    lead,
                },
                (w.len() - pile.start) as u64,
            );
        });
    }
}

/// How much of a game's predecessor trees [`extend_deal`] searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Depth {
    /// The trees of every state of the game: the exact longest deal.
    Exact,
    /// Only the trees hanging off the deal and the states after its first
    /// `n` tricks (a bound that can miss a longer deal joining later).
    FirstTricks(u64),
}

impl fmt::Display for Depth {
    /// `exact` or `first N tricks`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Depth::Exact => f.write_str("exact"),
            Depth::FirstTricks(n) => write!(f, "first {n} tricks"),
        }
    }
}

/// The longest deal of a deal's basin, and how it meets the deal's game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extension {
    /// The longest deal (the deal itself if nothing is longer).
    pub deal: Deal,
    /// Its game: finished, `original.cards + added` cards.
    pub outcome: Outcome,
    /// The game of the deal extended.
    pub original: Outcome,
    /// Cards the longest deal's game plays beyond the original's.
    pub added: u64,
    /// Tricks of the original game played before the round start where
    /// the longest deal's game joins it (0: at the deal itself, or the deal
    /// is the longest).
    pub joins_trick: u64,
    /// Cards of the original game played before that round start.
    pub joins_card: u64,
    /// Cards the longest deal's game plays before it joins.
    pub before_join: u64,
    /// States of the predecessor trees examined.
    pub nodes: u64,
}

impl Extension {
    /// True if some other deal of the basin is longer than the deal.
    pub fn extends(&self) -> bool {
        self.added > 0
    }
}

/// Why a deal cannot be extended.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExtendError {
    /// Not a 52-card deal of 26 and 26 cards with four of each payment card.
    Deal(DealError),
    /// The game ends in a loop (its outcome): nothing is extended.
    Loop(Outcome),
}

impl fmt::Display for ExtendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtendError::Deal(e) => write!(
                f,
                "extension is defined for 52-card deals of 26 and 26 cards with four each of \
                 J, Q, K, A: {e}"
            ),
            ExtendError::Loop(o) => write!(
                f,
                "the game ends in a loop ({o}): it has no longest deal, nothing is extended"
            ),
        }
    }
}

impl std::error::Error for ExtendError {}

/// The longest deal of the basin of `a` against `b` (penalties, top first),
/// searching every predecessor tree of its game: exact.
///
/// Anderson's 2013 record is the longest deal of Mann and Wu's 2007 one:
///
/// ```
/// use poker_core::camicia::{Player, parse_deck, penalties};
/// use poker_core::camicia::extend::extend;
///
/// let deck = |s, p| penalties(&parse_deck(s, p).unwrap());
/// let a = deck("K-KK----K-A-----JAA--Q--J-", Player::A);
/// let b = deck("---Q---Q-J-----J------AQ--", Player::B);
/// let longest = extend(&a, &b)?;
/// assert_eq!((longest.original.cards, longest.outcome.cards), (7157, 7225));
/// assert_eq!(longest.deal.to_string(),
///            "--A-Q--J--J---Q--AJ-K---K- -J-------Q------A--A--QKK-");
/// # Ok::<(), poker_core::camicia::extend::ExtendError>(())
/// ```
///
/// # Errors
/// [`ExtendError::Deal`] for anything but a 26/26 deal with four of each
/// payment card; [`ExtendError::Loop`] if its game loops.
pub fn extend(a: &[u8], b: &[u8]) -> Result<Extension, ExtendError> {
    let deal = Deal::new(a, b).map_err(ExtendError::Deal)?;
    extend_deal(&deal, Depth::Exact)
}

/// [`extend`] for a checked deal, searching as deep as `depth` says.
///
/// # Errors
/// [`ExtendError::Loop`] if the game loops.
pub fn extend_deal(deal: &Deal, depth: Depth) -> Result<Extension, ExtendError> {
    let original = Simulator::new().run_unchecked(deal.a(), deal.b());
    if original.status == GameEnd::Loop {
        return Err(ExtendError::Loop(original));
    }
    // The game's round starts and the cards played before each.
    let mut path = vec![Node {
        cards: *deal.penalties(),
        lead_len: HAND_CARDS as u8,
        lead: Player::A,
    }];
    let mut before = vec![0u64];
    loop {
        let (next, cards, finished) = path[path.len() - 1].next();
        path.push(next);
        before.push(before[before.len() - 1] + cards);
        if finished {
            break;
        }
    }
    let total = before[before.len() - 1];
    let tricks = (path.len() - 1) as u64;
    debug_assert_eq!((total, tricks), (original.cards, original.tricks));
    let last = match depth {
        Depth::Exact => path.len() - 1,
        Depth::FirstTricks(n) => (n.min(tricks)) as usize,
    };
    let mut best = Best {
        node: path[0],
        index: None,
        cards: total,
        tricks,
        join: 0,
        back: 0,
    };
    let mut nodes = 0u64;
    let mut stack: Vec<(Node, u64, u64)> = Vec::new();
    for join in 0..=last {
        let (rest_cards, rest_tricks) = (total - before[join], tricks - join as u64);
        let came_from = join.checked_sub(1).map(|j| path[j]);
        path[join].predecessors(|node, cards| {
            if Some(node) != came_from {
                stack.push((node, cards, 1));
            }
        });
        while let Some((node, back, back_tricks)) = stack.pop() {
            nodes += 1;
            if usize::from(node.lead_len) == HAND_CARDS {
                best.offer(
                    node,
                    back + rest_cards,
                    back_tricks + rest_tricks,
                    join,
                    back,
                );
            }
            node.predecessors(|prev, cards| stack.push((prev, back + cards, back_tricks + 1)));
        }
    }
    let deal = best.node.deal();
    Ok(Extension {
        deal,
        outcome: Outcome::new(GameEnd::Finished, best.cards, best.tricks),
        original,
        added: best.cards - total,
        joins_trick: best.join as u64,
        joins_card: before[best.join],
        before_join: best.back,
        nodes,
    })
}

/// The longest deal found so far.
struct Best {
    node: Node,
    /// Its index, once a tie needed it.
    index: Option<u128>,
    cards: u64,
    tricks: u64,
    join: usize,
    back: u64,
}

impl Best {
    /// Keeps `node` if its game is longer, or as long with a smaller index.
    fn offer(&mut self, node: Node, cards: u64, tricks: u64, join: usize, back: u64) {
        if cards < self.cards {
            return;
        }
        let mut index = None;
        if cards == self.cards {
            let mine = *self.index.get_or_insert_with(|| self.node.deal().rank());
            let theirs = node.deal().rank();
            if theirs >= mine {
                return;
            }
            index = Some(theirs);
        }
        *self = Best {
            node,
            index,
            cards,
            tricks,
            join,
            back,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_trick_forward_matches_the_fast_engine_over_whole_games() {
        let mut sim = Simulator::new();
        for deal in crate::camicia::search::random_deals(21, 300) {
            let want = sim.run_unchecked(deal.a(), deal.b());
            if want.status == GameEnd::Loop {
                continue;
            }
            let mut node = Node {
                cards: *deal.penalties(),
                lead_len: 26,
                lead: Player::A,
            };
            let (mut cards, mut tricks) = (0, 0);
            loop {
                let (next, c, finished) = node.next();
                cards += c;
                tricks += 1;
                node = next;
                if finished {
                    break;
                }
            }
            assert_eq!((cards, tricks), (want.cards, want.tricks), "{deal}");
        }
    }
}
