//! Whether a machine is fit to judge on, as `isolate-check-environment`
//! checks it: the sandbox and its cgroups, and what makes timing unfair or
//! lets games meet (SMT siblings, frequency scaling and turbo, transparent
//! huge pages, swap, load and other processes on the judge's CPUs, the
//! machine-wide pty pool). Each finding says what was seen and what to do,
//! or that it does not apply here (a virtual machine may have no cpufreq).
//! `poker doctor` prints them; `poker eval`'s audit carries them.

use crate::evaluator::load::{busy_times, clock_ticks};
use serde::Serialize;
use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

/// How a check came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Status {
    /// Fit for judging.
    Ok,
    /// Judging works, but timing is less fair or games less apart than
    /// they could be.
    Warning,
    /// Judging as the contest needs it does not work here.
    Problem,
    /// Nothing to check on this machine (no such knob here).
    NotApplicable,
}

/// One check of the machine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// What was checked: `sandbox`, `cgroups`, `smt`, `cpufreq`, `turbo`,
    /// `transparent_hugepages`, `swap`, `load`, `other_processes`, `ptys`.
    pub check: &'static str,
    /// How it came out.
    pub status: Status,
    /// What was seen.
    pub detail: String,
    /// What to do about it: absent when it is fine or does not apply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl Finding {
    fn new(check: &'static str, status: Status, detail: String, fix: Option<&str>) -> Finding {
        Finding {
            check,
            status,
            detail,
            fix: fix.map(str::to_owned),
        }
    }
}

/// The share of a judge CPU's time that other processes may take before
/// the load check warns.
const QUIET_SHARE: f64 = 0.05;

/// How long the judge CPUs' load is sampled.
const LOAD_SAMPLE: Duration = Duration::from_millis(200);

/// Checks this machine for judging on `cpus` (the CPUs games run on).
pub fn examine(cpus: &[usize]) -> Vec<Finding> {
    let mut findings = sandbox();
    findings.push(smt(cpus));
    findings.push(cpufreq(cpus));
    findings.push(turbo());
    findings.push(hugepages());
    findings.push(swap());
    findings.extend(load_and_processes(cpus));
    findings.push(ptys());
    findings
}

fn read(path: impl AsRef<Path>) -> Option<String> {
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_owned())
}

fn sandbox() -> Vec<Finding> {
    let (bwrap, facts) = match crate::sandbox::probe_jail() {
        Ok(found) => found,
        Err(e) => {
            let why = e.to_string();
            return vec![
                Finding::new(
                    "sandbox",
                    Status::Problem,
                    why,
                    Some(
                        "install bubblewrap (Debian: apt-get install bubblewrap) and run the evaluator as root",
                    ),
                ),
                Finding::new(
                    "cgroups",
                    Status::NotApplicable,
                    "no sandbox to give cgroups to".into(),
                    None,
                ),
            ];
        }
    };
    let sandbox = Finding::new(
        "sandbox",
        Status::Ok,
        format!("{} runs a jail", bwrap.display()),
        None,
    );
    let cgroups = match &facts.cgroup {
        Some(c) if c.memory && c.processes && c.cpu => Finding::new(
            "cgroups",
            Status::Ok,
            format!("cgroup v{}: memory, pids and CPU time per game", c.version),
            None,
        ),
        Some(c) => Finding::new(
            "cgroups",
            Status::Problem,
            format!(
                "cgroup v{} without every controller: {}",
                c.version,
                c.gaps
                    .clone()
                    .unwrap_or_else(|| "no CPU-time accounting".into())
            ),
            Some(
                "enable the memory, pids and cpu (v1: cpuacct) controllers for the evaluator's cgroup",
            ),
        ),
        None => Finding::new(
            "cgroups",
            Status::Problem,
            facts
                .cgroup_error
                .clone()
                .unwrap_or_else(|| "no cgroup for the jails".into()),
            Some(
                "run the evaluator as root on a machine with cgroup v2 (memory, pids, cpu) or v1 (memory, pids, cpuacct): without it the CPU limit is per process and the kernel's tick-sampled RLIMIT_CPU judges it",
            ),
        ),
    };
    vec![sandbox, cgroups]
}

fn smt(cpus: &[usize]) -> Finding {
    let mut shared = Vec::new();
    for &cpu in cpus {
        let path = format!("/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list");
        let Some(siblings) = read(&path) else {
            return Finding::new(
                "smt",
                Status::NotApplicable,
                "no CPU topology in /sys".into(),
                None,
            );
        };
        if siblings != cpu.to_string() {
            shared.push(format!("cpu{cpu} shares its core with {siblings}"));
        }
    }
    match shared.is_empty() {
        true => Finding::new(
            "smt",
            Status::Ok,
            "each judge CPU has a core of its own".into(),
            None,
        ),
        false => Finding::new(
            "smt",
            Status::Warning,
            shared.join("; "),
            Some(
                "turn SMT off (echo off > /sys/devices/system/cpu/smt/control) or keep the sibling threads of --cpus idle",
            ),
        ),
    }
}

fn cpufreq(cpus: &[usize]) -> Finding {
    let mut scaling = Vec::new();
    for &cpu in cpus {
        let path = format!("/sys/devices/system/cpu/cpu{cpu}/cpufreq/scaling_governor");
        let Some(governor) = read(&path) else {
            return Finding::new(
                "cpufreq",
                Status::NotApplicable,
                "no cpufreq here (a virtual machine's frequency is its host's)".into(),
                None,
            );
        };
        if governor != "performance" {
            scaling.push(format!("cpu{cpu}: {governor}"));
        }
    }
    match scaling.is_empty() {
        true => Finding::new("cpufreq", Status::Ok, "governor performance".into(), None),
        false => Finding::new(
            "cpufreq",
            Status::Warning,
            format!("frequency scaling: {}", scaling.join(", ")),
            Some(
                "cpupower frequency-set -g performance (or write performance to each judge CPU's cpufreq/scaling_governor)",
            ),
        ),
    }
}

fn turbo() -> Finding {
    let intel = read("/sys/devices/system/cpu/intel_pstate/no_turbo");
    let boost = read("/sys/devices/system/cpu/cpufreq/boost");
    match (intel.as_deref(), boost.as_deref()) {
        (Some("0"), _) => Finding::new(
            "turbo",
            Status::Warning,
            "Intel turbo on".into(),
            Some("echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo"),
        ),
        (_, Some("1")) => Finding::new(
            "turbo",
            Status::Warning,
            "frequency boost on".into(),
            Some("echo 0 > /sys/devices/system/cpu/cpufreq/boost"),
        ),
        (None, None) => Finding::new(
            "turbo",
            Status::NotApplicable,
            "no turbo or boost control here".into(),
            None,
        ),
        _ => Finding::new("turbo", Status::Ok, "turbo off".into(), None),
    }
}

fn hugepages() -> Finding {
    let Some(enabled) = read("/sys/kernel/mm/transparent_hugepage/enabled") else {
        return Finding::new(
            "transparent_hugepages",
            Status::NotApplicable,
            "no transparent huge pages here".into(),
            None,
        );
    };
    match enabled.contains("[always]") {
        true => Finding::new(
            "transparent_hugepages",
            Status::Warning,
            format!("enabled: {enabled}: a game's speed depends on the kernel finding huge pages"),
            Some(
                "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled (isolate asks for never)",
            ),
        ),
        false => Finding::new(
            "transparent_hugepages",
            Status::Ok,
            format!("enabled: {enabled}"),
            None,
        ),
    }
}

fn swap() -> Finding {
    let areas = read("/proc/swaps").map_or(0, |t| t.lines().skip(1).count());
    match areas {
        0 => Finding::new("swap", Status::Ok, "no swap".into(), None),
        n => Finding::new(
            "swap",
            Status::Warning,
            format!("{n} swap area(s): a game's memory may be swapped out, and its time with it"),
            Some("swapoff -a"),
        ),
    }
}

/// The load of the judge CPUs and the processes that made it, sampled
/// over the same interval so that the two findings agree: a busy CPU and
/// the processes that took its time in the same [`LOAD_SAMPLE`].
fn load_and_processes(cpus: &[usize]) -> [Finding; 2] {
    let (procs_before, before) = (processes(), busy_times());
    std::thread::sleep(LOAD_SAMPLE);
    let (after, procs_after) = (busy_times(), processes());
    let load = load(cpus, before, after);
    let busy = load.status == Status::Warning;
    [
        load,
        other_processes(cpus, &procs_before, &procs_after, busy),
    ]
}

fn load(
    cpus: &[usize],
    before: Option<Vec<Option<Duration>>>,
    after: Option<Vec<Option<Duration>>>,
) -> Finding {
    let (Some(before), Some(after)) = (before, after) else {
        return Finding::new("load", Status::NotApplicable, "no /proc/stat".into(), None);
    };
    let mut busy = Vec::new();
    for &cpu in cpus {
        let taken = match (
            after.get(cpu).copied().flatten(),
            before.get(cpu).copied().flatten(),
        ) {
            (Some(a), Some(b)) => a.saturating_sub(b),
            _ => continue,
        };
        let share = taken.as_secs_f64() / LOAD_SAMPLE.as_secs_f64();
        if share > QUIET_SHARE {
            busy.push(format!("cpu{cpu} {:.0}% busy", 100.0 * share.min(1.0)));
        }
    }
    match busy.is_empty() {
        true => Finding::new("load", Status::Ok, "the judge CPUs are idle".into(), None),
        false => Finding::new(
            "load",
            Status::Warning,
            format!(
                "{} (sampled for {} ms)",
                busy.join(", "),
                LOAD_SAMPLE.as_millis()
            ),
            Some(
                "move other work off the judge CPUs (isolcpus, cpusets, taskset) or name quiet ones with --cpus; games are timed by CPU time and their guard is extended, but caches and memory bandwidth are shared",
            ),
        ),
    }
}

/// A process as `/proc/PID/stat` shows it at one instant.
struct ProcessSample {
    name: String,
    /// User and system CPU time so far, in clock ticks.
    ticks: u64,
    /// The CPU it last ran on.
    cpu: Option<usize>,
}

/// Every process but this one, by pid.
fn processes() -> HashMap<u32, ProcessSample> {
    let me = std::process::id();
    let mut found = HashMap::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        let Some(stat) = read(entry.path().join("stat")).filter(|_| pid != me) else {
            continue;
        };
        // After the command's closing parenthesis: field 3 (state) is the
        // first; utime and stime are fields 14 and 15, the CPU last run on
        // field 39.
        let Some((name, rest)) = stat.split_once(" (").and_then(|(_, r)| r.rsplit_once(") "))
        else {
            continue;
        };
        let fields: Vec<&str> = rest.split_ascii_whitespace().collect();
        let number = |i: usize| fields.get(i).and_then(|v| v.parse::<u64>().ok());
        let ticks = number(11).unwrap_or(0) + number(12).unwrap_or(0);
        let cpu = number(36).and_then(|c| usize::try_from(c).ok());
        let name = name.to_string();
        found.insert(pid, ProcessSample { name, ticks, cpu });
    }
    found
}

/// The processes that took CPU time on the judge CPUs between two
/// samples (alive at both), most first.
fn other_processes(
    cpus: &[usize],
    before: &HashMap<u32, ProcessSample>,
    after: &HashMap<u32, ProcessSample>,
    busy: bool,
) -> Finding {
    let tick_ms = 1000 / clock_ticks().unwrap_or(100).max(1);
    let on_judge = |p: &ProcessSample| p.cpu.is_some_and(|c| cpus.contains(&c));
    let mut took: Vec<(u64, String)> = after
        .iter()
        .filter_map(|(pid, now)| {
            let then = before.get(pid)?;
            let ticks = now.ticks.checked_sub(then.ticks).filter(|&t| t > 0)?;
            (on_judge(now) || on_judge(then))
                .then(|| (ticks * tick_ms, format!("{} ({pid})", now.name)))
        })
        .collect();
    took.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let sample = LOAD_SAMPLE.as_millis();
    if took.is_empty() {
        let detail = match busy {
            true => format!(
                "no process alive through the same {sample} ms took CPU time on the judge \
                 CPUs: the load above came from processes that started and ended within it \
                 (compilers, scripts) or from the kernel"
            ),
            false => format!("none took CPU time on the judge CPUs in the same {sample} ms"),
        };
        return Finding::new("other_processes", Status::Ok, detail, None);
    }
    let shown: Vec<String> = took
        .iter()
        .take(10)
        .map(|(ms, name)| format!("{name} {ms} ms"))
        .collect();
    let more = match took.len() > shown.len() {
        true => format!(" and {} more", took.len() - shown.len()),
        false => String::new(),
    };
    Finding::new(
        "other_processes",
        Status::Warning,
        format!(
            "took CPU time on the judge CPUs in the same {sample} ms: {}{more}",
            shown.join(", ")
        ),
        Some("stop them or move them to other CPUs (taskset -p, cpusets)"),
    )
}

fn ptys() -> Finding {
    let number = |name: &str| {
        read(format!("/proc/sys/kernel/pty/{name}")).and_then(|v| v.parse::<u64>().ok())
    };
    let (Some(used), Some(max)) = (number("nr"), number("max")) else {
        return Finding::new(
            "ptys",
            Status::NotApplicable,
            "no pty counters here".into(),
            None,
        );
    };
    let detail = format!(
        "{} of {} ptys in use, one pool for the whole machine",
        poker_core::numbers::count(used),
        poker_core::numbers::count(max)
    );
    match used * 2 > max {
        true => Finding::new(
            "ptys",
            Status::Warning,
            detail,
            Some(
                "find what holds them (ls -l /proc/*/fd | grep ptmx); games must not get /dev/ptmx",
            ),
        ),
        false => Finding::new("ptys", Status::Ok, detail, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_is_made_once_with_a_fix_for_each_warning_or_problem() {
        let cpus = crate::evaluator::load::own_cpus();
        let findings = examine(&cpus[..1]);
        let names: Vec<&str> = findings.iter().map(|f| f.check).collect();
        assert_eq!(
            names,
            [
                "sandbox",
                "cgroups",
                "smt",
                "cpufreq",
                "turbo",
                "transparent_hugepages",
                "swap",
                "load",
                "other_processes",
                "ptys"
            ]
        );
        for f in &findings {
            let needs_fix = matches!(f.status, Status::Warning | Status::Problem);
            assert_eq!(f.fix.is_some(), needs_fix, "{f:?}");
            assert!(!f.detail.is_empty(), "{f:?}");
        }
    }
}
