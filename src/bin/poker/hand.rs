//! `poker hand` (not implemented yet).

use std::process::ExitCode;

/// Arguments of `poker hand`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `poker hand`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("'poker hand' is not implemented yet")
}
