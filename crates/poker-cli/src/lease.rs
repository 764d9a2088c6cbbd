//! The machine's lease of a command that starts jails (`eval`, `bench`):
//! taken before its first compilation, held until its last game ends, so
//! that no other evaluation's contestants are alive beside its own unless
//! each evaluation runs on CPUs of its own.

use anyhow::Context;
use poker_judge::evaluator::{Launcher, RunConfig};
use poker_judge::sandbox::MachineLease;

/// The environment variable that lets sandboxed evaluations run side by
/// side without the lease, when set to `1`: for test suites only (games of
/// two evaluations alive at once can pass each other cards; see
/// docs/sandbox.md). Never set by default.
pub const SIDE_BY_SIDE_ENV: &str = "POKER_SANDBOX_SIDE_BY_SIDE";

/// Takes the lease of the machine, or of the CPUs the organiser named
/// (`config.cpus`, `--cpus`), for a run in the sandbox, saying on stderr
/// when it must wait and for what. `None` for plain processes (nothing confined, nothing to lease) and
/// when [`SIDE_BY_SIDE_ENV`] is `1` (said on stderr). Errors: the lock
/// folder cannot be used.
pub fn take(config: &RunConfig) -> anyhow::Result<Option<MachineLease>> {
    if !matches!(config.launcher, Launcher::Bubblewrap { .. }) {
        return Ok(None);
    }
    if std::env::var_os(SIDE_BY_SIDE_ENV).is_some_and(|v| v == "1") {
        eprintln!(
            "poker: note: {SIDE_BY_SIDE_ENV}=1: no lease of the machine, so this evaluation \
             may run beside others (for test suites only: see docs/sandbox.md)"
        );
        return Ok(None);
    }
    let lease = MachineLease::acquire(config.cpus.as_deref(), |busy| {
        eprintln!(
            "poker: waiting for the machine: {busy}. Evaluations on one machine take turns, \
             unless each is given CPUs of its own (--cpus)."
        )
    })
    .context("cannot take the machine's lease (see docs/sandbox.md)")?;
    Ok(Some(lease))
}
