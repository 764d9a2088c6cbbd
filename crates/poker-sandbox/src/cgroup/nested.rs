//! A fork server's cgroup: the memory and process limits on the server's
//! whole subtree, a child cgroup per game inside it, and the freezer that
//! holds the server still while a game is played.
//!
//! What a game leaves behind in its server (a memfd, a file in the
//! server's `/tmp`, System V memory) stays charged inside the subtree
//! after the game's own cgroup is removed, so it shrinks what the next game
//! may use, and the server never holds more than the limit on the host.

use super::files::write_file;
use super::names::{game_name, unique_name};
use super::shape::CgroupShape;
use super::{CgroupJoin, GameCgroup, open_procs};
use crate::limits::Limits;
use rustix::process::Pid;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The leaf of a fork server's cgroup (v2) that holds the server's own
/// processes: a v2 cgroup that holds processes cannot enable controllers
/// for children, and freezing a folder freezes its children too.
pub const SERVER_LEAF: &str = "server";

impl GameCgroup {
    /// A fork server's cgroup on v2 (see [`CgroupShape::ForkServer`]).
    pub(super) fn create_v2_server(base: &Path, limits: &Limits) -> io::Result<GameCgroup> {
        let dir = base.join(unique_name());
        fs::create_dir(&dir)?;
        let leaf = dir.join(SERVER_LEAF);
        let mut cg = GameCgroup::v2_at(dir.clone(), leaf.clone(), Some(dir.clone()));
        let limits = CgroupShape::ForkServer.own_limits(limits);
        write_file(&dir.join("memory.max"), &limits.memory.to_string())?;
        let _ = write_file(&dir.join("memory.swap.max"), "0");
        write_file(&dir.join("pids.max"), &limits.processes.to_string())?;
        write_file(&dir.join("cgroup.subtree_control"), "+memory +pids")?;
        fs::create_dir(&leaf)?;
        cg.dirs.push(leaf.clone());
        cg.join.procs.push(open_procs(&leaf)?);
        Ok(cg)
    }

    /// Makes a v1 server's memory folder count its children's memory
    /// (`memory.use_hierarchy`, 1 by default on recent kernels).
    pub(super) fn nest_v1(&self) -> io::Result<()> {
        let Some(memory) = &self.memory else {
            return Ok(());
        };
        let file = memory.join("memory.use_hierarchy");
        let on = |f: &Path| fs::read_to_string(f).is_ok_and(|t| t.trim() == "1");
        if !file.exists() || on(&file) {
            return Ok(());
        }
        write_file(&file, "1")?;
        if on(&file) {
            Ok(())
        } else {
            Err(io::Error::other(format!(
                "{} stays 0: a game's memory would not count towards its server's",
                file.display()
            )))
        }
    }

    /// The cgroup of one game of this fork server's jail, inside it, with
    /// `limits` of its own (the server's limits hold for both together).
    /// Every controller the server's cgroup has, the game's has too: an
    /// error when one cannot be made. On v1 its `cpuacct` and `freezer`
    /// folders are beside the server's, not inside: the server's CPU time
    /// is measured without its games', and freezing the server leaves the
    /// game running.
    pub fn create_game(&self, limits: &Limits) -> io::Result<GameCgroup> {
        let mut cg = GameCgroup {
            version: self.version,
            memory: None,
            pids: None,
            cpu: None,
            freezer: None,
            dirs: Vec::new(),
            join: CgroupJoin { procs: Vec::new() },
            gaps: self.gaps.clone(),
            nest: None,
        };
        if let Some(nest) = &self.nest {
            let dir = nest.join(game_name());
            fs::create_dir(&dir)?;
            cg.dirs.push(dir.clone());
            cg.memory = Some(dir.clone());
            cg.pids = Some(dir.clone());
            cg.cpu = Some(dir.clone());
            cg.freezer = Some(dir.clone());
            write_file(&dir.join("memory.max"), &limits.memory.to_string())?;
            let _ = write_file(&dir.join("memory.swap.max"), "0");
            let _ = write_file(&dir.join("memory.oom.group"), "1");
            write_file(&dir.join("pids.max"), &limits.processes.to_string())?;
            cg.join.procs.push(open_procs(&dir)?);
            return Ok(cg);
        }
        let name = game_name();
        let sibling = unique_name();
        let inside = |dir: &Option<PathBuf>| dir.as_ref().map(|d| d.join(&name));
        let beside = |dir: &Option<PathBuf>| {
            dir.as_ref()
                .and_then(|d| d.parent())
                .map(|p| p.join(&sibling))
        };
        let made = [
            ("memory", inside(&self.memory)),
            ("pids", inside(&self.pids)),
            ("cpuacct", beside(&self.cpu)),
            ("freezer", beside(&self.freezer)),
        ];
        for (ctrl, dir) in made {
            let Some(dir) = dir else { continue };
            // Co-mounted controllers share one folder.
            if !cg.dirs.contains(&dir) {
                fs::create_dir(&dir)?;
                cg.dirs.push(dir.clone());
                cg.join.procs.push(open_procs(&dir)?);
            }
            match ctrl {
                "memory" => {
                    let limit = limits.memory.to_string();
                    write_file(&dir.join("memory.limit_in_bytes"), &limit)?;
                    let memsw = dir.join("memory.memsw.limit_in_bytes");
                    if memsw.exists() {
                        write_file(&memsw, &limit)?;
                    }
                    cg.memory = Some(dir);
                }
                "pids" => {
                    write_file(&dir.join("pids.max"), &limits.processes.to_string())?;
                    cg.pids = Some(dir);
                }
                "cpuacct" => cg.cpu = Some(dir),
                _ => cg.freezer = Some(dir),
            }
        }
        Ok(cg)
    }

    /// Freezes every process of the cgroup and waits until the kernel says
    /// they all are (`frozen 1` in v2's `cgroup.events`, `FROZEN` in v1's
    /// `freezer.state`), or until `deadline` (an error of kind
    /// `TimedOut`). Once frozen, no process of it runs, exits or reaps a
    /// child until it is thawed, so the pids of its processes and of their
    /// children stay theirs.
    pub fn freeze_and_wait(&self, deadline: Instant) -> io::Result<()> {
        self.freeze(true)?;
        let Some(dir) = &self.freezer else {
            return Err(io::ErrorKind::Unsupported.into());
        };
        while !self.version.is_frozen(dir) {
            if Instant::now() > deadline {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("{} did not freeze", dir.display()),
                ));
            }
            // Neither version says when it is done without a read (v1 has
            // no notification at all). Yielding lets the jail's processes,
            // which share this thread's CPU, run into the freezer; a
            // 20 us sleep instead cost more per game (bench, C greedy,
            // loaded machine: 1.56 ms against 1.31 ms).
            std::thread::yield_now();
        }
        Ok(())
    }

    /// Whether the process `pid` is in this cgroup's own folder (the one
    /// that is frozen: a fork server's processes), not in a game's.
    pub fn holds(&self, pid: Pid) -> bool {
        let Some(dir) = &self.freezer else {
            return false;
        };
        let wanted = pid.as_raw_nonzero().get().to_string();
        fs::read_to_string(dir.join("cgroup.procs"))
            .is_ok_and(|procs| procs.lines().any(|line| line == wanted))
    }
}
