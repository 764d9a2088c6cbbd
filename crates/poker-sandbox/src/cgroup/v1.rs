//! A game's cgroup on cgroup v1, where each controller has its own
//! hierarchy.

use super::files::write_file;
use super::names::{sweep_once, unique_name};
use super::place::CGROUP_PARENT;
use super::version::V1;
use super::{CgroupJoin, GameCgroup, open_procs};
use crate::limits::Limits;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

impl GameCgroup {
    /// A game's cgroup on v1: a folder per controller (`memory`, `pids`,
    /// `cpuacct`, `freezer`) named alike in each hierarchy, as many as are
    /// writable. Errors: why neither memory nor pids could be had.
    pub(super) fn create_v1(
        mounts: &[(PathBuf, String, String)],
        limits: &Limits,
    ) -> io::Result<Self> {
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
}
