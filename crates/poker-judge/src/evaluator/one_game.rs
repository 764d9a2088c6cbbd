//! One game: starting a program with the evaluator's channel, serving the
//! game over it, and judging how it ended. A fresh process plays it all
//! ([`play`]); the fork server's games share the serving and the judging.

use super::config::{GameSettings, RunConfig};
use super::cpu_watch::Watch;
use super::launcher::Program;
use super::load::Guard;
use super::process::{self, Supervisor};
use super::results::{CpuLimitHolder, GameResult, GameStatus, STDERR_KEPT};
use super::verdict::{RunVerdict, classify, failed_to_start};
use crate::sandbox::{CgroupShape, Ended, Fds, ProgramEnding, Runner, Usage};
use poker_core::contest::{ContestDeck, Game};
use poker_protocol::manager::{self, ChannelEnding, Link};
use poker_protocol::{CHANNEL_ENV, Received, Transport};
use rustix::process::Signal;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::time::{Duration, Instant};

/// How long a contestant may take to exit by itself after its last message
/// before it is killed (its result is already final by then).
pub(crate) const EXIT_GRACE: Duration = Duration::from_millis(300);

/// Plays one game of `program` on `deck` (numbered `number`, 1-based) under
/// `config`'s launcher and limits, and kills everything the program started
/// once it is over.
pub fn play(
    supervisor: &Supervisor,
    program: &Program,
    deck: &ContestDeck,
    number: usize,
    config: &RunConfig,
) -> GameResult {
    play_with(supervisor, program, deck, number, &config.game_settings())
}

/// [`play`] under a run's `settings`.
pub(crate) fn play_with(
    _supervisor: &Supervisor,
    program: &Program,
    deck: &ContestDeck,
    number: usize,
    settings: &GameSettings,
) -> GameResult {
    let start = Instant::now();
    let launched = launch_with_channel(program, &[], &settings.limits, CgroupShape::Game, settings)
        .and_then(|(running, channel)| Ok((running, Transport::socket(channel)?)));
    let (running, channel) = match launched {
        Ok(launched) => launched,
        Err(e) => return not_started(program, number, e),
    };
    let mut result = play_launched(running, channel, None, start, deck, number, settings);
    let hint = library_hint(&result, program, settings);
    if let Some(reason) = result.reason.as_mut() {
        reason.push_str(&hint);
    }
    result
}

/// Starts `program` under `limits`, its cgroup in `shape`, with the
/// evaluator's channel announced in its environment (and `env` besides):
/// the running program and the evaluator's end of the channel.
pub(crate) fn launch_with_channel(
    program: &Program,
    env: &[(std::ffi::OsString, std::ffi::OsString)],
    limits: &crate::sandbox::Limits,
    shape: CgroupShape,
    settings: &GameSettings,
) -> std::io::Result<(process::Running, std::os::fd::OwnedFd)> {
    let mut program = program.clone();
    program
        .env
        .push((CHANNEL_ENV.into(), process::CHANNEL_FD.to_string().into()));
    program.env.extend_from_slice(env);
    let mut running =
        Runner::new(&settings.launcher)
            .shaped(shape)
            .start(&program, limits, Fds::Channel)?;
    let channel = running
        .take_channel()
        .ok_or_else(|| std::io::Error::other("no channel"))?;
    Ok((running, channel))
}

/// Deck `number`'s result when `program` could not be started (`e`).
pub(crate) fn not_started(program: &Program, number: usize, e: std::io::Error) -> GameResult {
    GameResult::not_run(
        number,
        format!("cannot start {}: {e}", program.path.display()),
    )
}

/// Plays one game with a program already started (`running`, its channel
/// `channel`) at `start`: serves it (`first_line`: a line already read from
/// the channel), then ends the program and judges the game.
pub(crate) fn play_launched(
    running: process::Running,
    mut channel: Transport<std::os::fd::OwnedFd>,
    first_line: Option<String>,
    start: Instant,
    deck: &ContestDeck,
    number: usize,
    settings: &GameSettings,
) -> GameResult {
    let mut game = Game::new(*deck);
    let mut guard = Guard::new(start, settings.limits.wall);
    guard.measure_game_by(running.cgroup().and_then(|c| c.cpu_meter()));
    guard.count_as_judge(running.drain_times());
    let pidfd = running.pidfd.as_ref().map(|fd| fd.as_fd());
    let mut link = Prefed::new(first_line, &mut channel, guard.first_deadline(), pidfd);
    let ending = manager::serve_link(&mut link.guarded_by(&guard), &mut game);
    drop(channel);
    let seconds = start.elapsed().as_secs_f64();
    guard.end();
    let grace = match ending {
        ChannelEnding::TimedOut => Duration::ZERO,
        _ => EXIT_GRACE,
    };
    let watch = running.cpu_watch.clone();
    // Waits on the pidfd (an event), not in sleep steps.
    if !grace.is_zero() {
        running.wait_until(Instant::now() + grace);
    }
    let outcome = running.finish();
    let measured = Measured {
        others: outcome.usage.cpu_time.and_then(|own| guard.others(own)),
        usage: outcome.usage,
        watch,
    };
    conclude(
        &game,
        ending,
        outcome.ended.as_ref(),
        &measured,
        &outcome.stderr,
        seconds,
        number,
        settings,
    )
}

/// What the judge measured of a game: what it used, whether its CPU-time
/// limit was watched, and the CPU time others took beside it.
pub(crate) struct Measured {
    /// What the game used, by the sandbox's measure (also when its ending
    /// is unknown).
    pub(crate) usage: Usage,
    /// Whether the CPU watch held its limit.
    pub(crate) watch: Watch,
    /// The CPU time others took on its CPUs meanwhile.
    pub(crate) others: Option<Duration>,
}

/// The result of a game that ended with `ending` on the channel and
/// `outcome` for its program, `measured` what the judge measured of it
/// (its usage also when its ending is unknown: killed once its time was
/// up, or its fork server gone before it told how its child ended),
/// `stderr` what it wrote there.
#[allow(clippy::too_many_arguments)]
pub(crate) fn conclude(
    game: &Game,
    ending: ChannelEnding,
    outcome: Option<&Ended>,
    measured: &Measured,
    stderr: &[u8],
    seconds: f64,
    number: usize,
    settings: &GameSettings,
) -> GameResult {
    let mut result = GameResult::not_run(number, String::new());
    result.seconds = seconds;
    let kept = stderr.len().saturating_sub(STDERR_KEPT);
    result.stderr = String::from_utf8_lossy(&stderr[kept..]).into_owned();
    let usage = &measured.usage;
    result.cpu_seconds = usage.cpu_time.map(|t| t.as_secs_f64());
    result.others_cpu_seconds = measured.others.map(|t| t.as_secs_f64());
    result.cpu_limit_held_by = Some(match &measured.watch {
        Watch::Running => CpuLimitHolder::Watch,
        Watch::Absent => CpuLimitHolder::Rlimit,
        Watch::Failed(why) => {
            result.cpu_watch_error = Some(why.clone());
            CpuLimitHolder::RlimitBackstop
        }
    });
    result.peak_memory = usage.peak_memory;
    result.placements = game.placements();
    result.board = std::array::from_fn(|i| {
        game.board()
            .column(i)
            .iter()
            .map(|card| card.to_string())
            .collect()
    });
    let finished = match ending {
        ChannelEnding::Finished(total) => Some(total),
        _ => None,
    };
    let rlimit_holds = measured.watch == Watch::Absent;
    let ending_of = outcome.map(|o| &o.ending);
    let (status, reason) = judge(
        ending,
        ending_of,
        usage,
        rlimit_holds,
        game.placements(),
        settings,
    );
    if status == GameStatus::Ok {
        result.score = finished.unwrap_or_default();
    }
    result.status = status;
    result.reason = reason;
    result
}

/// Why a program that the loader could not start (exit status 127, no
/// placement, `libpoker.so` named in its stderr) failed in the sandbox, and
/// what to do; empty otherwise.
fn library_hint(result: &GameResult, program: &Program, settings: &GameSettings) -> String {
    let sandboxed = settings.sandboxed;
    let loader_failed = result.status == GameStatus::Incomplete
        && result.placements == 0
        && result.stderr.contains("libpoker.so")
        && result.stderr.contains("cannot open shared object file");
    let library = program
        .files
        .iter()
        .find(|f| f.file_name().is_some_and(|n| n == "libpoker.so"));
    match library.and_then(|l| l.parent()) {
        Some(dir) if sandboxed && loader_failed => format!(
            " (the loader found no libpoker.so: the sandbox provides only the one of --lib-dir, \
             {}; build the program against that folder, or pass --lib-dir with the folder \
             it was linked against)",
            dir.display()
        ),
        _ => String::new(),
    }
}

/// How a game ended, from what the channel saw (`ending`), how the
/// program ended (`program`, `None` when it was still running when killed
/// or its fork server did not say) and what it used (`usage`, the one
/// measure; `rlimit_holds`: `RLIMIT_CPU` held its CPU limit alone).
/// A finished game stays scored whatever the program did afterwards, unless
/// its program's measured CPU time reached the limit (see below); the
/// memory and CPU limits are named from the sandbox's own measures.
fn judge(
    ending: ChannelEnding,
    program: Option<&ProgramEnding>,
    usage: &Usage,
    rlimit_holds: bool,
    placements: usize,
    settings: &GameSettings,
) -> (GameStatus, Option<String>) {
    let placed = match placements {
        1 => "1 placement".to_string(),
        n => format!("{n} placements"),
    };
    let limits = &settings.limits;
    let exceeded = |verdict: &RunVerdict, status| {
        let limit = verdict.limit(limits).unwrap_or_default();
        (status, Some(format!("{limit} exceeded after {placed}")))
    };
    match ending {
        // RLIMIT_CPU is the kernel's guard, and it was seen to miss on a
        // loaded virtual machine (a program at 2 s of CPU time under a
        // 1 s soft and 2 s hard limit, unsignalled): a game finished at or
        // over its CPU limit by the measure is not scored, whether the
        // kernel stopped the program or not. The measure covers the whole
        // program, its exit after the last placement included, and it is
        // taken whether or not the program's end is known: a fork server's
        // child that killed its server leaves no word on how it ended.
        ChannelEnding::Finished(_) if usage.cpu_time.is_some_and(|t| t >= limits.cpu) => {
            return exceeded(&RunVerdict::CpuTime, GameStatus::CpuTime);
        }
        ChannelEnding::Finished(_) => return (GameStatus::Ok, None),
        ChannelEnding::Violation(error) => return (GameStatus::Violation, Some(error.to_string())),
        ChannelEnding::Protocol(what) => {
            return (
                GameStatus::Violation,
                Some(format!("protocol broken after {placed}: {what}")),
            );
        }
        ChannelEnding::Failed(what) => return (GameStatus::Error, Some(what)),
        ChannelEnding::TimedOut | ChannelEnding::Closed | ChannelEnding::Exited => {}
    }
    let timed_out = matches!(ending, ChannelEnding::TimedOut);
    let verdict = classify(program, usage, timed_out, rlimit_holds, limits);
    match verdict {
        RunVerdict::Memory => exceeded(&verdict, GameStatus::Memory),
        RunVerdict::CpuTime => exceeded(&verdict, GameStatus::CpuTime),
        RunVerdict::WallTime if timed_out => exceeded(&verdict, GameStatus::Timeout),
        RunVerdict::WallTime => (
            GameStatus::Incomplete,
            Some(format!("closed its channel after {placed}")),
        ),
        RunVerdict::FailedToStart(why) => {
            (GameStatus::Error, Some(failed_to_start("program", &why)))
        }
        RunVerdict::Signaled(signal) => (
            GameStatus::Crash,
            Some(format!("killed by {} after {placed}", signal_name(signal))),
        ),
        RunVerdict::FileSize => (
            GameStatus::Crash,
            Some(format!(
                "killed by {} after {placed}",
                signal_name(Signal::XFSZ.as_raw())
            )),
        ),
        RunVerdict::Exited(code) => (
            GameStatus::Incomplete,
            Some(format!("exited with status {code} after {placed}")),
        ),
    }
}

/// A signal's conventional name, e.g. `SIGSEGV (11)`.
pub(crate) fn signal_name(signal: i32) -> String {
    const NAMES: [(Signal, &str); 12] = [
        (Signal::SEGV, "SIGSEGV"),
        (Signal::ABORT, "SIGABRT"),
        (Signal::FPE, "SIGFPE"),
        (Signal::ILL, "SIGILL"),
        (Signal::BUS, "SIGBUS"),
        (Signal::KILL, "SIGKILL"),
        (Signal::TERM, "SIGTERM"),
        (Signal::INT, "SIGINT"),
        (Signal::PIPE, "SIGPIPE"),
        (Signal::XCPU, "SIGXCPU"),
        (Signal::XFSZ, "SIGXFSZ"),
        (Signal::TRAP, "SIGTRAP"),
    ];
    let name = NAMES
        .iter()
        .find(|(s, _)| s.as_raw() == signal)
        .map_or("signal", |(_, name)| name);
    format!("{name} ({signal})")
}

/// A [`Link`] over a transport with a deadline and an exit watch, which
/// first hands out a line already read.
pub(crate) struct Prefed<'a, 'w> {
    first: Option<String>,
    channel: &'a mut Transport<OwnedFd>,
    deadline: Instant,
    exit_watch: Option<BorrowedFd<'w>>,
}

/// A [`Prefed`] whose deadline a [`Guard`] extends by the CPU time others
/// take on the game's CPUs: at the deadline the guard is asked again, and
/// the game is stopped only once it has passed that too.
pub(crate) struct Guarded<'p, 'a, 'w, 'g> {
    link: &'p mut Prefed<'a, 'w>,
    guard: &'g Guard,
}

impl<'a, 'w> Prefed<'a, 'w> {
    /// This link with its deadline extended by `guard`.
    pub(crate) fn guarded_by<'p, 'g>(&'p mut self, guard: &'g Guard) -> Guarded<'p, 'a, 'w, 'g> {
        Guarded { link: self, guard }
    }
}

impl Link for Guarded<'_, '_, '_, '_> {
    fn receive(&mut self) -> Received {
        loop {
            let received = self.link.receive();
            if !matches!(received, Received::TimedOut) {
                return received;
            }
            let extended = self.guard.deadline();
            if extended <= Instant::now() || extended <= self.link.deadline {
                return received;
            }
            self.link.deadline = extended;
        }
    }

    fn send(&mut self, line: &[u8]) -> std::io::Result<()> {
        self.link.send(line)
    }
}

impl<'a, 'w> Prefed<'a, 'w> {
    pub(crate) fn new(
        first: Option<String>,
        channel: &'a mut Transport<OwnedFd>,
        deadline: Instant,
        exit_watch: Option<BorrowedFd<'w>>,
    ) -> Prefed<'a, 'w> {
        Prefed {
            first,
            channel,
            deadline,
            exit_watch,
        }
    }
}

impl Link for Prefed<'_, '_> {
    fn receive(&mut self) -> Received {
        match self.first.take() {
            Some(line) => Received::Line(line),
            None => self.channel.receive(Some(self.deadline), self.exit_watch),
        }
    }

    fn send(&mut self, line: &[u8]) -> std::io::Result<()> {
        self.channel.send(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a program used: `cpu` of CPU time.
    fn used(cpu: Duration) -> Usage {
        Usage {
            cpu_time: Some(cpu),
            peak_memory: None,
            oom_killed: false,
        }
    }

    const EXITED: ProgramEnding = ProgramEnding::Exited(0);

    #[test]
    fn a_finished_game_over_its_cpu_limit_is_not_scored() {
        // The measure seen when the kernel's RLIMIT_CPU missed: 2.02 s of
        // CPU time on a 1 s limit, all 20 placements made.
        let settings = RunConfig::unconfined(Duration::from_secs(1)).game_settings();
        let finished = ChannelEnding::Finished(5);
        let over = used(Duration::from_millis(2020));
        let over_limit = (
            GameStatus::CpuTime,
            Some("CPU time limit of 1 s exceeded after 20 placements".into()),
        );
        let judged =
            |program, usage: &Usage| judge(finished.clone(), program, usage, false, 20, &settings);
        assert_eq!(judged(Some(&EXITED), &over), over_limit);
        let within = used(Duration::from_millis(900));
        assert_eq!(judged(Some(&EXITED), &within), (GameStatus::Ok, None));
        // Killed after its last placement, unmeasured: still scored.
        assert_eq!(judged(None, &Usage::default()), (GameStatus::Ok, None));
        // Its end unknown (a fork server's child that killed its server),
        // but measured over the limit: not scored.
        assert_eq!(judged(None, &used(Duration::from_millis(1100))), over_limit);
    }

    #[test]
    fn a_game_that_raised_sigxcpu_under_its_watched_limit_crashed() {
        // 0.66 s of a 1 s limit, as seen when the kernel overcharged a
        // program sharing its CPU; the watch held the limit.
        let settings = RunConfig::unconfined(Duration::from_secs(1)).game_settings();
        let xcpu = ProgramEnding::Signaled(Signal::XCPU.as_raw());
        let usage = used(Duration::from_millis(660));
        assert_eq!(
            judge(
                ChannelEnding::Exited,
                Some(&xcpu),
                &usage,
                false,
                7,
                &settings
            ),
            (
                GameStatus::Crash,
                Some("killed by SIGXCPU (24) after 7 placements".into())
            )
        );
        // Where RLIMIT_CPU held the limit alone, its signal is the limit.
        assert_eq!(
            judge(
                ChannelEnding::Exited,
                Some(&xcpu),
                &usage,
                true,
                7,
                &settings
            )
            .0,
            GameStatus::CpuTime
        );
    }

    #[test]
    fn each_game_tells_what_held_its_cpu_limit_and_what_others_took() {
        let settings = RunConfig::unconfined(Duration::from_secs(1)).game_settings();
        let game = Game::new(ContestDeck::ordered());
        let told = |watch: Watch| {
            let measured = Measured {
                usage: used(Duration::from_millis(250)),
                watch,
                others: Some(Duration::from_millis(125)),
            };
            let ending = ChannelEnding::Closed;
            conclude(&game, ending, None, &measured, b"", 0.5, 1, &settings)
        };
        let watched = told(Watch::Running);
        assert_eq!(watched.cpu_limit_held_by, Some(CpuLimitHolder::Watch));
        assert_eq!(watched.cpu_seconds, Some(0.25));
        assert_eq!(watched.others_cpu_seconds, Some(0.125));
        assert_eq!(watched.cpu_watch_error, None);
        let failed = told(Watch::Failed("the cgroup's CPU time cannot be read".into()));
        assert_eq!(
            failed.cpu_limit_held_by,
            Some(CpuLimitHolder::RlimitBackstop)
        );
        assert_eq!(
            failed.cpu_watch_error.as_deref(),
            Some("the cgroup's CPU time cannot be read")
        );
        let json = serde_json::to_value(&failed).unwrap();
        assert_eq!(json["cpu_limit_held_by"], "rlimit_backstop");
        assert_eq!(
            json["cpu_watch_error"],
            "the cgroup's CPU time cannot be read"
        );
        assert_eq!(json["others_cpu_seconds"], 0.125);
        assert_eq!(
            told(Watch::Absent).cpu_limit_held_by,
            Some(CpuLimitHolder::Rlimit)
        );
    }
}
