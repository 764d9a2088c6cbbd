//! How the evaluator starts a program (a contestant's game or a
//! compilation): the run configuration, and the two launchers behind
//! a game and a compilation: plain processes or the bubblewrap sandbox.

use crate::error::LaunchError;
use crate::{
    CgroupShape, Ended, Jail, JailFacts, LimitReport, Limits, Mounts, ProgramEnding, Usage,
};
use std::ffi::OsString;
use std::ops::Range;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Command, ExitStatus};
use std::time::Duration;

/// The `--sandbox` choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SandboxMode {
    /// Every program runs in the sandbox; no bubblewrap is an error.
    On,
    /// Programs run as plain processes of the evaluator's user.
    Off,
    /// On when bubblewrap works here, else off with a warning.
    Auto,
}

/// One program to run, described alike for both launchers: host paths are
/// also its paths inside the sandbox.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    /// The executable.
    pub path: PathBuf,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// Variables added to its environment.
    pub env: Vec<(OsString, OsString)>,
    /// Files it reads (its executable included): bound read-only at the same
    /// path in the sandbox.
    pub files: Vec<PathBuf>,
    /// A folder it may write (a compiler's output): bound read-write at the
    /// same path in the sandbox.
    pub output_dir: Option<PathBuf>,
    /// The largest file it and its children may write, in bytes
    /// (`RLIMIT_FSIZE`: SIGXFSZ past it); `None`: no such limit.
    pub file_size_limit: Option<u64>,
    /// In the sandbox: a private image holding every file it needs (then
    /// it sees no host file, and `files` is empty).
    pub image: Option<std::sync::Arc<crate::Image>>,
}

/// How programs of one evaluation are started.
#[derive(Clone, Debug)]
pub enum Launcher {
    /// Plain processes of the evaluator's user, limited by per-process
    /// rlimits (CPU time, open files) and the wall-clock timer only.
    Plain,
    /// The bubblewrap sandbox: namespaces, a uid of its own per run, a
    /// cgroup, a private `/tmp`.
    Bubblewrap {
        /// The `bwrap` executable.
        bwrap: PathBuf,
        /// The uids leased to runs.
        uid_range: Range<u32>,
        /// How its jails enforce the limits, found once by the probe.
        facts: JailFacts,
    },
}

impl Launcher {
    /// The launcher `mode` asks for: `Ok((launcher, warning))`, the warning
    /// set when `Auto` fell back to plain processes or when the sandbox runs
    /// without a cgroup (rlimits stand in: the warning says why). Errors
    /// ([`LaunchError`]): `On` cannot be had, `Off` (or `Auto`'s fallback)
    /// cannot have the PID namespace every unconfined program runs in, or
    /// `POKER_SANDBOX_CGROUP` names a cgroup that cannot be used (with `On`
    /// or `Auto`).
    pub fn choose(mode: SandboxMode) -> Result<(Launcher, Option<String>), LaunchError> {
        let bubblewrap = |(bwrap, facts)| Launcher::Bubblewrap {
            bwrap,
            uid_range: crate::DEFAULT_UID_RANGE,
            facts,
        };
        let unconfined = super::pid_namespace::PidNamespace::new;
        if mode == SandboxMode::Off {
            unconfined().map_err(LaunchError::Unconfined)?;
            return Ok((Launcher::Plain, None));
        }
        let no_cgroup = crate::cgroup_fallback()
            .map_err(LaunchError::Cgroup)?
            .map(|why| {
                format!(
                    "no cgroup for the games, so rlimits stand in for the memory and \
                     process limits (see the limits): {why}"
                )
            });
        match (mode, crate::probe_jail()) {
            (_, Ok(probed)) => Ok((bubblewrap(probed), no_cgroup)),
            (SandboxMode::On, Err(why)) => Err(LaunchError::SandboxRequired(why)),
            (_, Err(why)) => {
                if let Err(e) = unconfined() {
                    return Err(LaunchError::Neither {
                        sandbox: why,
                        unconfined: e,
                    });
                }
                Ok((
                    Launcher::Plain,
                    Some(format!("no sandbox: contestants run unconfined ({why})")),
                ))
            }
        }
    }

    /// `"bubblewrap"` or `"off"`, as reports name the sandbox.
    pub fn name(&self) -> &'static str {
        match self {
            Launcher::Plain => "off",
            Launcher::Bubblewrap { .. } => "bubblewrap",
        }
    }

    /// The name of the seccomp filter every program runs under
    /// ([`crate::syscall_filter`]); `None` for plain processes.
    pub fn syscall_filter(&self) -> Option<&'static str> {
        match self {
            Launcher::Plain => None,
            Launcher::Bubblewrap { .. } => Some(crate::syscall_filter()),
        }
    }

    /// Each of `limits` with how this launcher enforces it: for the sandbox,
    /// from what its probe found (no jail is made for it).
    pub fn limit_reports(&self, limits: &Limits) -> Vec<LimitReport> {
        match self {
            Launcher::Plain => plain_limit_reports(limits),
            Launcher::Bubblewrap { facts, .. } => facts.limit_reports(limits),
        }
    }

    /// Prepares one run of `program` under `limits`: the command to spawn
    /// (stdio and the channel are the caller's), and the handle that reads
    /// how it ended.
    pub fn prepare(&self, program: &Program, limits: &Limits) -> std::io::Result<Launch> {
        self.prepare_shaped(program, limits, CgroupShape::Game)
    }

    /// [`Launcher::prepare`] with the sandbox's cgroup in the given shape:
    /// a fork server's jail is [`CgroupShape::ForkServer`].
    pub fn prepare_shaped(
        &self,
        program: &Program,
        limits: &Limits,
        shape: CgroupShape,
    ) -> std::io::Result<Launch> {
        match self {
            Launcher::Plain => Ok(Launch {
                command: plain_command(program, limits)?,
                jail: None,
            }),
            Launcher::Bubblewrap {
                bwrap, uid_range, ..
            } => {
                let mut mounts = Mounts {
                    image: program.image.clone(),
                    ..Mounts::default()
                };
                for file in &program.files {
                    mounts.ro_binds.push((file.clone(), file.clone()));
                }
                if let Some(dir) = &program.output_dir {
                    mounts.rw_binds.push((dir.clone(), dir.clone()));
                }
                let mut jail = Jail::new_shaped(bwrap, limits, &mounts, uid_range.clone(), shape)?;
                if let Some(bytes) = program.file_size_limit {
                    jail.limit_file_size(bytes);
                }
                let command = jail.command(&program.path, &program.args, &program.env);
                Ok(Launch {
                    command,
                    jail: Some(jail),
                })
            }
        }
    }
}

/// One prepared run.
#[derive(Debug)]
pub struct Launch {
    /// The command to spawn once.
    pub command: Command,
    jail: Option<Jail>,
}

impl Launch {
    /// The jail's cgroup, if the run is sandboxed and has one.
    pub fn cgroup(&self) -> Option<&crate::GameCgroup> {
        self.jail.as_ref().and_then(|jail| jail.cgroup())
    }

    /// What the run's CPU watch reads and stops it at (see
    /// [`Jail::cpu_watch`]): sandboxed runs with a cgroup only.
    pub(crate) fn cpu_watch(&self) -> Option<(crate::CpuMeter, Duration)> {
        self.jail.as_ref().and_then(Jail::cpu_watch)
    }

    /// The uid (and equal gid) the run's jail leased, if it has one.
    pub fn leased_uid(&self) -> Option<u32> {
        self.jail.as_ref().and_then(|jail| jail.uid())
    }

    /// Whether the command already marks every inherited descriptor
    /// close-on-exec itself (the sandbox does, before it passes its own).
    pub(crate) fn closes_inherited_fds(&self) -> bool {
        self.jail.is_some()
    }

    /// Whether the run is in the bubblewrap sandbox.
    pub(crate) fn is_sandboxed(&self) -> bool {
        self.jail.is_some()
    }

    /// Kills every process of the run that the caller cannot reach itself
    /// (those in the sandbox's cgroup).
    pub fn kill(&self) {
        if let Some(jail) = &self.jail {
            jail.kill();
        }
    }

    /// What a run that was killed before it ended used: its cgroup's
    /// figures in the sandbox; unconfined, `cpu`, the CPU time of the
    /// spawned process and what it reaped (the program, which its init
    /// reaps when asked to end the run; not the program's own children left
    /// running then, which the kernel reaps uncounted).
    pub fn usage_when_killed(&self, cpu: Option<Duration>) -> Usage {
        match &self.jail {
            Some(jail) => jail.usage(),
            None => Usage {
                cpu_time: cpu,
                ..Usage::default()
            },
        }
    }

    /// How the run ended, from the spawned process's `status`, the CPU
    /// time it and what it reaped used (`cpu`: the program's, unconfined)
    /// and what it wrote to stderr (where bubblewrap's own errors go).
    pub fn outcome(&self, status: ExitStatus, cpu: Duration, stderr: &[u8]) -> Ended {
        match &self.jail {
            Some(jail) => jail.outcome(status, stderr),
            None => Ended {
                ending: match (status.code(), status.signal()) {
                    (Some(code), _) => ProgramEnding::Exited(code),
                    (None, Some(signal)) => ProgramEnding::Signaled(signal),
                    _ => ProgramEnding::FailedToStart(format!("ended with {status}")),
                },
                // No peak memory: the relay's and init's would count, as
                // copies of the evaluator's.
                usage: Usage {
                    cpu_time: Some(cpu),
                    ..Usage::default()
                },
            },
        }
    }
}

/// A plain process: the evaluator's environment without `POKER_*`
/// variables, plus the program's; CPU-time, open-file and core rlimits;
/// in a PID namespace of its own. An error when no such namespace can be
/// made (the program is then not run).
fn plain_command(program: &Program, limits: &Limits) -> std::io::Result<Command> {
    let namespace = super::pid_namespace::PidNamespace::new()?;
    let mut command = Command::new(&program.path);
    command.args(&program.args);
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("POKER_") {
            command.env_remove(key);
        }
    }
    command.envs(program.env.iter().map(|(k, v)| (k, v)));
    let cpu = limits.cpu_seconds();
    let open_files = u64::from(limits.open_files);
    let file_size = program.file_size_limit;
    // SAFETY: only setrlimit system calls, nothing allocated; then the PID
    // namespace's (see `PidNamespace::enter`).
    unsafe {
        command.pre_exec(move || {
            use rustix::process::{Resource, Rlimit, setrlimit};
            let limit = |soft, hard| Rlimit {
                current: Some(soft),
                maximum: Some(hard),
            };
            setrlimit(Resource::Cpu, limit(cpu, cpu + 1))?;
            setrlimit(Resource::Nofile, limit(open_files, open_files))?;
            setrlimit(Resource::Core, limit(0, 0))?;
            if let Some(bytes) = file_size {
                setrlimit(Resource::Fsize, limit(bytes, bytes))?;
            }
            namespace.enter()
        });
    }
    Ok(command)
}

fn plain_limit_reports(limits: &Limits) -> Vec<LimitReport> {
    use crate::{Enforcement, RlimitScope};
    let process = Enforcement::Rlimit {
        scope: RlimitScope::Process,
    };
    let off = || Enforcement::NotEnforced {
        reason: "sandbox off".into(),
    };
    let report = |name, value: u64, unit, enforcement| LimitReport {
        name,
        value,
        unit,
        enforcement,
    };
    vec![
        report(
            "wall",
            limits.wall.as_millis() as u64,
            "ms",
            Enforcement::Timer,
        ),
        report("cpu", limits.cpu.as_millis() as u64, "ms", process.clone()),
        report("memory", limits.memory, "bytes", off()),
        report("processes", limits.processes.into(), "count", off()),
        report("tmp_size", limits.tmp_size, "bytes", off()),
        report("open_files", limits.open_files.into(), "count", process),
    ]
}
