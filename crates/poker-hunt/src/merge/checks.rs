//! The checks before a merge: each file on its own, the range covered
//! exactly once (or distinct seeds for random deals), and every claimed
//! game replayed.

use crate::proof;
use crate::unit::{CycleRecord, GameRecord, UnitFile};
use anyhow::{Context, bail};
use poker_core::camicia::cycle::Cycle;
use poker_core::camicia::search::{Game, Report};
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
) -> anyhow::Result<Checks> {
    let mut problems = Vec::new();
    let mut units = Vec::new();
    for path in results {
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
        if range.is_some() {
            problems.push("--range: units of random deals cover no index range".into());
        }
        problems.extend(distinct_seeds(&units));
        Some((0, units.iter().map(|u| u.end - u.start).sum()))
    } else {
        let range = range.or_else(|| shard_range(&units)).or_else(|| {
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
    let Some(range) = range else {
        bail!("no result files");
    };
    Ok(Checks {
        units,
        range,
        random,
        verified,
    })
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
