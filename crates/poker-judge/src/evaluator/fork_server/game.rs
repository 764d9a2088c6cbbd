//! One game through a fork server, in three steps, each failure in one
//! place: ordering it and setting it up ([`super::setup`]: every limit, or
//! no game), serving it, then measuring and judging it, and looking for
//! what it could have left for the next ([`super::carry`]).

use super::carry;
use super::setup::{self, GameSetup};
use super::{Prefed, REPORT_TIMEOUT, SERVER_WORK_PER_GAME, Served, Server, wait_any};
use crate::evaluator::GameStatus;
use crate::evaluator::config::GameSettings;
use crate::evaluator::cpu_watch::{self, Watch};
use crate::evaluator::load::Guard;
use crate::evaluator::manager::{self, ChannelEnding};
use crate::evaluator::one_game::{EXIT_GRACE, Measured, conclude};
use crate::evaluator::process;
use crate::sandbox::{Ended, GameCgroup, Limits, ProgramEnding, Usage};
use poker_core::contest::{ContestDeck, Game};
use poker_protocol::Transport;
use poker_protocol::fork_server::{self, Order, ServerLine};
use rustix::process::Pid;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Why a server that did not start a game is given up.
const MISBEHAVED_BEFORE: &str = "the fork server died, hung or misbehaved before a game";

/// Why a server that did not end a game as it should is given up.
const MISBEHAVED_BETWEEN: &str = "the fork server died, hung or misbehaved between games";

/// A game ordered from the server, its child heard from.
struct Ordered {
    /// The evaluator's end of the game's socket.
    channel: UnixStream,
    /// The game's standard error, drained.
    stderr: mpsc::Receiver<Vec<u8>>,
    /// The CPU time of the thread reading it (the judge's).
    stderr_time: process::DrainTime,
    /// The child's first line.
    first: String,
    /// The pid its first line came from (the kernel's word).
    pid: Pid,
}

/// A game served: how the channel ended, the game, its wall time.
struct Served1 {
    ending: ChannelEnding,
    game: Game,
    seconds: f64,
}

/// What the judge keeps of a game while it is played: its wall-clock
/// guard, and whether its CPU-time limit is watched.
struct Judged {
    guard: Guard,
    watch: Watch,
}

/// What measuring and judging a game served needs.
struct After {
    served: Served1,
    setup: GameSetup<GameCgroup>,
    /// The game's standard error, drained.
    stderr: mpsc::Receiver<Vec<u8>>,
    /// The server's CPU time charged before this game.
    server_cpu: Option<Duration>,
    judged: Judged,
}

impl Server {
    /// Plays deck `number` through a child of the server.
    pub(super) fn play(
        &mut self,
        deck: &ContestDeck,
        number: usize,
        settings: &GameSettings,
    ) -> Served {
        let start = Instant::now();
        let deadline = start + settings.limits.wall;
        // From where the last game's charge ended (the server's hello).
        let server_cpu = self.cpu_charged.or_else(|| self.cpu_time());
        let Some(ordered) = self.order(deadline) else {
            return Served::NotStarted(MISBEHAVED_BEFORE.into());
        };
        // The child's own limit: what a fresh process has left once it has
        // done what the server did before its first game.
        let child_limits = Limits {
            cpu: settings.limits.cpu.saturating_sub(self.startup),
            ..settings.limits.clone()
        };
        let setup = match setup::set_up(
            &self.setup_jail(),
            &self.process,
            ordered.pid,
            &child_limits,
        ) {
            Ok(setup) => setup,
            Err(why) => return Served::NotStarted(why),
        };
        // Before a card is dealt: a child whose pid shows how many
        // processes the games before it made is not played.
        match carry::next_child(ordered.pid, self.last_child) {
            Ok(pid) => self.last_child = Some(pid),
            Err(why) => {
                self.end_game(&setup);
                return Served::NotStarted(why);
            }
        }
        if let Err(why) = self.state.note_limits(self.process.pid) {
            self.end_game(&setup);
            return Served::NotStarted(why);
        }
        let Ok(mut channel) = Transport::socket(OwnedFd::from(ordered.channel)) else {
            self.end_game(&setup);
            return Served::NotStarted(MISBEHAVED_BEFORE.into());
        };
        let meter = setup.cgroup.cpu_meter();
        let watch = match meter.clone() {
            Some(meter) => cpu_watch::start(&setup.pidfd, meter, child_limits.cpu),
            None => Watch::Absent,
        };
        let mut guard = Guard::new(start, settings.limits.wall);
        guard.measure_game_by(meter);
        guard.count_as_judge(vec![ordered.stderr_time.clone()]);
        let served = serve(&mut channel, ordered.first, &setup, deck, start, &guard);
        drop(channel);
        let after = After {
            served,
            setup,
            stderr: ordered.stderr,
            server_cpu,
            judged: Judged { guard, watch },
        };
        self.measure_and_judge(after, number, settings)
    }

    /// Orders a game: a fresh socket and standard-error pipe to the server,
    /// and the child's first line with its pid. `None` when the server does
    /// not start it.
    fn order(&self, deadline: Instant) -> Option<Ordered> {
        let (mine, theirs) = UnixStream::pair().ok()?;
        // The game's stderr: a pipe of its own, drained as it is written
        // (as a fresh process's is), so that no output blocks the game or
        // counts towards its memory.
        let (stderr_read, stderr_write) =
            rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).ok()?;
        let (stderr, stderr_time) = process::drain(std::fs::File::from(stderr_read));
        rustix::net::sockopt::set_socket_passcred(&mine, true).ok()?;
        fork_server::send_with_fds(
            self.channel.as_fd(),
            Order::Game.encode().as_bytes(),
            &[theirs.as_fd(), stderr_write.as_fd()],
        )
        .ok()?;
        drop(theirs);
        drop(stderr_write);
        let (first, attached) = fork_server::receive_line(&mine, Some(deadline)).ok()??;
        let pid = attached.pid.and_then(Pid::from_raw)?;
        Some(Ordered {
            channel: mine,
            stderr,
            stderr_time,
            first,
            pid,
        })
    }

    /// Kills what is left of a game, then thaws the server's jail.
    fn end_game(&self, setup: &GameSetup<GameCgroup>) {
        setup.cgroup.kill_all();
        let _ = self.jail().freeze(false);
    }

    /// Kills what is left of a game, waits until it is gone, looks for what
    /// it could have left for the next game while its server is still
    /// frozen (why the server is unfit, if it is), then thaws the server's
    /// jail.
    fn end_game_checked(&mut self, setup: &GameSetup<GameCgroup>) -> Option<String> {
        setup.cgroup.kill_all();
        let deadline = Instant::now() + EXIT_GRACE;
        while !setup.cgroup.pids().is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        let left = match setup.cgroup.pids().is_empty() {
            true => {
                let processes = self.program_processes();
                let pid = self.process.pid;
                self.state.left(pid, processes, self.limit_setter.as_ref())
            }
            false => Some("a game's processes outlived it".into()),
        };
        let _ = self.jail().freeze(false);
        left
    }

    /// After the game: ends what is left of it, takes the server's report,
    /// the game's measures and stderr, and judges it as a fresh process's
    /// game is judged. Also says whether the server is fit for more.
    fn measure_and_judge(
        &mut self,
        after: After,
        number: usize,
        settings: &GameSettings,
    ) -> Served {
        let After {
            served,
            setup,
            stderr,
            server_cpu,
            judged,
        } = after;
        let Served1 {
            ending,
            game,
            seconds,
        } = served;
        // The child exits by itself after its last message; whatever is
        // left of the game then goes.
        if ending != ChannelEnding::TimedOut {
            wait_any(&[setup.pidfd.as_fd()], Instant::now() + EXIT_GRACE);
        }
        let left = self.end_game_checked(&setup);
        // The server's word on how its child ended, which also says it is
        // ready for the next game.
        let report = match wait_any(&[self.channel.as_fd()], Instant::now() + REPORT_TIMEOUT) {
            Some(_) => {
                fork_server::receive_line(&self.channel, Some(Instant::now() + REPORT_TIMEOUT))
                    .ok()
                    .flatten()
                    .and_then(|(line, _)| ServerLine::decode(&line))
            }
            None => None,
        };
        if report.is_none()
            && matches!(
                ending,
                ChannelEnding::Closed | ChannelEnding::Exited | ChannelEnding::Failed(_)
            )
            && game.calls() <= 1
        {
            // The server went before its child was dealt a card, and in
            // the sandbox its child went with it (the jail's pid namespace
            // ends with the server): the game is played again in a fresh
            // process, on the same deck. A child that was dealt cards is
            // judged on what it played: it could kill its own server (the
            // server's jail is frozen while it plays, so nothing else
            // could) to have a game it saw and disliked dealt again.
            return Served::NotStarted(MISBEHAVED_BEFORE.into());
        }
        let (program_ending, reported) = match report {
            Some(ServerLine::Exited(code)) => (Some(ProgramEnding::Exited(code)), true),
            Some(ServerLine::Killed(signal)) => (Some(ProgramEnding::Signaled(signal)), true),
            Some(ServerLine::Gone) => (None, true),
            _ => (None, false),
        };
        // The server is frozen while a game is played, but not while it
        // forks, reaps and reports (a few milliseconds; a large Python
        // server's fork some tens), nor while the child has not yet spoken:
        // what it used meanwhile is this game's too, so that no CPU time of
        // the program escapes every game's limit.
        let server_after = self.cpu_time();
        self.cpu_charged = server_after;
        let server_work = server_after
            .zip(server_cpu)
            .map(|(after, before)| after.saturating_sub(before));
        let cgroup = &setup.cgroup;
        // And what it did before its first game, as a fresh process does
        // it in every game.
        let spent = cgroup
            .cpu_time()
            .map(|game| game + server_work.unwrap_or_default());
        let usage = Usage {
            cpu_time: spent.map(|spent| spent + self.startup),
            peak_memory: cgroup.peak_memory(),
            oom_killed: cgroup.oom_killed(),
        };
        drop(setup);
        let outcome = program_ending.map(|ending| Ended {
            ending,
            usage: usage.clone(),
        });
        // Without the server's word, the measures still count.
        let measured = Ended {
            ending: ProgramEnding::FailedToStart(String::new()),
            usage: usage.clone(),
        };
        let outcome = match (&outcome, ending.clone()) {
            (Some(_), _) => outcome,
            (None, ChannelEnding::TimedOut) if measured.usage.oom_killed => Some(measured),
            _ => None,
        };
        // The game's processes are gone: only the server can still hold
        // the pipe (an at-fork handler can copy it before the library
        // closes it there), and would have the evaluator wait after every
        // game. That is a misbehaving server.
        let stderr = stderr.recv_timeout(REPORT_TIMEOUT);
        // Nor may the server work beside its games beyond a budget: more is
        // a server computing for its games outside them, given up.
        let budget = settings.limits.cpu.min(SERVER_WORK_PER_GAME);
        let unfit = if !reported || stderr.is_err() {
            Some(MISBEHAVED_BETWEEN.to_string())
        } else if let Some(work) = server_work.filter(|&t| t >= budget) {
            Some(format!(
                "the fork server worked between games ({:.2} s of CPU time outside the game, \
                 {:.2} s allowed)",
                work.as_secs_f64(),
                budget.as_secs_f64()
            ))
        } else {
            left
        };
        // Others' time on the game's CPU: what was busy less what the game
        // spent meanwhile (its start-up was spent before).
        let measured = Measured {
            others: spent.and_then(|own| judged.guard.others(own)),
            usage,
            watch: judged.watch,
        };
        let mut result = conclude(
            &game,
            ending,
            outcome.as_ref(),
            &measured,
            &stderr.unwrap_or_default(),
            seconds,
            number,
            settings,
        );
        if let Some(ServerLine::Hello(_)) = report {
            // A second process said hello: two processes of the program
            // called p_startgame, which breaks the rules as it does in a
            // fresh process (where both ask to start the one game).
            result.score = 0;
            result.status = GameStatus::Violation;
            result.reason =
                Some("rule broken: p_startgame called by two processes of the program".into());
        }
        Served::Game(Box::new(result), unfit)
    }
}

/// Serves the game to its child, which is in its cgroup and under its
/// limits, while the server's jail stands still: the server only waits for
/// its child meanwhile, and a thread of it, or a process forked before the
/// game, must not work for the game beyond the game's CPU, memory and
/// process limits.
fn serve(
    channel: &mut Transport<OwnedFd>,
    first: String,
    setup: &GameSetup<GameCgroup>,
    deck: &ContestDeck,
    start: Instant,
    guard: &Guard,
) -> Served1 {
    let mut game = Game::new(*deck);
    let deadline = guard.first_deadline();
    let mut link = Prefed::new(Some(first), channel, deadline, Some(setup.pidfd.as_fd()));
    let ending = manager::serve_link(&mut link.guarded_by(guard), &mut game);
    let seconds = start.elapsed().as_secs_f64();
    guard.end();
    Served1 {
        ending,
        game,
        seconds,
    }
}
