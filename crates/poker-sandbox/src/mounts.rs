//! What a game's process sees of the file system.

use std::ffi::OsString;
use std::fs::{self, File};
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a jail's process may see besides `/proc`, a minimal `/dev` and its
/// private `/tmp`: with an [`image`](Mounts::image) (a game), only the
/// image's copies and the binds below; without one (a compilation), also
/// the read-only system (`/usr`, the dynamic linker's and compilers' files
/// of `/etc`).
///
/// Inside paths must lie outside the read-only system folders (`/usr`,
/// `/etc`, `/bin`...), e.g. under `/game` or `/opt`; missing parent folders
/// are created.
#[derive(Debug, Clone, Default)]
pub struct Mounts {
    /// Read-only files and folders: `(host path, path inside)`.
    ///
    /// A file is copied into the jail when it starts, from a descriptor
    /// opened by the evaluator, so it may live anywhere the evaluator can
    /// read (under `/root`, a 0700 folder...); the copy is executable when
    /// the host file is, and counts toward the game's memory. A folder is
    /// bound as it is, so the game's uid must be able to reach it: every
    /// ancestor must be searchable by others (mode `o+x`).
    pub ro_binds: Vec<(PathBuf, PathBuf)>,
    /// Writable folders bound as they are: `(host path, path inside)`. For
    /// tests and debugging only: a contestant could leave anything there.
    pub rw_binds: Vec<(PathBuf, PathBuf)>,
    /// A private root ([`super::Image`]): when set, the jail binds none of
    /// the host's `/usr` and `/etc`, only the image's copies (and the
    /// binds above).
    pub image: Option<Arc<super::Image>>,
}

/// Files and folders of `/etc` bound read-only when present: what the
/// dynamic linker and the usual compilers need.
pub const ETC_FILES: &[&str] = &[
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "alternatives",
    "fpc.cfg",
];

/// Where a game's program lies inside its jail, whatever its name and
/// folder on the host: its `argv[0]`.
pub const PROGRAM_PATH: &str = "/game/program";

/// Where a Python contestant's script lies inside its jail: its
/// `sys.argv[0]` (the interpreter keeps its own path, `/usr/bin/python3`).
pub const PYTHON_SCRIPT_PATH: &str = "/game/program.py";

/// The lowest descriptor number used for files passed to bubblewrap: the
/// caller's own inherited descriptors (such as its channel on fd 3) must be
/// below it.
pub const FIRST_PASSED_FD: i32 = 10;

/// Descriptors and bubblewrap arguments of the caller's mounts.
pub(crate) struct PreparedMounts {
    pub args: Vec<OsString>,
    /// Read-only file copies: bwrap reads them to their end, so they are
    /// rewound before each start.
    pub data_fds: Vec<Arc<OwnedFd>>,
}

/// The files of `/etc` to bind read-only into a jail: [`ETC_FILES`] and
/// Free Pascal's `fpc-*.cfg` found on this machine.
pub(crate) fn etc_files() -> Vec<String> {
    let mut etc: Vec<String> = ETC_FILES.iter().map(|s| s.to_string()).collect();
    if let Ok(dir) = fs::read_dir("/etc") {
        for entry in dir.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with("fpc-") && name.ends_with(".cfg") {
                etc.push(name);
            }
        }
    }
    etc
}

/// Whether uid `nobody`-like strangers can search every ancestor of `dir`
/// and read it: whether a game's own uid can have it bound.
pub fn reachable_by_others(dir: &Path) -> bool {
    let Ok(meta) = fs::metadata(dir) else {
        return false;
    };
    if meta.mode() & 0o005 != 0o005 {
        return false;
    }
    dir.ancestors()
        .skip(1)
        .all(|a| fs::metadata(a).is_ok_and(|m| m.mode() & 0o001 != 0))
}

impl Mounts {
    /// Opens the read-only files and checks the folders.
    ///
    /// `stranger`: the game runs as a uid of its own, so folders must be
    /// reachable by others.
    pub(crate) fn prepare(&self, stranger: bool) -> io::Result<PreparedMounts> {
        let mut args: Vec<OsString> = Vec::new();
        let mut data_fds = Vec::new();
        if let Some(image) = &self.image {
            args.extend(image.bwrap_args());
        }
        for (host, inside) in &self.ro_binds {
            let meta = fs::metadata(host).map_err(|e| annotate(e, host))?;
            if meta.is_dir() {
                if stranger && !reachable_by_others(host) {
                    return Err(io::Error::new(
                        io::ErrorKind::PermissionDenied,
                        format!(
                            "the game's uid cannot reach folder {}: make it and its \
                             ancestors searchable by others, or bind its files one by one",
                            host.display()
                        ),
                    ));
                }
                args.extend(["--ro-bind".into(), host.into(), inside.into()]);
            } else {
                let file = File::open(host).map_err(|e| annotate(e, host))?;
                let fd = rustix::io::fcntl_dupfd_cloexec(file.as_fd(), FIRST_PASSED_FD)?;
                let exec = meta.permissions().mode() & 0o111 != 0;
                args.extend([
                    "--perms".into(),
                    (if exec { "0555" } else { "0444" }).into(),
                    "--ro-bind-data".into(),
                    fd_number(&fd).into(),
                    inside.into(),
                ]);
                data_fds.push(Arc::new(fd));
            }
        }
        for (host, inside) in &self.rw_binds {
            args.extend(["--bind".into(), host.into(), inside.into()]);
        }
        Ok(PreparedMounts { args, data_fds })
    }
}

pub(crate) fn fd_number(fd: &OwnedFd) -> String {
    use std::os::fd::AsRawFd;
    fd.as_raw_fd().to_string()
}

fn annotate(e: io::Error, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}
