//! The vector path: the step that plays a round of eight games at once,
//! and the loop that feeds it deals.

use super::lanes::{
    CHAIN, GAME_SLOTS, HALVES, HIGH_WATER, LANES, Lanes, PEN_MASK, ROUND_LIMIT, SCRATCH, SETS,
    SLOTS, StepEnd,
};
use crate::camicia::index::HAND_CARDS;
use crate::camicia::{Deal, Outcome, Simulator};
use std::arch::x86_64::*;

/// One u32 per lane: [`HALVES`] AVX2 registers (one; see there).
///
/// The methods are forced inline and call AVX2 intrinsics: they are
/// used only inside this module's AVX2 functions.
#[derive(Clone, Copy)]
struct V([__m256i; HALVES]);

macro_rules! lanewise {
    ($($name:ident => $f:ident),* $(,)?) => {$(
        #[inline(always)]
        fn $name(self, o: V) -> V {
            // SAFETY: only called from AVX2 functions (see `V`).
            V(std::array::from_fn(|h| unsafe { $f(self.0[h], o.0[h]) }))
        }
    )*};
}

impl V {
    lanewise! {
        add => _mm256_add_epi32,
        sub => _mm256_sub_epi32,
        and => _mm256_and_si256,
        or => _mm256_or_si256,
        xor => _mm256_xor_si256,
        eq => _mm256_cmpeq_epi32,
        gt => _mm256_cmpgt_epi32,
        min => _mm256_min_epu32,
        max => _mm256_max_epu32,
    }

    /// `!self & o`.
    #[inline(always)]
    fn and_not(self, o: V) -> V {
        // SAFETY: as for `lanewise`.
        V(std::array::from_fn(|h| unsafe {
            _mm256_andnot_si256(self.0[h], o.0[h])
        }))
    }

    /// `b` where `m` is all ones, else `self`.
    #[inline(always)]
    fn pick(self, b: V, m: V) -> V {
        // SAFETY: as for `lanewise`.
        V(std::array::from_fn(|h| unsafe {
            _mm256_blendv_epi8(self.0[h], b.0[h], m.0[h])
        }))
    }

    #[inline(always)]
    fn splat(x: usize) -> V {
        // SAFETY: as for `lanewise`.
        V([unsafe { _mm256_set1_epi32(x as i32) }; HALVES])
    }

    #[inline(always)]
    fn shr<const N: i32>(self) -> V {
        // SAFETY: as for `lanewise`.
        V(std::array::from_fn(|h| unsafe {
            _mm256_srli_epi32::<N>(self.0[h])
        }))
    }

    #[inline(always)]
    fn shl<const N: i32>(self) -> V {
        // SAFETY: as for `lanewise`.
        V(std::array::from_fn(|h| unsafe {
            _mm256_slli_epi32::<N>(self.0[h])
        }))
    }

    #[inline(always)]
    fn get(x: &[u32; LANES]) -> V {
        // SAFETY: 16 u32s are 64 readable bytes; AVX2 as for `lanewise`.
        let p = x.as_ptr().cast::<__m256i>();
        // SAFETY: `h` < HALVES, so `p.add(h)` reads bytes 32h..32h + 32 of
        // the 64; an unaligned load needs no alignment.
        V(std::array::from_fn(|h| unsafe {
            _mm256_loadu_si256(p.add(h))
        }))
    }

    #[inline(always)]
    fn put(self, x: &mut [u32; LANES]) {
        // SAFETY: as for `get`.
        let p = x.as_mut_ptr().cast::<__m256i>();
        for h in 0..HALVES {
            // SAFETY: `h` < HALVES: bytes 32h..32h + 32 of the 64 writable.
            unsafe { _mm256_storeu_si256(p.add(h), self.0[h]) };
        }
    }

    /// Bit `g` set if lane `g` is all ones.
    #[inline(always)]
    fn bits(self) -> u32 {
        // SAFETY: as for `lanewise`.
        let half = |v| unsafe { _mm256_movemask_ps(_mm256_castsi256_ps(v)) as u32 };
        (0..HALVES).fold(0, |m, h| m | (half(self.0[h]) << (8 * h)))
    }

    /// `runs[i + j]` for each lane's index `i`, `j` = 0 to 3: four
    /// loads of four runs each per register, turned into rows. (Faster
    /// here than four gathers.)
    #[inline(always)]
    fn windows(runs: &[u32], i: V) -> [V; 4] {
        let mut at = [0u32; LANES];
        i.put(&mut at);
        // SAFETY: AVX2 as for `lanewise`.
        let mut rows = [[unsafe { _mm256_setzero_si256() }; HALVES]; 4];
        for h in 0..HALVES {
            let at = &at[8 * h..8 * h + 8];
            // SAFETY: 4 runs from an index in range (the slack covers
            // the last game's); AVX2 as for `lanewise`.
            let four =
                |g: usize| unsafe { _mm_loadu_si128(runs[at[g] as usize..][..4].as_ptr().cast()) };
            // x[g] holds games g and g + 4.
            let x: [__m256i; 4] = std::array::from_fn(|g| {
                // SAFETY: AVX2 as for `lanewise`; no memory is touched.
                unsafe { _mm256_set_m128i(four(g + 4), four(g)) }
            });
            // SAFETY: AVX2 as for `lanewise`.
            unsafe {
                let t0 = _mm256_unpacklo_epi32(x[0], x[1]);
                let t1 = _mm256_unpackhi_epi32(x[0], x[1]);
                let t2 = _mm256_unpacklo_epi32(x[2], x[3]);
                let t3 = _mm256_unpackhi_epi32(x[2], x[3]);
                rows[0][h] = _mm256_unpacklo_epi64(t0, t2);
                rows[1][h] = _mm256_unpackhi_epi64(t0, t2);
                rows[2][h] = _mm256_unpacklo_epi64(t1, t3);
                rows[3][h] = _mm256_unpackhi_epi64(t1, t3);
            }
        }
        rows.map(V)
    }
}

/// Plays one round of every active game, but for those whose chain of
/// payments is longer than [`CHAIN`] runs.
#[target_feature(enable = "avx2")]
fn step(s: &mut Lanes) -> StepEnd {
    let zero = V::splat(0);
    let ones = V::splat(u32::MAX as usize);
    let one = V::splat(1);
    let pen_mask = V::splat(PEN_MASK as usize);
    let active = V::get(&s.active);
    let lead = V::get(&s.lead);
    let a_leads = lead.eq(zero);
    let (fa, fb) = (V::get(&s.front[0]), V::get(&s.front[1]));
    let (ha, hb) = (V::get(&s.head[0]), V::get(&s.head[1]));
    let (fl, fo) = (fb.pick(fa, a_leads), fa.pick(fb, a_leads));
    let (hl, ho) = (hb.pick(ha, a_leads), ha.pick(hb, a_leads));

    // The leader plays at steps 0, 2, 4..., the other at 1, 3, 5...:
    // the mover `q` is the first to reach a payment card (or its end)
    // after `z` number cards; the other, `p`, has played `z + late`.
    let (zl, zo) = (fl.shr::<3>(), fo.shr::<3>());
    let late = zl.gt(zo);
    let late1 = late.and(one);
    let z = zl.min(zo);
    let played = z.add(z).add(late1);
    let q_run = fl.pick(fo, late);
    let p_run = fo.pick(fl, late);
    let qh = hl.pick(ho, late);
    let ph = ho.pick(hl, late);
    // q is B if B leads and is not late, or A leads and is late.
    let q_is_b = a_leads.eq(late);
    let p_front = p_run.sub(z.add(late1).shl::<3>());
    let pen = q_run.and(pen_mask);
    // The pile's first run: the number cards, then the mover's card.
    let first = played.shl::<3>().or(pen);
    // A mover without a card: the other takes the pile; game over.
    let out = pen.eq(zero);

    // The chain in playing order: p0 q0 p1 q1 p2 q2 p3; p0 is p's front
    // (after its number cards), q's front was the mover's card.
    let game_base = V::get(&GAME_BASE);
    let deck = V::splat(SLOTS);
    let q_base = game_base.add(q_is_b.and(deck));
    let p_base = game_base.add(q_is_b.and_not(deck));
    let slot = |base: V, pos: V| base.add(pos.and(V::splat(SLOTS - 1)));
    let runs = &s.runs[..];
    let [q0, q1, q2, q3] = V::windows(runs, slot(q_base, qh.add(one)));
    let [p1, p2, p3, _] = V::windows(runs, slot(p_base, ph.add(one)));
    let chain: [V; CHAIN] = [p_front, q0, p1, q1, p2, q2, p3];

    // Each run's debt is the penalty of the run before it (the mover's
    // for p0). The first run that pays in full (zeros >= debt) or is a
    // tail (it runs out, or pays in full) ends the chain; the runs
    // before it are played whole, z + 1 cards each.
    let (mut alive, mut debt_i) = (ones, pen);
    let (mut k, mut end_run, mut debt, mut whole) = (zero, zero, zero, zero);
    for (i, &c) in chain.iter().enumerate() {
        let pens = c.and(pen_mask);
        let zs = c.shr::<3>();
        let stop = pens.eq(zero).or(zs.max(debt_i).eq(zs));
        let here = alive.and(stop);
        k = k.pick(V::splat(i), here);
        end_run = end_run.pick(c, here);
        debt = debt.pick(debt_i, here);
        alive = stop.and_not(alive);
        whole = whole.add(alive.and(zs.add(one)));
        debt_i = pens;
    }
    // Lanes this step leaves alone: idle ones, finished rounds (out)
    // and chains it cannot see the end of.
    let long = out.and_not(alive.and(active));
    let keep = long.or(out).or(active.xor(ones));

    // The run that ends the chain pays what it can of its debt; who
    // laid the last payment card wins: q if the end is p's run.
    let paid = debt.min(end_run.shr::<3>());
    let paid_run = paid.shl::<3>();
    let left = end_run.sub(paid_run);
    let odd = k.and(one);
    let odd_m = odd.eq(one);
    let half = k.shr::<1>();
    let new_ph = ph.add(half).add(odd);
    let new_qh = qh.add(one).add(half);
    let w_is_b = q_is_b.xor(odd_m);
    let (la, lb) = (V::get(&s.last[0]), V::get(&s.last[1]));
    let (ta, tb) = (V::get(&s.tail[0]), V::get(&s.tail[1]));
    let wl = la.pick(lb, w_is_b);
    let tw = ta.pick(tb, w_is_b);

    // The winner's new runs from its old tail on: the tail with the
    // pile's first run, the chain's whole runs, the number cards paid
    // last (the new tail). Row j holds every game's run j.
    let mut rows = [zero; 8];
    rows[0] = tw.add(first);
    for (j, row) in rows.iter_mut().enumerate().skip(1) {
        let c = chain.get(j - 1).copied().unwrap_or(zero);
        let tail_here = k.eq(V::splat(j - 1)).and(paid_run);
        *row = tail_here.pick(c, k.gt(V::splat(j - 1)));
    }
    let w_base = game_base.add(w_is_b.and(deck));
    let mut dests = [0u32; LANES];
    slot(w_base, wl)
        .pick(V::splat(SCRATCH), keep)
        .put(&mut dests);
    for half in 0..HALVES {
        let games = transpose(rows.map(|r| r.0[half]));
        for (g, row) in games.into_iter().enumerate() {
            let at = dests[8 * half + g] as usize;
            // SAFETY: `at` is a game's base plus a position under
            // HIGH_WATER + 17, or SCRATCH: 8 slots fit after either.
            unsafe { _mm256_storeu_si256(s.runs[at..at + 8].as_mut_ptr().cast(), row) };
        }
    }

    // The winner laid a payment card, so its new front is a whole run:
    // p's run ceil(k / 2) or q's run k / 2 after its front, or the
    // tail just written.
    let h0 = half.eq(zero);
    let h1 = half.eq(one);
    let h2 = half.eq(V::splat(2));
    let p_next = p3.pick(p2, h1).pick(p1, h0);
    let q_next = q3.pick(q2, h2).pick(q1, h1).pick(q0, h0);
    let w_head = new_qh.pick(new_ph, odd_m);
    let w_front = q_next.pick(p_next, odd_m).pick(rows[0], w_head.eq(wl));
    let new_last = wl.add(one).add(k);

    let keep_or = |new: V, old: V| new.pick(old, keep);
    keep_or(new_qh.pick(new_ph, q_is_b), ha).put(&mut s.head[0]);
    keep_or(new_ph.pick(new_qh, q_is_b), hb).put(&mut s.head[1]);
    keep_or(w_front.pick(left, w_is_b), fa).put(&mut s.front[0]);
    keep_or(left.pick(w_front, w_is_b), fb).put(&mut s.front[1]);
    keep_or(new_last.pick(la, w_is_b), la).put(&mut s.last[0]);
    keep_or(lb.pick(new_last, w_is_b), lb).put(&mut s.last[1]);
    keep_or(paid_run.pick(ta, w_is_b), ta).put(&mut s.tail[0]);
    keep_or(tb.pick(paid_run, w_is_b), tb).put(&mut s.tail[1]);
    keep_or(w_is_b.and(one), lead).put(&mut s.lead);

    // Counts: a whole round adds its pile; a mover without a card adds
    // the number cards played before.
    let normal = keep.and_not(ones);
    let pile = played.add(one).add(whole).add(paid);
    let cards_add = normal.and(pile).or(out.and(played)).and(active);
    let counted = active.and(normal.or(out));
    let (cards, tricks) = (V::get(&s.cards), V::get(&s.tricks));
    cards.add(cards_add).put(&mut s.cards);
    tricks.sub(counted).put(&mut s.tricks);
    let rounds = V::get(&s.rounds).sub(active);
    rounds.put(&mut s.rounds);

    let finished = active.and(out.or(normal.and(left.eq(zero))));
    StepEnd {
        finished: finished.bits(),
        limit: active.and(rounds.eq(V::splat(ROUND_LIMIT as usize))).bits(),
        long: long.bits(),
        compact: normal.and(new_last.gt(V::splat(HIGH_WATER - 1))).bits(),
    }
}

/// Each lane's game's first slot.
const GAME_BASE: [u32; LANES] = {
    let mut base = [0; LANES];
    let mut g = 0;
    while g < LANES {
        base[g] = (g * GAME_SLOTS) as u32;
        g += 1;
    }
    base
};

/// The 8 x 8 transpose: `rows[j]` holds eight games' run `j`; the
/// result's `g` holds game `g`'s runs 0 to 7.
#[target_feature(enable = "avx2")]
#[inline]
fn transpose(r: [__m256i; 8]) -> [__m256i; 8] {
    let t0 = _mm256_unpacklo_epi32(r[0], r[1]);
    let t1 = _mm256_unpackhi_epi32(r[0], r[1]);
    let t2 = _mm256_unpacklo_epi32(r[2], r[3]);
    let t3 = _mm256_unpackhi_epi32(r[2], r[3]);
    let t4 = _mm256_unpacklo_epi32(r[4], r[5]);
    let t5 = _mm256_unpackhi_epi32(r[4], r[5]);
    let t6 = _mm256_unpacklo_epi32(r[6], r[7]);
    let t7 = _mm256_unpackhi_epi32(r[6], r[7]);
    let u0 = _mm256_unpacklo_epi64(t0, t2);
    let u1 = _mm256_unpackhi_epi64(t0, t2);
    let u2 = _mm256_unpacklo_epi64(t1, t3);
    let u3 = _mm256_unpackhi_epi64(t1, t3);
    let u4 = _mm256_unpacklo_epi64(t4, t6);
    let u5 = _mm256_unpackhi_epi64(t4, t6);
    let u6 = _mm256_unpacklo_epi64(t5, t7);
    let u7 = _mm256_unpackhi_epi64(t5, t7);
    [
        _mm256_permute2x128_si256::<0x20>(u0, u4),
        _mm256_permute2x128_si256::<0x20>(u1, u5),
        _mm256_permute2x128_si256::<0x20>(u2, u6),
        _mm256_permute2x128_si256::<0x20>(u3, u7),
        _mm256_permute2x128_si256::<0x31>(u0, u4),
        _mm256_permute2x128_si256::<0x31>(u1, u5),
        _mm256_permute2x128_si256::<0x31>(u2, u6),
        _mm256_permute2x128_si256::<0x31>(u3, u7),
    ]
}

/// Bit `i` of `[A, B]` set if card `i` of that deck is a payment card.
#[target_feature(enable = "avx2")]
#[inline]
fn payment_cards(deal: &Deal) -> [u32; 2] {
    let cards = deal.penalties();
    // SAFETY: bytes 0..32 and 20..52 of the 52.
    let (a, b) = unsafe {
        (
            _mm256_loadu_si256(cards[..32].as_ptr().cast()),
            _mm256_loadu_si256(cards[20..].as_ptr().cast()),
        )
    };
    let number = |v| _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_setzero_si256())) as u32;
    [
        !number(a) & ((1 << HAND_CARDS) - 1),
        !number(b) >> (32 - HAND_CARDS),
    ]
}

/// Plays `deals` into `outcomes`, two sets of eight games taking turns:
/// a step's loads may read runs the set's previous step has just
/// stored, and would wait for those stores to reach the cache; the
/// other set's step, in between, gives them the time.
#[target_feature(enable = "avx2")]
pub(super) fn run(
    sets: &mut [Lanes; SETS],
    deals: &[Deal],
    outcomes: &mut [Outcome],
    fallback: &mut Simulator,
) {
    let mut queue = Queue {
        deals,
        outcomes,
        next: 0,
    };
    let mut which = [[Queue::IDLE; LANES]; SETS];
    for (s, which) in sets.iter_mut().zip(&mut which) {
        s.active = [0; LANES];
        for (g, w) in which.iter_mut().enumerate() {
            queue.deal(s, g, w);
        }
    }
    while sets.iter().any(|s| s.active.iter().any(|&a| a != 0)) {
        for (s, which) in sets.iter_mut().zip(&mut which) {
            let end = step(s);
            settle(s, end, which, &mut queue, fallback);
        }
    }
}

/// The deals still to play and where their outcomes go.
struct Queue<'a> {
    deals: &'a [Deal],
    outcomes: &'a mut [Outcome],
    next: usize,
}

impl Queue<'_> {
    /// The deal number of a lane without a game.
    const IDLE: usize = usize::MAX;

    /// Deals the next deal, if any, in lane `g` of `s`, whose deal
    /// number goes to `which`; the lane goes idle if there is none.
    #[target_feature(enable = "avx2")]
    fn deal(&mut self, s: &mut Lanes, g: usize, which: &mut usize) {
        if let Some(deal) = self.deals.get(self.next) {
            s.load(g, deal, payment_cards(deal));
            *which = self.next;
            self.next += 1;
        } else {
            s.active[g] = 0;
            *which = Self::IDLE;
        }
    }
}

/// Does what a step left to the lanes: long chains, compactions, and
/// the games that ended (their outcomes out, the next deals in).
#[target_feature(enable = "avx2")]
fn settle(
    s: &mut Lanes,
    end: StepEnd,
    which: &mut [usize; LANES],
    queue: &mut Queue,
    fallback: &mut Simulator,
) {
    let mut finished = end.finished;
    for g in bits(end.long) {
        if s.round_by_runs(g) {
            finished |= 1 << g;
        }
    }
    for g in bits(end.compact) {
        s.compact(g, s.lead[g] as usize);
    }
    for g in bits(finished | end.limit) {
        let deal = &queue.deals[which[g]];
        queue.outcomes[which[g]] = if finished & (1 << g) != 0 {
            s.outcome(g)
        } else {
            fallback.run_unchecked(deal.a(), deal.b())
        };
        queue.deal(s, g, &mut which[g]);
    }
}

/// The lanes whose bit is set.
fn bits(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let g = m.trailing_zeros() as usize;
            m &= m - 1;
            g
        })
    })
}
