//! One cgroup per game: memory and process limits, usage, and killing.

use std::fs::{self, OpenOptions};
use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rustix::process::{Pid, Signal, kill_process};

use super::error::SandboxError;
use super::limits::Limits;

mod files;
mod nested;
mod version;
use files::write_file;
pub use nested::{CgroupShape, SERVER_LEAF};
use version::{V1, V2, Version};

/// The folder name under each hierarchy (v1) or under the v2 base that
/// holds the games' cgroups.
pub const CGROUP_PARENT: &str = "poker-sandbox";

/// The environment variable naming a delegated cgroup v2 folder to create
/// the games' cgroups in, instead of `<cgroup2 mount>/poker-sandbox` (for
/// systemd hosts, where the root cgroup belongs to systemd). A folder named
/// there that cannot be used is an error, never a silent fallback.
pub const CGROUP_ENV: &str = "POKER_SANDBOX_CGROUP";

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

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Removes, once per process and folder, the empty cgroups in `parent`
/// left by evaluators that were killed before they could remove them:
/// folders named by [`unique_name`] whose process is gone. A frozen one
/// (a killed fork server's keepalive) is thawed first.
fn sweep_once(parent: &Path) {
    static SWEPT: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    let mut swept = SWEPT.lock().unwrap_or_else(|e| e.into_inner());
    if swept.iter().any(|p| p == parent) {
        return;
    }
    swept.push(parent.to_owned());
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for dir in entries.flatten().map(|e| e.path()) {
        let owner = dir
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.split('-').next())
            .and_then(|pid| pid.parse::<i32>().ok())
            .and_then(Pid::from_raw);
        let gone = owner.is_some_and(|pid| {
            rustix::process::test_kill_process(pid) == Err(rustix::io::Errno::SRCH)
        });
        let empty = fs::read_to_string(dir.join("cgroup.procs")).is_ok_and(|p| p.is_empty());
        if gone && empty {
            let _ = write_file(&dir.join("freezer.state"), "THAWED");
            // A fork server's games' folders (v1 memory and pids) first.
            for game in fs::read_dir(&dir).into_iter().flatten().flatten() {
                if game.file_name().to_string_lossy().starts_with("game-") {
                    let _ = fs::remove_dir(game.path());
                }
            }
            let _ = fs::remove_dir(&dir);
        }
    }
}

fn unique_name() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(
        "{}-{}-{nanos}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// Mount points of cgroup hierarchies: `(path, fstype, options)`, read
/// once: a cgroup is made for every game, and the mounts do not change
/// under a running evaluator.
fn cgroup_mounts() -> &'static [(PathBuf, String, String)] {
    static MOUNTS: OnceLock<Vec<(PathBuf, String, String)>> = OnceLock::new();
    MOUNTS.get_or_init(read_cgroup_mounts)
}

fn read_cgroup_mounts() -> Vec<(PathBuf, String, String)> {
    let text = fs::read_to_string("/proc/self/mounts").unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let mut f = line.split(' ');
            let (_src, path, fstype, opts) = (f.next()?, f.next()?, f.next()?, f.next()?);
            (fstype == "cgroup" || fstype == "cgroup2").then(|| {
                (
                    PathBuf::from(path.replace("\\040", " ")),
                    fstype.to_owned(),
                    opts.to_owned(),
                )
            })
        })
        .collect()
}

fn open_procs(dir: &Path) -> io::Result<Arc<OwnedFd>> {
    let file = OpenOptions::new()
        .write(true)
        .open(dir.join("cgroup.procs"))?;
    Ok(Arc::new(OwnedFd::from(file)))
}

/// The leaf folder, under a delegated `POKER_SANDBOX_CGROUP` folder, that
/// the evaluator moves itself into when it was started inside that folder
/// (as `systemd-run --scope -p Delegate=yes` does): cgroup v2 lets a folder
/// either hold processes or enable controllers for its children, not both.
pub const SUPERVISOR_LEAF: &str = "supervisor";

/// Whether `dir`'s `cgroup.subtree_control` lists both `memory` and `pids`.
fn delegates_memory_and_pids(dir: &Path) -> bool {
    fs::read_to_string(dir.join("cgroup.subtree_control")).is_ok_and(|t| {
        let on: Vec<&str> = t.split_whitespace().collect();
        on.contains(&"memory") && on.contains(&"pids")
    })
}

/// The folder named by `POKER_SANDBOX_CGROUP`, made ready for games'
/// cgroups: `memory` and `pids` enabled for its children, the evaluator
/// moved into `<folder>/supervisor` first when it lives in the folder.
/// Errors: why the folder cannot be used, as a sentence naming it.
fn prepare_named(base: &Path) -> Result<PathBuf, String> {
    let named = format!("{CGROUP_ENV}={}", base.display());
    if !base.is_dir() {
        return Err(format!("{named}: no such folder"));
    }
    let controllers = fs::read_to_string(base.join("cgroup.controllers"))
        .map_err(|_| format!("{named}: not a cgroup v2 folder (it has no cgroup.controllers)"))?;
    let offered: Vec<&str> = controllers.split_whitespace().collect();
    if !offered.contains(&"memory") || !offered.contains(&"pids") {
        return Err(format!(
            "{named}: its parent does not delegate the memory and pids controllers \
             (it offers: {}); enable them in the parent's cgroup.subtree_control",
            controllers.trim()
        ));
    }
    if delegates_memory_and_pids(base) {
        return Ok(base.to_owned());
    }
    let enable = || write_file(&base.join("cgroup.subtree_control"), "+memory +pids");
    match enable() {
        Ok(()) => return Ok(base.to_owned()),
        // EBUSY: processes live in the folder itself.
        Err(e) if e.kind() == io::ErrorKind::ResourceBusy => {}
        Err(e) => return Err(format!("{named}: {e}")),
    }
    let own = std::process::id().to_string();
    let others: Vec<String> = fs::read_to_string(base.join("cgroup.procs"))
        .unwrap_or_default()
        .lines()
        .filter(|pid| *pid != own)
        .map(str::to_owned)
        .collect();
    if !others.is_empty() {
        return Err(format!(
            "{named}: processes other than this evaluator live in it (pids {}), so it cannot \
             enable controllers for the games; start the evaluator alone in it",
            others.join(" ")
        ));
    }
    let leaf = base.join(SUPERVISOR_LEAF);
    let moved = match fs::create_dir(&leaf) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => Err(e),
        _ => write_file(&leaf.join("cgroup.procs"), "0"),
    };
    moved
        .and_then(|()| enable())
        .map(|()| base.to_owned())
        .map_err(|e| format!("{named}: {e}"))
}

/// `<cgroup2 mount>/poker-sandbox`, made ready for games' cgroups, when
/// the cgroup2 hierarchy offers `memory` and `pids` and is writable.
fn prepare_automatic(mounts: &[(PathBuf, String, String)]) -> Result<PathBuf, String> {
    let Some((mount, _, _)) = mounts.iter().find(|(_, t, _)| t == "cgroup2") else {
        return Err("no cgroup2 mount".into());
    };
    let controllers = fs::read_to_string(mount.join("cgroup.controllers"))
        .map_err(|e| format!("{}: {e}", mount.display()))?;
    let has = |c: &str| controllers.split_whitespace().any(|x| x == c);
    if !has("memory") || !has("pids") {
        return Err(format!(
            "{} offers no memory and pids controllers",
            mount.display()
        ));
    }
    if !delegates_memory_and_pids(mount) {
        write_file(&mount.join("cgroup.subtree_control"), "+memory +pids")
            .map_err(|e| e.to_string())?;
    }
    let base = mount.join(CGROUP_PARENT);
    match fs::create_dir(&base) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => {
            return Err(format!("cannot create {}: {e}", base.display()));
        }
        _ => {}
    }
    if !delegates_memory_and_pids(&base) {
        write_file(&base.join("cgroup.subtree_control"), "+memory +pids")
            .map_err(|e| e.to_string())?;
    }
    Ok(base)
}

/// The cgroup v2 folder games' cgroups are made in, prepared once per
/// process: `Ok(Ok(base))`; `Ok(Err(why))` when there is none here (then
/// cgroup v1 or rlimits stand in); `Err(why)` when `POKER_SANDBOX_CGROUP`
/// names a folder that cannot be used.
fn v2_base() -> &'static Result<Result<PathBuf, String>, String> {
    static BASE: OnceLock<Result<Result<PathBuf, String>, String>> = OnceLock::new();
    BASE.get_or_init(|| match std::env::var_os(CGROUP_ENV) {
        Some(dir) => prepare_named(Path::new(&dir)).map(Ok),
        None => Ok(prepare_automatic(cgroup_mounts())),
    })
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

    fn create_v1(mounts: &[(PathBuf, String, String)], limits: &Limits) -> io::Result<Self> {
        let find = |ctrl: &str| {
            mounts
                .iter()
                .find(|(_, t, o)| t == "cgroup" && o.split(',').any(|x| x == ctrl))
                .map(|(p, _, _)| p.clone())
        };
        let name = unique_name();
        let mut cg = GameCgroup {
            version: &V1,
            memory: None,
            pids: None,
            cpu: None,
            freezer: None,
            dirs: Vec::new(),
            join: CgroupJoin { procs: Vec::new() },
            gaps: None,
            nest: None,
        };
        let mut errors = Vec::new();
        // A game of a fork server needs its freezer folder too, although
        // nothing freezes it: joining it takes the game out of its
        // server's, which is frozen while the game is played.
        for ctrl in ["memory", "pids", "cpuacct", "freezer"] {
            let Some(mount) = find(ctrl) else {
                errors.push(format!("no {ctrl} hierarchy"));
                continue;
            };
            // Co-mounted controllers (cpu,cpuacct) share one folder.
            let dir = mount.join(CGROUP_PARENT).join(&name);
            let fresh = !cg.dirs.contains(&dir);
            let made = if fresh {
                Self::make_v1_dir(&mount, &dir).map(|()| cg.dirs.push(dir.clone()))
            } else {
                Ok(())
            };
            let set = made.and_then(|()| match ctrl {
                "memory" => {
                    let limit = limits.memory.to_string();
                    write_file(&dir.join("memory.limit_in_bytes"), &limit)?;
                    let memsw = dir.join("memory.memsw.limit_in_bytes");
                    if memsw.exists() {
                        write_file(&memsw, &limit)?;
                    }
                    Ok(())
                }
                "pids" => write_file(&dir.join("pids.max"), &limits.processes.to_string()),
                _ => Ok(()),
            });
            let joined = set.and_then(|()| {
                if fresh {
                    cg.join.procs.push(open_procs(&dir)?);
                }
                Ok(())
            });
            match joined {
                Ok(()) => match ctrl {
                    "memory" => cg.memory = Some(dir),
                    "pids" => cg.pids = Some(dir),
                    "freezer" => cg.freezer = Some(dir),
                    _ => cg.cpu = Some(dir),
                },
                Err(e) => errors.push(format!("{ctrl}: {e}")),
            }
        }
        if cg.memory.is_none() && cg.pids.is_none() {
            return Err(io::Error::other(errors.join("; ")));
        }
        if cg.memory.is_none() || cg.pids.is_none() {
            cg.gaps = Some(format!(
                "cgroup v1 lacks a controller: {}",
                errors.join("; ")
            ));
        }
        Ok(cg)
    }

    fn make_v1_dir(mount: &Path, dir: &Path) -> io::Result<()> {
        let parent = mount.join(CGROUP_PARENT);
        match fs::create_dir(&parent) {
            Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
            _ => {}
        }
        sweep_once(&parent);
        fs::create_dir(dir)
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
    pub(crate) fn admit(&self, pid: u32) -> io::Result<()> {
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
    pub(crate) fn memory_usage(&self) -> Option<u64> {
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
    pub(crate) fn freeze(&self, frozen: bool) -> io::Result<()> {
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
    pub(crate) fn kill_all(&self) {
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

/// An empty cgroup held frozen in the v1 `freezer` hierarchy for as long
/// as it lives, beside a fork server's cgroup that is frozen and thawed
/// around each game.
///
/// The v1 freezer turns a kernel static key on when the first cgroup of
/// the machine freezes and off when the last one thaws; each turn rewrites
/// kernel code on every CPU (about a quarter of a millisecond, measured
/// with `perf`). While one empty cgroup stays frozen the key stays on, and
/// freezing or thawing the server costs only the write. The key being on
/// costs the rest of the machine next to nothing (a slower check when a
/// task may be frozen). Dropping it thaws and removes the folder.
#[derive(Debug)]
pub struct FreezerKeepalive {
    dir: PathBuf,
}

impl GameCgroup {
    /// A [`FreezerKeepalive`] beside this cgroup's freezer folder, on v1
    /// only (the v2 freezer has no such cost); `None` without a v1 freezer
    /// or if the folder cannot be made and frozen (freezing then just
    /// costs more).
    pub fn freezer_keepalive(&self) -> Option<FreezerKeepalive> {
        if !self.version.freezer_wants_keepalive() {
            return None;
        }
        let parent = self.freezer.as_ref()?.parent()?;
        let dir = parent.join(unique_name());
        fs::create_dir(&dir).ok()?;
        let keepalive = FreezerKeepalive { dir };
        write_file(&keepalive.dir.join("freezer.state"), "FROZEN").ok()?;
        Some(keepalive)
    }
}

impl Drop for FreezerKeepalive {
    fn drop(&mut self) {
        let _ = write_file(&self.dir.join("freezer.state"), "THAWED");
        let _ = fs::remove_dir(&self.dir);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A pid that no process holds: a child's, once it is reaped.
    fn dead_pid() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        child.wait().unwrap();
        child.id()
    }

    #[test]
    fn empty_cgroups_of_gone_evaluators_are_swept_once_live_ones_kept() {
        let Some((mount, _, _)) = cgroup_mounts()
            .iter()
            .find(|(_, t, o)| t == "cgroup" && o.split(',').any(|c| c == "freezer"))
        else {
            // Only v1 hierarchies are swept: a v2 machine has nothing to show.
            assert!(cgroup_mounts().iter().any(|(_, t, _)| t == "cgroup2"));
            return;
        };
        let parent = mount.join("poker-sweep-test");
        let _ = fs::create_dir(&parent);
        let stale = parent.join(format!("{}-0-1", dead_pid()));
        let live = parent.join(format!("{}-0-1", std::process::id()));
        for dir in [&stale, &live] {
            fs::create_dir(dir).unwrap();
        }
        write_file(&stale.join("freezer.state"), "FROZEN").unwrap();
        sweep_once(&parent);
        assert!(!stale.exists(), "a gone evaluator's frozen cgroup stays");
        assert!(live.exists(), "a live evaluator's cgroup was removed");
        // Once per process: a second stale folder is left for the next run.
        let later = parent.join(format!("{}-0-2", dead_pid()));
        fs::create_dir(&later).unwrap();
        sweep_once(&parent);
        assert!(later.exists());
        for dir in [&live, &later, &parent] {
            fs::remove_dir(dir).unwrap();
        }
    }
}
