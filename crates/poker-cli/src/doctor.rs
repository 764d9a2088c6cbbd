//! `poker doctor`: checks this machine for judging, as isolate's
//! `isolate-check-environment` does, and says what to fix.

use crate::run_options::{CpuList, cpu_list};
use poker_judge::doctor::{self, Status};
use poker_judge::evaluator::affinity;
use std::process::ExitCode;

/// Check this machine for fair judging: the sandbox and its cgroups, SMT,
/// frequency scaling and turbo, transparent huge pages, swap, load and
/// other processes on the judge's CPUs, the machine-wide pty pool. Each
/// finding comes with its fix, or "not applicable here". Exit status 1
/// when the sandbox cannot judge here as a contest needs.
#[derive(clap::Args)]
pub struct Args {
    /// The CPUs games will run on (as eval --cpus, e.g. 2,3 or 0-3).
    /// Default: every CPU this process may run on.
    #[arg(long, value_name = "LIST", value_parser = cpu_list)]
    cpus: Option<CpuList>,
    /// Print the findings as JSON: a list of objects with check,
    /// status (ok, warning, problem, not_applicable), detail and fix.
    #[arg(long)]
    json: bool,
}

/// Runs `poker doctor`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let cpus = match args.cpus {
        Some(CpuList(cpus)) => cpus,
        None => affinity::allowed_cpus(),
    };
    let findings = doctor::examine(&cpus);
    if args.json {
        println!("{}", serde_json::to_string(&findings)?);
    } else {
        for f in &findings {
            let status = match f.status {
                Status::Ok => "ok",
                Status::Warning => "warning",
                Status::Problem => "problem",
                _ => "n/a",
            };
            println!("{status:<8} {}: {}", f.check, f.detail);
            match &f.fix {
                Some(fix) => println!("{:<8} fix: {fix}", ""),
                None if f.status == Status::NotApplicable => {
                    println!("{:<8} not applicable here", "")
                }
                None => {}
            }
        }
    }
    let problems = findings.iter().any(|f| f.status == Status::Problem);
    Ok(if problems {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
