//! Running one game's program inside bubblewrap.

use std::ffi::OsString;
use std::io;
use std::ops::Range;
use std::os::fd::{OwnedFd, RawFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rustix::io::FdFlags;
use rustix::pipe::PipeFlags;
use rustix::process::{Resource, Rlimit};

use super::cgroup::{CgroupJoin, GameCgroup};
use super::limits::{Enforcement, LimitReport, Limits, RlimitScope};
use super::mounts::{FIRST_PASSED_FD, Mounts, fd_number, system_args};
use super::uid::{DEFAULT_UID_RANGE, UidLease};

/// The environment every game starts with, before the caller's variables.
pub const BASE_ENV: &[(&str, &str)] = &[("PATH", "/usr/bin:/bin"), ("HOME", "/tmp")];

/// Finds bubblewrap and checks that it works here by running `/bin/true`
/// in a jail as games run (as a leased uid when root).
///
/// Returns the path of `bwrap`: `/usr/bin/bwrap`, else the first `bwrap` on
/// `PATH`. Errors: a message saying what failed and naming the Debian
/// package `bubblewrap`.
pub fn probe() -> Result<PathBuf, String> {
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
        return Err(
            "bubblewrap (bwrap) is not installed: install the Debian package \
                    `bubblewrap` (apt-get install bubblewrap)"
                .into(),
        );
    };
    let fail = |what: String| {
        format!(
            "bubblewrap at {} does not work here ({what}); it needs unprivileged user \
             namespaces; the Debian package is `bubblewrap`",
            bwrap.display()
        )
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
        Ending::Exited(0) => Ok(bwrap),
        other => Err(fail(format!("/bin/true in a jail: {other:?}"))),
    }
}

/// How a game's program ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// The program exited with this code (0–255).
    Exited(i32),
    /// The program was killed by this signal. bubblewrap reports a death by
    /// signal n as exit code 128+n, so a program that exits with 129–192
    /// is reported here too.
    Signaled(i32),
    /// bubblewrap failed before the program started: its error message
    /// (from the stderr the caller captured) or its exit status.
    FailedToStart(String),
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

/// How a game ended and what it used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// How the program ended.
    pub ending: Ending,
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
    // Field order: the cgroup is emptied before the uid is freed.
    cgroup: Option<GameCgroup>,
    cgroup_error: Option<String>,
    lease: Option<UidLease>,
    args: Vec<OsString>,
    data_fds: Vec<Arc<OwnedFd>>,
    status_write: Arc<OwnedFd>,
    status_read: OwnedFd,
    status: Mutex<Vec<u8>>,
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
        let lease = if rustix::process::geteuid().is_root() {
            Some(UidLease::acquire(uid_range)?)
        } else {
            None
        };
        let (cgroup, cgroup_error) = match GameCgroup::create(limits) {
            Ok(cg) => (Some(cg), None),
            Err(e) if e.kind() == io::ErrorKind::Unsupported => (None, Some(e.to_string())),
            Err(e) => return Err(e),
        };
        let prepared = mounts.prepare(lease.is_some())?;
        let (read, write) = rustix::pipe::pipe_with(PipeFlags::CLOEXEC | PipeFlags::NONBLOCK)?;
        let write = rustix::io::fcntl_dupfd_cloexec(&write, FIRST_PASSED_FD)?;
        let mut args: Vec<OsString> = [
            "--unshare-all",
            "--unshare-user",
            "--disable-userns",
            "--die-with-parent",
            "--new-session",
            "--cap-drop",
            "ALL",
            "--clearenv",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        args.extend(system_args());
        args.extend([
            "--size".into(),
            limits.tmp_size.to_string().into(),
            "--tmpfs".into(),
            "/tmp".into(),
        ]);
        args.extend(prepared.args);
        args.extend([
            "--remount-ro".into(),
            "/".into(),
            "--remount-ro".into(),
            "/dev".into(),
            "--chdir".into(),
            "/tmp".into(),
            "--json-status-fd".into(),
            fd_number(&write).into(),
        ]);
        Ok(Jail {
            bwrap: bwrap.to_owned(),
            limits: limits.clone(),
            cgroup,
            cgroup_error,
            lease,
            args,
            data_fds: prepared.data_fds,
            status_write: Arc::new(write),
            status_read: read,
            status: Mutex::new(Vec::new()),
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

    /// The rlimits the jail sets, as `(resource, soft, hard)`.
    fn rlimits(&self) -> Vec<(Resource, u64, u64)> {
        let l = &self.limits;
        let cpu = l.cpu_seconds();
        let mut r = vec![
            (Resource::Nofile, l.open_files.into(), l.open_files.into()),
            (Resource::Cpu, cpu, cpu + 1),
            (Resource::Core, 0, 0),
        ];
        let pids_cgroup = self.cgroup.as_ref().is_some_and(|c| c.limits_processes());
        if self.lease.is_some() && !pids_cgroup {
            r.push((Resource::Nproc, l.processes.into(), l.processes.into()));
        }
        if !self.cgroup.as_ref().is_some_and(|c| c.limits_memory()) {
            r.push((Resource::As, l.memory, l.memory));
        }
        r
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
        cmd.env_clear().args(&self.args);
        let base = BASE_ENV
            .iter()
            .map(|(k, v)| (OsString::from(k), OsString::from(v)));
        for (k, v) in base.chain(env.iter().cloned()) {
            cmd.arg("--setenv").arg(k).arg(v);
        }
        cmd.arg("--").arg(program).args(args);

        let join: Option<CgroupJoin> = self.cgroup.as_ref().map(|c| c.join_fds());
        let rlimits = self.rlimits();
        let data = self.data_fds.clone();
        let status = self.status_write.clone();
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
            Ok(())
        };
        // SAFETY: the closure only makes system calls (close_range, write,
        // lseek, fcntl, prlimit, setgroups, setresgid, setresuid) on memory allocated
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
    pub fn outcome(&self, bwrap_status: ExitStatus, stderr: &[u8]) -> Outcome {
        let text = self.status_text();
        let field = |key: &str| status_field(&text, key);
        let decode = |code: i64| match code {
            129..=192 => Ending::Signaled((code - 128) as i32),
            _ => Ending::Exited(code as i32),
        };
        // bubblewrap writes "exit-code" only when the program ran; without
        // it, a bubblewrap that exited by itself failed to set the jail up,
        // and one killed by a signal was killed by the evaluator or the
        // kernel (its program with it).
        let ending = match (field("exit-code"), bwrap_status.signal()) {
            (Some(code), _) => decode(code),
            (None, Some(sig)) => Ending::Signaled(sig),
            (None, None) => {
                let text = String::from_utf8_lossy(stderr);
                let message = text
                    .lines()
                    .rev()
                    .find(|l| l.starts_with("bwrap:"))
                    .map(str::to_owned)
                    .unwrap_or_else(|| format!("bubblewrap ended with {bwrap_status}"));
                Ending::FailedToStart(message)
            }
        };
        let usage = match &self.cgroup {
            Some(cg) => Usage {
                cpu_time: cg.cpu_time(),
                peak_memory: cg.peak_memory(),
                oom_killed: cg.oom_killed(),
            },
            None => Usage::default(),
        };
        Outcome { ending, usage }
    }

    /// Each limit with its value and how it is enforced in this jail.
    pub fn limit_reports(&self) -> Vec<LimitReport> {
        let l = &self.limits;
        let cg = self.cgroup.as_ref();
        let why_no_cgroup = || {
            self.cgroup_error
                .clone()
                .or_else(|| cg.and_then(|c| c.gaps().map(str::to_owned)))
                .unwrap_or_else(|| "the cgroup lacks this controller".into())
        };
        let memory = match cg {
            Some(c) if c.limits_memory() => Enforcement::Cgroup {
                version: c.version(),
            },
            _ => Enforcement::RlimitFallback {
                scope: RlimitScope::Process,
                reason: why_no_cgroup(),
            },
        };
        let processes = match cg {
            Some(c) if c.limits_processes() => Enforcement::Cgroup {
                version: c.version(),
            },
            _ if self.lease.is_some() => Enforcement::RlimitFallback {
                scope: RlimitScope::Uid,
                reason: why_no_cgroup(),
            },
            _ => Enforcement::NotEnforced {
                reason: format!(
                    "no pids cgroup ({}) and no uid of the game's own for RLIMIT_NPROC",
                    why_no_cgroup()
                ),
            },
        };
        let report = |name, value: u64, unit, enforcement| LimitReport {
            name,
            value,
            unit,
            enforcement,
        };
        let process = Enforcement::Rlimit {
            scope: RlimitScope::Process,
        };
        vec![
            report("wall", l.wall.as_millis() as u64, "ms", Enforcement::Timer),
            report("cpu", l.cpu.as_millis() as u64, "ms", process.clone()),
            report("memory", l.memory, "bytes", memory),
            report("processes", l.processes.into(), "count", processes),
            report("tmp_size", l.tmp_size, "bytes", Enforcement::Tmpfs),
            report("open_files", l.open_files.into(), "count", process),
        ]
    }
}

/// The integer value of `"key":` in bubblewrap's status objects (it writes
/// only flat objects of string keys and integer values).
fn status_field(text: &str, key: &str) -> Option<i64> {
    let quoted = format!("\"{key}\"");
    let rest = &text[text.find(&quoted)? + quoted.len()..];
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '-'))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::status_field;

    #[test]
    fn status_fields_are_read_from_bubblewraps_objects() {
        let text = "{ \"child-pid\": 4242 }\n{ \"exit-code\": 139 }\n";
        assert_eq!(status_field(text, "child-pid"), Some(4242));
        assert_eq!(status_field(text, "exit-code"), Some(139));
        assert_eq!(status_field("{ \"child-pid\": 7 }", "exit-code"), None);
    }
}
