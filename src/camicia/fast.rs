//! The fast simulator.
//!
//! Number cards are all alike, so a deck is stored run-length encoded: a ring
//! of runs "`z` number cards, then a payment card of penalty `p`" (packed as
//! `z << 3 | p` in a `u64`) plus the count of number cards after its last
//! payment card. A round then costs a few steps per *payment card* instead
//! of one per card: with both players' distances to their next payment card
//! known, the alternation and each payment resolve in O(1).
//!
//! The encoding is canonical, so two round-start states are equal exactly
//! when their runs, tails and turn are equal. Loops are found with Brent's
//! cycle detection on round-start states: one saved state, a few integer
//! compares per round, no hashing and no allocation. When a cycle of length
//! λ shows up, the game is replayed twice, λ rounds apart, until the two
//! states meet: that is the first round start that repeats an earlier one,
//! and its cards and tricks are reported, exactly as the rules count them.

use super::{Outcome, Status};

/// Bits of a run entry that hold the penalty (the rest hold the zeros).
const PEN_BITS: u32 = 3;
const PEN_MASK: u64 = (1 << PEN_BITS) - 1;

/// One player's deck: a ring of runs plus the number cards after the last
/// payment card.
#[derive(Clone, Debug, Default)]
struct Deck {
    runs: Vec<u64>,
    mask: usize,
    head: usize,
    len: usize,
    tail: u64,
    cards: u64,
}

impl Deck {
    fn reset(&mut self, capacity: usize) {
        if self.runs.len() < capacity {
            self.runs = vec![0; capacity];
        }
        self.mask = self.runs.len() - 1;
        self.head = 0;
        self.len = 0;
        self.tail = 0;
        self.cards = 0;
    }

    #[inline(always)]
    fn push_run(&mut self, run: u64) {
        let at = (self.head + self.len) & self.mask;
        self.runs[at] = run;
        self.len += 1;
    }

    /// Appends the pile (runs, then `tail` number cards, `cards` in all).
    #[inline(always)]
    fn append(&mut self, pile: &[u64], tail: u64, cards: u64) {
        match pile.split_first() {
            None => self.tail += tail,
            Some((&first, rest)) => {
                self.push_run(first + (self.tail << PEN_BITS));
                for &run in rest {
                    self.push_run(run);
                }
                self.tail = tail;
            }
        }
        self.cards += cards;
    }

    /// The front run, if the deck holds a payment card.
    #[inline(always)]
    fn front(&self) -> Option<u64> {
        (self.len != 0).then(|| self.runs[self.head & self.mask])
    }

    /// Plays `k` number cards off the top (the caller knows there are).
    #[inline(always)]
    fn take_numbers(&mut self, k: u64) {
        if self.len != 0 {
            self.runs[self.head & self.mask] -= k << PEN_BITS;
        } else {
            self.tail -= k;
        }
        self.cards -= k;
    }

    /// Plays the whole front run (its number cards and its payment card).
    #[inline(always)]
    fn take_run(&mut self, run: u64) {
        self.head = (self.head + 1) & self.mask;
        self.len -= 1;
        self.cards -= (run >> PEN_BITS) + 1;
    }

    fn iter_runs(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.len).map(move |i| self.runs[(self.head + i) & self.mask])
    }
}

/// A copy of a round-start state (for Brent's saved state).
#[derive(Clone, Debug, Default)]
struct Snapshot {
    turn: usize,
    len: [usize; 2],
    tail: [u64; 2],
    runs: Vec<u64>,
}

/// One game in progress.
#[derive(Clone, Debug, Default)]
struct Engine {
    decks: [Deck; 2],
    pile: Vec<u64>,
    turn: usize,
    cards: u64,
    tricks: u64,
}

impl Engine {
    fn load(&mut self, a: &[u8], b: &[u8], capacity: usize) {
        for (deck, cards) in self.decks.iter_mut().zip([a, b]) {
            deck.reset(capacity);
            let mut zeros = 0u64;
            for &p in cards {
                if p == 0 {
                    zeros += 1;
                } else {
                    deck.push_run((zeros << PEN_BITS) | u64::from(p));
                    zeros = 0;
                }
            }
            deck.tail = zeros;
            deck.cards = cards.len() as u64;
        }
        if self.pile.capacity() < capacity {
            self.pile.reserve(capacity);
        }
        self.pile.clear();
        self.turn = 0;
        self.cards = 0;
        self.tricks = 0;
    }

    /// Plays one round from its start to the trick; true if the game is
    /// then finished. The round's leader must hold a card.
    #[inline(always)]
    fn round(&mut self) -> bool {
        let lead = self.turn;
        let other = lead ^ 1;
        // Number cards on the pile since its last payment card.
        let mut zeros: u64;
        let mut payer;
        let mut debt;
        let winner;
        // The leader plays at steps 0, 2, 4..., the other at 1, 3, 5...: each
        // player's next event (payment card, or failing to play) has a time.
        let (lf, of) = (self.decks[lead].front(), self.decks[other].front());
        let lt = match lf {
            Some(run) => 2 * (run >> PEN_BITS),
            None => 2 * self.decks[lead].cards,
        };
        let ot = match of {
            Some(run) => 2 * (run >> PEN_BITS) + 1,
            None => 2 * self.decks[other].cards + 1,
        };
        if lt < ot {
            let k = lt / 2;
            self.decks[other].take_numbers(k);
            match lf {
                Some(run) => {
                    self.decks[lead].take_run(run);
                    self.pile.push(((2 * k) << PEN_BITS) | (run & PEN_MASK));
                    self.cards += 2 * k + 1;
                    zeros = 0;
                    payer = other;
                    debt = run & PEN_MASK;
                }
                None => {
                    self.decks[lead].take_numbers(k);
                    self.cards += 2 * k;
                    zeros = 2 * k;
                    return self.collect(other, zeros);
                }
            }
        } else {
            let k = ot / 2;
            self.decks[lead].take_numbers(k + 1);
            match of {
                Some(run) => {
                    self.decks[other].take_run(run);
                    self.pile.push(((2 * k + 1) << PEN_BITS) | (run & PEN_MASK));
                    self.cards += 2 * k + 2;
                    zeros = 0;
                    payer = lead;
                    debt = run & PEN_MASK;
                }
                None => {
                    self.decks[other].take_numbers(k);
                    self.cards += 2 * k + 1;
                    zeros = 2 * k + 1;
                    return self.collect(lead, zeros);
                }
            }
        }
        // Payments: the payer plays up to `debt` cards, stopping at a
        // payment card, which turns the debt round.
        loop {
            let deck = &mut self.decks[payer];
            if let Some(run) = deck.front() {
                let z = run >> PEN_BITS;
                if z < debt {
                    deck.take_run(run);
                    self.pile.push(run);
                    self.cards += z + 1;
                    payer ^= 1;
                    debt = run & PEN_MASK;
                    continue;
                }
            }
            let k = debt.min(deck.cards);
            deck.take_numbers(k);
            self.cards += k;
            zeros += k;
            winner = payer ^ 1;
            break;
        }
        self.collect(winner, zeros)
    }

    /// The winner takes the pile (its runs, then `zeros` number cards).
    #[inline(always)]
    fn collect(&mut self, winner: usize, zeros: u64) -> bool {
        let pile_cards = self
            .pile
            .iter()
            .map(|run| (run >> PEN_BITS) + 1)
            .sum::<u64>()
            + zeros;
        self.decks[winner].append(&self.pile, zeros, pile_cards);
        self.pile.clear();
        self.tricks += 1;
        self.turn = winner;
        self.decks[winner ^ 1].cards == 0
    }

    fn save(&self, snap: &mut Snapshot) {
        snap.turn = self.turn;
        snap.runs.clear();
        for (i, deck) in self.decks.iter().enumerate() {
            snap.len[i] = deck.len;
            snap.tail[i] = deck.tail;
            snap.runs.extend(deck.iter_runs());
        }
    }

    /// True if this round-start state equals the saved one. The integer
    /// compares reject almost every state before any run is looked at.
    #[inline(always)]
    fn equals(&self, snap: &Snapshot) -> bool {
        let [a, b] = &self.decks;
        if self.turn != snap.turn
            || a.len != snap.len[0]
            || b.len != snap.len[1]
            || a.tail != snap.tail[0]
            || b.tail != snap.tail[1]
        {
            return false;
        }
        a.iter_runs()
            .chain(b.iter_runs())
            .zip(&snap.runs)
            .all(|(x, &y)| x == y)
    }
}

/// A reusable fast simulator: it keeps its buffers between games, so
/// simulating many deals allocates nothing after the first of each size.
///
/// Same rules and results as [`super::simulate`]; the input is each player's
/// penalties, top card first (0 = number card, 1 = J, 2 = Q, 3 = K, 4 = A).
#[derive(Clone, Debug, Default)]
pub struct Simulator {
    game: Engine,
    tortoise: Engine,
    saved: Snapshot,
}

/// A penalty outside 0..=4, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PenaltyError {
    /// Whose deck holds it.
    pub player: super::Player,
    /// 0-based position of the card in that deck.
    pub position: usize,
    /// The value found.
    pub value: u8,
}

impl std::fmt::Display for PenaltyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "player {}: card {} has penalty {}, not 0..=4",
            self.player,
            self.position + 1,
            self.value
        )
    }
}

impl std::error::Error for PenaltyError {}

impl Simulator {
    /// A simulator with empty buffers.
    pub fn new() -> Simulator {
        Simulator::default()
    }

    /// Simulates the game of `a` against `b` (penalties 0..=4, top first).
    pub fn run(&mut self, a: &[u8], b: &[u8]) -> Result<Outcome, PenaltyError> {
        for (player, deck) in [(super::Player::A, a), (super::Player::B, b)] {
            if let Some(position) = deck.iter().position(|&p| p > 4) {
                return Err(PenaltyError {
                    player,
                    position,
                    value: deck[position],
                });
            }
        }
        Ok(self.run_unchecked(a, b))
    }

    /// [`Simulator::run`] for penalties already known to be 0..=4 (a value
    /// above 4 gives a meaningless outcome, never undefined behaviour).
    pub fn run_unchecked(&mut self, a: &[u8], b: &[u8]) -> Outcome {
        if a.is_empty() {
            return Outcome::new(Status::Finished, 0, 0);
        }
        let payment_cards = a.iter().chain(b).filter(|&&p| p != 0).count();
        let capacity = payment_cards.max(1).next_power_of_two();
        let game = &mut self.game;
        game.load(a, b, capacity);
        // Brent: `saved` is the state at round `power`'s start; `lambda`
        // rounds have been played since.
        game.save(&mut self.saved);
        let (mut power, mut lambda) = (1u64, 1u64);
        if game.round() {
            return Outcome::new(Status::Finished, game.cards, game.tricks);
        }
        while !game.equals(&self.saved) {
            if power == lambda {
                game.save(&mut self.saved);
                power *= 2;
                lambda = 0;
            }
            if game.round() {
                return Outcome::new(Status::Finished, game.cards, game.tricks);
            }
            lambda += 1;
        }
        // A cycle of `lambda` rounds. Replay from the deal with one game
        // `lambda` rounds ahead: where they first agree is the first round
        // start that repeats an earlier one.
        let (hare, tortoise) = (&mut self.game, &mut self.tortoise);
        hare.load(a, b, capacity);
        tortoise.load(a, b, capacity);
        for _ in 0..lambda {
            hare.round();
        }
        loop {
            tortoise.save(&mut self.saved);
            if hare.equals(&self.saved) {
                return Outcome::new(Status::Loop, hare.cards, hare.tricks);
            }
            hare.round();
            tortoise.round();
        }
    }
}
