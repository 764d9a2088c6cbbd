//! What the unit tests share: a scratch folder and small units run for
//! real (a few hundred deals, no subprocess).

use crate::checkpoint::{Unit, UnitEnding};
use poker_core::camicia::VectorSimulator;
use poker_core::camicia::search::{Partial, Search, Work};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A fresh scratch folder for one test, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(test: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("poker-hunt-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        Scratch(dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The uniform search of `start..end` on one thread, keeping 5 games.
pub fn search(start: u128, end: u128) -> Search {
    Search {
        work: Work::Range { start, end },
        top: 5,
        threads: NonZeroUsize::MIN,
        extend: None,
    }
}

/// The unit of `start..end` writing `output`, checkpointing to
/// `checkpoint` after every batch.
pub fn unit(start: u128, end: u128, output: Option<&Path>, checkpoint: Option<&Path>) -> Unit {
    Unit {
        range: (start, end),
        random: None,
        extend: None,
        shard: None,
        checkpoint: checkpoint.map(Path::to_path_buf),
        every: Duration::ZERO,
        output: output.map(Path::to_path_buf),
        engine: crate::unit::engine_name().into(),
    }
}

/// Runs `unit` over its range to the end; the index it resumed at, if it
/// resumed.
pub fn run_to_end(unit: &Unit) -> Option<u128> {
    let search = search(unit.range.0, unit.range.1);
    let mut resumed = None;
    let ending = unit
        .run(
            &search,
            |at| resumed = Some(at),
            |from: Partial, hook| search.run_from(from, VectorSimulator::new, |_| {}, |_| {}, hook),
        )
        .expect("the unit runs");
    assert!(matches!(ending, UnitEnding::Done(_)));
    resumed
}
