//! Options shared by the commands that run contestants (`eval`, `bench`):
//! how they are built, confined and limited.

use crate::time_option::time_limit;
use anyhow::{Context, bail};
use poker_judge::evaluator::config::default_compile_limits;
use poker_judge::evaluator::{self, RunConfig, SandboxMode, Toolchain, affinity};
use poker_judge::sandbox::{Limits, WALL_PER_CPU};
use poker_judge::size;
use std::path::PathBuf;
use std::time::Duration;

/// `--sandbox` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SandboxArg {
    /// Every game and compilation in a bubblewrap sandbox; an error if it
    /// cannot run.
    On,
    /// Plain processes of your own user (only for programs you trust).
    Off,
    /// On when bubblewrap works here, else off with a warning.
    Auto,
}

/// How contestants are built, confined and timed.
#[derive(clap::Args)]
pub struct RunOptions {
    /// Run each game and each compilation in a bubblewrap sandbox (own
    /// uid, namespaces, cgroup limits, private /tmp). Default: on for
    /// eval --decks (a real contest), auto for eval on the built-in
    /// decks and for bench.
    #[arg(long, value_enum, value_name = "MODE")]
    sandbox: Option<SandboxArg>,

    /// The contest's limit: CPU time per game, 1ms to 1h: a time such as
    /// 5s, 500ms or 2m (a bare number is seconds). In the sandbox it counts
    /// all the game's processes together (their cgroup, watched by the
    /// evaluator); without it, each process on its own (RLIMIT_CPU, rounded
    /// up to whole seconds). A game is cpu_time only when that measure
    /// reaches the limit.
    #[arg(long, value_name = "TIME", default_value = "5s", value_parser = time_limit)]
    cpu_limit: Duration,

    /// Wall-clock guard per game, 1ms to 1h (5s, 500ms, 2m; a bare number
    /// is seconds): it stops a program that hangs (sleeps, blocks), it does
    /// not measure speed. It is extended by the CPU time other processes
    /// take on the game's CPUs while the game waits for them (at most four
    /// times more), so a busy machine cannot time out an honest game.
    /// Default: twice the CPU limit.
    #[arg(long, value_name = "TIME", value_parser = time_limit)]
    wall_limit: Option<Duration>,

    /// Deprecated: the former name of --cpu-limit (the contest's 5 s are
    /// CPU time; the wall-clock guard is --wall-limit).
    #[arg(long, value_name = "TIME", conflicts_with = "cpu_limit", value_parser = time_limit)]
    time_limit: Option<Duration>,

    /// The CPUs to play games on, a list such as 2,3 or 0-3 (each one this
    /// process may run on): bench --jobs N runs its jobs on them in
    /// turn, eval on the quietest of them. Keep other work off them for
    /// fair timing (see poker doctor). Default: the allowed CPUs with the
    /// least load when the games start. In the sandbox each CPU named is
    /// leased to this run alone, so runs on disjoint CPUs go side by side;
    /// without --cpus a run leases the whole machine and others wait for it
    /// (see docs/sandbox.md).
    #[arg(long, value_name = "LIST", value_parser = cpu_list)]
    cpus: Option<CpuList>,

    /// Memory limit per game (all its processes, in the sandbox): a size
    /// such as 256M, 256MiB, 1G or 1.5G (binary units; a bare number is
    /// MiB), from 1 MiB to 1 TiB.
    #[arg(long, value_name = "SIZE", default_value = "256MiB", value_parser = limit_size)]
    memory_limit: u64,

    /// Processes and threads a game may have at once (in the sandbox), 4
    /// to 100000.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = process_count)]
    process_limit: u32,

    /// Open files per process of a game, 8 to 1000000.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = open_file_count)]
    open_file_limit: u32,

    /// Size of a game's private /tmp, the only place it may write (in the
    /// sandbox): a size such as 64M or 1G (a bare number is MiB), from 1 MiB
    /// to 1 TiB.
    #[arg(long, value_name = "SIZE", default_value = "64MiB", value_parser = limit_size)]
    tmp_limit: u64,

    /// Time limit per compilation of a C, C++ or Pascal contestant, 1ms to
    /// 1h (30s, 2m; a bare number is seconds).
    #[arg(long, value_name = "TIME", default_value = "30s", value_parser = time_limit)]
    compile_time_limit: Duration,

    /// Folder holding libpoker.so, to build .c and .pas contestants against
    /// (and for .py contestants to load); in the sandbox, a prebuilt
    /// contestant finds only this folder's library. Default: next to this
    /// program, or the package of the Python wheel that installed it.
    #[arg(long, value_name = "DIR")]
    lib_dir: Option<PathBuf>,
}

/// A size option's value in bytes (see [`poker_judge::size`]), checked to be
/// from 1 MiB to 1 TiB.
fn limit_size(text: &str) -> Result<u64, String> {
    let bytes = size::parse_size(text).map_err(|e| e.to_string())?;
    let (low, high) = (size::MIB, 1 << 40);
    if !(low..=high).contains(&bytes) {
        return Err(format!(
            "{} is out of range: from {} to {}",
            size::format_size(bytes),
            size::format_size(low),
            size::format_size(high)
        ));
    }
    Ok(bytes)
}

/// A list of CPU numbers, as `--cpus` takes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpuList(pub(crate) Vec<usize>);

/// Most CPUs a list may name (the kernel's CPU sets hold 1024).
const MAX_CPU: usize = 1023;

/// `--cpus`'s value: numbers and ranges separated by commas (`0-3,6`), as
/// taskset and cpuset files write them; each CPU once, in the order given.
pub(crate) fn cpu_list(text: &str) -> Result<CpuList, String> {
    let bad = || format!("{text:?} is not a list of CPUs such as 2,3 or 0-3");
    let number = |n: &str| n.trim().parse::<usize>().ok().filter(|&n| n <= MAX_CPU);
    let mut cpus = Vec::new();
    for part in text.split(',') {
        let (first, last) = match part.split_once('-') {
            Some((a, b)) => (number(a).ok_or_else(bad)?, number(b).ok_or_else(bad)?),
            None => {
                let n = number(part).ok_or_else(bad)?;
                (n, n)
            }
        };
        if first > last {
            return Err(bad());
        }
        for cpu in first..=last {
            if !cpus.contains(&cpu) {
                cpus.push(cpu);
            }
        }
    }
    Ok(CpuList(cpus))
}

/// CPU numbers as a short list: `0-3,6`.
fn list_text(cpus: &[usize]) -> String {
    let mut sorted = cpus.to_vec();
    sorted.sort_unstable();
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[j] + 1 {
            j += 1;
        }
        parts.push(match i == j {
            true => sorted[i].to_string(),
            false => format!("{}-{}", sorted[i], sorted[j]),
        });
        i = j + 1;
    }
    parts.join(",")
}

/// A whole number from `low` to `high`, or a message saying so, worded as
/// the time limits' are.
fn count_in(text: &str, low: u32, high: u32) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if (low..=high).contains(&n) => Ok(n),
        _ => Err(format!(
            "must be a whole number from {low} to {high}, not {text}"
        )),
    }
}

fn process_count(text: &str) -> Result<u32, String> {
    count_in(text, 4, 100_000)
}

fn open_file_count(text: &str) -> Result<u32, String> {
    count_in(text, 8, 1_000_000)
}

impl RunOptions {
    /// The run configuration these options ask for; `default` is the
    /// sandbox mode when --sandbox is not given. Errors: a limit out of
    /// range, or a sandbox asked for that cannot run here.
    pub fn config(&self, default: SandboxMode) -> anyhow::Result<RunConfig> {
        let cpu = self.time_limit.unwrap_or(self.cpu_limit);
        let wall = self.wall_limit.unwrap_or(cpu * WALL_PER_CPU);
        let compile = self.compile_time_limit;
        let limits = Limits {
            wall,
            cpu,
            memory: self.memory_limit,
            processes: self.process_limit,
            tmp_size: self.tmp_limit,
            open_files: self.open_file_limit,
        };
        let compile_limits = Limits {
            wall: compile,
            cpu: compile,
            ..default_compile_limits()
        };
        let mode = match self.sandbox {
            Some(SandboxArg::On) => SandboxMode::On,
            Some(SandboxArg::Off) => SandboxMode::Off,
            Some(SandboxArg::Auto) => SandboxMode::Auto,
            None => default,
        };
        let mut config =
            RunConfig::new(mode, limits, compile_limits).map_err(anyhow::Error::msg)?;
        if let Some(CpuList(cpus)) = &self.cpus {
            let allowed = affinity::allowed_cpus();
            if let Some(cpu) = cpus.iter().find(|c| !allowed.contains(c)) {
                bail!(
                    "--cpus: this process may not run on CPU {cpu} (it may on {})",
                    list_text(&allowed)
                );
            }
            config.cpus = Some(cpus.clone());
        }
        Ok(config)
    }

    /// The CPUs named with --cpus, if any.
    pub fn cpus(&self) -> Option<&[usize]> {
        self.cpus.as_ref().map(|l| l.0.as_slice())
    }

    /// A toolchain linking against --lib-dir or the libpoker.so found next
    /// to this program, compiling as `config` says.
    pub fn toolchain(&self, config: &RunConfig) -> anyhow::Result<Toolchain> {
        let Some(lib_dir) = self.lib_dir.clone().or_else(evaluator::default_lib_dir) else {
            bail!(
                "cannot find libpoker.so next to this program; build it (cargo build --release) or pass --lib-dir"
            );
        };
        Toolchain::new(lib_dir, config).context("cannot prepare to build contestants")
    }
}

#[cfg(test)]
mod tests {
    use super::{CpuList, count_in, cpu_list, list_text};

    #[test]
    fn cpu_lists_are_read_as_taskset_writes_them() {
        assert_eq!(cpu_list("2"), Ok(CpuList(vec![2])));
        assert_eq!(cpu_list("0-3,6"), Ok(CpuList(vec![0, 1, 2, 3, 6])));
        assert_eq!(cpu_list("3,1,3"), Ok(CpuList(vec![3, 1])));
        for text in ["", "a", "3-1", "1,,2", "-1", "1024", "0-"] {
            assert!(cpu_list(text).is_err(), "{text:?}");
        }
        assert_eq!(list_text(&[6, 0, 1, 2, 3]), "0-3,6");
        assert_eq!(list_text(&[1]), "1");
    }

    #[test]
    fn counts_take_whole_numbers_within_their_bounds() {
        assert_eq!(count_in("4", 4, 100_000), Ok(4));
        assert_eq!(count_in("100000", 4, 100_000), Ok(100_000));
        for text in ["3", "100001", "-1", "6.5", "many"] {
            assert_eq!(
                count_in(text, 4, 100_000),
                Err(format!(
                    "must be a whole number from 4 to 100000, not {text}"
                ))
            );
        }
    }
}
