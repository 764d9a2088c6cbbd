//! Running one game's program inside bubblewrap.

use std::ffi::OsString;
use std::io;
use std::ops::Range;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rustix::io::FdFlags;
use rustix::pipe::PipeFlags;
use rustix::process::{Resource, Rlimit};

use super::cgroup::{CgroupError, CgroupJoin, CgroupShape, CpuMeter, GameCgroup};
use super::error::SandboxError;
use super::facts::{CgroupFacts, JailFacts};
use super::fds::memory_file;
use super::filter::Role as FilterRole;
use super::limits::{LimitReport, Limits};
use super::mounts::{FIRST_PASSED_FD, Mounts, etc_files};
use super::plan::{PassedFds, SystemView, bwrap_command_tail, bwrap_options, rlimits};
use super::reaper::{REAPER, Report as ReaperReport};
use super::status::{ProgramEnding, status_field, wait_status_ending};
use super::uid::{DEFAULT_UID_RANGE, UidLease};

/// The environment every game starts with, before the caller's variables.
pub const BASE_ENV: &[(&str, &str)] = &[("PATH", "/usr/bin:/bin"), ("HOME", "/tmp")];

/// Finds bubblewrap and checks that it works here by running `/bin/true`
/// in a jail as games run (as a leased uid when root).
///
/// Returns the path of `bwrap`: `/usr/bin/bwrap`, else the first `bwrap` on
/// `PATH`. Errors: [`SandboxError::NotInstalled`] or
/// [`SandboxError::NotWorking`], whose messages name the Debian package
/// `bubblewrap`.
pub fn probe() -> Result<PathBuf, SandboxError> {
    probe_jail().map(|(bwrap, _)| bwrap)
}

/// [`probe`], also saying how a jail here enforces the limits (from the
/// jail it ran `/bin/true` in), for reports that need no jail of their own.
pub fn probe_jail() -> Result<(PathBuf, JailFacts), SandboxError> {
    let candidates = std::iter::once(PathBuf::from("/usr/bin/bwrap")).chain(
        std::env::var_os("PATH")
            .map(|p| {
                std::env::split_paths(&p)
                    .map(|d| d.join("bwrap"))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default(),
    );
    let Some(bwrap) = candidates.into_iter().find(|p| p.is_file()) else {
        return Err(SandboxError::NotInstalled);
    };
    let fail = |why: String| SandboxError::NotWorking {
        bwrap: bwrap.clone(),
        why,
    };
    let limits = Limits::default();
    let jail = Jail::new(&bwrap, &limits, &Mounts::default(), DEFAULT_UID_RANGE)
        .map_err(|e| fail(e.to_string()))?;
    let out = jail
        .command(Path::new("/bin/true"), &[], &[])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| fail(e.to_string()))?;
    match jail.outcome(out.status, &out.stderr).ending {
        ProgramEnding::Exited(0) => Ok((bwrap, jail.facts())),
        other => Err(fail(format!("/bin/true in a jail: {other:?}"))),
    }
}

/// What a game used, measured by its cgroup; `None` without one.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Usage {
    /// CPU time of all its processes.
    pub cpu_time: Option<Duration>,
    /// Peak memory in bytes.
    pub peak_memory: Option<u64>,
    /// Whether the kernel's OOM killer killed one of its processes (the
    /// memory limit was hit).
    pub oom_killed: bool,
}

/// How a program ended by itself and what it used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ended {
    /// How the program ended.
    pub ending: ProgramEnding,
    /// What it used.
    pub usage: Usage,
}

/// The jail of one game: its uid lease, cgroup and bubblewrap's status
/// channel. One jail runs one program once; drop it after the game (that
/// kills what is left of the game and frees the uid).
#[derive(Debug)]
pub struct Jail {
    bwrap: PathBuf,
    limits: Limits,
    shape: CgroupShape,
    // Field order: the cgroup is emptied before the uid is freed.
    cgroup: Option<GameCgroup>,
    cgroup_error: Option<String>,
    lease: Option<UidLease>,
    args: Vec<OsString>,
    data_fds: Vec<Arc<OwnedFd>>,
    status_write: Arc<OwnedFd>,
    status_read: OwnedFd,
    status: Mutex<Vec<u8>>,
    /// The reaper's channel: it writes its program's wait status here.
    reaper_write: Arc<OwnedFd>,
    reaper_read: OwnedFd,
    /// `RLIMIT_FSIZE` of the program, if any.
    file_size: Option<u64>,
    /// Writable folders handed to the leased uid, given back on drop.
    handed_over: Vec<PathBuf>,
}

impl Jail {
    /// Prepares a jail: leases a uid from `uid_range` when running as root
    /// (none otherwise: the game then runs as the organiser's own uid, in
    /// its own user namespace), creates the game's cgroup (or notes why not,
    /// then rlimits stand in), opens the read-only files of `mounts`.
    ///
    /// Errors: no free uid (`WouldBlock`), the cgroup folder named by
    /// `POKER_SANDBOX_CGROUP` unusable, a mount source missing or out of
    /// the game uid's reach, descriptors or pipes unavailable.
    pub fn new(
        bwrap: &Path,
        limits: &Limits,
        mounts: &Mounts,
        uid_range: Range<u32>,
    ) -> io::Result<Jail> {
        Self::new_shaped(bwrap, limits, mounts, uid_range, CgroupShape::Game)
    }

    /// [`Jail::new`] with a cgroup of the given shape (a fork server's
    /// jail holds its games' cgroups: [`CgroupShape::ForkServer`]).
    pub fn new_shaped(
        bwrap: &Path,
        limits: &Limits,
        mounts: &Mounts,
        uid_range: Range<u32>,
        shape: CgroupShape,
    ) -> io::Result<Jail> {
        let lease = if rustix::process::geteuid().is_root() {
            Some(UidLease::acquire(uid_range)?)
        } else {
            None
        };
        let (cgroup, cgroup_error) = match GameCgroup::create_shaped(limits, shape) {
            Ok(cg) => (Some(cg), None),
            Err(CgroupError::Unavailable(why)) => (None, Some(why)),
            Err(unusable @ CgroupError::Unusable(_)) => return Err(io::Error::other(unusable)),
        };
        let mut prepared = mounts.prepare(lease.is_some())?;
        // The writable folders (a compiler's build folder) belong to the
        // leased uid while it runs, so they can stay private (mode 0700).
        let mut handed_over = Vec::new();
        if let Some(lease) = &lease {
            for (host, _) in &mounts.rw_binds {
                match std::os::unix::fs::chown(host, Some(lease.uid), Some(lease.gid)) {
                    Ok(()) => handed_over.push(host.clone()),
                    // bubblewrap names the missing folder itself.
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                    Err(e) => return Err(e),
                }
            }
        }

        // A game (a private image) gets the allow-list; a compiler's view
        // of the host, the compiler's broader filter.
        let (system, role) = match mounts.image {
            Some(_) => (SystemView::Private, FilterRole::Game),
            None => (
                SystemView::Host {
                    etc_files: etc_files(),
                },
                FilterRole::Compiler,
            ),
        };
        let filter = Arc::new(memory_file(
            "poker-seccomp",
            super::filter::program_bytes(role),
            FIRST_PASSED_FD,
        )?);
        let reaper = Arc::new(memory_file("poker-reaper", REAPER, FIRST_PASSED_FD)?);
        let (reaper_read, reaper_write) =
            rustix::pipe::pipe_with(PipeFlags::CLOEXEC | PipeFlags::NONBLOCK)?;
        let reaper_write = rustix::io::fcntl_dupfd_cloexec(&reaper_write, FIRST_PASSED_FD)?;
        let (read, write) = rustix::pipe::pipe_with(PipeFlags::CLOEXEC | PipeFlags::NONBLOCK)?;
        let write = rustix::io::fcntl_dupfd_cloexec(&write, FIRST_PASSED_FD)?;
        let fds = PassedFds {
            status: write.as_raw_fd(),
            seccomp: filter.as_raw_fd(),
            reaper_file: reaper.as_raw_fd(),
            reaper_channel: reaper_write.as_raw_fd(),
        };
        let args = bwrap_options(limits, &system, &prepared.args, &fds);
        prepared.data_fds.push(filter);
        prepared.data_fds.push(reaper);
        Ok(Jail {
            bwrap: bwrap.to_owned(),
            limits: limits.clone(),
            shape,
            cgroup,
            cgroup_error,
            lease,
            args,
            data_fds: prepared.data_fds,
            status_write: Arc::new(write),
            status_read: read,
            status: Mutex::new(Vec::new()),
            reaper_write: Arc::new(reaper_write),
            reaper_read,
            file_size: None,
            handed_over,
        })
    }

    /// The leased uid the game runs as; `None` when the evaluator is not root.
    pub fn uid(&self) -> Option<u32> {
        self.lease.as_ref().map(|l| l.uid)
    }

    /// The game's cgroup, if one could be made.
    pub fn cgroup(&self) -> Option<&GameCgroup> {
        self.cgroup.as_ref()
    }

    /// A meter of the CPU time its run may use, with that limit, for a
    /// watch that stops the run there: a game's or a compilation's jail
    /// with a cgroup. None for a fork server's, whose cgroup also counts
    /// its games (each is watched in its own).
    pub fn cpu_watch(&self) -> Option<(CpuMeter, Duration)> {
        let cgroup = self
            .cgroup
            .as_ref()
            .filter(|_| self.shape == CgroupShape::Game)?;
        Some((cgroup.cpu_meter()?, self.limits.cpu))
    }

    /// Limits the size of every file the program and its children write
    /// (`RLIMIT_FSIZE`, in bytes): past it the write fails and the writer
    /// gets SIGXFSZ. Call before [`Jail::command`].
    pub(crate) fn limit_file_size(&mut self, bytes: u64) {
        self.file_size = Some(bytes);
    }

    /// The rlimits the jail sets, as `(resource, soft, hard)`.
    fn rlimits(&self) -> Vec<(Resource, u64, u64)> {
        rlimits(&self.limits, &self.facts(), self.file_size)
    }

    /// The command that runs `program args` (a path inside the jail) with
    /// the environment `PATH=/usr/bin:/bin`, `HOME=/tmp` plus `env`.
    ///
    /// Before bubblewrap starts, in the child: joins the game's cgroup, sets
    /// the rlimits, drops supplementary groups and changes to the leased
    /// gid and uid. The caller adds stdio and its own `pre_exec` (which runs
    /// after these, as the game's uid) and spawns it once.
    ///
    /// Descriptors: every one from 3 up is made close-on-exec first, so a
    /// descriptor reaches the program only when the caller's own `pre_exec`
    /// puts it in place with `dup2` (which clears close-on-exec), e.g. its
    /// channel on fd 3; it must be below 10 ([`FIRST_PASSED_FD`]), where the
    /// jail's own descriptors for bubblewrap start.
    pub fn command(
        &self,
        program: &Path,
        args: &[OsString],
        env: &[(OsString, OsString)],
    ) -> Command {
        let mut cmd = Command::new(&self.bwrap);
        cmd.env_clear().args(&self.args).args(bwrap_command_tail(
            BASE_ENV,
            env,
            self.reaper_write.as_raw_fd(),
            program.as_os_str(),
            args,
        ));

        let join: Option<CgroupJoin> = self.cgroup.as_ref().map(|c| c.join_fds());
        let rlimits = self.rlimits();
        let data = self.data_fds.clone();
        let status = self.status_write.clone();
        let reaper = self.reaper_write.clone();
        let ids = self.lease.as_ref().map(|l| (l.uid, l.gid));
        let child = move || -> io::Result<()> {
            // No allocation from here on: this runs between fork and exec.
            // Only what is passed on purpose from here on reaches bubblewrap:
            // the descriptors below, and the caller's channel, which its own
            // pre_exec puts in place with dup2 afterwards.
            super::close_inherited_on_exec(3, RawFd::MAX)?;
            if let Some(join) = &join {
                join.join()?;
            }
            for fd in &data {
                rustix::fs::seek(&**fd, rustix::fs::SeekFrom::Start(0))?;
                rustix::io::fcntl_setfd(&**fd, FdFlags::empty())?;
            }
            rustix::io::fcntl_setfd(&*status, FdFlags::empty())?;
            rustix::io::fcntl_setfd(&*reaper, FdFlags::empty())?;
            for &(resource, soft, hard) in &rlimits {
                let limit = Rlimit {
                    current: Some(soft),
                    maximum: Some(hard),
                };
                rustix::process::setrlimit(resource, limit)?;
            }
            if let Some((uid, gid)) = ids {
                use rustix::process::{Gid, Uid};
                let (uid, gid) = (Uid::from_raw(uid), Gid::from_raw(gid));
                rustix::thread::set_thread_groups(&[])?;
                rustix::thread::set_thread_res_gid(gid, gid, gid)?;
                rustix::thread::set_thread_res_uid(uid, uid, uid)?;
            }
            join_new_session_keyring()?;
            Ok(())
        };
        // SAFETY: the closure only makes system calls (close_range, write,
        // lseek, fcntl, prlimit, setgroups, setresgid, setresuid, keyctl) on memory allocated
        // before the fork; it allocates nothing and takes no lock.
        unsafe { cmd.pre_exec(child) };
        cmd
    }

    /// Reads what bubblewrap wrote to its status channel so far: JSON
    /// objects such as `{ "child-pid": 12 }` and `{ "exit-code": 0 }`.
    fn status_text(&self) -> String {
        let mut buf = self.status.lock().unwrap_or_else(|e| e.into_inner());
        let mut chunk = [0u8; 4096];
        while let Ok(n) = rustix::io::read(&self.status_read, &mut chunk) {
            if n == 0 {
                break;
            }
            buf.extend_from_slice(&chunk[..n]);
        }
        String::from_utf8_lossy(&buf).into_owned()
    }

    fn status_field(&self, key: &str) -> Option<i64> {
        status_field(&self.status_text(), key)
    }

    /// The program's pid as the evaluator sees it (bubblewrap's process
    /// inside the namespaces, the parent of the program), once it started.
    pub fn program_pid(&self) -> Option<u32> {
        self.status_field("child-pid").map(|p| p as u32)
    }

    /// Kills every process of the game: its cgroup, when it has one. Without
    /// one the caller kills bubblewrap (its child), which takes the game's
    /// processes with it.
    pub fn kill(&self) {
        if let Some(cg) = &self.cgroup {
            cg.kill_all();
        }
    }

    /// After bubblewrap exited with `bwrap_status`: how the game ended and
    /// what it used. `stderr` is what the caller captured of the command's
    /// standard error (empty if it did not): when the program never started
    /// it holds bubblewrap's message.
    pub fn outcome(&self, bwrap_status: ExitStatus, stderr: &[u8]) -> Ended {
        let text = self.status_text();
        let mut reaper_text = Vec::new();
        let mut chunk = [0u8; 256];
        while let Ok(n @ 1..) = rustix::io::read(&self.reaper_read, &mut chunk) {
            reaper_text.extend_from_slice(&chunk[..n]);
        }
        let reaper = super::reaper::parse(&String::from_utf8_lossy(&reaper_text));
        // The reaper's report is exact. Without it: bubblewrap writes
        // "exit-code" only when what it started (the reaper) ran, so the
        // reaper itself was killed (by its program or the kernel), which
        // bubblewrap reports as 128 + the signal; with no "exit-code", a
        // bubblewrap that exited by itself failed to set the jail up, and
        // one killed by a signal was killed by the evaluator or the kernel
        // (its program with it).
        let ending = match (
            reaper,
            status_field(&text, "exit-code"),
            bwrap_status.signal(),
        ) {
            (Some(ReaperReport::WaitStatus(status)), _, _) => wait_status_ending(status),
            (Some(ReaperReport::ExecErrno(errno)), _, _) => ProgramEnding::FailedToStart(format!(
                "cannot run the program: {}",
                io::Error::from_raw_os_error(errno)
            )),
            (None, Some(code @ 129..=192), _) => ProgramEnding::Signaled((code - 128) as i32),
            (None, Some(code), _) => ProgramEnding::Exited(code as i32),
            (None, None, Some(sig)) => ProgramEnding::Signaled(sig),
            (None, None, None) => {
                let text = String::from_utf8_lossy(stderr);
                let message = text
                    .lines()
                    .rev()
                    .find(|l| l.starts_with("bwrap:"))
                    .map(str::to_owned)
                    .unwrap_or_else(|| format!("bubblewrap ended with {bwrap_status}"));
                ProgramEnding::FailedToStart(message)
            }
        };
        Ended {
            ending,
            usage: self.usage(),
        }
    }

    /// What the game used so far, by its cgroup (nothing known without
    /// one); also after it was killed, while the jail lives.
    pub fn usage(&self) -> Usage {
        match &self.cgroup {
            Some(cg) => Usage {
                cpu_time: cg.cpu_time(),
                peak_memory: cg.peak_memory(),
                oom_killed: cg.oom_killed(),
            },
            None => Usage::default(),
        }
    }

    /// How this jail enforces limits: its cgroup's controllers (or why it
    /// has none) and whether it runs as a leased uid.
    pub(crate) fn facts(&self) -> JailFacts {
        JailFacts {
            cgroup: self.cgroup.as_ref().map(|c| CgroupFacts {
                version: c.version(),
                memory: c.limits_memory(),
                processes: c.limits_processes(),
                cpu: c.cpu_meter().is_some(),
                gaps: c.gaps().map(str::to_owned),
            }),
            cgroup_error: self.cgroup_error.clone(),
            leased_uid: self.lease.is_some(),
        }
    }

    /// Each limit with its value and how it is enforced in this jail.
    pub fn limit_reports(&self) -> Vec<LimitReport> {
        self.facts().limit_reports(&self.limits)
    }
}

/// Makes the calling process join a fresh anonymous session keyring, so
/// that the game possesses none of the evaluator's keys (a service's or a
/// login's session keyring, with its tickets and credentials) and leaves
/// none to a later game. To run between fork and exec, after the uid change
/// (the new keyring belongs to the game's uid).
///
/// rustix has no `keyctl`; the raw call's result is checked.
fn join_new_session_keyring() -> io::Result<()> {
    const KEYCTL_JOIN_SESSION_KEYRING: libc::c_long = 1;
    // SAFETY: keyctl(KEYCTL_JOIN_SESSION_KEYRING, NULL) reads no memory:
    // a null name asks for a new anonymous keyring.
    let result = unsafe {
        libc::syscall(
            libc::SYS_keyctl,
            KEYCTL_JOIN_SESSION_KEYRING,
            std::ptr::null::<libc::c_char>(),
        )
    };
    if result < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

impl Drop for Jail {
    fn drop(&mut self) {
        // Give the writable folders back to the evaluator before the uid
        // is freed for another game. Failure leaves a folder of a uid no
        // game can reach (it is no mount source of any other game).
        let me = (rustix::process::geteuid(), rustix::process::getegid());
        for dir in &self.handed_over {
            let _ = std::os::unix::fs::chown(dir, Some(me.0.as_raw()), Some(me.1.as_raw()));
        }
    }
}
