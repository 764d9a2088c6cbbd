//! The fast simulator.
//!
//! Number cards are all alike, so a deck is stored run-length encoded as a
//! list of runs "`z` number cards, then a payment card of penalty `p`",
//! packed as `z << 3 | p` in a `u64`. The deck always ends with one run of
//! penalty 0: the number cards after its last payment card (the *tail*;
//! `0` when the deck is empty). A round then costs a few steps per *payment
//! card* instead of one per card: with both players' distances to their next
//! payment card known, the alternation and each payment resolve in O(1),
//! mostly without branches. The pile is written straight past the end of
//! both decks, so collecting it moves nothing.
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
    /// Room a round's pile may need past the end of a deck, in runs.
    pile_room: usize,
    turn: usize,
    cards: u64,
    tricks: u64,
}

impl Engine {
    fn load(&mut self, a: &[u8], b: &[u8], payment_cards: usize) {
        // Runs in a deck: one per payment card plus the tail, then room for
        // many piles between compactions.
        let capacity = 8 * (payment_cards + 2);
        self.decks[0].load(a, capacity.max(a.len() + 1));
        self.decks[1].load(b, capacity.max(b.len() + 1));
        self.pile_room = payment_cards + 2;
        self.turn = 0;
        self.cards = 0;
        self.tricks = 0;
    }

    /// Plays one round from its start to the trick; true if the game is
    /// then finished. The round's leader must hold a card.
    ///
    /// The pile is never stored on its own: each of its runs after the first
    /// is written past the end of *both* decks, and the winner's deck then
    /// just takes them in (its tail run absorbs the first).
    #[inline(always)]
    fn round(&mut self) -> bool {
        let room = self.pile_room;
        for deck in &mut self.decks {
            if deck.last + room >= deck.buf.len() {
                deck.compact(room);
            }
        }
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
        let [d0, d1] = &mut self.decks;
        // (buffer, head, last, player) of the mover and of the other.
        let (mut p, mut q) = (
            (&mut d0.buf[..], d0.head, d0.last, 0),
            (&mut d1.buf[..], d1.head, d1.last, 1),
        );
        if mover == 0 {
            std::mem::swap(&mut p, &mut q);
        }
        // Now `q` is the mover, `p` the other player.
        p.0[p.1] -= (z + late) << PEN_BITS;
        let run = q.0[q.1] - (z << PEN_BITS);
        q.0[q.1] = run;
        let pen = run & PEN_MASK;
        q.1 += usize::from(pen != 0);
        self.cards += played + u64::from(pen != 0);
        let first = (played << PEN_BITS) | pen;
        let mut len = 1;
        if pen != 0 {
            // Payments: the payer `p` plays up to `debt` cards, stopping at
            // a payment card, which turns the debt round. Buffers and heads
            // live in locals that swap with the roles.
            let mut debt = pen;
            loop {
                let run = p.0[p.1];
                let z = run >> PEN_BITS;
                let pen = run & PEN_MASK;
                if (pen != 0) & (z < debt) {
                    p.1 += 1;
                    p.0[p.2 + len] = run;
                    q.0[q.2 + len] = run;
                    len += 1;
                    self.cards += z + 1;
                    debt = pen;
                    std::mem::swap(&mut p, &mut q);
                    continue;
                }
                // Pays in full with number cards, or (tail run) runs out.
                let k = debt.min(z);
                p.0[p.1] = run - (k << PEN_BITS);
                self.cards += k;
                p.0[p.2 + len] = k << PEN_BITS;
                q.0[q.2 + len] = k << PEN_BITS;
                len += 1;
                break;
            }
        } else {
            // The mover ran out of cards: the other takes the pile.
            std::mem::swap(&mut p, &mut q);
        }
        // `q` wins: its tail run absorbs the pile's first run, and the
        // pile's other runs are already in place after it.
        q.0[q.2] += first;
        q.2 += len - 1;
        let finished = p.0[p.1] == 0;
        let (wh, wl, lh, ll, winner) = (q.1, q.2, p.1, p.2, q.3);
        self.decks[winner].head = wh;
        self.decks[winner].last = wl;
        self.decks[winner ^ 1].head = lh;
        self.decks[winner ^ 1].last = ll;
        self.tricks += 1;
        self.turn = winner;
        finished
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
