//! The fast simulator.
//!
//! Number cards are all alike, so a deck is stored run-length encoded as a
//! list of runs "`z` number cards, then a payment card of penalty `p`",
//! packed as `z << 3 | p` in a `u64`. The deck always ends with one run of
//! penalty 0: the number cards after its last payment card (the *tail*;
//! `0` when the deck is empty). A round then costs a few steps per *payment
//! card* instead of one per card: with both players' distances to their next
//! payment card known, the alternation and each payment resolve in O(1),
//! mostly without branches, and the pile goes under the winner's deck as a
//! fixed-size copy of its runs.
//!
//! The encoding is canonical, so two round-start states are equal exactly
//! when their runs and turn are equal. Loops are found with Brent's cycle
//! detection on round-start states: one saved state, a few integer compares
//! per round, no hashing and no allocation. When a cycle of length λ shows
//! up, the game is replayed twice, λ rounds apart, until the two states
//! meet: that is the first round start that repeats an earlier one, and its
//! cards and tricks are reported, exactly as the rules count them.

use super::{Outcome, Status};

/// Bits of a run that hold the penalty (the rest hold the zeros).
const PEN_BITS: u32 = 3;
const PEN_MASK: u64 = (1 << PEN_BITS) - 1;
/// Runs copied at once when a pile goes under a deck: a 52-card deal has at
/// most 16 payment cards, so one fixed-size (branch-free) copy does it.
const COPY: usize = 16;

/// One player's deck: runs `buf[head..=last]`, the last of penalty 0.
#[derive(Clone, Debug, Default)]
struct Deck {
    buf: Vec<u64>,
    head: usize,
    last: usize,
}

impl Deck {
    fn load(&mut self, cards: &[u8], capacity: usize) {
        if self.buf.len() < capacity {
            self.buf = vec![0; capacity];
        }
        // Branch-free: every card writes its run so far; a payment card
        // closes it.
        let mut at = 0;
        let mut zeros = 0u64;
        for &p in cards {
            let p = u64::from(p);
            self.buf[at] = (zeros << PEN_BITS) | p;
            let paid = usize::from(p != 0);
            at += paid;
            zeros = (zeros + 1) * (1 - paid as u64);
        }
        self.buf[at] = zeros << PEN_BITS;
        self.head = 0;
        self.last = at;
    }

    #[inline(always)]
    fn front(&self) -> u64 {
        self.buf[self.head]
    }

    /// Appends the pile's first `len` runs (the last of penalty 0); `pile`
    /// holds at least `1 + COPY` runs.
    #[inline(always)]
    fn append(&mut self, pile: &[u64], len: usize) {
        let first = pile[0];
        let rest = &pile[1..len];
        let room = COPY.max(rest.len());
        if self.last + 1 + room > self.buf.len() {
            self.compact(room);
        }
        self.buf[self.last] += first;
        let at = self.last + 1;
        if rest.len() <= COPY {
            // Copies COPY runs whatever the pile holds (the pile buffer is
            // padded): a fixed-size copy has no loop to mispredict.
            self.buf[at..at + COPY].copy_from_slice(&pile[1..1 + COPY]);
        } else {
            self.buf[at..at + rest.len()].copy_from_slice(rest);
        }
        self.last += rest.len();
    }

    #[cold]
    fn compact(&mut self, room: usize) {
        self.buf.copy_within(self.head..=self.last, 0);
        self.last -= self.head;
        self.head = 0;
        if self.last + 1 + room > self.buf.len() {
            self.buf.resize(2 * (self.last + 1 + room), 0);
        }
    }

    fn runs(&self) -> &[u64] {
        &self.buf[self.head..=self.last]
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
    /// The pile's runs (`pile_len` of them), padded for the fixed copy.
    pile: Vec<u64>,
    turn: usize,
    cards: u64,
    tricks: u64,
}

impl Engine {
    fn load(&mut self, a: &[u8], b: &[u8], payment_cards: usize) {
        // Runs in a deck: one per payment card plus the tail; room to
        // append piles between compactions.
        let capacity = 4 * (payment_cards + 1 + COPY);
        self.decks[0].load(a, capacity.max(a.len() + 1));
        self.decks[1].load(b, capacity.max(b.len() + 1));
        let pile = payment_cards + 2 + COPY;
        if self.pile.len() < pile {
            self.pile = vec![0; pile];
        }
        self.turn = 0;
        self.cards = 0;
        self.tricks = 0;
    }

    /// Plays one round from its start to the trick; true if the game is
    /// then finished. The round's leader must hold a card.
    #[inline(always)]
    fn round(&mut self) -> bool {
        let lead = self.turn;
        // The leader plays at steps 0, 2, 4..., the other at 1, 3, 5...: a
        // player's next event (a payment card, or failing to play after the
        // tail) comes after its front run's zeros.
        let zl = self.decks[lead].front() >> PEN_BITS;
        let zo = self.decks[lead ^ 1].front() >> PEN_BITS;
        // `mover` has the first event after playing `z` number cards, while
        // the other played `z + late` (late = 1 if the mover is not the
        // leader).
        let late = u64::from(zl > zo);
        let mover = lead ^ late as usize;
        let z = if late == 1 { zo } else { zl };
        let played = 2 * z + late;
        self.decks[mover ^ 1].buf[self.decks[mover ^ 1].head] -= (z + late) << PEN_BITS;
        let deck = &mut self.decks[mover];
        let run = deck.front() - (z << PEN_BITS);
        deck.buf[deck.head] = run;
        let pen = run & PEN_MASK;
        deck.head += usize::from(pen != 0);
        self.cards += played + u64::from(pen != 0);
        self.pile[0] = (played << PEN_BITS) | pen;
        let mut len = 1;
        if pen == 0 {
            // The mover ran out of cards.
            return self.collect(mover ^ 1, len);
        }
        let mut payer = mover ^ 1;
        let mut debt = pen;
        // Payments: the payer plays up to `debt` cards, stopping at a
        // payment card, which turns the debt round.
        loop {
            let deck = &mut self.decks[payer];
            let run = deck.front();
            let z = run >> PEN_BITS;
            let pen = run & PEN_MASK;
            if (pen != 0) & (z < debt) {
                deck.head += 1;
                self.pile[len] = run;
                len += 1;
                self.cards += z + 1;
                payer ^= 1;
                debt = pen;
                continue;
            }
            // Pays in full with number cards, or (tail run) runs out.
            let k = debt.min(z);
            deck.buf[deck.head] = run - (k << PEN_BITS);
            self.cards += k;
            self.pile[len] = k << PEN_BITS;
            len += 1;
            return self.collect(payer ^ 1, len);
        }
    }

    /// The winner takes the pile's `len` runs; true if the loser is empty.
    #[inline(always)]
    fn collect(&mut self, winner: usize, len: usize) -> bool {
        self.decks[winner].append(&self.pile, len);
        self.tricks += 1;
        self.turn = winner;
        self.decks[winner ^ 1].front() == 0
    }

    fn save(&self, snap: &mut Snapshot) {
        snap.turn = self.turn;
        snap.runs.clear();
        for (i, deck) in self.decks.iter().enumerate() {
            snap.len[i] = deck.last - deck.head;
            snap.tail[i] = deck.buf[deck.last];
            snap.runs.extend_from_slice(deck.runs());
        }
    }

    /// True if this round-start state equals the saved one. The integer
    /// compares (one branch) reject almost every state before any run is
    /// looked at.
    #[inline(always)]
    fn equals(&self, snap: &Snapshot) -> bool {
        let [a, b] = &self.decks;
        let differ = (self.turn != snap.turn)
            | (a.last - a.head != snap.len[0])
            | (b.last - b.head != snap.len[1])
            | (a.buf[a.last] != snap.tail[0])
            | (b.buf[b.last] != snap.tail[1]);
        if differ {
            return false;
        }
        let (ra, rb) = (a.runs(), b.runs());
        ra == &snap.runs[..ra.len()] && rb == &snap.runs[ra.len()..]
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
        let game = &mut self.game;
        game.load(a, b, payment_cards);
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
        hare.load(a, b, payment_cards);
        tortoise.load(a, b, payment_cards);
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
