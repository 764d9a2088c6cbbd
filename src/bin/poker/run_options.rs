//! Options shared by the commands that run contestants (`eval`, `bench`).

use anyhow::{Context, bail};
use poker::evaluator::{self, Toolchain};
use std::path::PathBuf;
use std::time::Duration;

/// How contestants are built and timed.
#[derive(clap::Args)]
pub struct RunOptions {
    /// Time limit per game, in seconds, 0.001 to 3600 (the contest's is 5).
    #[arg(long, value_name = "SECONDS", default_value_t = 5.0)]
    time_limit: f64,

    /// Folder holding libpoker.so, to build .c and .pas contestants against
    /// (and for .py contestants to load).
    /// Default: next to this program.
    #[arg(long, value_name = "DIR")]
    lib_dir: Option<PathBuf>,
}

impl RunOptions {
    /// The time limit, checked to be in (0, 3600] seconds.
    pub fn time_limit(&self) -> anyhow::Result<Duration> {
        let seconds = self.time_limit;
        if !(seconds.is_finite() && (0.001..=3600.0).contains(&seconds)) {
            bail!("--time-limit must be a number of seconds from 0.001 to 3600, not {seconds}");
        }
        Ok(Duration::from_secs_f64(seconds))
    }

    /// A toolchain linking against --lib-dir or the libpoker.so found next
    /// to this program.
    pub fn toolchain(&self) -> anyhow::Result<Toolchain> {
        let Some(lib_dir) = self.lib_dir.clone().or_else(evaluator::default_lib_dir) else {
            bail!(
                "cannot find libpoker.so next to this program; build it (cargo build --release) or pass --lib-dir"
            );
        };
        Toolchain::new(lib_dir).context("cannot prepare to build contestants")
    }
}
