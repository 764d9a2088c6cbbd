//! `poker shuffle` (not implemented yet).

use std::process::ExitCode;

/// Arguments of `poker shuffle`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `poker shuffle`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("'poker shuffle' is not implemented yet")
}
