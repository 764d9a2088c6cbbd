//! One search run from start to end: plain, or as a work unit (resumed
//! from its checkpoint, saved on a timer and on SIGTERM, its result file
//! written), with its wall and CPU time.

use crate::checkpoint::{RunError, Unit, UnitEnding, cpu_seconds, thread_cpu_time};
use poker_core::camicia::VectorSimulator;
use poker_core::camicia::search::{Game, Partial, Report, Search, time_extension_with};
use std::cell::Cell;
use std::ops::ControlFlow;
use std::time::Instant;

/// What a run tells as it goes (each has a default that ignores it).
pub trait Watch: Sync {
    /// A unit resumes from its checkpoint at this index.
    fn resumed(&self, _at: u128) {}
    /// A unit starts with this many deals already done (0 when fresh).
    fn started(&self, _done: u64) {}
    /// This many more deals simulated (from any worker thread).
    fn advanced(&self, _deals: u64) {}
    /// A deal whose game loops.
    fn looped(&self, _game: &Game) {}
}

/// A search, and the unit it runs as (`None`: no files).
pub struct Hunt {
    /// The deals, the games kept, the threads and the extension.
    pub search: Search,
    /// Its checkpoint and result file, if it has them.
    pub unit: Option<Unit>,
}

/// What a finished run found, and what it cost.
pub struct Found {
    /// The whole unit's report (a resumed unit's includes its checkpoint's).
    pub report: Report,
    /// Deals the checkpoint held when the run started: not this run's work.
    pub before: u64,
    /// Wall seconds of this run.
    pub seconds: f64,
    /// CPU seconds of this run.
    pub cpu_seconds: f64,
}

impl Found {
    /// Deals this run simulated.
    pub fn this_run(&self) -> u64 {
        self.report.deals.saturating_sub(self.before)
    }

    /// This run's deals per wall second.
    pub fn rate(&self) -> f64 {
        self.this_run() as f64 / self.seconds
    }

    /// This run's deals per CPU second.
    pub fn cpu_rate(&self) -> f64 {
        self.this_run() as f64 / self.cpu_seconds
    }
}

/// How a run ended.
pub enum Hunted {
    /// Every deal simulated.
    Done(Box<Found>),
    /// Stopped by this signal after saving a checkpoint at this index.
    Stopped {
        /// The signal caught (SIGTERM or SIGINT).
        signal: i32,
        /// The first index not simulated.
        next: u128,
    },
}

/// What plays a search's blocks from a point reached before, with the
/// contract of [`Search::run_from`] (one batch of blocks between two calls
/// of `after_batch`): the CPU's vector engine ([`Cpu`]), or another engine
/// that gives the same reports (the GPU engine).
pub trait Engine {
    /// Plays blocks `from.blocks ..` of `search` and merges them into
    /// `from.report`, as [`Search::run_from`] does.
    ///
    /// # Errors
    /// [`RunError::Search`] or [`RunError::Engine`] if the engine fails.
    fn run_from(
        &self,
        search: &Search,
        from: Partial,
        progress: &(dyn Fn(u64) + Sync),
        on_loop: &mut dyn FnMut(&Game),
        after_batch: &mut dyn FnMut(&Partial) -> ControlFlow<()>,
    ) -> Result<Partial, RunError>;
}

/// The CPU's vector engine on the search's worker threads.
pub struct Cpu;

impl Engine for Cpu {
    fn run_from(
        &self,
        search: &Search,
        from: Partial,
        progress: &(dyn Fn(u64) + Sync),
        on_loop: &mut dyn FnMut(&Game),
        after_batch: &mut dyn FnMut(&Partial) -> ControlFlow<()>,
    ) -> Result<Partial, RunError> {
        Ok(search.run_from(from, VectorSimulator::new, progress, on_loop, after_batch)?)
    }
}

impl Hunt {
    /// Runs the search with the vector engine, as its unit if it has one.
    ///
    /// # Errors
    ///
    /// [`RunError::Search`] if the search cannot run, and for a unit the
    /// errors of [`Unit::run`].
    pub fn run(&self, watch: &impl Watch) -> Result<Hunted, RunError> {
        self.run_on(&Cpu, watch)
    }

    /// [`Hunt::run`] with another engine.
    ///
    /// # Errors
    ///
    /// As [`Hunt::run`], and [`RunError::Engine`] if the engine fails.
    pub fn run_on(&self, engine: &dyn Engine, watch: &impl Watch) -> Result<Hunted, RunError> {
        time_extension_with(thread_cpu_time);
        let (wall, cpu) = (Instant::now(), cpu_seconds());
        let before = Cell::new(0u64);
        let search = &self.search;
        let advanced = |deals| watch.advanced(deals);
        let mut looped = |game: &Game| watch.looped(game);
        let report = match &self.unit {
            None => {
                let from = Partial {
                    blocks: 0,
                    report: Report::extending(search.top, search.extend),
                };
                let mut go_on = |_: &Partial| ControlFlow::Continue(());
                engine
                    .run_from(search, from, &advanced, &mut looped, &mut go_on)?
                    .report
            }
            Some(unit) => {
                let ending = unit.run(
                    search,
                    |at| watch.resumed(at),
                    |from: Partial, hook| {
                        watch.started(from.report.deals);
                        before.set(from.report.deals);
                        engine.run_from(search, from, &advanced, &mut looped, hook)
                    },
                )?;
                match ending {
                    UnitEnding::Done(report) => *report,
                    UnitEnding::Stopped { signal, next } => {
                        return Ok(Hunted::Stopped { signal, next });
                    }
                }
            }
        };
        Ok(Hunted::Done(Box::new(Found {
            report,
            before: before.get(),
            seconds: wall.elapsed().as_secs_f64(),
            cpu_seconds: cpu_seconds() - cpu,
        })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Scratch, search, unit};
    use std::sync::Mutex;

    /// Counts what it is told.
    #[derive(Default)]
    struct Counted {
        deals: Mutex<u64>,
        loops: Mutex<Vec<u128>>,
    }

    impl Watch for Counted {
        fn advanced(&self, deals: u64) {
            *self.deals.lock().unwrap() += deals;
        }
        fn looped(&self, game: &Game) {
            self.loops.lock().unwrap().push(game.index);
        }
    }

    #[test]
    fn a_plain_run_and_a_unit_find_the_same_games_and_tell_every_deal() {
        let dir = Scratch::new("hunt");
        let (plain, watched) = (
            Hunt {
                search: search(0, 500),
                unit: None,
            },
            Counted::default(),
        );
        let Hunted::Done(found) = plain.run(&watched).expect("runs") else {
            panic!("a plain run is not stopped");
        };
        assert_eq!(
            (found.report.deals, found.before, found.this_run()),
            (500, 0, 500)
        );
        assert_eq!(*watched.deals.lock().unwrap(), 500);
        let loops = found
            .report
            .loops
            .iter()
            .map(|g| g.index)
            .collect::<Vec<_>>();
        assert_eq!(*watched.loops.lock().unwrap(), loops);
        let output = dir.path("unit.json");
        let as_unit = Hunt {
            search: search(0, 500),
            unit: Some(unit(0, 500, Some(&output), None)),
        };
        let Hunted::Done(again) = as_unit.run(&Counted::default()).expect("runs") else {
            panic!("a unit without a checkpoint is not stopped");
        };
        assert_eq!(again.report.best, found.report.best);
        assert_eq!(again.report.checksum, found.report.checksum);
        assert!(output.exists());
    }
}
