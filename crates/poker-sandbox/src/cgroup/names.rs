//! Names of games' cgroup folders, and the sweep of folders left behind by
//! evaluators that were killed.

use super::files::write_file;
use rustix::process::Pid;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Numbers the folders this process makes.
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Removes, once per process and folder, the empty cgroups in `parent`
/// left by evaluators that were killed before they could remove them:
/// folders named by [`unique_name`] whose process is gone. A frozen one
/// (a killed fork server's keepalive) is thawed first.
pub(super) fn sweep_once(parent: &Path) {
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

/// A folder name no other folder of this machine has: this process's id
/// (what [`sweep_once`] reads), a counter and the clock's nanoseconds.
pub(super) fn unique_name() -> String {
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

/// A fork server's game's folder name, unique within its server's folder.
pub(super) fn game_name() -> String {
    format!("game-{}", COUNTER.fetch_add(1, Ordering::Relaxed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cgroup::place::cgroup_mounts;

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
