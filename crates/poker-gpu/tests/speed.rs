use poker_core::camicia::search::{Partial, Report, Search, Work};
use poker_gpu::{Adapters, Checks, Gpu, run_from};
use std::num::NonZeroUsize;
use std::ops::ControlFlow;
#[test]
fn speed() {
    let gpu = Gpu::open(Adapters::Any).expect("a device");
    for work in [
        Work::Random {
            seed: 7,
            count: 16384 * 9,
        },
        Work::Range {
            start: 447247122283566119055,
            end: 447247122283566119055 + 16384 * 9,
        },
    ] {
        let search = Search {
            work,
            top: 0,
            threads: NonZeroUsize::new(2).unwrap(),
            extend: None,
        };
        let t = std::time::Instant::now();
        let mut checks = Checks::default();
        let from = Partial {
            blocks: 0,
            report: Report::new(0),
        };
        let r = run_from(
            &gpu,
            &search,
            from,
            |_| {},
            |_| {},
            |_| ControlFlow::Continue(()),
            &mut checks,
        );
        eprintln!("{work:?} {:?} {:?}", t.elapsed(), r.err());
    }
}
