//! The checks before a merge: each file on its own, the range covered
//! exactly once (or distinct seeds for random deals), and every claimed
//! game replayed.

use super::error::{ClaimError, ExtensionClaimError, MergeError, Problem};
use crate::proof;
use crate::unit::{CycleRecord, GameRecord, UnitFile};
use poker_core::camicia::cycle::Cycle;
use poker_core::camicia::search::{Game, Report, Work};
use poker_core::camicia::{Deal, Simulator};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A unit file read and checked on its own.
pub(super) struct Checked {
    pub path: PathBuf,
    pub start: u128,
    pub end: u128,
    pub file: UnitFile,
    pub report: Report,
}

/// The units, checked, and what they cover.
pub(super) struct Checks {
    /// Every unit.
    pub units: Vec<Checked>,
    /// The range they cover (for random deals, `0..` their draws).
    pub range: (u128, u128),
    /// How many are units of random deals.
    pub random: usize,
    /// Games replayed.
    pub verified: usize,
}

/// Reads and checks every file of `results`, and that they cover `range`
/// (when given) each index once: an error naming every problem found, or
/// the units.
pub(super) fn check_all(
    results: &[PathBuf],
    range: Option<(u128, u128)>,
) -> Result<Checks, MergeError> {
    let mut problems = Vec::new();
    let mut units = Vec::new();
    for path in results {
        match check_file(path) {
            Ok(unit) => units.push(unit),
            Err(problem) => problems.push(*problem),
        }
    }
    let random = units.iter().filter(|u| u.file.random.is_some()).count();
    let range = if random > 0 {
        if random < units.len() {
            problems.push(Problem::MixedModes);
        }
        if range.is_some() {
            problems.push(Problem::RangeWithRandom);
        }
        problems.extend(seeds_covered(&units));
        Some((0, units.iter().map(|u| u.end - u.start).sum()))
    } else {
        let all: Vec<&Checked> = units.iter().collect();
        let range = range.or_else(|| shard_range(&all)).or_else(|| {
            let start = units.iter().map(|u| u.start).min()?;
            Some((start, units.iter().map(|u| u.end).max()?))
        });
        if let Some(range) = range {
            problems.extend(coverage(&all, range, None));
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
            if let Err(error) = verify(&mut sim, record, game) {
                problems.push(Problem::Claim {
                    path: unit.path.clone(),
                    error,
                });
            }
        }
        for e in &unit.report.extension.extended {
            verified += 1;
            if let Err(error) = verify_extended(&mut sim, e) {
                problems.push(Problem::Claim {
                    path: unit.path.clone(),
                    error: ClaimError::Extended {
                        index: e.game.index,
                        error,
                    },
                });
            }
        }
    }
    if !problems.is_empty() {
        return Err(MergeError::Problems(problems));
    }
    let Some(range) = range else {
        return Err(MergeError::NoResults);
    };
    Ok(Checks {
        units,
        range,
        random,
        verified,
    })
}

/// Units of random deals of one seed must be shards of one run that tile
/// it: two whole runs of a seed drew the same deals, and shards are
/// checked like index ranges over the run's draws (gaps, overlaps and
/// missing shards named).
fn seeds_covered(units: &[Checked]) -> Vec<Problem> {
    let mut by_seed: BTreeMap<u64, Vec<&Checked>> = BTreeMap::new();
    for u in units {
        if let Some(r) = &u.file.random {
            by_seed.entry(r.seed).or_default().push(u);
        }
    }
    let mut problems = Vec::new();
    for (seed, group) in by_seed {
        if group.iter().all(|u| u.file.shard.is_none()) {
            if group.len() > 1 {
                problems.push(Problem::SameSeed {
                    seed,
                    paths: group.iter().map(|u| u.path.clone()).collect(),
                });
            }
            continue;
        }
        let range = shard_range(&group).unwrap_or_else(|| {
            (
                group.iter().map(|u| u.start).min().unwrap_or(0),
                group.iter().map(|u| u.end).max().unwrap_or(0),
            )
        });
        problems.extend(coverage(&group, range, Some(seed)));
    }
    problems
}

/// Replays an extended deal, the deal it came from, and checks that their
/// games meet where claimed.
fn verify_extended(
    sim: &mut Simulator,
    e: &poker_core::camicia::search::Extended,
) -> Result<(), ExtensionClaimError> {
    proof::replay(sim, e.game.deal.a(), e.game.deal.b(), e.game.outcome)
        .map_err(ExtensionClaimError::Replay)?;
    let from =
        Deal::unrank(e.from).ok_or(ExtensionClaimError::SourcePastLastDeal { from: e.from })?;
    let own = sim.run_unchecked(from.a(), from.b());
    if own.cards + e.added != e.game.outcome.cards {
        return Err(ExtensionClaimError::Added {
            added: e.added,
            from: e.from,
            plays: own,
        });
    }
    proof::joins(&from, &e.game.deal, e.added, e.joins_trick).map_err(|error| {
        ExtensionClaimError::Join {
            from: e.from,
            error,
        }
    })
}

/// Reads one unit file and checks it on its own (a problem is boxed: most
/// files have none).
fn check_file(path: &std::path::Path) -> Result<Checked, Box<Problem>> {
    let file = UnitFile::read(path).map_err(Problem::Unreadable)?;
    if !file.is_result() {
        return Err(Box::new(Problem::Checkpoint { path: path.into() }));
    }
    let invalid = |error| Problem::Invalid {
        path: path.into(),
        error,
    };
    let (start, end) = file.range().map_err(invalid)?;
    if let Some(s) = &file.shard {
        let shard_index = |name, text| {
            crate::unit::index_field(name, text).map_err(|error| {
                Box::new(Problem::ShardIndex {
                    path: path.into(),
                    error,
                })
            })
        };
        let from = shard_index("shard.start", &s.start)?;
        let to = shard_index("shard.end", &s.end)?;
        let shard = poker_core::camicia::search::Shard {
            index: s.index,
            count: s.count,
        };
        let want = match &file.random {
            // A slice of the run's blocks: its draws.
            Some(r) if s.index < s.count && from == 0 && to <= u128::from(u64::MAX) => {
                let blocks = crate::unit::random_blocks(r.seed, to, shard);
                if s.blocks != Some(blocks) {
                    return Err(Box::new(Problem::ShardBlocks {
                        path: path.into(),
                        claimed: s.blocks,
                        slice: blocks,
                    }));
                }
                Work::random_shard(r.seed, to as u64, shard).draws()
            }
            Some(_) => (from, from),
            None => shard.slice(from, to),
        };
        if s.index >= s.count || want != (start, end) {
            return Err(Box::new(Problem::Shard {
                path: path.into(),
                index: s.index,
                count: s.count,
                range: (from, to),
                slice: want,
                covers: (start, end),
            }));
        }
    }
    let report = file.report().map_err(invalid)?;
    Ok(Checked {
        path: path.to_path_buf(),
        start,
        end,
        file,
        report,
    })
}

/// The range every unit's shard was cut from, if they all say the same.
fn shard_range(units: &[&Checked]) -> Option<(u128, u128)> {
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
fn coverage(units: &[&Checked], (start, end): (u128, u128), seed: Option<u64>) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut order: Vec<&Checked> = units.iter().copied().filter(|u| u.start < u.end).collect();
    order.sort_by_key(|u| (u.start, u.end));
    let path = |u: &Checked| u.path.clone();
    let mut cursor = start;
    let mut last: Option<&Checked> = None;
    for u in order {
        if u.start < start || u.end > end {
            problems.push(Problem::Outside {
                seed,
                path: path(u),
                covers: (u.start, u.end),
                range: (start, end),
            });
        }
        if u.start > cursor {
            problems.push(Problem::Gap {
                seed,
                start: cursor,
                end: u.start,
                after: last.map(path),
                before: Some(path(u)),
            });
        } else if let (true, Some(l)) = (u.start < cursor, last) {
            // Without a unit before it, a unit starting before the cursor
            // starts before the range: it is outside, told above.
            problems.push(Problem::Overlap {
                seed,
                start: u.start.max(start),
                end: cursor.min(u.end),
                first: path(l),
                second: path(u),
            });
        }
        if u.end > cursor {
            cursor = u.end;
            last = Some(u);
        }
    }
    if cursor < end {
        problems.push(Problem::Gap {
            seed,
            start: cursor,
            end,
            after: last.map(path),
            before: None,
        });
    }
    let shards: Vec<_> = units.iter().filter_map(|u| u.file.shard.as_ref()).collect();
    if let Some(s) = shards.first() {
        if shards.len() == units.len() && shards.iter().all(|t| t.count == s.count) {
            let seen: std::collections::BTreeSet<u64> = shards.iter().map(|t| t.index).collect();
            let missing: Vec<u64> = (0..s.count)
                .filter(|i| !seen.contains(i))
                .take(20)
                .collect();
            if !missing.is_empty() && !problems.is_empty() {
                problems.push(Problem::MissingShards {
                    seed,
                    count: s.count,
                    missing,
                });
            }
        }
    }
    problems
}

/// Replays a claimed game from its index with both simulators (the
/// record's deal was checked against the index on reading).
fn verify(sim: &mut Simulator, record: &GameRecord, game: &Game) -> Result<(), ClaimError> {
    let index = game.index;
    proof::replay(sim, game.deal.a(), game.deal.b(), game.outcome)
        .map_err(|error| ClaimError::Replay { index, error })?;
    if let Some(claimed) = &record.cycle {
        let cycle = Cycle::of_penalties(game.deal.a(), game.deal.b())
            .ok_or(ClaimError::NoCycle { index })?;
        let actual = CycleRecord::of(&cycle);
        if &actual != claimed {
            return Err(ClaimError::WrongCycle {
                index,
                claimed: Box::new(claimed.clone()),
                actual: Box::new(actual),
            });
        }
    } else if game.outcome.status == poker_core::camicia::GameEnd::Loop {
        return Err(ClaimError::MissingCycle { index });
    }
    Ok(())
}
