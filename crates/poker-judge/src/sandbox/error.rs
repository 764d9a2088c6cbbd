//! Why the sandbox cannot run here.

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
