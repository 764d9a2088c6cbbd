//! A contestant's private root: copies of exactly the files its program
//! needs, at the paths it expects, in a folder of its own that every one of
//! its games gets bound read-only instead of the host's `/usr` and `/etc`.
//! No game then reads a host file another contestant's game reads, so the
//! page cache carries nothing between them.
//!
//! When the evaluator is root the folder is a tmpfs it mounts (mode 0755,
//! readable by the games' leased uids, under the 0711 scratch folder),
//! unmounted when the image is dropped; an evaluator that was killed
//! leaves it mounted, and the next one unmounts it ([`clean_stale`]).
//! Without root (no mount, no uid change: games run as the organiser) it is
//! a plain folder of copies on the temporary folder's file system, just as
//! private to the contestant.

use std::ffi::OsString;
use std::fs::{self, File, Permissions};
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};

use super::closure::Copy;

/// Top folders bound file by file rather than as a whole: the game's own
/// `/tmp` tmpfs, `/proc`, `/dev` and `/run` (where the reaper goes).
const FILE_BY_FILE: &[&str] = &["tmp", "proc", "dev", "run"];

/// A private root, removed (and unmounted) when dropped.
#[derive(Debug)]
pub struct Image {
    dir: PathBuf,
    mounted: bool,
    binds: Vec<(PathBuf, PathBuf)>,
    bytes: u64,
}

impl PartialEq for Image {
    fn eq(&self, other: &Image) -> bool {
        self.dir == other.dir
    }
}
impl Eq for Image {}

impl Image {
    /// Makes the folder `dir` (which must not exist; its parent must be
    /// reachable by others), mounts a tmpfs of a little more than the
    /// files' size on it when root, and copies `files` in (contents, mode
    /// and modification time, so Python's compiled modules stay valid).
    ///
    /// Errors: those of making, mounting or copying.
    pub fn build(dir: &Path, files: &[Copy]) -> io::Result<Image> {
        fs::create_dir(dir)?;
        let mut image = Image {
            dir: dir.to_path_buf(),
            mounted: false,
            binds: Vec::new(),
            bytes: 0,
        };
        let mut bytes = 0u64;
        for f in files {
            bytes += fs::metadata(&f.host).map(|m| m.len()).unwrap_or(0);
        }
        if rustix::process::geteuid().is_root() {
            use rustix::mount::{MountFlags, mount};
            // Each file rounds up to pages; folders take some too.
            let size = bytes + (files.len() as u64 + 64) * 8192 + (1 << 20);
            let data = std::ffi::CString::new(format!("mode=0755,size={size}"))
                .expect("no NUL in the options");
            mount(
                "poker-image",
                dir,
                "tmpfs",
                MountFlags::NOSUID | MountFlags::NODEV,
                Some(data.as_c_str()),
            )?;
            image.mounted = true;
        }
        fs::set_permissions(dir, Permissions::from_mode(0o755))?;
        let mut tops = std::collections::BTreeSet::new();
        for f in files {
            let relative = relative(&f.inside)?;
            let target = dir.join(&relative);
            if let Some(parent) = target.parent() {
                fs::create_dir_all(parent)?;
            }
            let meta = fs::metadata(&f.host).map_err(|e| annotate(e, &f.host))?;
            fs::copy(&f.host, &target).map_err(|e| annotate(e, &f.host))?;
            fs::set_permissions(
                &target,
                Permissions::from_mode(meta.permissions().mode() & 0o755),
            )?;
            if let Ok(modified) = meta.modified() {
                File::options()
                    .write(true)
                    .open(&target)?
                    .set_modified(modified)?;
            }
            let top = relative
                .components()
                .next()
                .map(|c| c.as_os_str().to_owned());
            match top {
                Some(top) if !FILE_BY_FILE.iter().any(|t| top == *t) => {
                    if tops.insert(top.clone()) {
                        image
                            .binds
                            .push((dir.join(&top), Path::new("/").join(&top)));
                    }
                }
                _ => image.binds.push((target, f.inside.clone())),
            }
        }
        // Folders are 0755 whatever the umask.
        for entry in walk_dirs(dir) {
            fs::set_permissions(entry, Permissions::from_mode(0o755))?;
        }
        image.bytes = bytes;
        Ok(image)
    }

    /// The folder holding the copies.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The size of the copies, in bytes.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// bubblewrap's arguments binding the copies read-only where the
    /// program expects them: each top folder as a whole (`/usr`, the
    /// library folder's...), files under `/tmp` one by one.
    pub(crate) fn bwrap_args(&self) -> Vec<OsString> {
        let mut args = Vec::new();
        for (host, inside) in &self.binds {
            args.extend([OsString::from("--ro-bind"), host.into(), inside.into()]);
        }
        args
    }
}

impl Drop for Image {
    fn drop(&mut self) {
        if self.mounted {
            let _ = rustix::mount::unmount(&self.dir, rustix::mount::UnmountFlags::DETACH);
        }
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// Unmounts the images left mounted under `base/<prefix>*` by evaluators
/// that are gone (killed before they could clean up), and removes their
/// scratch folders. An evaluator's scratch folder holds its pid in the file
/// `pid`; one whose process is gone is stale.
pub fn clean_stale(base: &Path, prefix: &str) {
    let Ok(mountinfo) = fs::read_to_string("/proc/self/mountinfo") else {
        return;
    };
    let Ok(base) = fs::canonicalize(base) else {
        return;
    };
    let mut stale_scratch = std::collections::BTreeSet::new();
    for line in mountinfo.lines() {
        let Some(point) = line.split(' ').nth(4) else {
            continue;
        };
        let point = PathBuf::from(point.replace("\\040", " "));
        let Ok(rest) = point.strip_prefix(&base) else {
            continue;
        };
        let Some(Component::Normal(first)) = rest.components().next() else {
            continue;
        };
        if !first.to_string_lossy().starts_with(prefix) {
            continue;
        }
        let scratch = base.join(first);
        let owner: Option<i32> = fs::read_to_string(scratch.join("pid"))
            .ok()
            .and_then(|t| t.trim().parse().ok());
        let alive = owner.is_some_and(|pid| Path::new(&format!("/proc/{pid}")).exists());
        if !alive {
            let _ = rustix::mount::unmount(&point, rustix::mount::UnmountFlags::DETACH);
            stale_scratch.insert(scratch);
        }
    }
    for scratch in stale_scratch {
        let _ = fs::remove_dir_all(scratch);
    }
}

fn relative(inside: &Path) -> io::Result<PathBuf> {
    let ok = inside.is_absolute()
        && inside
            .components()
            .skip(1)
            .all(|c| matches!(c, Component::Normal(_)));
    if !ok {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: not a plain absolute path", inside.display()),
        ));
    }
    Ok(inside.components().skip(1).collect())
}

fn walk_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![dir.to_path_buf()];
    let mut i = 0;
    while i < out.len() {
        if let Ok(entries) = fs::read_dir(&out[i]) {
            for e in entries.flatten() {
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    out.push(e.path());
                }
            }
        }
        i += 1;
    }
    out
}

fn annotate(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}
