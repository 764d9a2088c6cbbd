//! The Camicia search driver (`camicia::search::Search`) against
//! independent expectations: the published record games of
//! tests/data/camicia/records.json, and reports built deal by deal with the
//! card-by-card reference simulator (which also runs as a plug-in engine).

use crate::camicia_records;

use poker_core::camicia::search::{BATCH, BLOCK, Engine, Game, Report, Search, Work, outcome_hash};
use poker_core::camicia::{Card, Deal, GameEnd, Outcome, Simulator, reference};
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicU64, Ordering};

fn cards(penalties: &[u8]) -> Vec<Card> {
    penalties
        .iter()
        .map(|&p| Card::from_penalty(p).unwrap())
        .collect()
}

/// The reference simulator as a search engine.
struct Reference;

impl Engine for Reference {
    fn run_batch(&mut self, deals: &[Deal], outcomes: &mut [Outcome]) {
        assert!(deals.len() <= BATCH, "a batch of {} deals", deals.len());
        assert_eq!(deals.len(), outcomes.len());
        for (deal, outcome) in deals.iter().zip(outcomes) {
            *outcome = reference::simulate(&cards(deal.a()), &cards(deal.b()));
        }
    }
}

fn threads(n: usize) -> NonZeroUsize {
    NonZeroUsize::new(n).unwrap()
}

/// Runs `search`, checking that the progress calls add up to its deals and
/// that `on_loop` saw exactly the report's loops.
fn run<E: Engine>(search: Search, engine: fn() -> E) -> Report {
    let done = AtomicU64::new(0);
    let mut seen = Vec::new();
    let report = search
        .run(
            engine,
            |n| {
                done.fetch_add(n, Ordering::Relaxed);
            },
            |game| seen.push(*game),
        )
        .unwrap();
    assert_eq!(u128::from(done.into_inner()), search.work.deals());
    assert_eq!(u128::from(report.deals), search.work.deals());
    seen.sort_by_key(|g| g.index);
    assert_eq!(seen, report.loops);
    report
}

/// The published record with this index, as a game.
fn record(index: &str) -> Game {
    let index: u128 = index.parse().unwrap();
    camicia_records::records()
        .into_iter()
        .find(|r| r.index == index)
        .unwrap_or_else(|| panic!("no record with index {index}"))
}

/// Reed Nessler's 8344-card game, the longest published finished game.
const LONGEST: &str = "447247122283566119055";
/// Brayden Casella's non-terminating game.
const LOOP: &str = "472460898658889399111";

#[test]
fn a_range_search_around_the_longest_record_puts_it_first_on_any_thread_count() {
    let want = record(LONGEST);
    // Unaligned to blocks, several blocks and batches of blocks on 1 thread.
    let work = Work::Range {
        start: want.index - 3 * u128::from(BLOCK) - 777,
        end: want.index + 20_000,
    };
    let one = run(
        Search {
            work,
            top: 4,
            threads: threads(1),
            extend: None,
        },
        Simulator::new,
    );
    let three = run(
        Search {
            work,
            top: 4,
            threads: threads(3),
            extend: None,
        },
        Simulator::new,
    );
    assert_eq!(one, three);
    // Any longer game in the range would be a new world record.
    assert_eq!(one.best[0], want);
    assert_eq!(one.best.len(), 4);
}

#[test]
fn a_range_search_over_the_published_loop_reports_it_as_its_only_loop() {
    let want = record(LOOP);
    let work = Work::Range {
        start: want.index - 1000,
        end: want.index + 1000,
    };
    let report = run(
        Search {
            work,
            top: 0,
            threads: threads(2),
            extend: None,
        },
        Simulator::new,
    );
    assert_eq!(report.loops, vec![want]);
    assert!(report.best.is_empty());
}

#[test]
fn a_range_search_gives_the_report_built_deal_by_deal_with_the_reference_simulator() {
    let (start, top) = (100_000_000_000_000_000_123u128, 25);
    let end = start + u128::from(BLOCK) + 1500;
    let mut games: Vec<Game> = (start..end)
        .map(|index| {
            let deal = Deal::unrank(index).unwrap();
            let outcome = reference::simulate(&cards(deal.a()), &cards(deal.b()));
            Game {
                index,
                deal,
                outcome,
            }
        })
        .collect();
    let loops: Vec<Game> = games
        .iter()
        .filter(|g| g.outcome.status == GameEnd::Loop)
        .copied()
        .collect();
    // The checksum sums every deal's hash; the histogram counts finished
    // games in bins of 10 cards.
    let checksum = games.iter().fold(0u64, |sum, g| {
        sum.wrapping_add(outcome_hash(g.index, &g.outcome))
    });
    let mut lengths = Vec::new();
    for g in games
        .iter()
        .filter(|g| g.outcome.status == GameEnd::Finished)
    {
        let bin = (g.outcome.cards / 10) as usize;
        if lengths.len() <= bin {
            lengths.resize(bin + 1, 0u64);
        }
        lengths[bin] += 1;
    }
    games.retain(|g| g.outcome.status == GameEnd::Finished);
    games.sort_by_key(|g| {
        (
            std::cmp::Reverse(g.outcome.cards),
            std::cmp::Reverse(g.outcome.tricks),
            g.index,
        )
    });
    games.truncate(top);
    let want = Report {
        deals: (end - start) as u64,
        best: games,
        loops,
        top,
        lengths,
        checksum,
        extension: Default::default(),
    };
    let search = Search {
        work: Work::Range { start, end },
        top,
        threads: threads(2),
        extend: None,
    };
    assert_eq!(run(search, Simulator::new), want);
}

#[test]
fn the_reference_simulator_plugs_in_as_an_engine_and_matches_the_fast_one() {
    let work = Work::Random {
        seed: 7,
        count: 2 * BLOCK + 321,
    };
    let fast = run(
        Search {
            work,
            top: 10,
            threads: threads(4),
            extend: None,
        },
        Simulator::new,
    );
    let slow = run(
        Search {
            work,
            top: 10,
            threads: threads(2),
            extend: None,
        },
        || Reference,
    );
    assert_eq!(fast, slow);
    assert_eq!(fast.best.len(), 10);
}

#[test]
fn a_range_past_the_last_deal_is_clipped() {
    let last = poker_core::camicia::DEAL_COUNT - 1;
    let work = Work::Range {
        start: last - 9,
        end: last + 1000,
    };
    assert_eq!(work.deals(), 10);
    let report = run(
        Search {
            work,
            top: 100,
            threads: threads(2),
            extend: None,
        },
        Simulator::new,
    );
    let mut seen: Vec<u128> = report.best.iter().map(|g| g.index).collect();
    seen.sort();
    assert_eq!(seen, (last - 9..=last).collect::<Vec<_>>());
}
