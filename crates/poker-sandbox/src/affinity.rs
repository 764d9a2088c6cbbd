//! Keeping a job's evaluator thread and the programs it starts on one CPU,
//! the quietest one or one the organiser names.
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

use super::load::{busy_times, own_cpus};
use rustix::thread::{CpuSet, sched_getaffinity, sched_setaffinity};
use std::time::Duration;

/// How long the CPUs' load is sampled to choose the quietest.
pub const LOAD_SAMPLE: Duration = Duration::from_millis(100);

/// The calling thread pinned to one CPU until dropped, when its former
/// CPU set is restored.
pub struct Pinned {
    former: CpuSet,
}

impl Pinned {
    /// Pins the calling thread to CPU `cpu`. `None` when the set cannot be
    /// read or changed (the thread then stays as it was).
    pub fn to_cpu(cpu: usize) -> Option<Pinned> {
        let former = sched_getaffinity(None).ok()?;
        let mut one = CpuSet::new();
        one.set(cpu);
        sched_setaffinity(None, &one).ok()?;
        Some(Pinned { former })
    }
}

/// Which CPUs `jobs` games at a time run on, one a job (counted modulo
/// their number): `named` ones (the organiser's `--cpus`), else the
/// allowed CPUs with the least load over [`LOAD_SAMPLE`], quietest first.
/// Empty when the calling thread's CPU set cannot be read.
pub fn choose(named: Option<&[usize]>, jobs: usize) -> Vec<usize> {
    let candidates = match named {
        Some(named) if !named.is_empty() => named.to_vec(),
        _ => own_cpus(),
    };
    if candidates.len() <= 1 {
        return candidates;
    }
    let before = busy_times();
    std::thread::sleep(LOAD_SAMPLE);
    let after = busy_times();
    let load = |cpu: usize| {
        let at = |times: &Option<Vec<Option<Duration>>>| {
            times.as_ref().and_then(|t| t.get(cpu).copied().flatten())
        };
        at(&after)
            .zip(at(&before))
            .map_or(Duration::ZERO, |(a, b)| a.saturating_sub(b))
    };
    let mut ranked = candidates;
    // Stable: equal loads keep the allowed (or named) order.
    ranked.sort_by_key(|&cpu| load(cpu));
    ranked.truncate(jobs.max(1).min(ranked.len()));
    ranked
}

/// The CPUs this process may run on, for checking an organiser's list.
pub fn allowed_cpus() -> Vec<usize> {
    own_cpus()
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
    fn a_pinned_thread_runs_on_its_cpu_and_gets_its_set_back() {
        std::thread::spawn(|| {
            let before = sched_getaffinity(None).unwrap();
            let last = allowed_cpus().into_iter().last().unwrap();
            {
                let _pinned = Pinned::to_cpu(last).unwrap();
                let now = sched_getaffinity(None).unwrap();
                assert_eq!(now.count(), 1);
                assert!(now.is_set(last));
                assert_eq!(rustix::thread::sched_getcpu(), last);
            }
            assert_eq!(sched_getaffinity(None).unwrap(), before);
        })
        .join()
        .unwrap();
    }

    #[test]
    fn the_chosen_cpus_are_named_or_allowed_ones() {
        let allowed = allowed_cpus();
        let chosen = choose(None, 1);
        assert_eq!(chosen.len(), 1);
        assert!(allowed.contains(&chosen[0]));
        let all = choose(None, allowed.len() + 3);
        let mut sorted = all.clone();
        sorted.sort();
        assert_eq!(sorted, allowed);
        // Named: one of those, whatever the load elsewhere.
        let named = [allowed[allowed.len() - 1]];
        assert_eq!(choose(Some(&named), 2), named);
    }
}
