//! Running a search (an index range, or random deals) as a work unit: resuming from a checkpoint,
//! saving one every `--checkpoint-every` seconds and on SIGTERM (what Slurm
//! sends a preempted or timed-out job) or SIGINT, and writing the result
//! file.

mod error;

pub use error::RunError;

use crate::unit::{GPU_ENGINE, Timing, UnitFile};
use poker_core::camicia::search::{BLOCK, Extending, Partial, Report, Search, Shard, Work};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// What a unit is: its indices, where it was cut from, and its files.
pub struct Unit {
    /// The indices it covers, `start..end` (for random deals, its draws:
    /// `0..count`, or a shard's, as [`Work::draws`]).
    pub range: (u128, u128),
    /// For random deals: the seed.
    pub random: Option<u64>,
    /// Backward extension (`None`: uniform).
    pub extend: Option<Extending>,
    /// `--shard I/N` and the range it slices (for random deals, the
    /// whole run's draws `0..count`).
    pub shard: Option<(Shard, u128, u128)>,
    /// `--checkpoint FILE`.
    pub checkpoint: Option<PathBuf>,
    /// Save at least this often.
    pub every: Duration,
    /// `--output FILE`.
    pub output: Option<PathBuf>,
    /// The engine's name its files record: [`crate::unit::engine_name`]
    /// for the CPU's, `gpu` for the GPU engine.
    pub engine: String,
}

/// How a unit's run ended.
pub enum UnitEnding {
    /// Every deal simulated.
    Done(Box<Report>),
    /// Stopped by this signal after saving a checkpoint at this index.
    Stopped { signal: i32, next: u128 },
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// CPU seconds of this process so far.
pub fn cpu_seconds() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// The calling thread's CPU time: the clock that times backward extension
/// in the search's worker threads.
pub fn thread_cpu_time() -> std::time::Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    std::time::Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

impl Unit {
    /// The deals this unit simulates.
    pub fn work(&self) -> Work {
        match (self.random, self.shard) {
            (None, _) => Work::Range {
                start: self.range.0,
                end: self.range.1,
            },
            (Some(seed), Some((shard, _, count))) => Work::random_shard(seed, count as u64, shard),
            (Some(seed), None) => Work::Random {
                seed,
                count: (self.range.1 - self.range.0) as u64,
            },
        }
    }

    fn record(&self, report: &Report, next: Option<u128>, timing: Timing) -> UnitFile {
        let mut file = UnitFile::new(report, self.range, next, self.shard, self.random, timing);
        file.engine.clone_from(&self.engine);
        file
    }

    /// The checkpoint's progress, if it exists; an error if it is for
    /// another unit or damaged.
    fn resume(&self, search: &Search) -> Result<Option<(Partial, Timing)>, RunError> {
        let Some(path) = &self.checkpoint else {
            return Ok(None);
        };
        if !path.exists() {
            return Ok(None);
        }
        let file = UnitFile::read(path)?;
        let damaged = |error| RunError::Damaged {
            path: path.clone(),
            error,
        };
        if !file.is_checkpoint() {
            return Err(RunError::NotACheckpoint { path: path.clone() });
        }
        let fresh = self.record(
            &Report::extending(search.top, self.extend),
            Some(self.range.0),
            Timing::default(),
        );
        if (
            file.range().map_err(damaged)?,
            &file.shard,
            file.top,
            &file.random,
            file.extending().map_err(damaged)?,
        ) != (
            self.range,
            &fresh.shard,
            search.top,
            &fresh.random,
            self.extend,
        ) {
            return Err(RunError::OtherUnit {
                path: path.clone(),
                start: file.start,
                end: file.end,
                top: file.top,
                extension_from: file.extension.map(|e| e.from),
            });
        }
        let report = file.report().map_err(damaged)?;
        let done = report.deals;
        let blocks = done / BLOCK;
        if done % BLOCK != 0 && u128::from(done) != self.range.1 - self.range.0 {
            return Err(RunError::NotWholeBlocks {
                path: path.clone(),
                deals: done,
            });
        }
        let blocks = if done % BLOCK == 0 {
            blocks
        } else {
            search.work.blocks()
        };
        Ok(Some((
            Partial { blocks, report },
            file.timing.unwrap_or_default(),
        )))
    }

    /// Runs `search` (over `self.range`) as this unit: resumes from the
    /// checkpoint if there is one, saves checkpoints, and on completion
    /// writes the result file and removes the checkpoint. `resumed` hears
    /// the index a checkpoint resumes at; `run` is the search itself, handed
    /// the starting point and the per-batch hook.
    ///
    /// # Errors
    ///
    /// [`RunError::File`] if the checkpoint cannot be read or a checkpoint
    /// or the result file cannot be written; [`RunError::NotACheckpoint`],
    /// [`RunError::Damaged`], [`RunError::OtherUnit`] and
    /// [`RunError::NotWholeBlocks`] for a checkpoint that cannot be resumed;
    /// [`RunError::Signals`] if SIGTERM and SIGINT cannot be caught;
    /// [`RunError::Remove`] if the finished unit's checkpoint cannot be
    /// removed; [`RunError::Search`] or [`RunError::Engine`] if `run`
    /// fails.
    pub fn run<E>(
        &self,
        search: &Search,
        resumed: impl FnOnce(u128),
        run: impl FnOnce(Partial, &mut dyn FnMut(&Partial) -> ControlFlow<()>) -> Result<Partial, E>,
    ) -> Result<UnitEnding, RunError>
    where
        RunError: From<E>,
    {
        debug_assert_eq!(search.work, self.work());
        debug_assert_eq!(search.extend, self.extend);
        let (from, before) = match self.resume(search)? {
            Some((partial, timing)) => {
                resumed(self.range.0 + u128::from(partial.report.deals));
                (partial, timing)
            }
            None => (
                Partial {
                    blocks: 0,
                    report: Report::extending(search.top, search.extend),
                },
                Timing {
                    started: unix_now(),
                    ..Timing::default()
                },
            ),
        };
        let signal = Arc::new(AtomicUsize::new(0));
        if self.checkpoint.is_some() {
            for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
                signal_hook::flag::register_usize(sig, Arc::clone(&signal), sig as usize)
                    .map_err(RunError::Signals)?;
            }
        }
        let (wall, cpu) = (Instant::now(), cpu_seconds());
        let timing = |written: bool, report: &Report| {
            let ran = wall.elapsed().as_secs_f64();
            Timing {
                seconds: before.seconds + ran,
                cpu_seconds: before.cpu_seconds + (cpu_seconds() - cpu),
                started: before.started,
                written: if written { unix_now() } else { 0 },
                extension_seconds: before.extension_seconds
                    + report.extension.spent.0.as_secs_f64(),
                // The GPU engine holds its GPU for the whole run.
                gpu_seconds: if self.engine == GPU_ENGINE {
                    Some(before.gpu_seconds.unwrap_or(0.0) + ran)
                } else {
                    before.gpu_seconds
                },
            }
        };
        let mut last_save = Instant::now();
        let mut failure = None;
        let mut stopped = None;
        let mut hook = |p: &Partial| -> ControlFlow<()> {
            let Some(path) = &self.checkpoint else {
                return ControlFlow::Continue(());
            };
            let caught = signal.load(Ordering::Relaxed);
            if caught == 0 && last_save.elapsed() < self.every {
                return ControlFlow::Continue(());
            }
            let next = self.range.0 + u128::from(p.report.deals);
            if let Err(e) = self
                .record(&p.report, Some(next), timing(true, &p.report))
                .write(path)
            {
                failure = Some(e);
                return ControlFlow::Break(());
            }
            last_save = Instant::now();
            if caught != 0 {
                stopped = Some((caught as i32, next));
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        };
        let done = run(from, &mut hook)?;
        if let Some(e) = failure {
            return Err(RunError::File(e));
        }
        if let Some((signal, next)) = stopped {
            if done.blocks < search.work.blocks() {
                return Ok(UnitEnding::Stopped { signal, next });
            }
        }
        if let Some(path) = &self.output {
            self.record(&done.report, None, timing(true, &done.report))
                .write(path)?;
        }
        if let Some(path) = &self.checkpoint {
            remove_if_there(path)?;
        }
        Ok(UnitEnding::Done(Box::new(done.report)))
    }

    /// The result file already written for this unit, if `--output` holds
    /// one (a unit requeued after it finished has nothing left to do).
    pub fn finished(&self, top: usize) -> Option<UnitFile> {
        let file = UnitFile::read(self.output.as_deref()?).ok()?;
        let fresh = self.record(
            &Report::extending(top, self.extend),
            None,
            Timing::default(),
        );
        (file.format == fresh.format
            && file.start == fresh.start
            && file.end == fresh.end
            && file.shard == fresh.shard
            && file.random == fresh.random
            && file.extending().ok() == Some(self.extend)
            && file.top == top
            && file.report().is_ok())
        .then_some(file)
    }
}

fn remove_if_there(path: &Path) -> Result<(), RunError> {
    match std::fs::remove_file(path) {
        Err(source) if source.kind() != std::io::ErrorKind::NotFound => Err(RunError::Remove {
            path: path.into(),
            source,
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Scratch, run_to_end, search, unit};
    use poker_core::camicia::VectorSimulator;
    use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

    /// The process killed (SIGKILL, a node lost) in the middle of a run.
    struct Killed;

    /// Runs `unit` until `run` kills it: what it returned (it must not).
    fn killed(run: impl FnOnce() -> Result<UnitEnding, RunError>) {
        match catch_unwind(AssertUnwindSafe(run)) {
            Err(payload) => assert!(payload.is::<Killed>(), "another panic"),
            Ok(ending) => panic!("the unit ended instead of being killed: {:?}", ending.err()),
        }
    }

    /// A result file's bytes before `"timing"`, the part that depends only
    /// on the deals.
    fn deals_part(path: &Path) -> Vec<u8> {
        let bytes = std::fs::read(path).expect("a result file");
        let at = bytes
            .windows(8)
            .position(|w| w == b"\"timing\"")
            .expect("a result file ends with its timing");
        bytes[..at].to_vec()
    }

    #[test]
    fn a_unit_resumed_from_its_checkpoint_writes_what_an_uninterrupted_run_writes() {
        let dir = Scratch::new("resume");
        let end = u128::from(2 * BLOCK);
        // Uninterrupted.
        let whole = dir.path("whole.json");
        assert_eq!(run_to_end(&unit(0, end, Some(&whole), None)), None);
        // Killed after the first block's checkpoint was saved.
        let (output, saved) = (dir.path("unit.json"), dir.path("unit.checkpoint"));
        let first = unit(0, end, Some(&output), Some(&saved));
        let search = search(0, end);
        killed(|| {
            first.run::<RunError>(
                &search,
                |_| panic!("nothing to resume"),
                |mut p, hook| {
                    p.report.merge(
                        search
                            .work
                            .block(&mut VectorSimulator::new(), 0, search.top),
                    );
                    p.blocks = 1;
                    assert!(hook(&p).is_continue());
                    resume_unwind(Box::new(Killed))
                },
            )
        });
        assert!(saved.exists() && !output.exists());
        // Started again with the same arguments: resumes after block 0.
        let again = unit(0, end, Some(&output), Some(&saved));
        assert_eq!(run_to_end(&again), Some(u128::from(BLOCK)));
        assert!(!saved.exists(), "a finished unit removes its checkpoint");
        assert_eq!(deals_part(&output), deals_part(&whole));
        // Requeued once done, it has nothing left to do.
        assert!(again.finished(search.top).is_some());
    }

    #[test]
    fn a_checkpoint_of_another_unit_is_refused() {
        let dir = Scratch::new("other");
        let saved = dir.path("unit.checkpoint");
        let end = u128::from(2 * BLOCK);
        let whole = search(0, end);
        killed(|| {
            unit(0, end, None, Some(&saved)).run::<RunError>(
                &whole,
                |_| {},
                |p, hook| {
                    assert!(hook(&p).is_continue());
                    resume_unwind(Box::new(Killed))
                },
            )
        });
        assert!(saved.exists());
        // The same checkpoint given to the unit 1..end.
        let other = search(1, end);
        let refused = unit(1, end, None, Some(&saved)).run::<RunError>(
            &other,
            |_| panic!("resumed another unit's checkpoint"),
            |p, _| Ok(p),
        );
        let e = match refused {
            Err(e @ RunError::OtherUnit { .. }) => e,
            other => panic!("not refused as another unit's: {:?}", other.err()),
        };
        assert_eq!(
            e.to_string(),
            format!(
                "checkpoint {} is for another unit (0..{end}, top 5, extension off): remove it \
                 or give its arguments",
                saved.display()
            )
        );
    }
}
