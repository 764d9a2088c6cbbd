//! What differs between cgroup v1 and v2 once a game's cgroup is made:
//! the files that report its memory, CPU time and OOM kills, and how it is
//! frozen and killed. One interface, [`Version`], with an implementation
//! for each.

use super::files::{keyed, single, write_file};
use std::fs;
use std::io;
use std::path::Path;
use std::time::Duration;

/// A cgroup version's files and ways. Each method takes the folder of the
/// controller it concerns (on v2 they are all the one folder).
pub(super) trait Version: Send + Sync + std::fmt::Debug {
    /// 1 or 2.
    fn number(&self) -> u8;
    /// How many processes the OOM killer killed.
    fn oom_kills(&self, memory: &Path) -> Option<u64>;
    /// The peak memory in bytes, if the kernel has it.
    fn peak_memory(&self, memory: &Path) -> Option<u64>;
    /// The memory charged now, in bytes.
    fn memory_usage(&self, memory: &Path) -> Option<u64>;
    /// The CPU time all its processes used.
    fn cpu_time(&self, cpu: &Path) -> Option<Duration>;
    /// Freezes (`true`) or thaws (`false`) its processes.
    fn freeze(&self, freezer: &Path, frozen: bool) -> io::Result<()>;
    /// Whether the kernel says every process of it is frozen.
    fn is_frozen(&self, freezer: &Path) -> bool;
    /// Kills every process of the cgroup in `dir` at once when the version
    /// can (whether it did); otherwise makes them killable one by one (a
    /// process frozen by a v1 freezer does not die until it is thawed).
    fn kill_at_once(&self, dir: Option<&Path>, freezer: Option<&Path>) -> bool;
    /// Whether freezing costs a kernel code rewrite that an always-frozen
    /// neighbour avoids (see [`super::FreezerKeepalive`]).
    fn freezer_wants_keepalive(&self) -> bool;
}

/// cgroup v1: a hierarchy per controller.
#[derive(Debug)]
pub(super) struct V1;

/// cgroup v2: one hierarchy.
#[derive(Debug)]
pub(super) struct V2;

impl Version for V1 {
    fn number(&self) -> u8 {
        1
    }
    fn oom_kills(&self, memory: &Path) -> Option<u64> {
        keyed(&memory.join("memory.oom_control"), "oom_kill")
    }
    fn peak_memory(&self, memory: &Path) -> Option<u64> {
        single(&memory.join("memory.max_usage_in_bytes"))
    }
    fn memory_usage(&self, memory: &Path) -> Option<u64> {
        single(&memory.join("memory.usage_in_bytes"))
    }
    fn cpu_time(&self, cpu: &Path) -> Option<Duration> {
        single(&cpu.join("cpuacct.usage")).map(Duration::from_nanos)
    }
    fn freeze(&self, freezer: &Path, frozen: bool) -> io::Result<()> {
        let state = if frozen { "FROZEN" } else { "THAWED" };
        write_file(&freezer.join("freezer.state"), state)
    }
    fn is_frozen(&self, freezer: &Path) -> bool {
        fs::read_to_string(freezer.join("freezer.state")).is_ok_and(|s| s.trim() == "FROZEN")
    }
    fn kill_at_once(&self, _dir: Option<&Path>, freezer: Option<&Path>) -> bool {
        if let Some(freezer) = freezer {
            let _ = self.freeze(freezer, false);
        }
        false
    }
    fn freezer_wants_keepalive(&self) -> bool {
        true
    }
}

impl Version for V2 {
    fn number(&self) -> u8 {
        2
    }
    fn oom_kills(&self, memory: &Path) -> Option<u64> {
        keyed(&memory.join("memory.events"), "oom_kill")
    }
    fn peak_memory(&self, memory: &Path) -> Option<u64> {
        single(&memory.join("memory.peak"))
    }
    fn memory_usage(&self, memory: &Path) -> Option<u64> {
        single(&memory.join("memory.current"))
    }
    fn cpu_time(&self, cpu: &Path) -> Option<Duration> {
        keyed(&cpu.join("cpu.stat"), "usage_usec").map(Duration::from_micros)
    }
    fn freeze(&self, freezer: &Path, frozen: bool) -> io::Result<()> {
        write_file(
            &freezer.join("cgroup.freeze"),
            if frozen { "1" } else { "0" },
        )
    }
    fn is_frozen(&self, freezer: &Path) -> bool {
        keyed(&freezer.join("cgroup.events"), "frozen") == Some(1)
    }
    fn kill_at_once(&self, dir: Option<&Path>, _freezer: Option<&Path>) -> bool {
        // `cgroup.kill` exists from Linux 5.14 on.
        dir.is_some_and(|dir| write_file(&dir.join("cgroup.kill"), "1").is_ok())
    }
    fn freezer_wants_keepalive(&self) -> bool {
        false
    }
}
