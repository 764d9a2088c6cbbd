//! Many consecutive deals at once, for users dealing boards by the million.
//!
//! Deal `n + 1`'s state after `k` steps is deal `n`'s plus `a^k` (mod
//! 2^32), so the 52 states of the next deal are 52 additions away, with no
//! multiplication and no step waiting on another. The draw's remainder by
//! the cards left is done in single-precision floating point, which is
//! exact here (draws are below 2^17; see `remainder`). On x86-64 with AVX2
//! (detected at run time) eight remainders run per instruction; the plain
//! path computes the same numbers one by one. Setting the environment
//! variable `POKER_PLAIN=1` forces the plain path.

use super::{CARDS, DECK_START, DealNumber, DealNumberError, JUMP, MAX_DEAL, draw, small_mod};

/// State slots per deal: 52 used, rounded up to whole 8-lane vectors.
const SLOTS: usize = 56;

/// `a^k` for slot k (the step from one deal's state to the next one's),
/// 0 for the unused slots.
const STEP: [u32; SLOTS] = {
    let mut step = [0u32; SLOTS];
    let mut k = 0;
    while k < CARDS {
        step[k] = JUMP[k].0;
        k += 1;
    }
    step
};

/// The cards left when slot k draws (52 - k), 1 for the unused slots.
const LEFT: [f32; SLOTS] = {
    let mut left = [1.0f32; SLOTS];
    let mut k = 0;
    while k < CARDS {
        left[k] = (CARDS - k) as f32;
        k += 1;
    }
    left
};

/// `1 / LEFT[k]`, rounded to the nearest f32.
const INVERSE: [f32; SLOTS] = {
    let mut inverse = [1.0f32; SLOTS];
    let mut k = 0;
    while k < CARDS {
        inverse[k] = 1.0 / LEFT[k];
        k += 1;
    }
    inverse
};

/// `x mod d` for a draw `x < 2^17` and `d = LEFT[k]`, in f32: `x + 0.5` is
/// exact, and `(x + 0.5) * (1/d)` is within `2^-23 * x / d < 0.008 / d` of
/// `q + (r + 0.5) / d`, at least `0.5 / d` away from any integer, so its
/// floor is the quotient `q`; `x - q * d` is exact below 2^24. The unit
/// test checks every `x < 2^17` and every `d`; the vector path does the
/// same operations eight lanes at a time.
#[cfg(test)]
fn remainder(x: u32, k: usize) -> u32 {
    let xf = x as f32;
    let q = ((xf + 0.5) * INVERSE[k]) as u32 as f32; // truncation = floor here
    (xf - q * LEFT[k]) as u32
}

/// Whether the vector path may run: AVX2 and FMA present and `POKER_PLAIN`
/// not set to a non-empty value other than `0`. Both are read once per
/// process.
pub fn vector_path_enabled() -> bool {
    static ENABLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ENABLED.get_or_init(|| !crate::plain_path::forced() && avx2_present())
}

/// Deals `first`, `first + 1`, ... into `out`, one deal per element, the
/// same cards as [`super::deal_indices`] gives each (Microsoft card
/// indices in dealing order). The range may cross 2^31 and 2^32. An empty
/// `out` deals nothing. Error: [`DealNumberError::OutOfRange`] (nothing is
/// written) when the last deal would be above 2^33 - 1.
///
/// Uses the AVX2 path when the processor has it (see
/// [`vector_path_enabled`]); both paths give the same cards.
pub fn deal_range(first: DealNumber, out: &mut [[u8; CARDS]]) -> Result<(), DealNumberError> {
    deal_range_with(first, out, vector_path_enabled())
}

/// [`deal_range`] with the path chosen by the caller: `vector` false
/// forces the plain path; true uses the vector path only where the
/// processor has it.
pub fn deal_range_with(
    first: DealNumber,
    out: &mut [[u8; CARDS]],
    vector: bool,
) -> Result<(), DealNumberError> {
    let count = out.len() as u64;
    let last = first.get() + count.saturating_sub(1);
    if count > 0 && last > MAX_DEAL {
        return Err(DealNumberError::OutOfRange(
            i128::from(first.get()) + i128::from(count) - 1,
        ));
    }
    let vector = vector && avx2_present();
    let mut n = first.get();
    let mut rest = out;
    while !rest.is_empty() {
        let range_end = if n < 1 << 31 {
            1 << 31
        } else if n < 1 << 32 {
            1 << 32
        } else {
            MAX_DEAL + 1
        };
        let take = (range_end - n).min(rest.len() as u64) as usize;
        let (now, later) = rest.split_at_mut(take);
        let seed = n as u32;
        match (n < 1 << 31, n < 1 << 32) {
            (true, _) => segment::<0>(seed, now, vector),
            (false, true) => segment::<1>(seed, now, vector),
            _ => segment::<2>(seed, now, vector),
        }
        n += take as u64;
        rest = later;
    }
    Ok(())
}

fn avx2_present() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The 52 states after 1..=52 steps from `seed`.
fn states_of(seed: u32) -> [u32; SLOTS] {
    let mut states = [0u32; SLOTS];
    for (k, state) in states.iter_mut().enumerate().take(CARDS) {
        let (mul, add) = JUMP[k];
        *state = mul.wrapping_mul(seed).wrapping_add(add);
    }
    states
}

/// Deals dealt together: their walks through the deck are independent, so
/// one deal's loads and stores overlap the others'.
const LANES: usize = 8;

fn segment<const RANGE: u8>(seed: u32, out: &mut [[u8; CARDS]], vector: bool) {
    #[cfg(target_arch = "x86_64")]
    if vector {
        // SAFETY: the caller checked that the processor has AVX2 and FMA.
        unsafe { avx2::segment::<RANGE>(seed, out) };
        return;
    }
    let _ = vector;
    let mut states = states_of(seed);
    let mut picks = [[0u32; SLOTS]; LANES];
    let mut chunks = out.chunks_exact_mut(LANES);
    for group in &mut chunks {
        for lane in picks.iter_mut() {
            plain_picks::<RANGE>(&mut states, lane);
        }
        walk(&picks, group.try_into().expect("LANES deals"));
    }
    for deal in chunks.into_remainder() {
        plain_picks::<RANGE>(&mut states, &mut picks[0]);
        walk_one(&picks[0], deal);
    }
}

/// One deal's places (integer remainders), and the states of the next.
#[inline(always)]
fn plain_picks<const RANGE: u8>(states: &mut [u32; SLOTS], picks: &mut [u32; SLOTS]) {
    for k in 0..CARDS {
        picks[k] = small_mod(draw::<RANGE>(states[k]), CARDS - k) as u32;
        states[k] = states[k].wrapping_add(STEP[k]);
    }
}

/// The deck before dealing, padded to 64 so that a place masked with 63
/// needs no bounds check.
const DECK64: [u8; 64] = {
    let mut deck = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        deck[i] = DECK_START[i];
        i += 1;
    }
    deck
};

/// Deals LANES deals from their places: each card is taken from its
/// place, and the deck's last card fills the hole.
#[inline(always)]
fn walk(picks: &[[u32; SLOTS]; LANES], deals: &mut [[u8; CARDS]; LANES]) {
    let mut decks = [DECK64; LANES];
    // Eight cards are gathered in a register and stored at once: one
    // store instead of eight.
    for w in 0..CARDS.div_ceil(8) {
        let mut words = [0u64; LANES];
        for b in 0..8 {
            let k = 8 * w + b;
            if k < CARDS {
                for lane in 0..LANES {
                    let j = picks[lane][k] as usize & 63;
                    let deck = &mut decks[lane];
                    words[lane] |= u64::from(deck[j]) << (8 * b);
                    deck[j] = deck[(CARDS - 1 - k) & 63];
                }
            }
        }
        let at = 8 * w;
        let len = (CARDS - at).min(8);
        for lane in 0..LANES {
            deals[lane][at..at + len].copy_from_slice(&words[lane].to_le_bytes()[..len]);
        }
    }
}

/// [`walk`] for one deal.
#[inline(always)]
fn walk_one(picks: &[u32; SLOTS], deal: &mut [u8; CARDS]) {
    let mut deck = DECK64;
    for k in 0..CARDS {
        let j = picks[k] as usize & 63;
        deal[k] = deck[j];
        deck[j] = deck[(CARDS - 1 - k) & 63];
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{CARDS, INVERSE, LANES, LEFT, SLOTS, STEP, states_of, walk, walk_one};
    use std::arch::x86_64::*;

    /// The plain path's loop with the 52 remainders eight at a time, in
    /// f32 (see `remainder`).
    ///
    /// # Safety
    /// The processor has AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn segment<const RANGE: u8>(seed: u32, out: &mut [[u8; CARDS]]) {
        let start = states_of(seed);
        // Every `p` below points into a `[_; SLOTS]` table at a multiple
        // of 8 below SLOTS, so at 8 readable values; loads are unaligned.
        // SAFETY: as just said; AVX2 as the caller promises.
        let load = |p: *const u32| unsafe { _mm256_loadu_si256(p.cast()) };
        // SAFETY: as for `load`.
        let loadf = |p: *const f32| unsafe { _mm256_loadu_ps(p) };
        let mut states = [_mm256_setzero_si256(); SLOTS / 8];
        let mut step = [_mm256_setzero_si256(); SLOTS / 8];
        let mut left = [_mm256_setzero_ps(); SLOTS / 8];
        let mut inverse = [_mm256_setzero_ps(); SLOTS / 8];
        for v in 0..SLOTS / 8 {
            states[v] = load(start[8 * v..].as_ptr());
            step[v] = load(STEP[8 * v..].as_ptr());
            left[v] = loadf(LEFT[8 * v..].as_ptr());
            inverse[v] = loadf(INVERSE[8 * v..].as_ptr());
        }
        let mask = _mm256_set1_epi32(if RANGE == 2 { 0xFFFF } else { 0x7FFF });
        let or = _mm256_set1_epi32(if RANGE == 1 { 0x8000 } else { 0 });
        let plus = _mm256_set1_epi32(if RANGE == 2 { 1 } else { 0 });
        let half = _mm256_set1_ps(0.5);
        let mut picks = [[0u32; SLOTS]; LANES];
        let mut next = |lane: &mut [u32; SLOTS]| {
            for v in 0..SLOTS / 8 {
                let s = states[v];
                let x = _mm256_add_epi32(
                    _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32(s, 16), mask), or),
                    plus,
                );
                let xf = _mm256_cvtepi32_ps(x);
                let q = _mm256_floor_ps(_mm256_mul_ps(_mm256_add_ps(xf, half), inverse[v]));
                let r = _mm256_cvttps_epi32(_mm256_fnmadd_ps(q, left[v], xf));
                // SAFETY: 8 lanes fit in `lane` from 8 * v (SLOTS = 56).
                unsafe { _mm256_storeu_si256(lane[8 * v..].as_mut_ptr().cast(), r) };
                states[v] = _mm256_add_epi32(s, step[v]);
            }
        };
        let mut chunks = out.chunks_exact_mut(LANES);
        for group in &mut chunks {
            for lane in picks.iter_mut() {
                next(lane);
            }
            walk(&picks, group.try_into().expect("LANES deals"));
        }
        for deal in chunks.into_remainder() {
            next(&mut picks[0]);
            walk_one(&picks[0], deal);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_float_remainder_is_exact_for_every_draw_and_deck_size() {
        for k in 0..CARDS {
            let d = (CARDS - k) as u32;
            for x in 0..(1u32 << 17) {
                assert_eq!(remainder(x, k), x % d, "x {x}, d {d}");
            }
        }
    }
}
