//! Keeping the v1 freezer's kernel switch on while a fork server is
//! frozen and thawed around each game.

use super::GameCgroup;
use super::files::write_file;
use super::names::unique_name;
use std::fs;
use std::path::PathBuf;

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
