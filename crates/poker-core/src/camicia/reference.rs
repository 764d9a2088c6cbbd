//! The reference simulator: the rules played literally, card by card, with
//! every round-start state kept in a hash map. Slow and obviously correct;
//! the tests check the fast [`Simulator`](super::Simulator) against it, and
//! `poker camicia --trace` prints its round-by-round table.

use super::card::{Card, Player};
use super::{GameEnd, Outcome};
use std::collections::{HashMap, VecDeque};

/// One line of a game's table, as in the seed's examples: the state after a
/// card was played, or at the start of a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceRow {
    /// Round number, 1-based; the initial deal is the start of round 1.
    pub round: u64,
    /// A's deck, top first.
    pub a: Vec<Card>,
    /// B's deck, top first.
    pub b: Vec<Card>,
    /// The pile, first played first.
    pub pile: Vec<Card>,
    /// Who still owes how many cards, if a payment is under way.
    pub owed: Option<(Player, u8)>,
}

/// A game played in full: its rows, its outcome and, for a loop, the earlier
/// round whose start the final round start repeats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Every row: each round start, then one row per card played.
    pub rows: Vec<TraceRow>,
    /// Status, cards and tricks.
    pub outcome: Outcome,
    /// For a loop: `(r, first)`, round `r` starts like round `first`.
    pub repeat: Option<(u64, u64)>,
}

/// Plays the game and returns its outcome (see [`super`] for the rules).
pub fn simulate(a: &[Card], b: &[Card]) -> Outcome {
    play(a, b, false).0.outcome
}

/// Plays the game and keeps one [`TraceRow`] per round start and per card.
pub fn trace(a: &[Card], b: &[Card]) -> Trace {
    play(a, b, true).0
}

/// A round-start state as the loop rule compares them: both decks'
/// penalties (0 for every number card, 1..=4 for J, Q, K, A), top first,
/// and who leads the round.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RoundStart {
    /// A's penalties, top first.
    pub a: Vec<u8>,
    /// B's penalties, top first.
    pub b: Vec<u8>,
    /// Who plays the round's first card.
    pub lead: Player,
}

/// The repeating part of a game that loops: the round starts from the
/// first one that comes back up to the one before it comes back, in
/// playing order, and the cards played over them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repeat {
    /// One round start per round of the cycle (as many as its tricks).
    pub rounds: Vec<RoundStart>,
    /// Cards played over one turn of the cycle.
    pub cards: u64,
}

/// Plays the game; for a loop, returns its cycle of round starts.
pub fn repeat(a: &[Card], b: &[Card]) -> Option<Repeat> {
    play(a, b, false).1
}

fn key(decks: &[VecDeque<Card>; 2], turn: Player) -> RoundStart {
    let pens = |d: &VecDeque<Card>| d.iter().map(|c| c.penalty()).collect();
    RoundStart {
        a: pens(&decks[0]),
        b: pens(&decks[1]),
        lead: turn,
    }
}

fn play(a: &[Card], b: &[Card], keep: bool) -> (Trace, Option<Repeat>) {
    let mut decks = [a.iter().copied().collect(), b.iter().copied().collect()];
    let mut rows = Vec::new();
    let mut round = 1u64;
    let record =
        |rows: &mut Vec<TraceRow>, decks: &[VecDeque<Card>; 2], pile: &[Card], owed, round| {
            if keep {
                rows.push(TraceRow {
                    round,
                    a: decks[0].iter().copied().collect(),
                    b: decks[1].iter().copied().collect(),
                    pile: pile.to_vec(),
                    owed,
                });
            }
        };
    let (mut cards, mut tricks) = (0u64, 0u64);
    record(&mut rows, &decks, &[], None, round);
    if a.is_empty() {
        // A cannot play the first card: B holds every card before anything
        // is played. There is no pile to collect, so no trick.
        let trace = Trace {
            rows,
            outcome: Outcome::new(GameEnd::Finished, 0, 0),
            repeat: None,
        };
        return (trace, None);
    }
    // Each round start seen: its round and the cards played before it.
    let mut seen: HashMap<RoundStart, (u64, u64)> = HashMap::new();
    let mut turn = Player::A;
    loop {
        if let Some(&(first, cards_then)) = seen.get(&key(&decks, turn)) {
            let mut cycle: Vec<(u64, RoundStart)> = seen
                .into_iter()
                .filter(|(_, (r, _))| *r >= first)
                .map(|(state, (r, _))| (r, state))
                .collect();
            cycle.sort_by_key(|(r, _)| *r);
            let trace = Trace {
                rows,
                outcome: Outcome::new(GameEnd::Loop, cards, tricks),
                repeat: Some((round, first)),
            };
            let repeat = Repeat {
                rounds: cycle.into_iter().map(|(_, state)| state).collect(),
                cards: cards - cards_then,
            };
            return (trace, Some(repeat));
        }
        seen.insert(key(&decks, turn), (round, cards));
        let mut pile = Vec::new();
        let mut player = turn;
        // The payer and how many cards they still owe.
        let mut owed: Option<(Player, u8)> = None;
        let winner = loop {
            let Some(card) = decks[player.index()].pop_front() else {
                break player.other();
            };
            pile.push(card);
            cards += 1;
            match (card.penalty(), owed) {
                (0, None) => player = player.other(),
                (0, Some((_, 1))) => {
                    record(&mut rows, &decks, &pile, None, round);
                    break player.other();
                }
                (0, Some((payer, n))) => owed = Some((payer, n - 1)),
                (p, _) => {
                    player = player.other();
                    owed = Some((player, p));
                }
            }
            record(&mut rows, &decks, &pile, owed, round);
        };
        decks[winner.index()].extend(pile);
        tricks += 1;
        round += 1;
        record(&mut rows, &decks, &[], None, round);
        if decks[winner.other().index()].is_empty() {
            let trace = Trace {
                rows,
                outcome: Outcome::new(GameEnd::Finished, cards, tricks),
                repeat: None,
            };
            return (trace, None);
        }
        turn = winner;
    }
}

/// Plays one round from `state` card by card, as [`simulate`] does: the
/// next round start (led by the player who collected the pile), the cards
/// played, and whether the game is then finished. `None` if the leader
/// holds no card.
pub fn play_round(state: &RoundStart) -> Option<(RoundStart, u64, bool)> {
    let mut decks: [VecDeque<u8>; 2] = [
        state.a.iter().copied().collect(),
        state.b.iter().copied().collect(),
    ];
    if decks[state.lead.index()].is_empty() {
        return None;
    }
    let mut pile = Vec::new();
    let mut player = state.lead;
    let mut owed: Option<u8> = None;
    let winner = loop {
        let Some(card) = decks[player.index()].pop_front() else {
            break player.other();
        };
        pile.push(card);
        match (card, owed) {
            (0, None) => player = player.other(),
            (0, Some(1)) => break player.other(),
            (0, Some(n)) => owed = Some(n - 1),
            (p, _) => {
                player = player.other();
                owed = Some(p);
            }
        }
    };
    let cards = pile.len() as u64;
    decks[winner.index()].extend(pile);
    let finished = decks[winner.other().index()].is_empty();
    let [a, b] = decks.map(Vec::from);
    Some((RoundStart { a, b, lead: winner }, cards, finished))
}
