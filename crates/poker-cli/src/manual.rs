//! `poker man FOLDER` and `poker completions SHELL`: the manual pages and
//! the shell completions, generated from the same clap definitions as
//! `--help`, so that they never disagree with it. Hidden subcommands:
//! `make install` and the Debian package call them.

use anyhow::Context;
use clap::CommandFactory;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct ManArgs {
    /// Folder to write the pages into (made if missing): poker.1 and one
    /// page per subcommand, such as poker-eval.1 and poker-camicia-search.1.
    pub folder: PathBuf,
}

#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell to complete for; the script goes to standard output.
    pub shell: clap_complete::Shell,
}

/// Writes `poker.1` and a page per visible subcommand, at any depth, into
/// the folder; prints the number of pages written.
///
/// Errors: the folder cannot be made or a page cannot be written.
pub fn man(args: ManArgs) -> anyhow::Result<ExitCode> {
    let folder = &args.folder;
    std::fs::create_dir_all(folder)
        .with_context(|| format!("cannot make the folder {}", folder.display()))?;
    let command = super::Cli::command();
    let pages = visible_commands(&command);
    clap_mangen::generate_to(command, folder)
        .with_context(|| format!("cannot write the manual pages into {}", folder.display()))?;
    println!("{pages} manual pages in {}", folder.display());
    Ok(ExitCode::SUCCESS)
}

/// The command and its visible subcommands at any depth: a page each.
fn visible_commands(command: &clap::Command) -> usize {
    1 + command
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set() && sub.get_name() != "help")
        .map(visible_commands)
        .sum::<usize>()
}

/// Prints the completion script of `poker` for the shell.
pub fn completions(args: CompletionsArgs) -> anyhow::Result<ExitCode> {
    let mut command = super::Cli::command();
    clap_complete::generate(args.shell, &mut command, "poker", &mut std::io::stdout());
    Ok(ExitCode::SUCCESS)
}
