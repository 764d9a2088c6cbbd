//! One classification of how a program ended, for games and compilations
//! alike: which limit stopped it, or how it ended by itself, and the words
//! both tell it in.

use crate::sandbox::{Limits, ProgramEnding, Usage};
use rustix::process::Signal;

/// How a run ended, with the limits named.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RunVerdict {
    /// It exited by itself with this code.
    Exited(i32),
    /// A signal killed it that no limit explains (its own crash).
    Signaled(i32),
    /// The sandbox could not start it: why.
    FailedToStart(String),
    /// The kernel's OOM killer stopped it at the memory limit.
    Memory,
    /// It reached the CPU-time limit by the measure (or by the kernel's
    /// SIGXCPU where that holds the limit alone).
    CpuTime,
    /// It wrote a file past the file-size limit (SIGXFSZ).
    FileSize,
    /// It was still running at the wall-clock limit (or when killed).
    WallTime,
}

impl RunVerdict {
    /// The limit that stopped the run, in words with its value ("memory
    /// limit of 64 MiB"), when it is a memory, CPU time or wall-clock one.
    pub fn limit(&self, limits: &Limits) -> Option<String> {
        match self {
            RunVerdict::Memory => Some(format!(
                "memory limit of {}",
                poker_sandbox::size::format_size(limits.memory)
            )),
            RunVerdict::CpuTime => {
                Some(format!("CPU time limit of {} s", limits.cpu.as_secs_f64()))
            }
            RunVerdict::WallTime => Some(format!(
                "wall-clock limit of {} s",
                limits.wall.as_secs_f64()
            )),
            _ => None,
        }
    }
}

/// What a run that the sandbox could not start tells: `what` names the
/// program ("program", "compiler"), `why` the sandbox's reason.
pub fn failed_to_start(what: &str, why: &str) -> String {
    format!("the sandbox failed to start the {what}: {why}")
}

/// Classifies a run from how its program ended (`ending`; `None`: it was
/// still running when it was killed) and the one measure of what it used
/// (`usage`, taken whether or not the ending is known), under `limits`;
/// `timed_out` says the caller's wall-clock guard fired, `rlimit_holds`
/// that `RLIMIT_CPU` held the CPU-time limit by itself (no watch of a
/// cgroup's measure).
///
/// A limit is named first, whatever signal carried it out: the memory
/// limit (OOM kill), then CPU time, then file size, then wall time. The
/// CPU-time limit is reached when the measure reaches it; SIGXCPU under it
/// is a signal like any other (the program raised it itself, or the
/// kernel's backstop fired) unless `RLIMIT_CPU` held the limit, or there is
/// no measure: then the kernel's word is the only one.
pub fn classify(
    ending: Option<&ProgramEnding>,
    usage: &Usage,
    timed_out: bool,
    rlimit_holds: bool,
    limits: &Limits,
) -> RunVerdict {
    if let Some(ProgramEnding::FailedToStart(why)) = ending {
        return RunVerdict::FailedToStart(why.clone());
    }
    let signal = match ending {
        Some(ProgramEnding::Signaled(s)) => Some(*s),
        _ => None,
    };
    let measured_over = usage.cpu_time.map(|t| t >= limits.cpu);
    let kernel_says_cpu =
        signal == Some(Signal::XCPU.as_raw()) && (rlimit_holds || measured_over.is_none());
    if usage.oom_killed {
        RunVerdict::Memory
    } else if measured_over == Some(true) || kernel_says_cpu {
        RunVerdict::CpuTime
    } else if signal == Some(Signal::XFSZ.as_raw()) {
        RunVerdict::FileSize
    } else if timed_out || ending.is_none() {
        RunVerdict::WallTime
    } else {
        match ending {
            Some(ProgramEnding::Signaled(s)) => RunVerdict::Signaled(*s),
            Some(ProgramEnding::Exited(code)) => RunVerdict::Exited(*code),
            _ => unreachable!("handled above"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn limits_are_named_before_the_signal_that_enforced_them() {
        let limits = Limits::default();
        let plain = |e| classify(Some(&e), &Usage::default(), false, false, &limits);
        assert_eq!(plain(ProgramEnding::Exited(139)), RunVerdict::Exited(139));
        assert_eq!(
            plain(ProgramEnding::Signaled(Signal::SEGV.as_raw())),
            RunVerdict::Signaled(11)
        );
        assert_eq!(
            plain(ProgramEnding::Signaled(Signal::XFSZ.as_raw())),
            RunVerdict::FileSize
        );
        let oom = Usage {
            oom_killed: true,
            ..Usage::default()
        };
        let killed = ProgramEnding::Signaled(Signal::KILL.as_raw());
        assert_eq!(
            classify(Some(&killed), &oom, true, false, &limits),
            RunVerdict::Memory
        );
        let busy = Usage {
            cpu_time: Some(Duration::from_secs(5)),
            ..Usage::default()
        };
        assert_eq!(
            classify(Some(&killed), &busy, false, false, &limits),
            RunVerdict::CpuTime
        );
        // Killed at the guard, or gone without a word, but measured at
        // the limit: the measure decides.
        assert_eq!(
            classify(None, &busy, true, false, &limits),
            RunVerdict::CpuTime
        );
        assert_eq!(
            classify(Some(&killed), &Usage::default(), true, false, &limits),
            RunVerdict::WallTime
        );
        assert_eq!(
            classify(None, &Usage::default(), true, false, &limits),
            RunVerdict::WallTime
        );
    }

    #[test]
    fn sigxcpu_is_the_cpu_limit_only_when_the_measure_or_the_rlimit_says_so() {
        // The figures seen on a loaded machine: SIGXCPU at 0.66 s of
        // measured CPU time on a 1 s limit.
        let limits = Limits {
            cpu: Duration::from_secs(1),
            ..Limits::default()
        };
        let xcpu = ProgramEnding::Signaled(Signal::XCPU.as_raw());
        let used = |ms| Usage {
            cpu_time: Some(Duration::from_millis(ms)),
            ..Usage::default()
        };
        // Watched: under the limit it is a signal death.
        assert_eq!(
            classify(Some(&xcpu), &used(660), false, false, &limits),
            RunVerdict::Signaled(Signal::XCPU.as_raw())
        );
        assert_eq!(
            classify(Some(&xcpu), &used(1000), false, false, &limits),
            RunVerdict::CpuTime
        );
        // RLIMIT_CPU holding the limit alone, or no measure: the kernel's.
        assert_eq!(
            classify(Some(&xcpu), &used(660), false, true, &limits),
            RunVerdict::CpuTime
        );
        assert_eq!(
            classify(Some(&xcpu), &Usage::default(), false, false, &limits),
            RunVerdict::CpuTime
        );
    }

    #[test]
    fn a_limit_is_told_with_its_value_and_an_own_ending_names_none() {
        // The words the evaluator tests expect in a report (0.5 s, 1 s),
        // and the size as the README prints it.
        let limits = Limits {
            wall: Duration::from_millis(500),
            cpu: Duration::from_secs(1),
            memory: 64 << 20,
            ..Limits::default()
        };
        let told = |verdict: RunVerdict| verdict.limit(&limits);
        assert_eq!(
            told(RunVerdict::WallTime).unwrap(),
            "wall-clock limit of 0.5 s"
        );
        assert_eq!(told(RunVerdict::CpuTime).unwrap(), "CPU time limit of 1 s");
        assert_eq!(told(RunVerdict::Memory).unwrap(), "memory limit of 64 MiB");
        assert_eq!(told(RunVerdict::FileSize), None);
        assert_eq!(told(RunVerdict::Exited(0)), None);
        assert_eq!(told(RunVerdict::Signaled(11)), None);
    }
}
