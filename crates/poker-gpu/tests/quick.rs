use poker_core::camicia::VectorSimulator;
use poker_core::camicia::search::{Extending, Partial, Report, Search, Work};
use poker_gpu::{Adapters, Checks, Gpu, run_from};
use std::num::NonZeroUsize;
use std::ops::ControlFlow;

fn both(work: Work, top: usize, extend: Option<Extending>) {
    let gpu = Gpu::open(Adapters::Any).expect("a device");
    eprintln!("{}", gpu.describe());
    let search = Search {
        work,
        top,
        threads: NonZeroUsize::new(2).unwrap(),
        extend,
    };
    let t = std::time::Instant::now();
    let cpu = search.run(VectorSimulator::new, |_| {}, |_| {}).unwrap();
    eprintln!("cpu {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let mut checks = Checks::default();
    let from = Partial {
        blocks: 0,
        report: Report::extending(top, extend),
    };
    let g = run_from(
        &gpu,
        &search,
        from,
        |_| {},
        |_| {},
        |_| ControlFlow::Continue(()),
        &mut checks,
    )
    .unwrap();
    eprintln!("gpu {:?} {checks:?}", t.elapsed());
    assert_eq!(g.report.deals, cpu.deals);
    assert_eq!(g.report.lengths, cpu.lengths);
    assert_eq!(g.report.checksum, cpu.checksum);
    assert_eq!(g.report, cpu);
}

#[test]
fn random_small() {
    both(
        Work::Random {
            seed: 7,
            count: 100_000,
        },
        10,
        Some(Extending::DEFAULT),
    );
}

#[test]
fn range_small() {
    both(
        Work::Range {
            start: 447247122283566119055 - 50_000,
            end: 447247122283566119055 + 50_000,
        },
        10,
        Some(Extending::DEFAULT),
    );
}
