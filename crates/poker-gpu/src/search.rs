//! A search's blocks on the GPU, checked and counted on the CPU: the
//! GPU engine's counterpart of [`Search::run_from`].

use crate::device::{Claim, DISPATCH_BLOCKS, Dispatch, Found, Gpu, LENGTH_BINS, Ticket};
use poker_core::camicia::search::{
    BLOCK, Game, LENGTH_BIN, Partial, Report, Search, Work, random_deal,
};
use poker_core::camicia::{Deal, GameEnd, Outcome, Simulator, VectorSimulator, notation};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::VecDeque;
use std::fmt;
use std::ops::ControlFlow;
use std::time::Instant;

/// Games still running after this many tricks are left to the CPU, whose
/// loop detection is exact (the longest known finished game has 1164).
const MAX_TRICKS: u32 = 4096;

/// What the CPU checked of the GPU's work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checks {
    /// Games the GPU claimed (long, or still running) that the CPU
    /// played again before counting them.
    pub claims: u64,
    /// Sampled games (one a block) the CPU played again and compared.
    pub samples: u64,
    /// Blocks the CPU played itself: a random draw that the search's sampling
    /// rejects, or more claims than the GPU's buffer holds.
    pub cpu_blocks: u64,
    /// Dispatches sent to the GPU.
    pub dispatches: u64,
}

/// Why a GPU search stopped: the device failed, or the CPU caught the GPU
/// in a wrong result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GpuError {
    /// The device or driver failed.
    Device(String),
    /// The GPU's game of a deal is not the CPU's.
    Mismatch {
        /// Which deal: its index (and draw, for random deals).
        deal: String,
        /// What went wrong.
        why: String,
    },
    /// A block's sample deal was not reported.
    MissingSample {
        /// The block.
        block: u64,
    },
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::Device(why) => write!(f, "the GPU failed: {why}"),
            GpuError::Mismatch { deal, why } => write!(
                f,
                "the GPU engine is wrong on {deal}: {why}; nothing from it was counted"
            ),
            GpuError::MissingSample { block } => write!(
                f,
                "the GPU engine did not report the sample deal of block {block}; \
                 nothing from it was counted"
            ),
        }
    }
}

impl std::error::Error for GpuError {}

/// The deals of one dispatch: blocks `first .. first + count` of the work.
struct Span {
    first: u64,
    count: u64,
    /// Deals in each block.
    lengths: Vec<u64>,
}

/// [`Search::run_from`] on the GPU: simulates blocks `from.blocks ..` of
/// `search.work` and merges them into `from.report`, with the same
/// report as the CPU engines. `progress`, `on_loop` and `after_batch` are
/// called as `run_from` calls them (one batch is one dispatch).
///
/// The GPU sums the short finished games (histogram and checksum); every
/// other game (long enough to rank or to be extended, or a possible loop)
/// is played again on the CPU by the fast engine before it counts, and
/// one deal in each block, chosen by a hash, is played again and
/// compared. Extension runs on the CPU as in the CPU search.
///
/// # Errors
/// [`GpuError`] if the device fails or the CPU finds a GPU result wrong;
/// what was merged before stays in the last [`Partial`] `after_batch`
/// saw.
pub fn run_from(
    gpu: &Gpu,
    search: &Search,
    from: Partial,
    progress: impl Fn(u64),
    mut on_loop: impl FnMut(&Game),
    mut after_batch: impl FnMut(&Partial) -> ControlFlow<()>,
    checks: &mut Checks,
) -> Result<Partial, GpuError> {
    // The CPU's share (claims, samples, extension) on the search's threads.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(search.threads.get())
        .build()
        .map_err(|e| GpuError::Device(format!("cannot start the CPU's worker threads: {e}")))?;
    let blocks = search.work.blocks();
    let mut done = from;
    // Dispatches submitted and not yet checked (at most two: the GPU plays
    // one while the CPU checks the other), and the next block to submit.
    let mut in_flight: VecDeque<(Job, Ticket)> = VecDeque::new();
    let mut next = done.blocks;
    // Blocks a dispatch: doubled while dispatches take under a quarter
    // second, halved over a second, so a fast GPU gets large ones and a
    // slow device (lavapipe) still stops within a second or so of SIGTERM.
    let mut size = 1;
    let mut last = Instant::now();
    loop {
        while in_flight.len() < 2 && next < blocks {
            // Until the best games are known, every game is a claim: one
            // block, and nothing ahead of it.
            let filling = done.report.best.len() < search.top;
            if filling && !in_flight.is_empty() {
                break;
            }
            let count = if filling { 1 } else { size }.min(blocks - next);
            // Its claim threshold from the games known now: lower than or
            // equal to what the dispatches before it will leave, so exact.
            let job = prepare(search, &done.report, span(&search.work, next, count));
            let slot = usize::from(checks.dispatches % 2 == 1);
            let ticket = gpu.submit(slot, &job.dispatch);
            in_flight.push_back((job, ticket));
            checks.dispatches += 1;
            next += count;
        }
        let Some((job, ticket)) = in_flight.pop_front() else {
            break;
        };
        let found = gpu.finish(ticket).map_err(GpuError::Device)?;
        let took = last.elapsed().as_secs_f64();
        last = Instant::now();
        if took < 0.25 {
            size = (size * 2).min(DISPATCH_BLOCKS);
        } else if took > 1.0 {
            size = (size / 2).max(1);
        }
        let reports = check(search, &job, found, checks, &pool)?;
        for r in reports {
            progress(r.deals);
            r.loops.iter().for_each(&mut on_loop);
            done.report.merge(r);
        }
        done.blocks += job.span.count;
        if after_batch(&done).is_break() {
            break;
        }
    }
    Ok(done)
}

fn span(work: &Work, first: u64, count: u64) -> Span {
    let total = work.deals();
    let lengths = (first..first + count)
        .map(|i| {
            let start = u128::from(i) * u128::from(BLOCK);
            total.saturating_sub(start).min(u128::from(BLOCK)) as u64
        })
        .collect();
    Span {
        first,
        count,
        lengths,
    }
}

/// SplitMix64's finaliser (the sample's hash).
fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The place in a block of its sample deal: a hash of the block's first
/// key, so no one can tell in advance which deal is checked.
fn sample_place(first_key: u128, deals: u64) -> u32 {
    (splitmix(first_key as u64 ^ splitmix((first_key >> 64) as u64)) % deals.max(1)) as u32
}

/// How one deal of the work is made, on the CPU.
#[derive(Clone, Copy)]
enum Maker {
    /// Random deals: the work's block `i` is ChaCha8 stream `first + i`.
    Random {
        seed: u64,
        first: u64,
    },
    Range {
        start: u128,
    },
}

impl Maker {
    fn of(work: &Work) -> Maker {
        match *work {
            Work::Random { seed, .. } => Maker::Random { seed, first: 0 },
            Work::RandomBlocks { seed, first, .. } => Maker::Random { seed, first },
            Work::Range { start, .. } => Maker::Range { start },
            _ => unreachable!("the GPU engine is asked only for the works it knows"),
        }
    }

    /// The ChaCha8 stream of the work's block `block` (random deals).
    fn stream(self, block: u64) -> u64 {
        match self {
            Maker::Random { first, .. } => first + block,
            Maker::Range { .. } => 0,
        }
    }

    /// The key (checksum key) of deal `k` of the work's block `block`:
    /// its draw number in the whole random search, or its index.
    fn key(self, block: u64, k: u64) -> u128 {
        match self {
            Maker::Random { .. } => {
                u128::from(self.stream(block)) * u128::from(BLOCK) + u128::from(k)
            }
            Maker::Range { start } => start + u128::from(block) * u128::from(BLOCK) + u128::from(k),
        }
    }

    /// Deal `k` of block `block` and its index; `None` past the last index.
    fn deal(self, block: u64, k: u64) -> Option<(Deal, u128)> {
        match self {
            Maker::Random { seed, .. } => {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                rng.set_stream(self.stream(block));
                // Every deal of a block the GPU kept takes 16 words.
                rng.set_word_pos(16 * u128::from(k));
                let deal = random_deal(&mut rng);
                Some((deal, deal.rank()))
            }
            Maker::Range { .. } => {
                let index = self.key(block, k);
                Deal::unrank(index).map(|d| (d, index))
            }
        }
    }

    /// How a deal is named in an error.
    fn name(self, block: u64, k: u64, deal: &Deal, index: u128) -> String {
        let cards = format!("{} {}", notation(deal.a()), notation(deal.b()));
        match self {
            Maker::Random { seed, .. } => format!(
                "deal index {index} ({cards}), draw {} of seed {seed}",
                self.key(block, k)
            ),
            Maker::Range { .. } => format!("deal index {index} ({cards})"),
        }
    }
}

/// One dispatch of a span's blocks, as asked of the GPU.
struct Job {
    span: Span,
    maker: Maker,
    dispatch: Dispatch,
}

/// The dispatch of `span`'s blocks, claiming every game that could rank
/// among `sofar`'s best or be extended.
fn prepare(search: &Search, sofar: &Report, span: Span) -> Job {
    let maker = Maker::of(&search.work);
    let top_cut = match search.top {
        0 => u64::MAX,
        top if sofar.best.len() < top => 0,
        top => sofar.best[top - 1].outcome.cards,
    };
    let extend_from = search.extend.map_or(u64::MAX, |e| e.from);
    let claim_from = top_cut
        .min(extend_from)
        .min(u64::from(LENGTH_BINS) * LENGTH_BIN) as u32;
    let samples: Vec<u32> = (0..span.count)
        .map(|i| sample_place(maker.key(span.first + i, 0), span.lengths[i as usize]))
        .collect();
    let dispatch = Dispatch {
        mode: u32::from(matches!(maker, Maker::Range { .. })),
        deals: span.lengths.iter().sum::<u64>() as u32,
        claim_from,
        max_tricks: MAX_TRICKS,
        key: match maker {
            Maker::Random { seed, .. } => key_words(seed),
            Maker::Range { .. } => [0; 8],
        },
        first_block: maker.stream(span.first),
        start: maker.key(span.first, 0),
        samples,
    };
    Job {
        span,
        maker,
        dispatch,
    }
}

/// What a dispatch found, checked: the reports of its blocks in order,
/// after one holding the GPU's sums.
fn check(
    search: &Search,
    job: &Job,
    found: Found,
    checks: &mut Checks,
    pool: &rayon::ThreadPool,
) -> Result<Vec<Report>, GpuError> {
    let (span, maker, claim_from) = (&job.span, job.maker, job.dispatch.claim_from);
    let samples = &job.dispatch.samples;
    let Found {
        flags,
        lengths,
        checksum,
        claims,
    } = found;
    let on_cpu = |i: u64| {
        let mut engine = VectorSimulator::new();
        search
            .work
            .block_extending(&mut engine, span.first + i, search.top, search.extend)
    };
    let Some(claims) = claims else {
        // More claims than the buffer holds: the CPU plays the dispatch.
        checks.cpu_blocks += span.count;
        return Ok(pool.install(|| (0..span.count).into_par_iter().map(on_cpu).collect()));
    };
    let mut by_block: Vec<Vec<Claim>> = vec![Vec::new(); span.count as usize];
    for c in claims {
        let block = u64::from(c.deal) / BLOCK;
        let Some(list) = by_block.get_mut(block as usize) else {
            return Err(GpuError::Device(format!(
                "a claim for deal {} past the dispatch's {} deals",
                c.deal, job.dispatch.deals
            )));
        };
        list.push(c);
    }
    let results: Vec<Result<Block, GpuError>> = pool.install(|| {
        by_block
            .into_par_iter()
            .enumerate()
            .map(|(i, mut claims)| {
                let i = i as u64;
                if flags.get(i as usize).is_some_and(|&f| f != 0)
                    && matches!(maker, Maker::Random { .. })
                {
                    return Ok(Block::OnCpu(on_cpu(i)));
                }
                claims.sort_by_key(|c| c.deal);
                checked_block(
                    search,
                    maker,
                    span.first + i,
                    span.lengths[i as usize],
                    samples[i as usize],
                    claim_from,
                    &claims,
                )
            })
            .collect()
    });
    let mut sums = Report::extending(search.top, search.extend);
    sums.checksum = checksum;
    if search.extend.is_some() {
        sums.extension.lengths = lengths.clone();
    }
    sums.lengths = lengths;
    let mut reports = vec![sums];
    for r in results {
        match r? {
            Block::OnCpu(report) => {
                checks.cpu_blocks += 1;
                reports.push(report);
            }
            Block::Checked { report, claims } => {
                checks.claims += claims;
                checks.samples += 1;
                reports.push(report);
            }
        }
    }
    Ok(reports)
}

/// ChaCha8's key for `seed`, as `ChaCha8Rng::seed_from_u64` makes it.
fn key_words(seed: u64) -> [u32; 8] {
    let seed = ChaCha8Rng::seed_from_u64(seed).get_seed();
    std::array::from_fn(|i| u32::from_le_bytes(seed[4 * i..4 * i + 4].try_into().expect("4 bytes")))
}

/// The deal the GPU made from its places, if they are a deal.
fn gpu_deal(places: &[u8; 16]) -> Option<Deal> {
    let mut cards = [0u8; 52];
    for (i, &p) in places.iter().enumerate() {
        *cards.get_mut(usize::from(p))? = 4 - (i / 4) as u8;
    }
    Deal::new(&cards[..26], &cards[26..]).ok()
}

/// A block's report, and who played it.
enum Block {
    /// The CPU played it.
    OnCpu(Report),
    /// The GPU played it; the CPU played its claims again and its sample.
    Checked { report: Report, claims: u64 },
}

/// The report of one block the GPU played: its claims played again and
/// counted, its sample compared.
fn checked_block(
    search: &Search,
    maker: Maker,
    block: u64,
    deals: u64,
    sample: u32,
    claim_from: u32,
    claims: &[Claim],
) -> Result<Block, GpuError> {
    let mut report = Report::extending(search.top, search.extend);
    let counted = claims.iter().filter(|c| c.kind & 1 != 0).count() as u64;
    report.deals = deals - counted.min(deals);
    let mut sim = Simulator::new();
    let mut sampled = 0;
    for c in claims {
        let k = u64::from(c.deal) % BLOCK;
        let Some((deal, index)) = maker.deal(block, k) else {
            return Err(GpuError::Device(format!(
                "a claim for deal {k} of block {block}, past the last index"
            )));
        };
        let name = || maker.name(block, k, &deal, index);
        let wrong = |why: String| GpuError::Mismatch { deal: name(), why };
        if gpu_deal(&c.places) != Some(deal) {
            return Err(wrong(format!(
                "the GPU made the deal {:?} (places of A A A A K ... J)",
                c.places
            )));
        }
        let outcome = sim.run_unchecked(deal.a(), deal.b());
        let running = c.kind & 4 != 0;
        let agrees = if running {
            // Still running after MAX_TRICKS: a loop, or longer than that.
            outcome.status == GameEnd::Loop || outcome.tricks > u64::from(MAX_TRICKS)
        } else {
            outcome == Outcome::new(GameEnd::Finished, u64::from(c.cards), u64::from(c.tricks))
        };
        let claimed = c.kind & 1 != 0;
        let should_claim = outcome.status == GameEnd::Loop
            || outcome.tricks > u64::from(MAX_TRICKS)
            || outcome.cards >= u64::from(claim_from);
        if !agrees || claimed != should_claim {
            let gpu = if running {
                format!("still running after {} tricks", c.tricks)
            } else {
                format!("finished, {} cards, {} tricks", c.cards, c.tricks)
            };
            return Err(wrong(format!(
                "GPU {gpu}; CPU {}, {} cards, {} tricks",
                outcome.status, outcome.cards, outcome.tricks
            )));
        }
        if c.kind & 2 != 0 {
            if c.deal % BLOCK as u32 != sample {
                return Err(wrong(format!(
                    "reported as the sample of block {block}, which is deal {sample}"
                )));
            }
            sampled += 1;
        }
        if claimed {
            report.add(maker.key(block, k), &deal, outcome, || index);
        }
    }
    if sampled != 1 {
        return Err(GpuError::MissingSample { block });
    }
    Ok(Block::Checked {
        report,
        claims: counted,
    })
}
