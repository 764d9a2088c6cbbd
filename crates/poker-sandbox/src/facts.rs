//! How jails on this machine enforce the limits: the facts probed once
//! (a game's cgroup and its controllers, a leased uid), and what they
//! make of each limit.

use super::limits::{Enforcement, LimitReport, Limits, RlimitScope};

/// What a game's cgroup limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CgroupFacts {
    /// The cgroup version: 1 or 2.
    pub version: u8,
    /// Whether it limits memory.
    pub memory: bool,
    /// Whether it limits the number of processes.
    pub processes: bool,
    /// Whether it counts CPU time (then the evaluator's CPU watch stops a
    /// game at its limit).
    pub cpu: bool,
    /// Why the memory or the pids controller is missing, when one is.
    pub gaps: Option<String>,
}

/// How jails on this machine enforce the limits, as found once by
/// [`probe_jail`](super::probe_jail).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JailFacts {
    /// The game's cgroup, if one could be made.
    pub cgroup: Option<CgroupFacts>,
    /// Why no cgroup could be made, if none.
    pub cgroup_error: Option<String>,
    /// Whether games run as a leased uid (the evaluator is root).
    pub leased_uid: bool,
}

impl JailFacts {
    /// Each of `limits` with its value and how such a jail enforces it.
    pub fn limit_reports(&self, limits: &Limits) -> Vec<LimitReport> {
        let l = limits;
        let cg = self.cgroup.as_ref();
        let why_no_cgroup = || {
            self.cgroup_error
                .clone()
                .or_else(|| cg.and_then(|c| c.gaps.clone()))
                .unwrap_or_else(|| "the cgroup lacks this controller".into())
        };
        let memory = match cg {
            Some(c) if c.memory => Enforcement::Cgroup { version: c.version },
            _ => Enforcement::RlimitFallback {
                scope: RlimitScope::Process,
                reason: why_no_cgroup(),
            },
        };
        let processes = match cg {
            Some(c) if c.processes => Enforcement::Cgroup { version: c.version },
            _ if self.leased_uid => Enforcement::RlimitFallback {
                scope: RlimitScope::Uid,
                reason: why_no_cgroup(),
            },
            _ => Enforcement::NotEnforced {
                reason: format!(
                    "no pids cgroup ({}) and no uid of the game's own for RLIMIT_NPROC",
                    why_no_cgroup()
                ),
            },
        };
        let report = |name, value: u64, unit, enforcement| LimitReport {
            name,
            value,
            unit,
            enforcement,
        };
        let process = Enforcement::Rlimit {
            scope: RlimitScope::Process,
        };
        let cpu = match cg {
            Some(c) if c.cpu => Enforcement::CgroupWatch {
                version: c.version,
                unwatched_games: None,
            },
            _ => process.clone(),
        };
        vec![
            report("wall", l.wall.as_millis() as u64, "ms", Enforcement::Timer),
            report("cpu", l.cpu.as_millis() as u64, "ms", cpu),
            report("memory", l.memory, "bytes", memory),
            report("processes", l.processes.into(), "count", processes),
            report("tmp_size", l.tmp_size, "bytes", Enforcement::Tmpfs),
            report("open_files", l.open_files.into(), "count", process),
        ]
    }
}

/// Facts for tests: a cgroup v2 with every controller and a leased uid
/// (`full`), or no cgroup at all for `reason` (`bare`, no uid).
#[cfg(test)]
pub(crate) mod fixtures {
    use super::{CgroupFacts, JailFacts};

    /// A cgroup v2 limiting memory, processes and CPU; games leased a uid.
    pub(crate) fn full() -> JailFacts {
        JailFacts {
            cgroup: Some(CgroupFacts {
                version: 2,
                memory: true,
                processes: true,
                cpu: true,
                gaps: None,
            }),
            cgroup_error: None,
            leased_uid: true,
        }
    }

    /// No cgroup, for `reason`, and no uid of the game's own.
    pub(crate) fn bare(reason: &str) -> JailFacts {
        JailFacts {
            cgroup: None,
            cgroup_error: Some(reason.into()),
            leased_uid: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{bare, full};
    use super::*;

    #[test]
    fn limit_reports_follow_the_probed_facts_without_a_jail() {
        let how = |facts: &JailFacts, name: &str| {
            let reports = facts.limit_reports(&Limits::default());
            reports
                .into_iter()
                .find(|r| r.name == name)
                .unwrap()
                .enforcement
        };
        // As docs/sandbox.md's table says: a cgroup v2 with both controllers.
        let full = full();
        assert_eq!(how(&full, "memory"), Enforcement::Cgroup { version: 2 });
        assert_eq!(how(&full, "processes"), Enforcement::Cgroup { version: 2 });
        assert_eq!(
            how(&full, "cpu"),
            Enforcement::CgroupWatch {
                version: 2,
                unwatched_games: None
            }
        );
        // No cgroup, no root: per-process rlimits, no process count.
        let bare = bare("no cgroup here");
        let per_process = Enforcement::RlimitFallback {
            scope: RlimitScope::Process,
            reason: "no cgroup here".into(),
        };
        assert_eq!(how(&bare, "memory"), per_process);
        let rlimit = Enforcement::Rlimit {
            scope: RlimitScope::Process,
        };
        assert_eq!(how(&bare, "cpu"), rlimit);
        assert!(matches!(
            how(&bare, "processes"),
            Enforcement::NotEnforced { reason } if reason.contains("no cgroup here")
        ));
        let leased = JailFacts {
            leased_uid: true,
            ..bare
        };
        let per_uid = Enforcement::RlimitFallback {
            scope: RlimitScope::Uid,
            reason: "no cgroup here".into(),
        };
        assert_eq!(how(&leased, "processes"), per_uid);
    }
}
