//! What units cost a deal, engine by engine, from the time each recorded:
//! CPU-seconds for the CPU engines, GPU-seconds beside CPU-seconds for
//! the GPU engine (whose CPU-seconds are the CPU's share: making the
//! checks, extension). A device-second of one engine is not one of the
//! other, so the two are never added up.

use crate::unit::{UnitFile, on_gpu};
use serde::Serialize;

/// One engine's units and what they cost.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EngineCost {
    /// The engine, as its units name it: `vector` or `fast` (the CPU
    /// engines) or `gpu`.
    pub engine: String,
    /// Its units.
    pub units: usize,
    /// Their deals.
    pub deals: u64,
    /// Their wall seconds.
    pub seconds: f64,
    /// Their CPU seconds.
    pub cpu_seconds: f64,
    /// Their GPU seconds (the GPU engine's units that recorded them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_seconds: Option<f64>,
    /// CPU-seconds a deal.
    pub cpu_seconds_per_deal: f64,
    /// GPU-seconds a deal, over the units that recorded GPU seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_seconds_per_deal: Option<f64>,
}

impl std::fmt::Display for EngineCost {
    /// `engine gpu: 2 unit(s), 1,000,000 deals, 2.000e-6 GPU-seconds and
    /// 3.000e-6 CPU-seconds a deal` (counts as
    /// [`poker_core::numbers::count`] writes them).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use poker_core::numbers::count;
        write!(
            f,
            "engine {}: {} unit(s), {} deals, ",
            self.engine,
            count(self.units),
            count(self.deals)
        )?;
        if let Some(gpu) = self.gpu_seconds_per_deal {
            write!(f, "{gpu:.3e} GPU-seconds and ")?;
        }
        write!(f, "{:.3e} CPU-seconds a deal", self.cpu_seconds_per_deal)
    }
}

/// The cost a deal of each engine that made `units`, by engine name;
/// units that recorded no time are left out.
pub fn by_engine(units: &[&UnitFile]) -> Vec<EngineCost> {
    let mut names: Vec<&str> = units.iter().map(|u| u.engine.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    names
        .into_iter()
        .filter_map(|name| {
            let mine: Vec<&UnitFile> = units
                .iter()
                .copied()
                .filter(|u| u.engine == name && u.timing.is_some())
                .collect();
            let deals: u64 = mine.iter().map(|u| u.counts.deals).sum();
            if deals == 0 {
                return None;
            }
            let timing = |u: &&UnitFile| u.timing.clone().unwrap_or_default();
            let cpu_seconds: f64 = mine.iter().map(|u| timing(u).cpu_seconds).sum();
            Some(EngineCost {
                engine: name.to_string(),
                units: mine.len(),
                deals,
                seconds: mine.iter().map(|u| timing(u).seconds).sum(),
                cpu_seconds,
                gpu_seconds: mine
                    .iter()
                    .filter_map(|u| timing(u).gpu_seconds)
                    .reduce(|a, b| a + b),
                cpu_seconds_per_deal: cpu_seconds / deals as f64,
                gpu_seconds_per_deal: gpu_per_deal(&mine),
            })
        })
        .collect()
}

/// GPU-seconds a deal of the GPU engine's units among `units` that
/// recorded them; `None` without any.
pub fn gpu_per_deal(units: &[&UnitFile]) -> Option<f64> {
    let (seconds, deals) = units
        .iter()
        .filter(|u| on_gpu(u))
        .filter_map(|u| Some((u.timing.as_ref()?.gpu_seconds?, u.counts.deals)))
        .fold((0.0, 0), |(s, n), (t, d)| (s + t, n + d));
    (deals > 0).then(|| seconds / deals as f64)
}
