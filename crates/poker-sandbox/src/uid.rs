//! Leasing one unprivileged uid per game, exclusively across all evaluator
//! processes on the machine.

use std::fs::{self, DirBuilder, File};
use std::io;
use std::ops::Range;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};

use rustix::fs::{FlockOperation, flock};

/// The default range of uids (and equal gids) leased to games:
/// 2 000 000 000 to 2 000 000 999.
///
/// Chosen to clash with no allocator: Debian gives 0–99 to the base system,
/// 100–999 to system users, 1000–59999 to people, reserves 60000–64999 for
/// its own global allocations and 65534 to `nobody`; systemd uses
/// 61184–65519 for `DynamicUser=` and 524288–1879048191 for containers;
/// `/etc/subuid` ranges conventionally start at 100000 in steps of 65536.
/// The range lies in 1879048192–2147483647, which systemd leaves unused,
/// and below 2^31 so that no tool reads it as negative.
pub const DEFAULT_UID_RANGE: Range<u32> = 2_000_000_000..2_000_001_000;

/// A uid and gid held by one game, exclusively, until dropped.
///
/// Exclusive across every process of the machine: each uid has a lock file
/// under `/run/poker-sandbox/uids/` (or `/tmp/poker-sandbox-uids/` where
/// `/run` is not writable), held with `flock` for the lease's life. The
/// kernel releases the lock when the lease is dropped or its process dies.
#[derive(Debug)]
pub struct UidLease {
    /// The leased uid.
    pub uid: u32,
    /// The leased gid, equal to the uid.
    pub gid: u32,
    _lock: File,
}

impl UidLease {
    /// Leases the first free uid of `range` that no account or group in
    /// `/etc/passwd` or `/etc/group` uses.
    ///
    /// Errors: `PermissionDenied` when not running as root (only root can
    /// change to another uid); `WouldBlock` when every uid of the range is
    /// leased; I/O errors of the lock folder.
    pub fn acquire(range: Range<u32>) -> io::Result<UidLease> {
        if !rustix::process::geteuid().is_root() {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                "a uid lease needs root: only root can run a game as another uid",
            ));
        }
        let dir = lock_dir("uids")?;
        let taken = taken_ids();
        for uid in range.clone() {
            if taken.contains(&uid) {
                continue;
            }
            let file = crate::lease::open_lock(&dir.join(format!("{uid}.lock")))?;
            match flock(&file, FlockOperation::NonBlockingLockExclusive) {
                Ok(()) => {
                    return Ok(UidLease {
                        uid,
                        gid: uid,
                        _lock: file,
                    });
                }
                Err(rustix::io::Errno::WOULDBLOCK) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(io::Error::new(
            io::ErrorKind::WouldBlock,
            format!(
                "every uid of {}..{} is leased to a running game",
                range.start, range.end
            ),
        ))
    }
}

/// The folder of one kind of lock files (`uids`, `lease`):
/// `/run/poker-sandbox/KIND`, else `/tmp/poker-sandbox-KIND`, else (for a
/// user other than root, who cannot use root's) `/tmp/poker-sandbox-KIND-UID`.
/// Created mode 0755, and refused unless it is a real folder owned by us
/// and writable by no one else.
pub(crate) fn lock_dir(kind: &str) -> io::Result<PathBuf> {
    let me = rustix::process::geteuid().as_raw();
    let candidates = [
        PathBuf::from(format!("/run/poker-sandbox/{kind}")),
        PathBuf::from(format!("/tmp/poker-sandbox-{kind}")),
        PathBuf::from(format!("/tmp/poker-sandbox-{kind}-{me}")),
    ];
    let mut last = None;
    for dir in candidates {
        match ensure_private_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) => last = Some(e),
        }
    }
    Err(last.expect("three candidates"))
}

fn ensure_private_dir(dir: &Path) -> io::Result<()> {
    if let Some(parent) = dir.parent()
        && parent != Path::new("/tmp")
        && parent != Path::new("/run")
    {
        ensure_private_dir(parent)?;
    }
    match DirBuilder::new().mode(0o755).create(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    let meta = fs::symlink_metadata(dir)?;
    let me = rustix::process::geteuid().as_raw();
    if !meta.file_type().is_dir() || meta.uid() != me || meta.mode() & 0o022 != 0 {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "{} is not a folder owned by uid {me} and writable only by it",
                dir.display()
            ),
        ));
    }
    Ok(())
}

/// Uids of `/etc/passwd` and gids of `/etc/group`.
fn taken_ids() -> Vec<u32> {
    let mut ids = Vec::new();
    for file in ["/etc/passwd", "/etc/group"] {
        if let Ok(text) = fs::read_to_string(file) {
            ids.extend(
                text.lines()
                    .filter_map(|line| line.split(':').nth(2))
                    .filter_map(|id| id.parse::<u32>().ok()),
            );
        }
    }
    ids
}
