//! `poker freecell` (not implemented yet).

use std::process::ExitCode;

/// Arguments of `poker freecell`.
#[derive(clap::Args)]
pub struct Args {}

/// Runs `poker freecell`.
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("'poker freecell' is not implemented yet")
}
