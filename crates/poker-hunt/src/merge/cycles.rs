//! The loops' cycles: how many deals reach each, and what can be said of
//! the cycles not seen.

use crate::unit::GameRecord;
use serde::Serialize;
use std::collections::BTreeMap;

/// One cycle seen and the deals that reach it.
#[derive(Serialize, Clone)]
pub struct CycleCount {
    pub id: String,
    pub mirror_id: String,
    pub tricks: u64,
    pub cards: u64,
    /// How many deals of the range loop into it.
    pub deals: u64,
    /// Their indices (decimal strings), lowest first.
    pub indices: Vec<String>,
}

/// How many distinct cycles, and what can be said about the unseen ones.
#[derive(Serialize)]
pub struct CycleStats {
    /// Distinct cycles seen.
    pub distinct: usize,
    /// Cycles reached by exactly one deal.
    pub singletons: usize,
    /// Cycles reached by exactly two deals.
    pub doubletons: usize,
    /// Chao1 = distinct + singletons^2 / (2 doubletons), only when both
    /// exist.
    pub chao1: Option<f64>,
    /// With no loop among `deals` random deals: the rule of three's 95%
    /// upper bound on the loop rate, 3 / deals (`None` for index ranges,
    /// which are no random sample).
    pub loop_rate_upper_95: Option<f64>,
    /// Loops per deal seen, for random deals (`None` for index ranges).
    pub loop_rate: Option<f64>,
}

/// The loops grouped by cycle, most deals first.
pub(super) fn cycle_counts(loops: &[GameRecord]) -> Vec<CycleCount> {
    let mut by_id: BTreeMap<String, CycleCount> = BTreeMap::new();
    for game in loops {
        let Some(c) = &game.cycle else { continue };
        let entry = by_id.entry(c.id.clone()).or_insert_with(|| CycleCount {
            id: c.id.clone(),
            mirror_id: c.mirror_id.clone(),
            tricks: c.tricks,
            cards: c.cards,
            deals: 0,
            indices: Vec::new(),
        });
        entry.deals += 1;
        entry.indices.push(game.index.clone());
    }
    let mut cycles: Vec<CycleCount> = by_id.into_values().collect();
    cycles.sort_by(|x, y| y.deals.cmp(&x.deals).then_with(|| x.id.cmp(&y.id)));
    cycles
}

/// Distinct cycles and what can be said about unseen ones.
/// Rates only for `random` deals: a range's neighbouring indices share most
/// of their deal.
pub(super) fn cycle_stats(
    cycles: &[CycleCount],
    deals: u64,
    loops: u64,
    random: bool,
) -> CycleStats {
    let singletons = cycles.iter().filter(|c| c.deals == 1).count();
    let doubletons = cycles.iter().filter(|c| c.deals == 2).count();
    let chao1 = (singletons > 0 && doubletons > 0)
        .then(|| cycles.len() as f64 + (singletons * singletons) as f64 / (2 * doubletons) as f64);
    CycleStats {
        distinct: cycles.len(),
        singletons,
        doubletons,
        chao1,
        loop_rate_upper_95: (random && loops == 0 && deals > 0).then(|| 3.0 / deals as f64),
        loop_rate: (random && deals > 0).then(|| loops as f64 / deals as f64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(deals: &[u64]) -> Vec<CycleCount> {
        deals
            .iter()
            .enumerate()
            .map(|(i, &n)| CycleCount {
                id: format!("{i:016x}"),
                mirror_id: String::new(),
                tricks: 2,
                cards: 6,
                deals: n,
                indices: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn chao1_needs_singletons_and_doubletons() {
        // 4 cycles seen, 2 once and 1 twice: 4 + 2^2 / (2 * 1) = 6.
        let s = cycle_stats(&seen(&[1, 1, 2, 5]), 1000, 9, true);
        assert_eq!((s.distinct, s.singletons, s.doubletons), (4, 2, 1));
        assert_eq!(s.chao1, Some(6.0));
        assert_eq!(s.loop_rate_upper_95, None);
        // No doubleton: no estimate, only the count.
        assert_eq!(cycle_stats(&seen(&[1, 3]), 1000, 4, true).chao1, None);
        // No loop at all: the rule of three, 3 / deals.
        let none = cycle_stats(&[], 3_000_000, 0, true);
        assert_eq!((none.distinct, none.chao1), (0, None));
        assert_eq!(none.loop_rate_upper_95, Some(1e-6));
        // Over an index range, no rate at all.
        let range = cycle_stats(&[], 3_000_000, 0, false);
        assert_eq!((range.loop_rate_upper_95, range.loop_rate), (None, None));
        assert_eq!(cycle_stats(&seen(&[1, 3]), 1000, 4, false).loop_rate, None);
    }
}
