//! Per-game limits and how each one is enforced.

use std::fmt;
use std::time::Duration;

use serde::Serialize;

/// The limits of one game. Every field is a hard limit on the contestant's
/// program together with everything it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time of the whole game: a guard against programs that
    /// hang, not a measure of speed. Enforced by the caller's timer, which
    /// kills the jail ([`Jail::kill`](super::Jail::kill)); the evaluator
    /// extends it by the CPU time other processes took on the game's CPUs.
    /// Default 10 s ([`WALL_PER_CPU`] times the CPU limit).
    pub wall: Duration,
    /// CPU time of the game: the contest's limit. Where the game has a
    /// cgroup that counts CPU time, the evaluator's watch holds it for all
    /// the game's processes together, and `RLIMIT_CPU` is only a backstop
    /// above it; elsewhere `RLIMIT_CPU` holds it per process (see
    /// [`Limits::cpu_rlimit`]). Default 5 s.
    pub cpu: Duration,
    /// Memory in bytes: resident memory plus `/tmp` contents of the whole
    /// game with a memory cgroup; address space of each process otherwise.
    /// Default 256 MiB.
    pub memory: u64,
    /// Processes and threads at once, bubblewrap's own two helper processes
    /// included. Default 64.
    pub processes: u32,
    /// Size in bytes of the private `/tmp`, the only writable place.
    /// Default 64 MiB.
    pub tmp_size: u64,
    /// Open file descriptors of each process (`RLIMIT_NOFILE`). Default 64.
    pub open_files: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            wall: Duration::from_secs(5) * WALL_PER_CPU,
            cpu: Duration::from_secs(5),
            memory: 256 << 20,
            processes: 64,
            tmp_size: 64 << 20,
            open_files: 64,
        }
    }
}

/// The default wall-clock guard is this many times the CPU limit (isolate
/// and DOMjudge run with two to three times).
pub const WALL_PER_CPU: u32 = 2;

impl Limits {
    /// [`Limits::cpu`] in whole seconds, rounded up, at least 1.
    pub fn cpu_seconds(&self) -> u64 {
        let secs = self.cpu.as_secs() + u64::from(self.cpu.subsec_nanos() > 0);
        secs.max(1)
    }

    /// `RLIMIT_CPU` as `(soft, hard)` seconds. `watched`: the evaluator's
    /// watch of the game's cgroup holds the limit, and the rlimit is only a
    /// backstop far enough above it that the kernel's tick-sampled count,
    /// which overcharges a process sharing its CPU (SIGXCPU was seen at
    /// 0.66 s of measured CPU time on a 1 s limit, 1.45 times), never
    /// signals a game under its limit: twice [`Limits::cpu_seconds`] (at
    /// least a second more) soft, a second more hard. Otherwise the rlimit
    /// holds the limit itself: [`Limits::cpu_seconds`] soft, a second more
    /// hard.
    pub fn cpu_rlimit(&self, watched: bool) -> (u64, u64) {
        let cpu = self.cpu_seconds();
        let soft = match watched {
            true => (2 * cpu).max(cpu + 1),
            false => cpu,
        };
        (soft, soft + 1)
    }
}

/// What an rlimit counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RlimitScope {
    /// Each process on its own.
    Process,
    /// All processes of the game's own leased uid.
    Uid,
}

/// How one limit is enforced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Enforcement {
    /// By the kernel through a cgroup of the game (version 1 or 2).
    Cgroup {
        /// The cgroup version: 1 or 2.
        version: u8,
    },
    /// By the evaluator's watch of the game's cgroup (the CPU time of all
    /// its processes together, version 1 or 2), which kills the game at the
    /// limit, with `RLIMIT_CPU` per process beside it as a backstop.
    CgroupWatch {
        /// The cgroup version: 1 or 2.
        version: u8,
        /// The games whose watch could not start, as it ran (each game's
        /// `cpu_limit_held_by` is then `rlimit_backstop`, with its
        /// `cpu_watch_error`); absent when none, or before the games.
        #[serde(skip_serializing_if = "Option::is_none")]
        unwatched_games: Option<usize>,
    },
    /// By a resource limit (`setrlimit`).
    Rlimit {
        /// What the rlimit counts.
        scope: RlimitScope,
    },
    /// By a resource limit standing in for the cgroup this machine could
    /// not give (a memory limit per process instead of per game, a process
    /// limit per uid), and why there was no cgroup.
    RlimitFallback {
        /// What the rlimit counts.
        scope: RlimitScope,
        /// Why no cgroup enforces this limit.
        reason: String,
    },
    /// By the size of the private `/tmp` tmpfs.
    Tmpfs,
    /// By the caller's wall-clock timer, which kills the game.
    Timer,
    /// Not enforced, and why.
    NotEnforced {
        /// Why not.
        reason: String,
    },
}

impl fmt::Display for Enforcement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Enforcement::Cgroup { version } => write!(f, "cgroup v{version}"),
            Enforcement::CgroupWatch {
                version,
                unwatched_games,
            } => {
                write!(
                    f,
                    "cgroup v{version} watched, with an rlimit per process as a backstop above it"
                )?;
                match unwatched_games {
                    Some(n) => write!(
                        f,
                        " (the watch could not start in {n} game(s): the backstop held those)"
                    ),
                    None => Ok(()),
                }
            }
            Enforcement::Rlimit {
                scope: RlimitScope::Process,
            } => f.write_str("rlimit per process"),
            Enforcement::Rlimit {
                scope: RlimitScope::Uid,
            } => f.write_str("rlimit per game uid"),
            Enforcement::RlimitFallback { scope, .. } => {
                let scope = match scope {
                    RlimitScope::Process => "per process",
                    RlimitScope::Uid => "per game uid",
                };
                write!(
                    f,
                    "rlimit {scope}, as no cgroup could be used (see the warning)"
                )
            }
            Enforcement::Tmpfs => f.write_str("tmpfs size"),
            Enforcement::Timer => f.write_str("evaluator's timer"),
            Enforcement::NotEnforced { reason } => write!(f, "not enforced: {reason}"),
        }
    }
}

/// `ms` milliseconds as the time options take them: whole milliseconds
/// under a second (`300 ms`), else seconds with up to three decimals
/// (`5 s`, `1.5 s`, `3600 s`).
fn millis_text(ms: u64) -> String {
    if ms < 1000 {
        return format!("{ms} ms");
    }
    let seconds = format!("{}.{:03}", ms / 1000, ms % 1000);
    format!("{} s", seconds.trim_end_matches('0').trim_end_matches('.'))
}

/// One limit as it applies to a game, for a report's `limits` field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LimitReport {
    /// The limit's name: `wall`, `cpu`, `memory`, `processes`, `tmp_size`,
    /// `open_files`.
    pub name: &'static str,
    /// Its value in [`LimitReport::unit`].
    pub value: u64,
    /// The unit of the value: `ms`, `bytes` or `count`.
    pub unit: &'static str,
    /// How it is enforced.
    pub enforcement: Enforcement,
}

/// As the text report prints it: `memory 256 MiB: cgroup v2` (sizes as
/// the size options take them), `wall 10 s: evaluator's timer` (times as
/// the time options take them: `10 s`, `1.5 s`, `300 ms`).
impl fmt::Display for LimitReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.unit == "bytes" {
            let size = crate::size::format_size(self.value);
            write!(f, "{} {size}: {}", self.name, self.enforcement)
        } else if self.unit == "ms" {
            let time = millis_text(self.value);
            write!(f, "{} {time}: {}", self.name, self.enforcement)?;
            let by_rlimit = matches!(
                self.enforcement,
                Enforcement::Rlimit { .. } | Enforcement::RlimitFallback { .. }
            );
            if self.name == "cpu" && by_rlimit && !self.value.is_multiple_of(1000) {
                // RLIMIT_CPU is set in whole seconds, rounded up.
                let stop = millis_text(self.value.div_ceil(1000) * 1000);
                write!(
                    f,
                    " (in whole seconds: a program is stopped at {stop}, judged against {time})"
                )?;
            }
            Ok(())
        } else {
            write!(
                f,
                "{} {} {}: {}",
                self.name, self.value, self.unit, self.enforcement
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::millis_text;

    // Expected texts by hand: 1 s is 1000 ms.
    #[test]
    fn a_fractional_cpu_limit_held_by_rlimit_says_where_it_stops() {
        let cpu = |value, enforcement| super::LimitReport {
            name: "cpu",
            value,
            unit: "ms",
            enforcement,
        };
        let rlimit = || super::Enforcement::Rlimit {
            scope: super::RlimitScope::Process,
        };
        assert_eq!(
            cpu(1500, rlimit()).to_string(),
            "cpu 1.5 s: rlimit per process (in whole seconds: a program is stopped at 2 s, \
             judged against 1.5 s)"
        );
        assert_eq!(
            cpu(2000, rlimit()).to_string(),
            "cpu 2 s: rlimit per process"
        );
        let watched = super::Enforcement::CgroupWatch {
            version: 2,
            unwatched_games: None,
        };
        assert!(!cpu(1500, watched).to_string().contains("whole seconds"));
    }

    #[test]
    fn times_read_as_the_time_options_take_them() {
        assert_eq!(millis_text(300), "300 ms");
        assert_eq!(millis_text(1000), "1 s");
        assert_eq!(millis_text(1500), "1.5 s");
        assert_eq!(millis_text(1001), "1.001 s");
        assert_eq!(millis_text(10_000), "10 s");
        assert_eq!(millis_text(3_600_000), "3600 s");
    }
}
