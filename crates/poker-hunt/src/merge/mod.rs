//! Work units' result files combined after checking them: coverage of the
//! range (gaps and overlaps named; units of random deals instead need
//! distinct seeds), each file's own consistency, and every claimed best
//! game, extended deal and loop replayed from its index
//! with both the fast engine and the reference simulator (each loop's cycle
//! extracted again, each extended deal's game seen to join the game it
//! extends). Units of random deals also give the odds of a record (see
//! [`crate::odds`]).

mod checks;
mod cycles;
mod error;

pub use cycles::{CycleCount, CycleStats};
pub use error::{ClaimError, ExtensionClaimError, MergeError, Problem};

use crate::cost::{self, EngineCost};
use crate::odds::{self, Odds};
use crate::unit::{ExtendedRecord, GameRecord, UnitFile};
use checks::{Checked, Checks, check_all};
use cycles::{cycle_counts, cycle_stats};
use poker_core::camicia::search::{ExtensionWork, Game, LENGTH_BIN, Report};
use poker_core::camicia::{Card, reference};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// The longest known terminating game (Nessler, 2022), the default target.
const RECORD_CARDS: u64 = 8344;

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
    /// What a deal cost each engine that made the units (GPU-seconds
    /// beside CPU-seconds for the GPU engine).
    pub costs: Vec<EngineCost>,
    /// The odds of a game beyond the target (units of random deals), at
    /// the speed of each engine.
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
///
/// # Errors
///
/// [`MergeError::Problems`] with every problem found: files that cannot be
/// read or say what cannot be, checkpoints, gaps, overlaps, units outside
/// the range, seeds drawn twice, mixed kinds of units, claims that do not
/// replay. [`MergeError::NoResults`] if there is nothing to merge,
/// [`MergeError::Top`] if `top` asks for more games than a unit kept.
pub fn merge(request: &Request) -> Result<Outcome, MergeError> {
    let started = Instant::now();
    let Checks {
        units,
        range,
        random,
        verified,
    } = check_all(&request.results, request.range)?;
    let (start, end) = range;
    let top = units.iter().map(|u| u.file.top).min().unwrap_or(0);
    let top = match request.top {
        Some(asked) if asked > top => return Err(MergeError::Top { asked, kept: top }),
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
    let files: Vec<&UnitFile> = units.iter().map(|u| &u.file).collect();
    let fitted = (random > 0 && random == units.len()).then(|| odds::fit(&files, target));
    let costs = cost::by_engine(&files);
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
        cycle_stats: cycle_stats(&cycles, deals, loops.len() as u64, random > 0),
        loops,
        cycles,
        mode: if random > 0 { "random" } else { "range" },
        seeds: {
            let mut seeds: Vec<u64> = units
                .iter()
                .filter_map(|u| Some(u.file.random.as_ref()?.seed))
                .collect();
            seeds.sort_unstable();
            seeds.dedup();
            seeds
        },
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
        costs,
        odds: fitted,
        verified_games: verified,
        seconds: started.elapsed().as_secs_f64(),
    };
    let longest = longest_trace(&report);
    Ok(Outcome { merged, longest })
}
/// How units of random deals cover their deals: `N units of distinct
/// seeds`, or with shards `N units of S seed(s), shards that tile each
/// run`.
pub fn random_coverage(m: &Merged) -> String {
    use poker_core::numbers::count;
    if m.seeds.len() == m.units {
        format!("{} unit(s) of distinct seeds", count(m.units))
    } else {
        format!(
            "{} unit(s) of {} seed(s), shards that tile each seed's run once",
            count(m.units),
            count(m.seeds.len())
        )
    }
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

/// The record written for `game` by the unit holding it.
fn record_of(units: &[Checked], game: &Game) -> GameRecord {
    units
        .iter()
        .flat_map(|u| u.file.best.iter().zip(&u.report.best))
        .find(|(_, g)| g.index == game.index)
        .map_or_else(|| GameRecord::of(game), |(r, _)| r.clone())
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
    fn a_unit_starting_before_the_range_is_outside_it_not_an_overlap() {
        let dir = Scratch::new("merge-before");
        let error = merge_units(&dir, &[(0, 100), (100, 200)], (10, 200))
            .expect("a unit outside the range does not merge");
        assert_eq!(
            error,
            format!(
                "the units do not merge (1 problem(s)):\n  {} covers 0..100, outside the range \
                 10..200",
                dir.path("0-100.json").display()
            )
        );
        // Wholly before the range, beside a unit that starts it.
        let error = merge_units(&dir, &[(0, 5), (10, 200)], (10, 200))
            .expect("a unit outside the range does not merge");
        assert_eq!(
            error,
            format!(
                "the units do not merge (1 problem(s)):\n  {} covers 0..5, outside the range \
                 10..200",
                dir.path("0-5.json").display()
            )
        );
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
            results: vec![path.clone()],
            range: None,
            top: None,
            target: None,
        };
        let error = merge(&request).err().expect("a forged game does not merge");
        let text = format!("{error:#}");
        assert!(text.contains("forged or damaged"), "{text}");
        let MergeError::Problems(problems) = error else {
            panic!("not the merge's problems: {text}");
        };
        // The one problem: the claim, in its file, replayed to its length.
        let [
            Problem::Claim {
                path: named,
                error:
                    ClaimError::Replay {
                        error: crate::proof::ProofError::Forged { claimed, plays },
                        ..
                    },
            },
        ] = problems.as_slice()
        else {
            panic!("not one forged claim: {text}");
        };
        assert_eq!(named, &path);
        assert_eq!((claimed.cards, plays.cards), (cards + 1000, cards));
    }
}
