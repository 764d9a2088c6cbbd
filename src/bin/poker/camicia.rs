//! `poker camicia` (not implemented yet).

use std::process::ExitCode;

/// Arguments of `poker camicia`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `poker camicia`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("'poker camicia' is not implemented yet")
}
