//! Why the sandbox cannot run here, and why no launcher can be had.

use std::fmt;
use std::path::PathBuf;

/// Why bubblewrap cannot jail games on this machine ([`super::probe`]) or
/// why the cgroup named for them cannot be used ([`super::cgroup_fallback`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SandboxError {
    /// No `bwrap` in `/usr/bin` or on `PATH`.
    NotInstalled,
    /// `bwrap` is there but a jail running `/bin/true` failed.
    NotWorking {
        /// The `bwrap` tried.
        bwrap: PathBuf,
        /// What failed, as the system said it.
        why: String,
    },
    /// `POKER_SANDBOX_CGROUP` names a cgroup that cannot be used: why.
    Cgroup(String),
}

impl fmt::Display for SandboxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SandboxError::NotInstalled => f.write_str(
                "bubblewrap (bwrap) is not installed: install the Debian package \
                 `bubblewrap` (apt-get install bubblewrap)",
            ),
            SandboxError::NotWorking { bwrap, why } => write!(
                f,
                "bubblewrap at {} does not work here ({why}); it needs unprivileged user \
                 namespaces; the Debian package is `bubblewrap`",
                bwrap.display()
            ),
            SandboxError::Cgroup(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for SandboxError {}

/// Why no launcher can be had for the sandbox mode asked for
/// ([`crate::launcher::Launcher::choose`]).
#[derive(Debug)]
#[non_exhaustive]
pub enum LaunchError {
    /// The sandbox was asked for (`On`) and cannot run here.
    SandboxRequired(SandboxError),
    /// `POKER_SANDBOX_CGROUP` names a cgroup that cannot be used.
    Cgroup(SandboxError),
    /// Unconfined programs were asked for (`Off`) and cannot have their
    /// PID namespace.
    Unconfined(std::io::Error),
    /// `Auto`: neither the sandbox nor unconfined programs can run.
    Neither {
        /// Why the sandbox cannot run.
        sandbox: SandboxError,
        /// Why unconfined programs cannot run.
        unconfined: std::io::Error,
    },
}

impl fmt::Display for LaunchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unconfined = "contestants cannot run unconfined";
        match self {
            LaunchError::SandboxRequired(why) => write!(
                f,
                "the sandbox cannot run: {why}; or pass --sandbox off to run contestants unconfined"
            ),
            LaunchError::Cgroup(why) => write!(f, "the sandbox cannot run: {why}"),
            LaunchError::Unconfined(e) => write!(f, "{unconfined}: {e}"),
            LaunchError::Neither {
                sandbox,
                unconfined: e,
            } => write!(
                f,
                "the sandbox cannot run: {sandbox}; and {unconfined}: {e}"
            ),
        }
    }
}

impl std::error::Error for LaunchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LaunchError::SandboxRequired(e) | LaunchError::Cgroup(e) => Some(e),
            LaunchError::Unconfined(e) | LaunchError::Neither { unconfined: e, .. } => Some(e),
        }
    }
}
