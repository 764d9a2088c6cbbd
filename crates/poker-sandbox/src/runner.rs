//! The front door of this crate for one run: [`Runner::start`] confines
//! and starts a program under its limits, [`Running::finish`] ends it and
//! says how it ended ([`Outcome`]). What a caller needs between the two
//! (the channel, the exit watch, the cgroup) is on [`Running`].

use crate::launcher::{Launcher, Program};
use crate::process::{self, Running};
use crate::{CgroupShape, Limits};

/// The descriptors a program starts with besides its standard streams
/// (stdin empty, stdout and stderr captured).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fds {
    /// None.
    Stdio,
    /// A socket on fd [`process::CHANNEL_FD`], whose other end
    /// [`Running::take_channel`] gives (the caller names it in the
    /// program's environment).
    Channel,
}

/// Starts programs as one launcher confines them, each in a jail of its
/// own of one cgroup shape.
#[derive(Debug, Clone, Copy)]
pub struct Runner<'a> {
    launcher: &'a Launcher,
    shape: CgroupShape,
}

impl<'a> Runner<'a> {
    /// A runner of `launcher`'s programs, each in a game's cgroup.
    pub fn new(launcher: &'a Launcher) -> Runner<'a> {
        Runner {
            launcher,
            shape: CgroupShape::Game,
        }
    }

    /// This runner with its programs' cgroups in `shape` (a fork server's
    /// is [`CgroupShape::ForkServer`]).
    pub fn shaped(self, shape: CgroupShape) -> Runner<'a> {
        Runner { shape, ..self }
    }

    /// Starts `program` under `limits` with `fds`, in a new session; its
    /// CPU-time limit is watched where its cgroup counts CPU time. Errors:
    /// the jail cannot be set up (no uid, no cgroup that was asked for, a
    /// file of the program missing) or the process cannot be spawned.
    pub fn start(&self, program: &Program, limits: &Limits, fds: Fds) -> std::io::Result<Running> {
        let launch = self.launcher.prepare_shaped(program, limits, self.shape)?;
        process::spawn(launch, fds == Fds::Channel)
    }
}
