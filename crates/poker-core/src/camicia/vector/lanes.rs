//! The state of a set of games the vector engine plays together: each
//! game's decks as runs in flat buffers, and where each deck is, one lane
//! per game; and the sizes that shape it.

use crate::camicia::index::{Deal, HAND_CARDS};
use crate::camicia::{GameEnd, Outcome};

/// Bits of a run that hold the penalty (the rest hold the zeros).
pub(super) const PEN_BITS: u32 = 3;
pub(super) const PEN_MASK: u32 = (1 << PEN_BITS) - 1;

/// Games in a set: the u32 lanes of `HALVES` 256-bit registers.
pub(super) const LANES: usize = 8 * HALVES;

/// AVX2 registers per value. One: with two (16 games a set) the step runs
/// out of registers and was measured slower.
pub(super) const HALVES: usize = 1;

/// Sets of games taking turns (one, two and three were measured; two was
/// fastest on both random deals and index ranges).
pub(super) const SETS: usize = 2;

/// Runs per deck buffer (a power of two: positions are masked into range).
pub(super) const SLOTS: usize = 128;

/// Runs per game: two decks.
pub(super) const GAME_SLOTS: usize = 2 * SLOTS;

/// Where a step writes the rows of games it leaves alone: past the last
/// game's buffers.
pub(super) const SCRATCH: usize = LANES * GAME_SLOTS;

/// A deck whose tail reaches this position moves back to the start. A
/// 52-card deal has 16 payment cards, so a round appends at most 17 runs;
/// a step writes 8 runs from the old tail on.
pub(super) const HIGH_WATER: usize = SLOTS - 24;

/// Runs of a round's chain a step sees.
pub(super) const CHAIN: usize = 7;

/// Rounds played before a game is handed to the fast engine for exact loop
/// detection. The longest known terminating game has 1164 rounds; a mean
/// random deal ends in about 35.
pub const ROUND_LIMIT: u32 = 4096;

/// Eight games: their runs, and per deck and lane where the deck is.
#[derive(Clone, Debug)]
#[repr(C, align(32))]
pub(super) struct Lanes {
    /// Game `g`'s deck `d`, position `i`: `runs[at(g, d, i)]`; then 8
    /// scratch slots.
    pub(super) runs: [u32; SCRATCH + 8],
    pub(super) head: [[u32; LANES]; 2],
    pub(super) last: [[u32; LANES]; 2],
    /// Each deck's front run as it is now.
    pub(super) front: [[u32; LANES]; 2],
    /// Each deck's tail run (also in `runs`).
    pub(super) tail: [[u32; LANES]; 2],
    /// 0 if A leads the next round, 1 if B does.
    pub(super) lead: [u32; LANES],
    pub(super) cards: [u32; LANES],
    pub(super) tricks: [u32; LANES],
    pub(super) rounds: [u32; LANES],
    /// All ones for a lane playing a game, 0 for an idle one.
    pub(super) active: [u32; LANES],
}

impl Default for Lanes {
    fn default() -> Lanes {
        Lanes {
            runs: [0; SCRATCH + 8],
            head: [[0; LANES]; 2],
            last: [[0; LANES]; 2],
            front: [[0; LANES]; 2],
            tail: [[0; LANES]; 2],
            lead: [0; LANES],
            cards: [0; LANES],
            tricks: [0; LANES],
            rounds: [0; LANES],
            active: [0; LANES],
        }
    }
}

/// Where game `g`'s deck `d` keeps its run at position `i` (in range).
#[inline(always)]
pub(super) fn at(g: usize, d: usize, i: usize) -> usize {
    (g % LANES) * GAME_SLOTS + (d & 1) * SLOTS + (i % SLOTS)
}

impl Lanes {
    /// Deals `deal` in lane `g`: A's runs and B's from the payment cards'
    /// places (`paid[d]` has bit `i` set if card `i` of deck `d` is one).
    pub(super) fn load(&mut self, g: usize, deal: &Deal, paid: [u32; 2]) {
        for (d, hand) in deal.penalties().chunks_exact(HAND_CARDS).enumerate() {
            let mut paid = paid[d];
            let mut pos = 0;
            let mut next = 0;
            while paid != 0 {
                let i = paid.trailing_zeros() as usize;
                let p = u32::from(hand[i]).min(PEN_MASK);
                self.runs[at(g, d, pos)] = (((i - next) as u32) << PEN_BITS) | p;
                pos += 1;
                next = i + 1;
                paid &= paid - 1;
            }
            let tail = ((HAND_CARDS - next) as u32) << PEN_BITS;
            self.runs[at(g, d, pos)] = tail;
            self.head[d][g] = 0;
            self.last[d][g] = pos as u32;
            self.front[d][g] = self.runs[at(g, d, 0)];
            self.tail[d][g] = tail;
        }
        self.lead[g] = 0;
        self.cards[g] = 0;
        self.tricks[g] = 0;
        self.rounds[g] = 0;
        self.active[g] = u32::MAX;
    }

    pub(super) fn outcome(&self, g: usize) -> Outcome {
        Outcome::new(
            GameEnd::Finished,
            u64::from(self.cards[g]),
            u64::from(self.tricks[g]),
        )
    }

    /// Moves lane `g`'s deck `d` back to the start of its buffer.
    pub(super) fn compact(&mut self, g: usize, d: usize) {
        let (head, last) = (self.head[d][g] as usize, self.last[d][g] as usize);
        self.runs
            .copy_within(at(g, d, head)..=at(g, d, last), at(g, d, 0));
        self.head[d][g] = 0;
        self.last[d][g] = (last - head) as u32;
    }

    /// Plays lane `g`'s round run by run, for a chain longer than a step
    /// sees; true if the game is then finished.
    #[cold]
    pub(super) fn round_by_runs(&mut self, g: usize) -> bool {
        let l = self.lead[g] as usize;
        let o = l ^ 1;
        let (fl, fo) = (self.front[l][g], self.front[o][g]);
        let (zl, zo) = (fl >> PEN_BITS, fo >> PEN_BITS);
        let late = zl > zo;
        let z = zl.min(zo);
        let played = 2 * z + u32::from(late);
        let (q, p, q_run, p_run) = if late { (o, l, fo, fl) } else { (l, o, fl, fo) };
        let p_front = p_run - ((played - z) << PEN_BITS);
        let pen = q_run & PEN_MASK;
        self.tricks[g] += 1;
        if pen == 0 {
            // The mover ran out of cards: the other takes the pile, and
            // the game is over.
            self.cards[g] += played;
            return true;
        }
        let first = (played << PEN_BITS) | pen;
        let ph = self.head[p][g] as usize;
        let qh = self.head[q][g] as usize + 1;
        // The chain in playing order: p's runs at even indices, q's at odd.
        let run = |s: &Lanes, k: usize| match (k % 2, k / 2) {
            (0, 0) => p_front,
            (0, i) => s.runs[at(g, p, ph + i)],
            (_, i) => s.runs[at(g, q, qh + i)],
        };
        let (mut debt, mut k, mut cards) = (pen, 0, played + 1);
        let end_run = loop {
            let r = run(self, k);
            let (z, pen) = (r >> PEN_BITS, r & PEN_MASK);
            if pen == 0 || z >= debt {
                break r;
            }
            cards += z + 1;
            debt = pen;
            k += 1;
        };
        let paid = debt.min(end_run >> PEN_BITS);
        let left = end_run - (paid << PEN_BITS);
        let (w, loser) = if k % 2 == 0 { (q, p) } else { (p, q) };
        // The winner's tail absorbs the pile's first run; the chain's whole
        // runs follow, then the number cards paid last (the new tail).
        let wl = self.last[w][g] as usize;
        for i in 0..k {
            self.runs[at(g, w, wl + 1 + i)] = run(self, i);
        }
        self.runs[at(g, w, wl)] = self.tail[w][g] + first;
        self.runs[at(g, w, wl + 1 + k)] = paid << PEN_BITS;
        self.head[p][g] = (ph + k.div_ceil(2)) as u32;
        self.head[q][g] = (qh + k / 2) as u32;
        self.front[loser][g] = left;
        self.last[w][g] = (wl + 1 + k) as u32;
        self.tail[w][g] = paid << PEN_BITS;
        // The winner laid a payment card, so its new front is a whole run
        // (or the tail just written).
        self.front[w][g] = self.runs[at(g, w, self.head[w][g] as usize)];
        self.lead[g] = w as u32;
        self.cards[g] += cards + paid;
        if wl + 1 + k >= HIGH_WATER {
            self.compact(g, w);
        }
        left == 0
    }
}

/// What a step leaves to be done lane by lane: bit `g` of each mask is
/// lane `g`.
pub(super) struct StepEnd {
    /// Games that finished.
    pub(super) finished: u32,
    /// Games that reached [`ROUND_LIMIT`] rounds.
    pub(super) limit: u32,
    /// Rounds whose chain is longer than a step sees: not played.
    pub(super) long: u32,
    /// Decks to move back to the start of their buffer: the winner's.
    pub(super) compact: u32,
}
