//! Keeping a job's evaluator thread and the programs it starts on one CPU.
//!
//! A game is 41 request/answer round trips between the evaluator and the
//! program, each a wake-up of the side that waits. When the two run on
//! different CPUs every wake-up crosses CPUs, which on the virtual
//! machines measured here costs tens of microseconds (an idle CPU must be
//! woken); on one CPU it is a direct switch. Measured with `poker bench`
//! on 2 cores, C greedy, fork server, sandbox on: 3.8 ms a game unpinned,
//! 1.4 ms pinned; a fresh process a game: 10.0 ms and 6.8 ms.
//!
//! Programs inherit the CPU set of the thread that starts them, so a
//! contestant runs on its job's CPU. It may widen its own set again (which
//! only slows it down); its CPU-time and wall-clock limits are unchanged.

use rustix::thread::{CpuSet, sched_getaffinity, sched_setaffinity};

/// The calling thread pinned to one CPU until dropped, when its former
/// CPU set is restored.
pub(crate) struct Pinned {
    former: CpuSet,
}

impl Pinned {
    /// Pins the calling thread to the `job`-th CPU (0-based, counted
    /// modulo their number) of those it may run on now. `None` when the
    /// set cannot be read or changed (the thread then stays as it was).
    pub(crate) fn to_job(job: usize) -> Option<Pinned> {
        let former = sched_getaffinity(None).ok()?;
        let allowed: Vec<usize> = (0..CpuSet::MAX_CPU).filter(|&c| former.is_set(c)).collect();
        if allowed.is_empty() {
            return None;
        }
        let mut one = CpuSet::new();
        one.set(allowed[job % allowed.len()]);
        sched_setaffinity(None, &one).ok()?;
        Some(Pinned { former })
    }
}

impl Drop for Pinned {
    fn drop(&mut self) {
        let _ = sched_setaffinity(None, &self.former);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pinned_thread_runs_on_one_allowed_cpu_and_gets_its_set_back() {
        std::thread::spawn(|| {
            let before = sched_getaffinity(None).unwrap();
            let allowed = before.count() as usize;
            {
                let _pinned = Pinned::to_job(allowed + 1).unwrap();
                let now = sched_getaffinity(None).unwrap();
                assert_eq!(now.count(), 1);
                // Job `allowed + 1` wraps round to the second allowed CPU
                // (the first, with one CPU).
                let second = (0..CpuSet::MAX_CPU)
                    .filter(|&c| before.is_set(c))
                    .nth(1 % allowed)
                    .unwrap();
                assert!(now.is_set(second));
                assert_eq!(rustix::thread::sched_getcpu(), second);
            }
            assert_eq!(sched_getaffinity(None).unwrap(), before);
        })
        .join()
        .unwrap();
    }
}
