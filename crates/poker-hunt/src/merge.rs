//! Work units' result files combined after checking them: coverage of the
//! range (gaps and overlaps named; units of random deals instead need
//! distinct seeds), each file's own consistency, and
//! every claimed best game, extended deal and loop replayed from its index
//! with both the fast engine and the reference simulator (each loop's cycle
//! extracted again, each extended deal's game seen to join the game it
//! extends). Units of random deals also give the odds of a record (see
//! [`crate::odds`]).

use crate::odds::{self, Odds};
use crate::proof;
use crate::unit::{CycleRecord, ExtendedRecord, GameRecord, UnitFile};
use anyhow::{Context, bail};
use poker_core::camicia::cycle::Cycle;
use poker_core::camicia::search::{ExtensionWork, Game, LENGTH_BIN, Report};
use poker_core::camicia::{Card, Deal, Simulator, reference};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

/// The longest known terminating game (Nessler, 2022), the default target.
const RECORD_CARDS: u64 = 8344;

/// A unit file read and checked on its own.
struct Checked {
    path: PathBuf,
    start: u128,
    end: u128,
    file: UnitFile,
    report: Report,
}

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
    /// With no loop among `deals` deals: the rule of three's 95% upper
    /// bound on the loop rate, 3 / deals.
    pub loop_rate_upper_95: Option<f64>,
    /// Loops per deal seen.
    pub loop_rate: f64,
}

/// The merged result.
#[derive(Serialize)]
pub struct Merged {
    pub format: &'static str,
    pub start: String,
    pub end: String,
    pub units: usize,
    pub engines: Vec<String>,
    pub versions: Vec<String>,
    pub top: usize,
    pub counts: crate::unit::Counts,
    pub checksum: String,
    pub lengths: crate::unit::Lengths,
    pub best: Vec<GameRecord>,
    pub loops: Vec<GameRecord>,
    pub cycles: Vec<CycleCount>,
    pub cycle_stats: CycleStats,
    /// `range` (index ranges) or `random` (random deals, `start..end` the
    /// draws).
    pub mode: &'static str,
    /// The seeds of units of random deals.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub seeds: Vec<u64>,
    /// The units' extension settings (`off` for uniform units).
    pub extension: Vec<String>,
    /// Finished games by length after extension (units that extended).
    pub lengths_extended: Option<crate::unit::Lengths>,
    /// The longest distinct deals found by extension, longest first.
    pub extended: Vec<ExtendedRecord>,
    /// The odds of a game beyond the target (units of random deals).
    pub odds: Option<Odds>,
    /// Games re-simulated.
    pub verified_games: usize,
    /// Wall seconds the merge took (not part of the result).
    pub seconds: f64,
}

/// What to merge.
pub struct Request {
    /// The units' result files (any order).
    pub results: Vec<PathBuf>,
    /// The range the units must cover, each index exactly once, `start..end`
    /// (default: the range their shards were cut from, else from the lowest
    /// to the highest index covered).
    pub range: Option<(u128, u128)>,
    /// How many of the longest games to keep (default and most: the
    /// smallest `top` of the units).
    pub top: Option<usize>,
    /// The length to beat in the odds (cards; default: the longest known
    /// game).
    pub target: Option<u64>,
}

/// The merge, checked: its view model and the longest game's trace.
pub struct Outcome {
    /// What every renderer shows (and the JSON result).
    pub merged: Merged,
    /// The longest finished game, played card by card (for a plot).
    pub longest: Option<reference::Trace>,
}

/// Reads and checks the units' result files and combines them: an error
/// naming every problem found (gaps, overlaps, seeds drawn twice, forged or
/// damaged claims), or the merged result.
pub fn merge(request: &Request) -> anyhow::Result<Outcome> {
    let started = Instant::now();
    let mut problems = Vec::new();
    let mut units = Vec::new();
    for path in &request.results {
        match check_file(path) {
            Ok(unit) => units.push(unit),
            Err(e) => problems.push(format!("{e:#}")),
        }
    }
    let random = units.iter().filter(|u| u.file.random.is_some()).count();
    let range = if random > 0 {
        if random < units.len() {
            problems.push(
                "units of random deals and units of index ranges do not merge together".into(),
            );
        }
        if request.range.is_some() {
            problems.push("--range: units of random deals cover no index range".into());
        }
        problems.extend(distinct_seeds(&units));
        Some((0, units.iter().map(|u| u.end - u.start).sum()))
    } else {
        let range = request.range.or_else(|| shard_range(&units)).or_else(|| {
            let start = units.iter().map(|u| u.start).min()?;
            Some((start, units.iter().map(|u| u.end).max()?))
        });
        if let Some(range) = range {
            problems.extend(coverage(&units, range));
        }
        range
    };
    let mut verified = 0;
    let mut sim = Simulator::new();
    for unit in &units {
        for (record, game) in unit
            .file
            .best
            .iter()
            .zip(&unit.report.best)
            .chain(unit.file.loops.iter().zip(&unit.report.loops))
        {
            verified += 1;
            if let Err(e) = verify(&mut sim, record, game) {
                problems.push(format!("{}: {e}", unit.path.display()));
            }
        }
        for e in &unit.report.extension.extended {
            verified += 1;
            if let Err(err) = verify_extended(&mut sim, e) {
                problems.push(format!(
                    "{}: extended deal {}: {err:#}",
                    unit.path.display(),
                    e.game.index
                ));
            }
        }
    }
    if !problems.is_empty() {
        bail!(
            "the units do not merge ({} problem(s)):\n  {}",
            problems.len(),
            problems.join("\n  ")
        );
    }
    let Some((start, end)) = range else {
        bail!("no result files");
    };
    let top = units.iter().map(|u| u.file.top).min().unwrap_or(0);
    let top = match request.top {
        Some(k) if k > top => bail!("--top {k}: the units kept only their {top} best games"),
        Some(k) => k,
        None => top,
    };
    let mut report = Report::new(top);
    let mut engines = Vec::new();
    let mut versions = Vec::new();
    let mut settings = Vec::new();
    // Extended deals found by several units are kept once.
    let mut extension = ExtensionWork::default();
    for unit in units.iter() {
        let mut r = unit.report.clone();
        r.top = top;
        r.best.truncate(top);
        extension.merge(std::mem::take(&mut r.extension), top);
        report.merge(r);
        engines.push(unit.file.engine.clone());
        versions.push(unit.file.version.clone());
        settings.push(odds::setting(&unit.file));
    }
    for list in [&mut engines, &mut versions, &mut settings] {
        list.sort();
        list.dedup();
    }
    let extending = units.iter().any(|u| u.file.extension.is_some());
    let target = request.target.unwrap_or(RECORD_CARDS);
    let fitted = if random > 0 && random == units.len() {
        let files: Vec<&UnitFile> = units.iter().map(|u| &u.file).collect();
        Some(odds::fit(&files, target))
    } else {
        None
    };
    // Indices were checked on reading; the coverage check made them unique.
    let mut loops: Vec<GameRecord> = units
        .iter()
        .flat_map(|u| u.file.loops.iter().cloned())
        .collect();
    loops.sort_by_key(|g| g.index.parse::<u128>().unwrap_or(0));
    let cycles = cycle_counts(&loops);
    let deals = report.deals;
    let merged = Merged {
        format: "poker-camicia-merge/1",
        start: start.to_string(),
        end: end.to_string(),
        units: units.len(),
        engines,
        versions,
        top,
        counts: crate::unit::Counts {
            deals,
            finished: deals - report.loops.len() as u64,
            loops: report.loops.len() as u64,
        },
        checksum: format!("{:016x}", report.checksum),
        lengths: crate::unit::Lengths {
            bin_cards: LENGTH_BIN,
            counts: report.lengths.clone(),
        },
        best: report.best.iter().map(|g| record_of(&units, g)).collect(),
        cycle_stats: cycle_stats(&cycles, deals, loops.len() as u64),
        loops,
        cycles,
        mode: if random > 0 { "random" } else { "range" },
        seeds: units
            .iter()
            .filter_map(|u| Some(u.file.random.as_ref()?.seed))
            .collect(),
        extension: settings,
        lengths_extended: extending.then(|| crate::unit::Lengths {
            bin_cards: LENGTH_BIN,
            counts: extension.lengths.clone(),
        }),
        extended: extension
            .extended
            .iter()
            .map(|e| record_of_extended(&units, e))
            .collect(),
        odds: fitted,
        verified_games: verified,
        seconds: started.elapsed().as_secs_f64(),
    };
    let longest = longest_trace(&report);
    Ok(Outcome { merged, longest })
}
/// The record written for an extended deal by the unit holding it (the
/// one it came from with the smallest index).
fn record_of_extended(
    units: &[Checked],
    found: &poker_core::camicia::search::Extended,
) -> ExtendedRecord {
    units
        .iter()
        .flat_map(|u| u.file.extended.iter().zip(&u.report.extension.extended))
        .find(|(_, e)| e.game.index == found.game.index && e.from == found.from)
        .map_or_else(|| ExtendedRecord::of(found), |(r, _)| r.clone())
}

/// Units of random deals must have distinct seeds: two with the same seed
/// drew the same deals.
fn distinct_seeds(units: &[Checked]) -> Vec<String> {
    let mut by_seed: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for u in units {
        if let Some(r) = &u.file.random {
            by_seed
                .entry(r.seed)
                .or_default()
                .push(u.path.display().to_string());
        }
    }
    by_seed
        .into_iter()
        .filter(|(_, paths)| paths.len() > 1)
        .map(|(seed, paths)| {
            format!(
                "overlap: {} all drew the random deals of seed {seed}",
                paths.join(" and ")
            )
        })
        .collect()
}

/// Replays an extended deal, the deal it came from, and checks that their
/// games meet where claimed.
fn verify_extended(
    sim: &mut Simulator,
    e: &poker_core::camicia::search::Extended,
) -> anyhow::Result<()> {
    proof::replay(sim, e.game.deal.a(), e.game.deal.b(), e.game.outcome)?;
    let from = Deal::unrank(e.from).context("its source index is past the last deal")?;
    let own = sim.run_unchecked(from.a(), from.b());
    if own.cards + e.added != e.game.outcome.cards {
        bail!(
            "claims {} cards added to index {}, which plays {own}: forged or damaged",
            e.added,
            e.from
        );
    }
    proof::joins(&from, &e.game.deal, e.added, e.joins_trick)
        .with_context(|| format!("extended from index {}", e.from))
}

/// The record written for `game` by the unit holding it.
fn record_of(units: &[Checked], game: &Game) -> GameRecord {
    units
        .iter()
        .flat_map(|u| u.file.best.iter().zip(&u.report.best))
        .find(|(_, g)| g.index == game.index)
        .map_or_else(|| GameRecord::of(game), |(r, _)| r.clone())
}

/// Reads one unit file and checks it on its own.
fn check_file(path: &std::path::Path) -> anyhow::Result<Checked> {
    let file = UnitFile::read(path)?;
    if !file.is_result() {
        bail!(
            "{} is a checkpoint: its unit has not finished",
            path.display()
        );
    }
    let (start, end) = file.range().with_context(|| path.display().to_string())?;
    if let Some(s) = &file.shard {
        let from = crate::unit::index_field("shard.start", &s.start)?;
        let to = crate::unit::index_field("shard.end", &s.end)?;
        let want = poker_core::camicia::search::Shard {
            index: s.index,
            count: s.count,
        }
        .slice(from, to);
        if s.index >= s.count || want != (start, end) {
            bail!(
                "{}: claims shard {}/{} of {from}..{to}, which is {}..{}, but covers {start}..{end}",
                path.display(),
                s.index,
                s.count,
                want.0,
                want.1
            );
        }
    }
    let report = file.report().with_context(|| path.display().to_string())?;
    Ok(Checked {
        path: path.to_path_buf(),
        start,
        end,
        file,
        report,
    })
}

/// The range every unit's shard was cut from, if they all say the same.
fn shard_range(units: &[Checked]) -> Option<(u128, u128)> {
    let mut ranges = units.iter().map(|u| {
        u.file
            .shard
            .as_ref()
            .map(|s| (s.start.parse().ok(), s.end.parse().ok()))
    });
    let first = ranges.next()??;
    if ranges.all(|r| r == Some(first)) {
        Some((first.0?, first.1?))
    } else {
        None
    }
}

/// Every index of `start..end` covered exactly once: the gaps and overlaps,
/// each with the units around it.
fn coverage(units: &[Checked], (start, end): (u128, u128)) -> Vec<String> {
    let mut problems = Vec::new();
    let mut order: Vec<&Checked> = units.iter().filter(|u| u.start < u.end).collect();
    order.sort_by_key(|u| (u.start, u.end));
    let name = |u: &Checked| u.path.display().to_string();
    let mut cursor = start;
    let mut last: Option<&Checked> = None;
    for u in order {
        if u.start < start || u.end > end {
            problems.push(format!(
                "{} covers {}..{}, outside the range {start}..{end}",
                name(u),
                u.start,
                u.end
            ));
        }
        if u.start > cursor {
            problems.push(format!(
                "gap: indices {cursor}..{} are in no unit ({}, {})",
                u.start,
                last.map_or("at the range's start".to_string(), |l| format!(
                    "after {}",
                    name(l)
                )),
                format_args!("before {}", name(u))
            ));
        } else if u.start < cursor {
            let l = last.expect("an overlap follows a unit");
            problems.push(format!(
                "overlap: indices {}..{} are in both {} and {}",
                u.start.max(start),
                cursor.min(u.end),
                name(l),
                name(u)
            ));
        }
        if u.end > cursor {
            cursor = u.end;
            last = Some(u);
        }
    }
    if cursor < end {
        problems.push(format!(
            "gap: indices {cursor}..{end} are in no unit ({})",
            last.map_or("no unit covers any of the range".to_string(), |l| format!(
                "after {}",
                name(l)
            ))
        ));
    }
    let shards: Vec<_> = units.iter().filter_map(|u| u.file.shard.as_ref()).collect();
    if let Some(s) = shards.first() {
        if shards.len() == units.len() && shards.iter().all(|t| t.count == s.count) {
            let seen: std::collections::BTreeSet<u64> = shards.iter().map(|t| t.index).collect();
            let missing: Vec<String> = (0..s.count)
                .filter(|i| !seen.contains(i))
                .take(20)
                .map(|i| format!("{i}/{}", s.count))
                .collect();
            if !missing.is_empty() && !problems.is_empty() {
                problems.push(format!("missing shards: {}", missing.join(", ")));
            }
        }
    }
    problems
}

/// Replays a claimed game from its index with both simulators (the
/// record's deal was checked against the index on reading).
fn verify(sim: &mut Simulator, record: &GameRecord, game: &Game) -> anyhow::Result<()> {
    proof::replay(sim, game.deal.a(), game.deal.b(), game.outcome)
        .map_err(|e| anyhow::anyhow!("index {}: {e}", game.index))?;
    if let Some(claimed) = &record.cycle {
        let cycle =
            Cycle::of_penalties(game.deal.a(), game.deal.b()).context("a loop without a cycle")?;
        let actual = CycleRecord::of(&cycle);
        if &actual != claimed {
            bail!(
                "index {} claims cycle {} ({} tricks), but it loops into cycle {} ({} tricks)",
                game.index,
                claimed.id,
                claimed.tricks,
                actual.id,
                actual.tricks
            );
        }
    } else if game.outcome.status == poker_core::camicia::GameEnd::Loop {
        bail!("loop {} has no cycle", game.index);
    }
    Ok(())
}

/// The loops grouped by cycle, most deals first.
fn cycle_counts(loops: &[GameRecord]) -> Vec<CycleCount> {
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
fn cycle_stats(cycles: &[CycleCount], deals: u64, loops: u64) -> CycleStats {
    let singletons = cycles.iter().filter(|c| c.deals == 1).count();
    let doubletons = cycles.iter().filter(|c| c.deals == 2).count();
    let chao1 = (singletons > 0 && doubletons > 0)
        .then(|| cycles.len() as f64 + (singletons * singletons) as f64 / (2 * doubletons) as f64);
    CycleStats {
        distinct: cycles.len(),
        singletons,
        doubletons,
        chao1,
        loop_rate_upper_95: (loops == 0 && deals > 0).then(|| 3.0 / deals as f64),
        loop_rate: if deals == 0 {
            0.0
        } else {
            loops as f64 / deals as f64
        },
    }
}

/// The longest finished game's trace (for the page's plot).
fn longest_trace(report: &Report) -> Option<reference::Trace> {
    let game = report.best.first()?;
    let cards = |p: &[u8]| -> Vec<Card> {
        p.iter()
            .map(|&x| Card::from_penalty(x).expect("a deal's penalties are 0..=4"))
            .collect()
    };
    Some(reference::trace(
        &cards(game.deal.a()),
        &cards(game.deal.b()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Scratch, run_to_end, unit};

    /// Runs the units `ranges`, each to its own result file, and merges them
    /// over `range`; the merge's error, if any.
    fn merge_units(dir: &Scratch, ranges: &[(u128, u128)], range: (u128, u128)) -> Option<String> {
        let results: Vec<PathBuf> = ranges
            .iter()
            .map(|&(start, end)| {
                let path = dir.path(&format!("{start}-{end}.json"));
                run_to_end(&unit(start, end, Some(&path), None));
                path
            })
            .collect();
        let request = Request {
            results,
            range: Some(range),
            top: None,
            target: None,
        };
        merge(&request).err().map(|e| format!("{e:#}"))
    }

    #[test]
    fn units_covering_the_range_once_merge_into_its_counts() {
        let dir = Scratch::new("merge-once");
        let results = [(0, 120), (120, 300)].map(|(start, end)| {
            let path = dir.path(&format!("{start}-{end}.json"));
            run_to_end(&unit(start, end, Some(&path), None));
            path
        });
        let request = Request {
            results: results.to_vec(),
            range: Some((0, 300)),
            top: Some(3),
            target: None,
        };
        let merged = merge(&request).expect("the units merge").merged;
        assert_eq!((merged.start.as_str(), merged.end.as_str()), ("0", "300"));
        assert_eq!(
            (merged.units, merged.counts.deals, merged.best.len()),
            (2, 300, 3)
        );
        assert_eq!(merged.counts.finished + merged.counts.loops, 300);
    }

    #[test]
    fn gaps_and_overlaps_are_named_with_the_units_around_them() {
        let dir = Scratch::new("merge-coverage");
        let error = merge_units(&dir, &[(0, 100), (50, 120), (150, 200)], (0, 200))
            .expect("a gap and an overlap do not merge");
        assert!(error.contains("2 problem(s)"), "{error}");
        assert!(
            error.contains("overlap: indices 50..100 are in both"),
            "{error}"
        );
        assert!(
            error.contains("gap: indices 120..150 are in no unit"),
            "{error}"
        );
        // Short of the declared range's end.
        let error = merge_units(&dir, &[(0, 100)], (0, 110)).expect("a gap at the end");
        assert!(error.contains("gap: indices 100..110"), "{error}");
    }

    #[test]
    fn a_forged_game_length_is_caught_by_replaying_it() {
        let dir = Scratch::new("merge-forged");
        let path = dir.path("unit.json");
        run_to_end(&unit(0, 200, Some(&path), None));
        let mut file: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).expect("the result")).expect("JSON");
        let cards = file["best"][0]["cards"].as_u64().expect("a best game");
        file["best"][0]["cards"] = (cards + 1000).into();
        std::fs::write(&path, file.to_string()).expect("the forged result");
        let request = Request {
            results: vec![path],
            range: None,
            top: None,
            target: None,
        };
        let error = merge(&request).err().map(|e| format!("{e:#}"));
        assert!(
            error
                .as_deref()
                .is_some_and(|e| e.contains("forged or damaged")),
            "{error:?}"
        );
    }

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
        let s = cycle_stats(&seen(&[1, 1, 2, 5]), 1000, 9);
        assert_eq!((s.distinct, s.singletons, s.doubletons), (4, 2, 1));
        assert_eq!(s.chao1, Some(6.0));
        assert_eq!(s.loop_rate_upper_95, None);
        // No doubleton: no estimate, only the count.
        assert_eq!(cycle_stats(&seen(&[1, 3]), 1000, 4).chao1, None);
        // No loop at all: the rule of three, 3 / deals.
        let none = cycle_stats(&[], 3_000_000, 0);
        assert_eq!((none.distinct, none.chao1), (0, None));
        assert_eq!(none.loop_rate_upper_95, Some(1e-6));
    }
}
