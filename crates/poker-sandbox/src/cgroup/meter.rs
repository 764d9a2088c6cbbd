//! A game cgroup's CPU time, read by a thread that watches the game (see
//! the evaluator's CPU watch) while the cgroup itself stays with the jail.

use super::GameCgroup;
use super::version::Version;
use std::path::PathBuf;
use std::time::Duration;

/// Reads the CPU time of every process of one game's cgroup.
#[derive(Clone, Debug)]
pub struct CpuMeter {
    version: &'static dyn Version,
    dir: PathBuf,
}

impl CpuMeter {
    /// The CPU time the cgroup has counted so far; `None` once it is gone.
    pub fn read(&self) -> Option<Duration> {
        self.version.cpu_time(&self.dir)
    }

    /// How long the threads of the cgroup alive now have waited on a run
    /// queue, ready to run, and run (`/proc/TID/schedstat`; threads that
    /// ended are no longer counted); `None` when it cannot be read.
    pub fn waits(&self) -> Option<Waits> {
        let tids = ["cgroup.threads", "tasks"]
            .iter()
            .find_map(|name| std::fs::read_to_string(self.dir.join(name)).ok())?;
        let mut waits = Waits::default();
        for tid in tids.split_ascii_whitespace() {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{tid}/schedstat")) else {
                continue; // Ended meanwhile.
            };
            let mut fields = stat.split_ascii_whitespace();
            let mut next = || fields.next().and_then(|ns| ns.parse::<u64>().ok());
            let (ran, waited) = (next()?, next()?);
            waits.summed += Duration::from_nanos(waited);
            waits.longest_ready = waits.longest_ready.max(Duration::from_nanos(ran + waited));
        }
        Some(waits)
    }
}

/// How long a game's threads waited for a CPU, from [`CpuMeter::waits`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Waits {
    /// Their waits added up. Threads of one game waiting at the same time
    /// count each: more than the game waited.
    pub summed: Duration,
    /// The longest one thread was ready to run: its run time and its wait.
    /// On one CPU the game was ready at least that long, and waited (none
    /// of its threads running) at least that less the game's CPU time.
    pub longest_ready: Duration,
}

impl GameCgroup {
    /// A meter of this cgroup's CPU time; `None` without a CPU controller
    /// (a v1 host without `cpuacct`).
    pub fn cpu_meter(&self) -> Option<CpuMeter> {
        Some(CpuMeter {
            version: self.version,
            dir: self.cpu.clone()?,
        })
    }
}

#[cfg(test)]
impl CpuMeter {
    /// A meter over a cgroup folder that does not exist.
    pub(crate) fn unreadable_for_tests() -> CpuMeter {
        CpuMeter {
            version: &super::version::V2,
            dir: "/nonexistent/poker-test-cgroup".into(),
        }
    }
}
