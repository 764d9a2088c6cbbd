//! The vector engine (`camicia::VectorSimulator`, the search's engine)
//! against independent outcomes: the published record games of
//! tests/data/camicia/records.json (finished and looping), the card-by-card
//! reference simulator, and the fast engine (itself checked against the
//! reference elsewhere), on both of its paths.

use crate::camicia_records;

use poker_core::camicia::search::{Engine, Search, Work, random_deals};
use poker_core::camicia::{Card, Deal, GameEnd, Outcome, Simulator, VectorSimulator, reference};
use std::num::NonZeroUsize;

fn cards(penalties: &[u8]) -> Vec<Card> {
    penalties
        .iter()
        .map(|&p| Card::from_penalty(p).unwrap())
        .collect()
}

/// Every published record: its deal and its published outcome.
fn records() -> Vec<(Deal, Outcome)> {
    camicia_records::records()
        .into_iter()
        .map(|r| (r.deal, r.outcome))
        .collect()
}

fn batch(engine: &mut impl Engine, deals: &[Deal]) -> Vec<Outcome> {
    let mut outcomes = vec![Outcome::new(GameEnd::Finished, 0, 0); deals.len()];
    engine.run_batch(deals, &mut outcomes);
    outcomes
}

fn fast(deals: &[Deal]) -> Vec<Outcome> {
    let mut sim = Simulator::new();
    deals
        .iter()
        .map(|d| sim.run_unchecked(d.a(), d.b()))
        .collect()
}

#[test]
fn the_vector_path_runs_wherever_the_machine_has_avx2() {
    // Otherwise every other test here would check the fast engine against
    // itself.
    let plain = std::env::var_os("POKER_PLAIN").is_some_and(|v| !v.is_empty() && v != "0");
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && !plain {
        assert!(VectorSimulator::new().is_vector());
    }
    assert!(!VectorSimulator::with_vector(false).is_vector());
}

#[test]
fn every_published_record_comes_out_as_published_wherever_it_sits_in_a_batch() {
    // The records include games of over 8000 cards, and a loop, which the
    // engine hands to the fast engine after its round limit.
    let records = records();
    assert!(records.iter().any(|(_, o)| o.status == GameEnd::Loop));
    let filler = random_deals(21, 40);
    for vector in [true, false] {
        let mut sim = VectorSimulator::with_vector(vector);
        for (deal, want) in &records {
            assert_eq!(sim.run(deal), *want, "alone: {deal}");
            for (len, at) in [(1, 0), (9, 0), (9, 8), (16, 7), (17, 16), (40, 23)] {
                let mut deals = filler[..len].to_vec();
                deals[at] = *deal;
                let got = batch(&mut sim, &deals);
                assert_eq!(got[at], *want, "{deal} at {at} of {len}");
                assert_eq!(got, fast(&deals), "the other deals, {len}");
            }
        }
    }
}

#[test]
fn random_deals_agree_with_the_reference_and_the_fast_engine() {
    let deals = random_deals(1, 200_000);
    let mut sim = VectorSimulator::new();
    let got = batch(&mut sim, &deals);
    for (deal, outcome) in deals.iter().zip(&got).take(500) {
        let want = reference::simulate(&cards(deal.a()), &cards(deal.b()));
        assert_eq!(*outcome, want, "{deal}");
    }
    assert_eq!(got, fast(&deals));
    // Batches of every small size, and deal by deal.
    let mut at = 0;
    for len in 0..=40 {
        let part = &deals[at..at + len];
        assert_eq!(batch(&mut sim, part), got[at..at + len], "a batch of {len}");
        at += len;
    }
    for (deal, want) in deals.iter().zip(&got).take(300) {
        assert_eq!(sim.run(deal), *want);
    }
}

#[test]
fn index_ranges_agree_with_the_fast_engine() {
    // Neighbouring indices share most of their cards, and so most of their
    // games: the start of the numbering, and around the longest record.
    for start in [0, 447_247_122_283_566_109_055u128] {
        let mut deal = Deal::unrank(start).unwrap();
        let deals: Vec<Deal> = (0..20_000)
            .map(|_| {
                let d = deal;
                deal.advance();
                d
            })
            .collect();
        assert_eq!(batch(&mut VectorSimulator::new(), &deals), fast(&deals));
    }
}

#[test]
fn a_search_with_the_vector_engine_reports_what_the_fast_engine_reports() {
    let threads = NonZeroUsize::new(2).unwrap();
    for work in [
        Work::Random {
            seed: 9,
            count: 100_000,
        },
        // Around the published loop.
        Work::Range {
            start: 472_460_898_658_889_389_111,
            end: 472_460_898_658_889_409_111,
        },
    ] {
        let search = Search {
            work,
            top: 25,
            threads,
            extend: None,
        };
        let vector = search.run(VectorSimulator::new, |_| {}, |_| {}).unwrap();
        let plain = search.run(Simulator::new, |_| {}, |_| {}).unwrap();
        assert_eq!(vector, plain, "{work:?}");
    }
}
