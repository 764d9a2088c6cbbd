//! The cycle of a game that loops, as data: its round starts in a
//! canonical order and an id, so loops found anywhere can be grouped by
//! the cycle they fall into.
//!
//! # Canonical form
//! A loop's cycle is the list of its round-start states (A's penalty
//! pattern, B's, who leads: what the loop rule compares), from the first
//! state that comes back to the one before it comes back. The same cycle
//! entered at another round is a rotation of that list, so the canonical
//! form is the rotation whose bytes ([`Cycle::canonical_bytes`]) are
//! lexicographically smallest, and the id is the 64-bit FNV-1a hash of
//! those bytes.
//!
//! # Players
//! The rules treat A and B alike after the first card, so swapping the
//! two decks (and the leader) of every state gives another cycle, its
//! *mirror*. The id keeps A and B apart: a cycle and its mirror have
//! different ids unless the cycle is its own mirror (the seed's small loop
//! `J 2 3` / `4 J 5` is: its two states are each other's mirror).
//! [`Cycle::mirror_id`] names the mirror, to group them when players do
//! not matter.

use super::card::{Card, Player};
use super::reference::{self, RoundStart};
use std::fmt;

/// A cycle in canonical order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cycle {
    /// The round starts, rotated to the canonical start.
    pub rounds: Vec<RoundStart>,
    /// Cards played over one turn of the cycle.
    pub cards: u64,
}

/// A cycle's id: the FNV-1a 64-bit hash of its canonical bytes, written
/// as 16 lower-case hex digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CycleId(pub u64);

impl fmt::Display for CycleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// One state's bytes: the leader (0 = A, 1 = B), A's penalties, 0xFF,
/// B's penalties, 0xFE. Penalties are 0..=4, so the separators are
/// unambiguous and comparing concatenations compares state by state.
fn state_bytes(state: &RoundStart, out: &mut Vec<u8>) {
    out.push(state.lead.index() as u8);
    out.extend_from_slice(&state.a);
    out.push(0xFF);
    out.extend_from_slice(&state.b);
    out.push(0xFE);
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Cycle {
    /// The cycle the game of `a` against `b` falls into, found with the
    /// card-by-card reference simulator (exact, and fast enough for the
    /// rare loops); `None` if the game finishes.
    pub fn of_game(a: &[Card], b: &[Card]) -> Option<Cycle> {
        let repeat = reference::repeat(a, b)?;
        Some(Cycle::from_rounds(repeat.rounds, repeat.cards))
    }

    /// The cycle of these penalties (0..=4, top first; see
    /// [`Cycle::of_game`]); `None` if the game finishes or a penalty is
    /// above 4.
    pub fn of_penalties(a: &[u8], b: &[u8]) -> Option<Cycle> {
        let cards = |pens: &[u8]| -> Option<Vec<Card>> {
            pens.iter().map(|&p| Card::from_penalty(p)).collect()
        };
        Cycle::of_game(&cards(a)?, &cards(b)?)
    }

    /// The cycle of these round starts (in playing order, any rotation),
    /// put in canonical order.
    pub fn from_rounds(mut rounds: Vec<RoundStart>, cards: u64) -> Cycle {
        let bytes: Vec<Vec<u8>> = rounds
            .iter()
            .map(|s| {
                let mut b = Vec::new();
                state_bytes(s, &mut b);
                b
            })
            .collect();
        let rotation = |r: usize| bytes[r..].iter().chain(&bytes[..r]).flatten();
        let best = (0..rounds.len())
            .min_by(|&x, &y| rotation(x).cmp(rotation(y)))
            .unwrap_or(0);
        rounds.rotate_left(best);
        Cycle { rounds, cards }
    }

    /// Its length in rounds, which is its length in tricks.
    pub fn tricks(&self) -> usize {
        self.rounds.len()
    }

    /// The canonical bytes: each round start's bytes in canonical order
    /// (the leader, 0 for A or 1 for B; A's penalties; 0xFF; B's
    /// penalties; 0xFE).
    pub fn canonical_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for state in &self.rounds {
            state_bytes(state, &mut out);
        }
        out
    }

    /// Its id.
    pub fn id(&self) -> CycleId {
        CycleId(fnv1a(&self.canonical_bytes()))
    }

    /// The same cycle with A and B swapped (in canonical order).
    pub fn mirror(&self) -> Cycle {
        let rounds = self
            .rounds
            .iter()
            .map(|s| RoundStart {
                a: s.b.clone(),
                b: s.a.clone(),
                lead: match s.lead {
                    Player::A => Player::B,
                    Player::B => Player::A,
                },
            })
            .collect();
        Cycle::from_rounds(rounds, self.cards)
    }

    /// The id of its mirror.
    pub fn mirror_id(&self) -> CycleId {
        self.mirror().id()
    }
}
