//! The odds of a record: the tail of the game-length histogram of random
//! deals fitted, and the expected time to a game beyond a target length,
//! with and without backward extension, at the measured speed of each
//! engine that made the units: CPU-years for the CPU engines, GPU-years
//! for the GPU engine.
//!
//! # Method
//! Beyond a few hundred cards the share of random deals whose game lasts
//! at least `x` cards falls exponentially, `S(x) ≈ S(u) e^(-(x-u)/λ)`, with a
//! decay length λ of about 205 cards between 500 and 3000 cards that grows
//! a little further out (about 228 between 3250 and 4250 cards): the tail
//! fattens, so only its top is fitted. The fit takes the top games (the
//! 1000 longest, or all above 1000 cards if fewer), from the bin edge `u`
//! below them, and estimates λ by maximum likelihood for the bins beyond
//! `u` (a geometric law over bins of 10 cards); it does the same on the top
//! quarter of those games. The range given spans both fits' 95% intervals
//! (±1.96/√n on λ for n games), so it holds the statistical error and the
//! tail's drift. The chance that a deal beats the target `T` is then
//! `S(u)/deals · e^(-(T-u)/λ)`, and the expected time to the first such
//! deal is an engine's time per deal over that chance.
//!
//! Extension adds a gain `G` to every game of at least `F` cards (the
//! search's `--extend-from`), and the gain does not depend on the game's
//! length: `P(G ≥ g) ≈ p e^(-g/μ)` (about 0.98 and 200 cards). Its law is
//! fitted the same way on the gains of the games the units extended, and
//! the chance that a deal's extension beats `T` is the chance its own game
//! does plus `∫_F^T f(x) p e^(-(T-x)/μ) dx` over the fitted density `f` of
//! game lengths: for `μ = λ`, `S(T) (1 + p (T-F)/λ)`, some 25–30 times the
//! chance without extension at the record's length. (A straight fit of the
//! histogram after extension would not do: its tail is an exponential
//! times a line, and extrapolating it as an exponential overstates it.)
//! The CPU time per deal is the CPU engines' extending units' own, the
//! extension's included; without extension, their units' time less the
//! extension's. The GPU time per deal is the GPU engine's units' GPU
//! seconds (the extending ones' with extension): the CPU extends beside
//! the GPU, which holds it for the whole run, so its time without
//! extension is an upper bound when its units extended.
//!
//! Only units of random deals are fitted: a range's neighbouring indices
//! share most of their deal, so its histogram is not a random sample.

use crate::cost::gpu_per_deal;
use crate::unit::{Lengths, Timing, UnitFile, on_gpu};
use serde::Serialize;

/// Seconds in a year (365.25 days).
const YEAR: f64 = 365.25 * 24.0 * 3600.0;

/// The top games fitted.
const TOP_GAMES: u64 = 1000;

/// The shortest games the fit looks at (the tail is not exponential
/// before).
const FIT_FLOOR: u64 = 1000;

/// One histogram's tail fit and what it says about the target.
#[derive(Clone, Debug, Serialize)]
pub struct Tail {
    /// The fit starts here (cards).
    pub from_cards: u64,
    /// Games of at least `from_cards` cards.
    pub games: u64,
    /// Decay length λ (cards per e-fold), best estimate and range.
    pub decay_cards: f64,
    pub decay_low: f64,
    pub decay_high: f64,
    /// Chance a deal's game (or its extension) beats the target: best
    /// estimate and range.
    pub chance: f64,
    pub chance_low: f64,
    pub chance_high: f64,
    /// CPU-seconds a deal of the CPU engines' units, and the expected
    /// CPU-years to the first game beyond the target at that speed, best
    /// estimate and range (absent without units of a CPU engine).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_seconds_per_deal: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_years: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_years_low: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_years_high: Option<f64>,
    /// GPU-seconds a deal of the GPU engine's units, and the expected
    /// GPU-years at that speed (absent without GPU units that recorded
    /// their GPU seconds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_seconds_per_deal: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_years: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_years_low: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_years_high: Option<f64>,
}

impl Tail {
    /// The tail priced at `cpu` CPU-seconds and `gpu` GPU-seconds a
    /// deal: the expected years to the first game beyond the target.
    fn priced(self, cpu: Option<f64>, gpu: Option<f64>) -> Tail {
        let years = |per_deal: Option<f64>, p: f64| per_deal.map(|s| s / p / YEAR);
        Tail {
            cpu_seconds_per_deal: cpu,
            cpu_years: years(cpu, self.chance),
            cpu_years_low: years(cpu, self.chance_high),
            cpu_years_high: years(cpu, self.chance_low),
            gpu_seconds_per_deal: gpu,
            gpu_years: years(gpu, self.chance),
            gpu_years_low: years(gpu, self.chance_high),
            gpu_years_high: years(gpu, self.chance_low),
            ..self
        }
    }

    /// `expected 1.579e2 CPU-years (9.569e0..4.857e2) at 2.642e-7
    /// CPU-seconds a deal; 3.1e0 GPU-years (...) at ... GPU-seconds a
    /// deal`, for the engines it has a speed for.
    fn expected(&self) -> String {
        let engines = [
            (
                "CPU",
                self.cpu_seconds_per_deal,
                [self.cpu_years, self.cpu_years_low, self.cpu_years_high],
            ),
            (
                "GPU",
                self.gpu_seconds_per_deal,
                [self.gpu_years, self.gpu_years_low, self.gpu_years_high],
            ),
        ];
        let told: Vec<String> = engines
            .into_iter()
            .filter_map(|(kind, per_deal, years)| {
                let (per_deal, [y, low, high]) = (per_deal?, years.map(|y| y.unwrap_or(0.0)));
                Some(format!(
                    "{y:.3e} {kind}-years ({low:.3e}..{high:.3e}) at {per_deal:.3e} {kind}-seconds a deal"
                ))
            })
            .collect();
        if told.is_empty() {
            "no engine's speed recorded to price it".into()
        } else {
            format!("expected {}", told.join("; "))
        }
    }
}

/// The odds of beating `target` cards.
#[derive(Clone, Debug, Serialize)]
pub struct Odds {
    pub target: u64,
    /// Deals of the units fitted.
    pub deals: u64,
    /// The engine(s) and extension setting(s) that made the units.
    pub made_by: Vec<String>,
    /// Without extension: the deals' own games.
    pub without_extension: Option<Tail>,
    /// With extension (units that extended): the tail without extension
    /// and the fitted gain.
    pub with_extension: Option<Tail>,
    /// The fitted law of the cards extension gains.
    pub gain: Option<Gain>,
}

/// The law of extension's gain: `P(G ≥ g) ≈ share · e^(-g/decay)`.
#[derive(Clone, Debug, Serialize)]
pub struct Gain {
    /// Games extended.
    pub games: u64,
    /// Of those, games whose basin held a longer deal.
    pub longer: u64,
    /// `longer / games`.
    pub share: f64,
    /// Decay length of the gains (cards), best estimate and 95% range.
    pub decay_cards: f64,
    pub decay_low: f64,
    pub decay_high: f64,
    /// Extension starts at games of this many cards.
    pub from: u64,
}

/// The odds as the text `poker camicia merge` prints, one line per fact
/// (counts as [`poker_core::numbers::count`] writes them).
impl std::fmt::Display for Odds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use poker_core::numbers::count;
        let o = self;
        let mut out = format!(
            "odds of a game beyond {} cards, fitted on {} random deals ({}):\n",
            count(o.target),
            count(o.deals),
            o.made_by.join("; ")
        );
        if let Some(t) = &o.without_extension {
            out += &format!(
                "  tail: the {1} games of {0}+ cards fall e-fold every {2:.0} cards ({3:.0}..{4:.0})\n",
                count(t.from_cards),
                count(t.games),
                t.decay_cards,
                t.decay_low,
                t.decay_high
            );
        }
        for (name, t) in [
            ("without extension", &o.without_extension),
            ("with extension", &o.with_extension),
        ] {
            let Some(t) = t else { continue };
            out += &format!(
                "  {name}: chance per deal {:.2e} ({:.2e}..{:.2e}); {}\n",
                t.chance,
                t.chance_low,
                t.chance_high,
                t.expected()
            );
        }
        if let Some(g) = &o.gain {
            out += &format!(
                "  extension's gain: {} of {} games of {}+ cards extended to a longer deal ({:.2}); \
             gains fall e-fold every {:.0} cards ({:.0}..{:.0})\n",
                count(g.longer),
                count(g.games),
                count(g.from),
                g.share,
                g.decay_cards,
                g.decay_low,
                g.decay_high
            );
        }
        if o.without_extension.is_none() && o.with_extension.is_none() {
            out += "  too few games to fit a tail\n";
        }
        f.write_str(&out)
    }
}

/// The chance that a deal's extension beats `target`, for an own-game
/// tail `share_u · e^(-(x-u)/lambda)` from `u` on and the gain law.
fn chance_extended(share_u: f64, u: f64, lambda: f64, gain: &Gain, mu: f64, target: f64) -> f64 {
    let own = |x: f64| share_u * (-(x - u) / lambda).exp();
    // Games of x..x+1 cards, x from the extension's start, gaining the rest.
    let extra: f64 = (gain.from..target as u64)
        .map(|x| {
            let x = x as f64;
            (own(x) - own(x + 1.0)) * gain.share * (-(target - x - 0.5) / mu).exp()
        })
        .sum();
    own(target) + extra
}

/// `engine vector, extension from 2000 cards (first 10 tricks)` or
/// `engine fast, extension off`.
pub fn setting(file: &UnitFile) -> String {
    match &file.extension {
        Some(e) => format!(
            "engine {}, extension from {} cards ({})",
            file.engine, e.from, e.depth
        ),
        None => format!("engine {}, extension off", file.engine),
    }
}

/// Maximum likelihood decay length of the games in bins `first..` of
/// `counts` (bins of `bin` cards), and how many there are.
fn decay(counts: &[u64], first: usize, bin: f64) -> Option<(f64, u64)> {
    let games: u64 = counts.iter().skip(first).sum();
    let excess: f64 = counts
        .iter()
        .enumerate()
        .skip(first)
        .map(|(i, &n)| (i - first) as f64 * n as f64)
        .sum();
    if games < 2 || excess == 0.0 {
        return None;
    }
    // Geometric over bins: P(k) = (1-q) q^k, mean q / (1-q).
    let mean = excess / games as f64;
    Some((bin / (1.0 + 1.0 / mean).ln(), games))
}

/// Fits the tail of `counts`: the chance of a game beyond `target`,
/// not priced yet.
fn tail(counts: &[u64], bin: u64, deals: u64, target: u64) -> Option<Tail> {
    let floor = (FIT_FLOOR / bin) as usize;
    // The lowest bin edge with at most TOP_GAMES games at or above it (not
    // below the floor).
    let mut first = counts.len();
    let mut above = 0;
    while first > floor && above + counts[first - 1] <= TOP_GAMES {
        first -= 1;
        above += counts[first];
    }
    let (lambda, games) = decay(counts, first, bin as f64)?;
    // The top quarter of those games, for the drift.
    let mut top = counts.len();
    let mut quarter = 0;
    while top > first && quarter + counts[top - 1] <= games / 4 {
        top -= 1;
        quarter += counts[top];
    }
    let interval = |(l, n): (f64, u64)| {
        let e = 1.96 / (n as f64).sqrt();
        (l / (1.0 + e), l / (1.0 - e).max(0.05))
    };
    let (mut low, mut high) = interval((lambda, games));
    if let Some(fit) = decay(counts, top, bin as f64).filter(|f| f.1 >= 20) {
        let (l, h) = interval(fit);
        (low, high) = (low.min(l), high.max(h));
    }
    let u = first as u64 * bin;
    let share = games as f64 / deals as f64;
    let chance = |l: f64| share * (-((target.saturating_sub(u)) as f64) / l).exp();
    let (chance, chance_low, chance_high) = (chance(lambda), chance(low), chance(high));
    Some(Tail {
        from_cards: u,
        games,
        decay_cards: lambda,
        decay_low: low,
        decay_high: high,
        chance,
        chance_low,
        chance_high,
        cpu_seconds_per_deal: None,
        cpu_years: None,
        cpu_years_low: None,
        cpu_years_high: None,
        gpu_seconds_per_deal: None,
        gpu_years: None,
        gpu_years_low: None,
        gpu_years_high: None,
    })
}

fn sum_into(total: &mut Vec<u64>, lengths: &Lengths) {
    if lengths.counts.len() > total.len() {
        total.resize(lengths.counts.len(), 0);
    }
    for (t, n) in total.iter_mut().zip(&lengths.counts) {
        *t += n;
    }
}

/// CPU-seconds a deal of the CPU engines' units among `units`, each
/// unit's time less `less` of it; `None` without any.
fn cpu_per_deal(units: &[&UnitFile], less: impl Fn(&Timing) -> f64) -> Option<f64> {
    let (seconds, deals) = units
        .iter()
        .filter(|u| !on_gpu(u))
        .map(|u| {
            let t = u.timing.clone().unwrap_or_default();
            (t.cpu_seconds - less(&t), u.counts.deals)
        })
        .fold((0.0, 0), |(s, n), (t, d)| (s + t, n + d));
    (deals > 0).then(|| seconds / deals as f64)
}

/// The odds from units of random deals, priced at the speed of each
/// engine that made them.
pub fn fit(units: &[&UnitFile], target: u64) -> Odds {
    let bin = units.first().map_or(10, |u| u.lengths.bin_cards);
    let deals: u64 = units.iter().map(|u| u.counts.deals).sum();
    let mut own = Vec::new();
    for u in units {
        sum_into(&mut own, &u.lengths);
    }
    let extending: Vec<&UnitFile> = units
        .iter()
        .copied()
        .filter(|u| u.extension.is_some())
        .collect();
    let ext_deals: u64 = extending.iter().map(|u| u.counts.deals).sum();
    let mut made_by: Vec<String> = units.iter().map(|u| setting(u)).collect();
    made_by.sort();
    made_by.dedup();
    let without = (deals > 0)
        .then(|| tail(&own, bin, deals, target))
        .flatten()
        .map(|t| {
            t.priced(
                cpu_per_deal(units, |t| t.extension_seconds),
                gpu_per_deal(units),
            )
        });
    let gain = gain_fit(&extending, bin);
    let with = match (&without, &gain) {
        (Some(t), Some(g)) if ext_deals > 0 => {
            let share_u = t.games as f64 / deals as f64;
            let u = t.from_cards as f64;
            let chance = |lambda, mu| chance_extended(share_u, u, lambda, g, mu, target as f64);
            let (p, low, high) = (
                chance(t.decay_cards, g.decay_cards),
                chance(t.decay_low, g.decay_low),
                chance(t.decay_high, g.decay_high),
            );
            let tail = Tail {
                chance: p,
                chance_low: low,
                chance_high: high,
                ..t.clone()
            };
            Some(tail.priced(cpu_per_deal(&extending, |_| 0.0), gpu_per_deal(&extending)))
        }
        _ => None,
    };
    Odds {
        target,
        deals,
        made_by,
        without_extension: without,
        with_extension: with,
        gain,
    }
}

/// The gain law from the extending units' histograms of cards gained.
fn gain_fit(units: &[&UnitFile], bin: u64) -> Option<Gain> {
    let mut gains = Vec::new();
    let (mut games, mut from) = (0, u64::MAX);
    for u in units {
        let e = u.extension.as_ref()?;
        games += e.games;
        from = from.min(e.from);
        sum_into(&mut gains, &e.gains);
    }
    let (mu, longer) = decay(&gains, 0, bin as f64)?;
    let e = 1.96 / (longer as f64).sqrt();
    Some(Gain {
        games,
        longer,
        share: longer as f64 / games as f64,
        decay_cards: mu,
        decay_low: mu / (1.0 + e),
        decay_high: mu / (1.0 - e).max(0.05),
        from,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_geometric_tail_gives_its_decay_length() {
        // Bins of 10 cards with counts q^k: decay length 10 / ln(1/q).
        let q: f64 = (-10.0f64 / 200.0).exp();
        let counts: Vec<u64> = (0..600)
            .map(|k| (1e12 * q.powi(k)).round() as u64)
            .collect();
        let (lambda, _) = decay(&counts, 100, 10.0).unwrap();
        assert!((lambda - 200.0).abs() < 1.0, "{lambda}");
    }
}
