//! The fast simulator.
//!
//! # Decks as runs
//! Number cards are all alike, so a deck is stored run-length encoded as a
//! list of runs "`z` number cards, then a payment card of penalty `p`",
//! packed as `z << 3 | p` in an integer. The deck always ends with one run of
//! penalty 0: the number cards after its last payment card (the *tail*;
//! `0` when the deck is empty). A round then costs a few steps per *payment
//! card* instead of one per card: with both players' distances to their next
//! payment card known, the alternation and each payment resolve in O(1),
//! mostly without branches.
//!
//! Each deck's runs live in a ring buffer (a power-of-two number of slots,
//! positions masked). The pile is never stored on its own: its runs are
//! written straight past the tail of *both* decks, and the winner's deck then
//! just takes them in. Every payment card is in one deck or in the pile, so
//! a deck and the pile together never need more than `P + 1` slots for `P`
//! payment cards: a ring of `P + 1` slots or more never overwrites a live
//! run. Games with at most [`FIXED_PAYMENT_CARDS`] payment cards (every
//! 52-card deal) use a fixed 64-slot ring per deck, inline, with masks the
//! compiler sees; larger games use the same code over a heap ring sized to
//! the deal. Nothing is allocated per game once the buffers exist. The two
//! rings are interleaved (A's runs at even positions, B's at odd), so a
//! position also says whose deck it is in.
//!
//! A round starts with the two players' distances to their next event;
//! which of them is the *mover* (the first to reach a payment card or run
//! out) is picked with masks, not a branch: that choice is a coin flip, and
//! a mispredicted branch there used to cost more than the rest of the
//! round. The payments loop is unrolled by two so the payer and collector
//! never swap registers. What remains unpredictable is essentially the end
//! of each round's chain of payments.
//!
//! # Loops, at no cost on the common path
//! The encoding is canonical, so two round-start states are equal exactly
//! when their runs and turn are equal. Almost every game ends within a few
//! hundred rounds (a mean of about 35 for random 52-card deals; the longest
//! known terminating game has 1164), so the first [`QUIET_ROUNDS`] rounds
//! are played with no loop check at all. Only a game that lasts longer gets
//! Brent's cycle detection on its round-start states: one saved state and a
//! few integer compares per round. When a cycle of λ rounds shows up, the
//! game is replayed from the deal twice, λ rounds apart, until the two
//! states meet: that is the first round start that repeats an earlier one
//! (whether or not it came before round [`QUIET_ROUNDS`]), and its cards and
//! tricks are reported, exactly as the rules count them.

use super::{GameEnd, Outcome};

/// Bits of a run that hold the penalty (the rest hold the zeros).
const PEN_BITS: u32 = 3;
const PEN_MASK: u64 = (1 << PEN_BITS) - 1;

/// Rounds played before loop detection starts. Far beyond the length of
/// almost every game, so the common path never checks; any value gives the
/// same results (the replay finds the first repeat wherever it is).
const QUIET_ROUNDS: u64 = 256;

/// Slots per deck in the fixed ring (a power of two).
const FIXED_SLOTS: usize = 64;

/// The most payment cards a game may hold to use the fixed ring.
const FIXED_PAYMENT_CARDS: usize = FIXED_SLOTS - 1;

/// The fixed ring keeps runs in 32 bits, so its games must have fewer
/// cards than this (a run's zeros, shifted, must fit).
const FIXED_CARDS: usize = 1 << (32 - PEN_BITS);

/// Storage for both decks' rings of runs, interleaved: deck `d` owns the
/// positions `p` with `p % 2 == d`, so a position alone says whose run it
/// is and a player's next run is 2 positions on. Positions only ever grow;
/// they are taken modulo the storage size.
trait Rings: Clone + Default {
    /// Makes room for rings of at least `slots` slots each.
    fn reserve(&mut self, slots: usize);
    fn get(&self, at: usize) -> u64;
    fn set(&mut self, at: usize, run: u64);
    /// Becomes a copy of `other` (keeping its own allocation).
    fn copy_from(&mut self, other: &Self);
}

/// Two 64-slot rings inline, runs in 32 bits (games of fewer than
/// [`FIXED_CARDS`] cards). The position is masked into range, so no bounds
/// check survives.
#[derive(Clone, Debug)]
struct FixedRings {
    slots: [u32; 2 * FIXED_SLOTS],
}

impl Default for FixedRings {
    fn default() -> FixedRings {
        FixedRings {
            slots: [0; 2 * FIXED_SLOTS],
        }
    }
}

impl Rings for FixedRings {
    fn reserve(&mut self, slots: usize) {
        debug_assert!(slots <= FIXED_SLOTS);
    }

    #[inline(always)]
    fn get(&self, at: usize) -> u64 {
        u64::from(self.slots[at % (2 * FIXED_SLOTS)])
    }

    #[inline(always)]
    fn set(&mut self, at: usize, run: u64) {
        self.slots[at % (2 * FIXED_SLOTS)] = run as u32;
    }

    fn copy_from(&mut self, other: &Self) {
        self.slots = other.slots;
    }
}

/// Two rings of a power-of-two size on the heap, for any game.
#[derive(Clone, Debug, Default)]
struct HeapRings {
    slots: Vec<u64>,
    /// `slots.len() - 1`.
    mask: usize,
}

impl Rings for HeapRings {
    fn reserve(&mut self, slots: usize) {
        let size = 2 * slots.next_power_of_two().max(FIXED_SLOTS);
        if size > self.slots.len() {
            self.slots = vec![0; size];
        }
        self.mask = self.slots.len() - 1;
    }

    #[inline(always)]
    fn get(&self, at: usize) -> u64 {
        self.slots[at & self.mask]
    }

    #[inline(always)]
    fn set(&mut self, at: usize, run: u64) {
        self.slots[at & self.mask] = run;
    }

    fn copy_from(&mut self, other: &Self) {
        self.slots.clone_from(&other.slots);
        self.mask = other.mask;
    }
}

/// Where one deck is: the positions of its front run and of its tail run
/// (the deck is the runs from `head` to `last`, 2 positions apart). The
/// positions' parity says whose deck it is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Deck {
    head: usize,
    last: usize,
}

impl Deck {
    /// Runs in the deck, its tail included.
    fn runs(self) -> usize {
        (self.last - self.head) / 2 + 1
    }

    /// 0 for A's deck, 1 for B's.
    fn player(self) -> usize {
        self.head & 1
    }
}

/// Where the decks are at a round start, and the counts so far.
#[derive(Clone, Copy, Debug, Default)]
struct State {
    /// The deck of the player to lead the round.
    lead: Deck,
    /// The other deck.
    other: Deck,
    cards: u64,
    tricks: u64,
}

/// `(x, y)` if `swap` is false, else `(y, x)`, without a branch (which
/// would be mispredicted half the time here).
/// A word whose all-ones mask can be made from a bool without overflow.
trait Mask: Copy + std::ops::BitXor<Output = Self> + std::ops::BitAnd<Output = Self> {
    /// All ones for true, zero for false.
    fn mask(on: bool) -> Self;
}

impl Mask for u64 {
    #[inline(always)]
    fn mask(on: bool) -> Self {
        u64::from(on).wrapping_neg()
    }
}

impl Mask for usize {
    #[inline(always)]
    fn mask(on: bool) -> Self {
        usize::from(on).wrapping_neg()
    }
}

#[inline(always)]
fn pick<T: Mask>(swap: bool, x: T, y: T) -> (T, T) {
    // A mask from `wrapping_neg`, not `0 - swap`: that subtraction
    // overflows, a panic wherever overflow checks are on (debug builds,
    // fuzzing); a multiply would lengthen the hot path.
    let flip = (x ^ y) & T::mask(swap);
    (x ^ flip, y ^ flip)
}

/// Plays one round from its start to the trick; true if the game is then
/// finished. The round's leader must hold a card.
#[inline(always)]
fn round<R: Rings>(rings: &mut R, s: &mut State) -> bool {
    let (l, o) = (s.lead, s.other);
    let (rl, ro) = (rings.get(l.head), rings.get(o.head));
    // The leader plays at steps 0, 2, 4..., the other at 1, 3, 5...: a
    // player's next event (a payment card, or failing to play after the
    // tail) comes after its front run's zeros. The *mover* `q` has the
    // first event after playing `z` number cards, while the other, `p`,
    // played `z + late` (late = 1 if the mover is not the leader).
    let (zl, zo) = (rl >> PEN_BITS, ro >> PEN_BITS);
    let late = zl > zo;
    let z = zl.min(zo);
    let played = 2 * z + u64::from(late);
    // `*h`: front position; `*l`: tail position; `*run`: front run.
    let (mut qh, mut ph) = pick(late, l.head, o.head);
    let (ql, pl) = pick(late, l.last, o.last);
    let (qrun, prun) = pick(late, rl, ro);
    rings.set(ph, prun - ((played - z) << PEN_BITS));
    // The mover's front run is now just its payment card (or nothing).
    let pen = qrun & PEN_MASK;
    // The pile's first run.
    let first = (played << PEN_BITS) | pen;
    let mut cards = played;
    // The pile's later runs are written past the tail of *both* decks
    // (from `*w` on), so the winner's deck already holds them when it wins.
    let (mut qw, mut pw) = (ql + 2, pl + 2);
    // The winner's front, old tail and new tail; the loser's front and tail.
    let (wh, wt, wl, lh, ll);
    if pen == 0 {
        // The mover ran out of cards: the other takes the pile (and the
        // game is over).
        rings.set(qh, 0);
        (wh, wt, wl, lh, ll) = (ph, pl, pl, qh, ql);
    } else {
        qh += 2;
        cards += 1;
        // Payments: the payer plays up to `debt` cards, stopping at a
        // payment card, which turns the debt round. Unrolled by two so the
        // roles never swap: `p` pays, then `q`, then `p`...
        let mut debt = pen;
        loop {
            let run = rings.get(ph);
            let (z, pen) = (run >> PEN_BITS, run & PEN_MASK);
            if (pen == 0) | (z >= debt) {
                // Pays in full with number cards, or (tail run) runs out.
                let k = debt.min(z);
                rings.set(ph, run - (k << PEN_BITS));
                rings.set(pw, k << PEN_BITS);
                rings.set(qw, k << PEN_BITS);
                cards += k;
                (wh, wt, wl, lh, ll) = (qh, ql, qw, ph, pl);
                break;
            }
            ph += 2;
            rings.set(pw, run);
            rings.set(qw, run);
            pw += 2;
            qw += 2;
            cards += z + 1;
            debt = pen;

            let run = rings.get(qh);
            let (z, pen) = (run >> PEN_BITS, run & PEN_MASK);
            if (pen == 0) | (z >= debt) {
                let k = debt.min(z);
                rings.set(qh, run - (k << PEN_BITS));
                rings.set(pw, k << PEN_BITS);
                rings.set(qw, k << PEN_BITS);
                cards += k;
                (wh, wt, wl, lh, ll) = (ph, pl, pw, qh, ql);
                break;
            }
            qh += 2;
            rings.set(pw, run);
            rings.set(qw, run);
            pw += 2;
            qw += 2;
            cards += z + 1;
            debt = pen;
        }
    }
    // The winner's old tail run absorbs the pile's first run; the pile's
    // other runs are already in place after it, the last one the new tail.
    rings.set(wt, rings.get(wt) + first);
    s.lead = Deck { head: wh, last: wl };
    s.other = Deck { head: lh, last: ll };
    s.cards += cards;
    s.tricks += 1;
    rings.get(lh) == 0
}

/// Bit `i` set if `cards[i]` (at most 64 of them) is a payment card.
/// Eight cards at a time: word tricks find the nonzero bytes and gather
/// their top bits.
fn payment_mask(cards: &[u8]) -> u64 {
    debug_assert!(cards.len() <= 64);
    fn eight(cards: &[u8]) -> u64 {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        let x = u64::from_le_bytes(cards[..8].try_into().expect("8 bytes"));
        // 0x80 in each nonzero byte, then byte j's bit moved to bit j.
        let nonzero = (((x & LOW7) + LOW7) | x) & !LOW7;
        (nonzero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
    }
    let len = cards.len();
    if len < 8 {
        return (0..len).fold(0, |m, i| m | (u64::from(cards[i] != 0) << i));
    }
    let mut mask = 0;
    let mut i = 0;
    while i + 8 <= len {
        mask |= eight(&cards[i..]) << i;
        i += 8;
    }
    if i < len {
        // The last eight cards, overlapping some already seen.
        mask |= eight(&cards[len - 8..]) << (len - 8);
    }
    mask
}

/// One game in progress.
#[derive(Clone, Debug, Default)]
struct Engine<R> {
    rings: R,
    state: State,
}

impl<R: Rings> Engine<R> {
    /// Deals `a` and `b` (penalties; `payment_cards` of them nonzero).
    fn load(&mut self, a: &[u8], b: &[u8], payment_cards: usize) {
        self.rings.reserve(payment_cards + 1);
        for (deck, cards) in [a, b].into_iter().enumerate() {
            // Runs from the payment cards' places, 64 cards at a time: a
            // few steps per payment card, none per number card.
            let mut at = deck;
            let mut zeros = 0u64;
            for chunk in cards.chunks(64) {
                let mut paid = payment_mask(chunk);
                let mut next = 0;
                while paid != 0 {
                    let i = paid.trailing_zeros() as usize;
                    zeros += (i - next) as u64;
                    // (Capped: a value above 4 must not spill into the
                    // zeros.)
                    let p = u64::from(chunk[i]).min(PEN_MASK);
                    self.rings.set(at, (zeros << PEN_BITS) | p);
                    at += 2;
                    zeros = 0;
                    next = i + 1;
                    paid &= paid - 1;
                }
                zeros += (chunk.len() - next) as u64;
            }
            self.rings.set(at, zeros << PEN_BITS);
            let deck = Deck {
                head: deck,
                last: at,
            };
            // A leads the first round.
            if deck.player() == 0 {
                self.state.lead = deck;
            } else {
                self.state.other = deck;
            }
        }
        self.state.cards = 0;
        self.state.tricks = 0;
    }

    fn round(&mut self) -> bool {
        round(&mut self.rings, &mut self.state)
    }

    /// True if both games are at the same round-start state: same leader,
    /// same runs. The integer compares reject almost every pair before any
    /// run is looked at.
    fn same_state(&self, other: &Self) -> bool {
        let (s, t) = (&self.state, &other.state);
        let (sl, so, tl, to) = (s.lead, s.other, t.lead, t.other);
        let tail = |e: &Self, d: Deck| e.rings.get(d.last);
        if (sl.player() != tl.player())
            | (sl.runs() != tl.runs())
            | (so.runs() != to.runs())
            | (tail(self, sl) != tail(other, tl))
            | (tail(self, so) != tail(other, to))
        {
            return false;
        }
        [(sl, tl), (so, to)].into_iter().all(|(x, y)| {
            (0..x.runs()).all(|i| self.rings.get(x.head + 2 * i) == other.rings.get(y.head + 2 * i))
        })
    }

    fn copy_from(&mut self, other: &Self) {
        self.rings.copy_from(&other.rings);
        self.state = other.state;
    }

    fn outcome(&self, status: GameEnd) -> Outcome {
        Outcome::new(status, self.state.cards, self.state.tricks)
    }

    /// Plays the game of `a` against `b` (A non-empty) to its end or its
    /// first repeated round start, looking for loops after `quiet` rounds.
    /// `spare` holds Brent's saved state and then the replay's second game.
    fn play(
        &mut self,
        spare: &mut Self,
        a: &[u8],
        b: &[u8],
        payment_cards: usize,
        quiet: u64,
    ) -> Outcome {
        self.load(a, b, payment_cards);
        // The common path: the state stays in registers.
        let mut state = self.state;
        for _ in 0..quiet {
            if round(&mut self.rings, &mut state) {
                self.state = state;
                return self.outcome(GameEnd::Finished);
            }
        }
        self.state = state;
        // A long game. Brent: `spare` is the state `lambda` rounds ago; it
        // is renewed whenever `lambda` reaches `power`, which doubles.
        let saved = spare;
        saved.copy_from(self);
        let (mut power, mut lambda) = (1u64, 0u64);
        loop {
            if self.round() {
                return self.outcome(GameEnd::Finished);
            }
            lambda += 1;
            if self.same_state(saved) {
                break;
            }
            if lambda == power {
                saved.copy_from(self);
                power *= 2;
                lambda = 0;
            }
        }
        // A cycle of exactly `lambda` rounds (the first match after a save
        // is the shortest period). Replay from the deal with one game
        // `lambda` rounds ahead: where they first agree is the first round
        // start that repeats an earlier one.
        let (hare, tortoise) = (self, saved);
        hare.load(a, b, payment_cards);
        tortoise.load(a, b, payment_cards);
        for _ in 0..lambda {
            hare.round();
        }
        while !hare.same_state(tortoise) {
            hare.round();
            tortoise.round();
        }
        hare.outcome(GameEnd::Loop)
    }
}

/// A reusable fast simulator: it keeps its buffers between games, so
/// simulating many deals allocates nothing after the first of each size.
///
/// Same rules and results as [`super::simulate`]; the input is each player's
/// penalties, top card first (0 = number card, 1 = J, 2 = Q, 3 = K, 4 = A).
#[derive(Clone, Debug, Default)]
pub struct Simulator {
    /// The game and its spare, for games with few payment cards.
    fixed: [Engine<FixedRings>; 2],
    /// Likewise for any other game.
    heap: [Engine<HeapRings>; 2],
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
        self.run_quiet(a, b, QUIET_ROUNDS)
    }

    /// [`Simulator::run_unchecked`], looking for loops only after `quiet`
    /// rounds (the outcome is the same for any value).
    fn run_quiet(&mut self, a: &[u8], b: &[u8], quiet: u64) -> Outcome {
        if a.is_empty() {
            return Outcome::new(GameEnd::Finished, 0, 0);
        }
        // Short decks cannot hold many payment cards: no need to count.
        let payment_cards = if a.len() + b.len() <= FIXED_PAYMENT_CARDS {
            a.len() + b.len()
        } else {
            a.iter().chain(b).filter(|&&p| p != 0).count()
        };
        if payment_cards <= FIXED_PAYMENT_CARDS && a.len() + b.len() < FIXED_CARDS {
            let [game, spare] = &mut self.fixed;
            game.play(spare, a, b, payment_cards, quiet)
        } else {
            let [game, spare] = &mut self.heap;
            game.play(spare, a, b, payment_cards, quiet)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::camicia::{Card, parse_deck, penalties, reference};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn cards(pens: &[u8]) -> Vec<Card> {
        pens.iter()
            .map(|&p| Card::from_penalty(p).unwrap())
            .collect()
    }

    /// The reference outcome, and the fast one whenever loop detection
    /// starts (at once, early, late, never before the usual round).
    fn check(sim: &mut Simulator, a: &[u8], b: &[u8]) -> Outcome {
        let want = reference::simulate(&cards(a), &cards(b));
        for quiet in [0, 1, 2, 3, 5, 17, 64, 65, 66, 67, QUIET_ROUNDS, 5000] {
            let got = sim.run_quiet(a, b, quiet);
            assert_eq!(got, want, "quiet {quiet}, a = {a:?}, b = {b:?}");
        }
        want
    }

    #[test]
    fn the_2024_loop_is_found_exactly_whenever_detection_starts() {
        // Casella 2024: the first repeated round start is after 474 cards
        // and 66 tricks (a cycle of 62 tricks), so detection starting
        // before, inside and after the first cycle must all report it.
        let a = penalties(
            &parse_deck("---K---Q-KQAJ-----AAJ--J--", crate::camicia::Player::A).unwrap(),
        );
        let b = penalties(
            &parse_deck("----------Q----KQ-J-----KA", crate::camicia::Player::B).unwrap(),
        );
        let mut sim = Simulator::new();
        assert_eq!(
            check(&mut sim, &a, &b),
            Outcome::new(GameEnd::Loop, 474, 66)
        );
    }

    #[test]
    fn loops_and_long_games_agree_with_the_reference_whenever_detection_starts() {
        // Loops are rare; small decks of every mix give a few hundred among
        // a few hundred thousand deals. Each is checked, with some finished
        // games, and 52-card deals (some long, most short).
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut sim = Simulator::new();
        let (mut loops, mut finished, mut longest_loop) = (0, 0, 0);
        while loops < 300 {
            let total = rng.random_range(2..40);
            let share = rng.random_range(0.0..1.0);
            let pens: Vec<u8> = (0..total)
                .map(|_| {
                    if rng.random_bool(share) {
                        rng.random_range(1..=4)
                    } else {
                        0
                    }
                })
                .collect();
            let (a, b) = pens.split_at(rng.random_range(1..=pens.len()));
            if sim.run_unchecked(a, b).status == GameEnd::Loop {
                longest_loop = longest_loop.max(check(&mut sim, a, b).tricks);
                loops += 1;
            } else if finished < 2000 {
                check(&mut sim, a, b);
                finished += 1;
            }
        }
        // Some first repeats come well after detection starts at 17.
        assert!(longest_loop > 40, "{longest_loop}");
        for deal in crate::camicia::search::random_deals(5, 300) {
            check(&mut sim, deal.a(), deal.b());
        }
    }

    #[test]
    fn big_games_use_the_heap_rings_with_the_same_results() {
        // More than 63 payment cards: the heap rings, grown and reused.
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        let mut sim = Simulator::new();
        for _ in 0..300 {
            let total = rng.random_range(60..300);
            let pens: Vec<u8> = (0..total)
                .map(|_| {
                    if rng.random_bool(0.4) {
                        rng.random_range(1..=4)
                    } else {
                        0
                    }
                })
                .collect();
            let (a, b) = pens.split_at(rng.random_range(1..=pens.len()));
            check(&mut sim, a, b);
        }
    }

    #[test]
    fn payment_masks_find_every_payment_card() {
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        for len in 0..=64 {
            let pens: Vec<u8> = (0..len).map(|_| rng.random_range(0..=4)).collect();
            let want = (0..len).fold(0u64, |m, i| m | (u64::from(pens[i] != 0) << i));
            assert_eq!(payment_mask(&pens), want, "{pens:?}");
        }
        assert_eq!(payment_mask(&[255; 64]), u64::MAX);
        assert_eq!(payment_mask(&[128, 0, 1, 0, 0, 0, 0, 0x80]), 0b1000_0101);
    }
}
