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
