//! One classification of how a program ended, for games and compilations
//! alike: which limit stopped it, or how it ended by itself, and the words
//! both tell it in.

use crate::sandbox::{Limits, Outcome, ProgramEnding};
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
    /// It reached the CPU-time limit (SIGXCPU, or the cgroup's measure).
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
                crate::size::format_size(limits.memory)
            )),
            RunVerdict::CpuTime => {
                Some(format!("CPU time limit of {} s", limits.cpu.as_secs_f64()))
            }
            RunVerdict::WallTime => Some(format!("time limit of {} s", limits.wall.as_secs_f64())),
            _ => None,
        }
    }
}

/// What a run that the sandbox could not start tells: `what` names the
/// program ("program", "compiler"), `why` the sandbox's reason.
pub fn failed_to_start(what: &str, why: &str) -> String {
    format!("the sandbox failed to start the {what}: {why}")
}

/// Classifies a run's `outcome` (`None`: it was still running when it was
/// killed) under `limits`; `timed_out` says the caller's wall-clock timer
/// fired. A limit is named first, whatever signal carried it out: the
/// memory limit (OOM kill), then CPU time, then file size, then wall time.
pub fn classify(outcome: Option<&Outcome>, timed_out: bool, limits: &Limits) -> RunVerdict {
    let Some(outcome) = outcome else {
        return RunVerdict::WallTime;
    };
    if let ProgramEnding::FailedToStart(why) = &outcome.ending {
        return RunVerdict::FailedToStart(why.clone());
    }
    let signal = match outcome.ending {
        ProgramEnding::Signaled(s) => Some(s),
        _ => None,
    };
    if outcome.usage.oom_killed {
        RunVerdict::Memory
    } else if signal == Some(Signal::XCPU.as_raw())
        || outcome.usage.cpu_time.is_some_and(|t| t >= limits.cpu)
    {
        RunVerdict::CpuTime
    } else if signal == Some(Signal::XFSZ.as_raw()) {
        RunVerdict::FileSize
    } else if timed_out {
        RunVerdict::WallTime
    } else {
        match outcome.ending {
            ProgramEnding::Signaled(s) => RunVerdict::Signaled(s),
            ProgramEnding::Exited(code) => RunVerdict::Exited(code),
            ProgramEnding::FailedToStart(_) => unreachable!("handled above"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::Usage;
    use std::time::Duration;

    fn ended(ending: ProgramEnding, usage: Usage) -> Outcome {
        Outcome { ending, usage }
    }

    #[test]
    fn limits_are_named_before_the_signal_that_enforced_them() {
        let limits = Limits::default();
        let plain = |e| classify(Some(&ended(e, Usage::default())), false, &limits);
        assert_eq!(plain(ProgramEnding::Exited(139)), RunVerdict::Exited(139));
        assert_eq!(
            plain(ProgramEnding::Signaled(Signal::SEGV.as_raw())),
            RunVerdict::Signaled(11)
        );
        assert_eq!(
            plain(ProgramEnding::Signaled(Signal::XCPU.as_raw())),
            RunVerdict::CpuTime
        );
        assert_eq!(
            plain(ProgramEnding::Signaled(Signal::XFSZ.as_raw())),
            RunVerdict::FileSize
        );
        let oom = Usage {
            oom_killed: true,
            ..Usage::default()
        };
        let killed = ended(ProgramEnding::Signaled(Signal::KILL.as_raw()), oom);
        assert_eq!(classify(Some(&killed), true, &limits), RunVerdict::Memory);
        let busy = Usage {
            cpu_time: Some(Duration::from_secs(5)),
            ..Usage::default()
        };
        let killed = ended(ProgramEnding::Signaled(Signal::KILL.as_raw()), busy);
        assert_eq!(classify(Some(&killed), false, &limits), RunVerdict::CpuTime);
        let killed = ended(
            ProgramEnding::Signaled(Signal::KILL.as_raw()),
            Usage::default(),
        );
        assert_eq!(classify(Some(&killed), true, &limits), RunVerdict::WallTime);
        assert_eq!(classify(None, true, &limits), RunVerdict::WallTime);
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
        assert_eq!(told(RunVerdict::WallTime).unwrap(), "time limit of 0.5 s");
        assert_eq!(told(RunVerdict::CpuTime).unwrap(), "CPU time limit of 1 s");
        assert_eq!(told(RunVerdict::Memory).unwrap(), "memory limit of 64 MiB");
        assert_eq!(told(RunVerdict::FileSize), None);
        assert_eq!(told(RunVerdict::Exited(0)), None);
        assert_eq!(told(RunVerdict::Signaled(11)), None);
    }
}
