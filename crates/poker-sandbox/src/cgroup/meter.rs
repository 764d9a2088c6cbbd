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
    /// queue, ready to run (`/proc/TID/schedstat`'s second field; threads
    /// that ended are no longer counted); `None` when it cannot be read.
    pub fn waited(&self) -> Option<Duration> {
        let tids = ["cgroup.threads", "tasks"]
            .iter()
            .find_map(|name| std::fs::read_to_string(self.dir.join(name)).ok())?;
        let mut waited = 0u64;
        for tid in tids.split_ascii_whitespace() {
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{tid}/schedstat")) else {
                continue; // Ended meanwhile.
            };
            waited += stat
                .split_ascii_whitespace()
                .nth(1)
                .and_then(|ns| ns.parse::<u64>().ok())?;
        }
        Some(Duration::from_nanos(waited))
    }
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
