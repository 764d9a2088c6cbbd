//! The run configuration: how every program of one evaluation is started
//! and limited.

use super::error::LaunchError;
use super::launcher::{Launcher, SandboxMode};
use crate::sandbox::{LimitReport, Limits, WALL_PER_CPU};
use std::time::Duration;

/// How one evaluation (or benchmark) runs its programs.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Plain processes or the sandbox.
    pub launcher: Launcher,
    /// The limits of each game.
    pub limits: Limits,
    /// The limits of each compilation of a contestant's source.
    pub compile_limits: Limits,
    /// Games played at once (`poker bench`); `poker eval` plays one at a
    /// time so that timing is fair.
    pub jobs: usize,
    /// Set when the sandbox was asked for as `auto` and is not available.
    pub warning: Option<String>,
    /// Seeds the order [`super::evaluate`] plays its games in (shuffled
    /// across contestants and decks, so that a contestant cannot know whose
    /// game follows its own). Random unless set; recorded in the audit.
    pub order_seed: u64,
    /// Play each contestant's games through one fork server of it (started
    /// once, forking a child per game) instead of a fresh process per game.
    pub fork_server: bool,
    /// The CPUs games run on (numbers as the kernel counts them, each one
    /// this process may run on), one a job: the organiser's choice
    /// (`--cpus`). `None`: the allowed CPUs with the least load when the
    /// games start.
    pub cpus: Option<Vec<usize>>,
}

/// What every game of a run is played under, read from its [`RunConfig`]
/// once ([`RunConfig::game_settings`]) and passed to each game.
#[derive(Clone, Debug)]
pub(crate) struct GameSettings {
    /// How each game's program is confined.
    pub(crate) launcher: Launcher,
    /// The limits of each game.
    pub(crate) limits: Limits,
    /// Whether games run in the sandbox (a program the loader could not
    /// start there is told which libpoker.so the sandbox provides).
    pub(crate) sandboxed: bool,
    /// Why no fork server can be had here, if none can (no sandbox, no
    /// cgroup controllers to freeze and limit it).
    pub(crate) no_fork_server: Option<String>,
}

/// The default time limit of a compilation.
pub(crate) const DEFAULT_COMPILE_TIME: Duration = Duration::from_secs(30);

/// The default limits of a compilation: 30 s, 1 GiB of memory, 64
/// processes, 256 MiB of temporary files, 256 open files.
pub fn default_compile_limits() -> Limits {
    Limits {
        wall: DEFAULT_COMPILE_TIME,
        cpu: DEFAULT_COMPILE_TIME,
        memory: 1 << 30,
        processes: 64,
        tmp_size: 256 << 20,
        open_files: 256,
    }
}

impl RunConfig {
    /// A configuration for `mode` with the given limits, one game at a time.
    /// Errors: as [`Launcher::choose`]: the sandbox was asked for (`On`)
    /// and cannot run here, or no launcher can be had for `mode`.
    pub fn new(
        mode: SandboxMode,
        limits: Limits,
        compile_limits: Limits,
    ) -> Result<RunConfig, LaunchError> {
        let (launcher, warning) = Launcher::choose(mode)?;
        Ok(RunConfig {
            launcher,
            limits,
            compile_limits,
            jobs: 1,
            warning,
            order_seed: rand::random(),
            fork_server: false,
            cpus: None,
        })
    }

    /// Plain processes with the default limits and `cpu_limit` of CPU time
    /// per game (the wall-clock guard [`WALL_PER_CPU`] times it): what a
    /// program of the organiser's own trusts.
    pub fn unconfined(cpu_limit: Duration) -> RunConfig {
        RunConfig {
            launcher: Launcher::Plain,
            limits: Limits {
                wall: cpu_limit * WALL_PER_CPU,
                cpu: cpu_limit,
                ..Limits::default()
            },
            compile_limits: default_compile_limits(),
            jobs: 1,
            warning: None,
            order_seed: rand::random(),
            fork_server: false,
            cpus: None,
        }
    }

    /// How games get their processes, as reports name it: `fork-server` or
    /// `fresh-processes`.
    pub fn mode_name(&self) -> &'static str {
        if self.fork_server {
            "fork-server"
        } else {
            "fresh-processes"
        }
    }

    /// The settings every game of this run is played under.
    pub(crate) fn game_settings(&self) -> GameSettings {
        GameSettings {
            launcher: self.launcher.clone(),
            limits: self.limits.clone(),
            sandboxed: matches!(self.launcher, Launcher::Bubblewrap { .. }),
            no_fork_server: super::fork_server::unfit_launcher(&self.launcher),
        }
    }

    /// Each game limit with its value and how it is enforced.
    pub fn limit_reports(&self) -> Vec<LimitReport> {
        self.launcher.limit_reports(&self.limits)
    }
}
