//! One cgroup per game: memory and process limits, usage, and killing.

use std::fs::{self, OpenOptions};
use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, kill_process};

use super::error::SandboxError;
use super::limits::Limits;

mod files;
mod keepalive;
mod meter;
mod names;
mod nested;
mod place;
mod shape;
mod v1;
mod version;
use files::write_file;
pub use keepalive::FreezerKeepalive;
pub use meter::{CpuMeter, Waits};
use names::unique_name;
pub use nested::SERVER_LEAF;
pub use place::{CGROUP_ENV, CGROUP_PARENT, SUPERVISOR_LEAF};
use place::{cgroup_mounts, v2_base};
pub use shape::CgroupShape;
use version::{V2, Version};

/// The cgroup of one game.
///
/// Version 2 when a writable cgroup2 hierarchy offers both the `memory` and
/// `pids` controllers (the folder named by `POKER_SANDBOX_CGROUP`, else
/// `<cgroup2 mount>/poker-sandbox/`); otherwise version 1, one group per
/// controller under `/sys/fs/cgroup/<controller>/poker-sandbox/<unique>/`
/// for `memory`, `pids` and `cpuacct` (found through `/proc/self/mounts`),
/// as many of those as are writable. Dropping it kills what is left in it
/// and removes it.
#[derive(Debug)]
pub struct GameCgroup {
    version: &'static dyn Version,
    memory: Option<PathBuf>,
    pids: Option<PathBuf>,
    cpu: Option<PathBuf>,
    /// Where the group is frozen and thawed: the v2 folder, or the v1
    /// `freezer` hierarchy's folder when there is one.
    freezer: Option<PathBuf>,
    /// Every folder created, deepest last.
    dirs: Vec<PathBuf>,
    join: CgroupJoin,
    /// Why the memory or the pids controller is missing, when one is.
    gaps: Option<String>,
    /// A fork server's cgroup on v2: the folder holding its `server/` leaf
    /// and its games' leaves (see [`CgroupShape::ForkServer`]).
    nest: Option<PathBuf>,
}

/// Open `cgroup.procs` files of a game's cgroup, for a `pre_exec` closure:
/// [`CgroupJoin::join`] moves the calling process into the cgroup.
#[derive(Debug, Clone)]
pub struct CgroupJoin {
    procs: Vec<Arc<OwnedFd>>,
}

impl CgroupJoin {
    /// Writes "0" (the calling process) to each open `cgroup.procs`.
    ///
    /// Async-signal-safe: no allocation, one `write` per hierarchy, so it may
    /// run in a `pre_exec` closure between `fork` and `exec`.
    pub fn join(&self) -> io::Result<()> {
        for fd in &self.procs {
            rustix::io::write(&**fd, b"0")?;
        }
        Ok(())
    }
}

fn open_procs(dir: &Path) -> io::Result<Arc<OwnedFd>> {
    let file = OpenOptions::new()
        .write(true)
        .open(dir.join("cgroup.procs"))?;
    Ok(Arc::new(OwnedFd::from(file)))
}

/// How games' memory and process limits are enforced here, checked once
/// by making (and removing) one game's cgroup.
///
/// `Ok(None)`: a cgroup enforces both. `Ok(Some(reason))`: rlimits stand
/// in for one or both, and why. Errors: [`SandboxError::Cgroup`], when
/// `POKER_SANDBOX_CGROUP` names a folder that cannot be used, and why.
pub fn fallback() -> Result<Option<String>, SandboxError> {
    match GameCgroup::create(&Limits::default()) {
        Ok(cg) => Ok(cg.gaps.clone()),
        Err(CgroupError::Unavailable(why)) => Ok(Some(why)),
        Err(CgroupError::Unusable(why)) => Err(SandboxError::Cgroup(why)),
    }
}

/// Why no game cgroup was made, which decides what the game does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CgroupError {
    /// No usable cgroup here (the reasons): rlimits stand in for its
    /// limits.
    Unavailable(String),
    /// A cgroup that must be used cannot be (why): the folder
    /// `POKER_SANDBOX_CGROUP` names (the organiser asked for it), or a fork
    /// server's v1 memory folder that would not count its games' memory.
    /// No fallback: the jail fails.
    Unusable(String),
}

impl std::fmt::Display for CgroupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CgroupError::Unavailable(why) | CgroupError::Unusable(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for CgroupError {}

impl GameCgroup {
    /// Creates the cgroup of one game with `limits.memory` (swap included
    /// where the kernel accounts it) and `limits.processes`.
    ///
    /// Errors: [`CgroupError::Unavailable`] with the reasons when neither a
    /// cgroup v2 with `memory` and `pids` nor any of the v1 hierarchies is
    /// writable (then the caller falls back to rlimits);
    /// [`CgroupError::Unusable`] when the folder named by
    /// `POKER_SANDBOX_CGROUP` cannot be used (no fallback: the organiser
    /// asked for it), or a fork server's v1 memory folder would not count
    /// its games' memory.
    pub fn create(limits: &Limits) -> Result<GameCgroup, CgroupError> {
        Self::create_shaped(limits, CgroupShape::Game)
    }

    /// [`GameCgroup::create`] in the given shape: a game's, or a fork
    /// server's jail, whose limits hold for the server and all its games
    /// (see [`CgroupShape`]).
    pub fn create_shaped(limits: &Limits, shape: CgroupShape) -> Result<GameCgroup, CgroupError> {
        let v2 = match v2_base() {
            Err(named) => return Err(CgroupError::Unusable(named.clone())),
            Ok(Ok(base)) => {
                let named = std::env::var_os(CGROUP_ENV).is_some();
                let made = match shape {
                    CgroupShape::Game => Self::create_v2(base, limits),
                    CgroupShape::ForkServer => Self::create_v2_server(base, limits),
                };
                return made.map_err(|e| {
                    let why = format!("cannot make a game's cgroup in {}: {e}", base.display());
                    if named {
                        CgroupError::Unusable(why)
                    } else {
                        CgroupError::Unavailable(why)
                    }
                });
            }
            Ok(Err(why)) => why,
        };
        let v1 = match Self::create_v1(cgroup_mounts(), &shape.own_limits(limits)) {
            Ok(cg) if shape == CgroupShape::Game => return Ok(cg),
            Ok(cg) => {
                return cg
                    .nest_v1()
                    .map(|()| cg)
                    .map_err(|e| CgroupError::Unusable(e.to_string()));
            }
            Err(e) => e,
        };
        Err(CgroupError::Unavailable(format!(
            "no usable cgroup: v2: {v2}; v1: {v1}"
        )))
    }

    /// A v2 cgroup whose memory and process limits sit on `dir` and whose
    /// CPU time and freezer are `leaf`'s (`dir` itself, or a fork server's
    /// `server/` leaf, with `nest` its games' parent); removes `dir` when
    /// dropped.
    fn v2_at(dir: PathBuf, leaf: PathBuf, nest: Option<PathBuf>) -> Self {
        GameCgroup {
            version: &V2,
            memory: Some(dir.clone()),
            pids: Some(dir.clone()),
            cpu: Some(leaf.clone()),
            freezer: Some(leaf),
            dirs: vec![dir],
            join: CgroupJoin { procs: Vec::new() },
            gaps: None,
            nest,
        }
    }

    fn create_v2(base: &Path, limits: &Limits) -> io::Result<Self> {
        let dir = base.join(unique_name());
        fs::create_dir(&dir)?;
        let mut cg = Self::v2_at(dir.clone(), dir.clone(), None);
        // From here on, dropping `cg` removes the folder.
        write_file(&dir.join("memory.max"), &limits.memory.to_string())?;
        let _ = write_file(&dir.join("memory.swap.max"), "0");
        let _ = write_file(&dir.join("memory.oom.group"), "1");
        write_file(&dir.join("pids.max"), &limits.processes.to_string())?;
        cg.join.procs.push(open_procs(&dir)?);
        Ok(cg)
    }

    /// The cgroup version: 1 or 2.
    pub fn version(&self) -> u8 {
        self.version.number()
    }

    /// The cgroup's folders (one on v2, one per hierarchy on v1), which
    /// dropping it removes.
    pub fn folders(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// Why the memory or the pids controller is missing from this cgroup,
    /// when one is (only on v1 hierarchies).
    pub fn gaps(&self) -> Option<&str> {
        self.gaps.as_deref()
    }

    /// Whether the memory limit is enforced by this cgroup.
    pub(crate) fn limits_memory(&self) -> bool {
        self.memory.is_some()
    }

    /// Whether the process limit is enforced by this cgroup.
    pub(crate) fn limits_processes(&self) -> bool {
        self.pids.is_some()
    }

    /// Moves the process `pid` (as this process sees it) into the cgroup, in
    /// every hierarchy: a fork server's child, which cannot move itself.
    pub fn admit(&self, pid: u32) -> io::Result<()> {
        let text = pid.to_string();
        for fd in &self.join.procs {
            rustix::io::write(&**fd, text.as_bytes())?;
        }
        Ok(())
    }

    /// The open `cgroup.procs` files, for joining in a `pre_exec` closure.
    pub(crate) fn join_fds(&self) -> CgroupJoin {
        self.join.clone()
    }

    /// Whether the kernel's OOM killer killed a process of this game, as
    /// counted by `oom_kill` in `memory.oom_control` (v1) or
    /// `memory.events` (v2). False without a memory cgroup.
    pub fn oom_killed(&self) -> bool {
        let Some(dir) = &self.memory else {
            return false;
        };
        self.version.oom_kills(dir).is_some_and(|n| n > 0)
    }

    /// The game's peak memory in bytes: `memory.max_usage_in_bytes` (v1) or
    /// `memory.peak` (v2), if the kernel has it.
    pub fn peak_memory(&self) -> Option<u64> {
        let dir = self.memory.as_ref()?;
        self.version.peak_memory(dir)
    }

    /// The memory charged to the cgroup now, in bytes:
    /// `memory.usage_in_bytes` (v1) or `memory.current` (v2); `None`
    /// without a memory cgroup.
    pub fn memory_usage(&self) -> Option<u64> {
        let dir = self.memory.as_ref()?;
        self.version.memory_usage(dir)
    }

    /// CPU time used by all the game's processes: `cpuacct.usage` (v1) or
    /// `usage_usec` of `cpu.stat` (v2).
    pub fn cpu_time(&self) -> Option<Duration> {
        let dir = self.cpu.as_ref()?;
        self.version.cpu_time(dir)
    }

    /// Pids of the processes in the cgroup now.
    pub fn pids(&self) -> Vec<u32> {
        let mut pids: Vec<u32> = self
            .dirs
            .iter()
            .filter_map(|d| fs::read_to_string(d.join("cgroup.procs")).ok())
            .flat_map(|t| {
                t.lines()
                    .filter_map(|l| l.parse().ok())
                    .collect::<Vec<u32>>()
            })
            .collect();
        pids.sort_unstable();
        pids.dedup();
        pids
    }

    /// Freezes (`true`) or thaws (`false`) every process in the cgroup:
    /// `cgroup.freeze` (v2) or `freezer.state` (v1). A fork server's cgroup
    /// is frozen while one of its games is played, so that no process left
    /// outside the game's cgroup (the server, its threads, helpers forked
    /// before the game) works for the game beyond the game's limits.
    ///
    /// Errors: `Unsupported` without a freezer; the kernel's, if it refuses.
    pub fn freeze(&self, frozen: bool) -> io::Result<()> {
        let Some(dir) = &self.freezer else {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "no freezer for this cgroup",
            ));
        };
        self.version.freeze(dir, frozen)
    }

    /// Sends SIGKILL to every process in the cgroup (through `cgroup.kill`
    /// on v2 kernels that have it), repeating for processes forked meanwhile,
    /// for at most a second.
    pub fn kill_all(&self) {
        let dir = self.dirs.first().map(PathBuf::as_path);
        if self.version.kill_at_once(dir, self.freezer.as_deref()) {
            return;
        }
        let deadline = Instant::now() + Duration::from_secs(1);
        loop {
            let pids = self.pids();
            if pids.is_empty() || Instant::now() > deadline {
                return;
            }
            for pid in pids {
                if let Some(pid) = Pid::from_raw(pid as i32) {
                    let _ = kill_process(pid, Signal::KILL);
                }
            }
            std::thread::yield_now();
        }
    }
}

impl Drop for GameCgroup {
    /// Kills what is left, waits up to two seconds for the cgroup to empty,
    /// and removes its folders.
    fn drop(&mut self) {
        self.kill_all();
        let deadline = Instant::now() + Duration::from_secs(2);
        while !self.pids().is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        for dir in self.dirs.iter().rev() {
            let _ = fs::remove_dir(dir);
        }
    }
}
