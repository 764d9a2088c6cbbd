//! `poker eval` (not implemented yet).

use std::process::ExitCode;

/// Arguments of `poker eval`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `poker eval`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("'poker eval' is not implemented yet")
}
