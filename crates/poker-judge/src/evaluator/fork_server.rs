//! Games through a contestant's fork server (protocol version 2, see
//! [`poker_protocol::server`]): the program is started once, with
//! `POKER_PROTOCOL=2`, and its library forks one child per game.
//!
//! Each game still has its own channel (a fresh socket pair), its own
//! standard error (a fresh pipe), its own wall-clock deadline,
//! CPU-time rlimit (set on the child from here) and, in the sandbox, its
//! own cgroup (the child is moved into it before it is told `OK` to its
//! `S`), its own status, CPU time and peak memory; it is judged by the same
//! rules as a game in a fresh process.
//!
//! A program that does not answer as a server (an older library, a program
//! that exits or calls another function before `p_startgame`) has played
//! its first game as a fresh process would; so has one whose server dies,
//! hangs or misbehaves: from then on its remaining games are played in
//! fresh processes, each judged on its own.

use super::manager::{self, Ending, Link};
use super::process::{self, Running};
use super::{
    EXIT_GRACE, GameResult, Launcher, Program, RunConfig, conclude, launch_with_channel, play,
    play_launched,
};
use crate::sandbox::{
    Ending as ProgramEnding, FreezerKeepalive, GameCgroup, Limits, Outcome, Usage,
};
use poker_core::contest::{ContestDeck, Game};
use poker_protocol::server::{self, FORK_SERVER_VERSION, Order, PROTOCOL_ENV, ServerLine};
use poker_protocol::{Received, Transport};
use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::process::{Pid, PidfdFlags, Resource, Rlimit, Signal};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

/// How long a server may take to report its child's end once the game is
/// over and its processes are killed; a server slower than that is treated
/// as hung.
const REPORT_TIMEOUT: Duration = Duration::from_secs(2);

/// The most CPU time a server's jail may use per game outside the game
/// (forking, reaping, reporting take a few milliseconds, a large Python
/// server's fork some tens): more, or a game's CPU-time limit if that is
/// less, is a server working for its games outside their limits.
const SERVER_WORK_PER_GAME: Duration = Duration::from_millis(250);

/// A [`Link`] over a transport with a deadline and an exit watch, which
/// first hands out a line already read.
pub(crate) struct Prefed<'a, 'w> {
    first: Option<String>,
    channel: &'a mut Transport<OwnedFd>,
    deadline: Instant,
    exit_watch: Option<BorrowedFd<'w>>,
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

/// Waits until one of `fds` is readable or `deadline` passes; which one
/// (`None`: the deadline).
fn wait_any(fds: &[BorrowedFd<'_>], deadline: Instant) -> Option<usize> {
    loop {
        let wait = deadline.saturating_duration_since(Instant::now());
        if wait.is_zero() {
            return None;
        }
        let timeout = Timespec {
            tv_sec: wait.as_secs() as i64,
            tv_nsec: i64::from(wait.subsec_nanos()),
        };
        let mut polled: Vec<PollFd<'_>> = fds
            .iter()
            .map(|fd| PollFd::new(fd, PollFlags::IN))
            .collect();
        match poll(&mut polled, Some(&timeout)) {
            Ok(n) if n > 0 => return polled.iter().position(|p| !p.revents().is_empty()),
            Ok(_) | Err(rustix::io::Errno::INTR) => continue,
            Err(_) => return None,
        }
    }
}

/// A running fork server.
pub(crate) struct Server {
    running: Running,
    channel: OwnedFd,
    /// Keeps the v1 freezer cheap to use around each game.
    _freezer_keepalive: Option<FreezerKeepalive>,
}

/// What starting a server gave.
enum Started {
    /// A server, ready for its first game.
    Server(Box<Server>),
    /// Not a server: the program played the game it was started for.
    Played(GameResult),
    /// A server that is not to be used (why): it was ended, and its games
    /// are to be played in fresh processes.
    Unfit(String),
}

/// The limits the server process itself runs under: the game's, but no
/// CPU-time limit of its own (it lives for many games; each child gets the
/// game's limit from the evaluator).
fn server_limits(limits: &Limits) -> Limits {
    Limits {
        cpu: Duration::from_secs(u64::from(u32::MAX)),
        ..limits.clone()
    }
}

/// Starts `program` as a fork server. If it answers otherwise, what it
/// does is deck `number`'s game, played and judged as a fresh process.
fn start(program: &Program, deck: &ContestDeck, number: usize, config: &RunConfig) -> Started {
    let start = Instant::now();
    let not_started = |e| Started::Played(super::not_started(program, number, e));
    let protocol = (PROTOCOL_ENV.into(), FORK_SERVER_VERSION.to_string().into());
    let limits = server_limits(&config.limits);
    let (running, channel) = match launch_with_channel(program, &[protocol], &limits, config) {
        Ok(launched) => launched,
        Err(e) => return not_started(e),
    };
    let deadline = start + config.limits.wall;
    let mut watched = vec![channel.as_fd()];
    watched.extend(running.pidfd.as_ref().map(|fd| fd.as_fd()));
    let first = match wait_any(&watched, deadline) {
        Some(0) => match server::receive_line(&channel, Some(deadline)) {
            Ok(Some((line, _))) => Some(line),
            _ => None,
        },
        _ => None,
    };
    drop(watched);
    if first.as_deref().and_then(ServerLine::decode) == Some(ServerLine::Hello(FORK_SERVER_VERSION))
    {
        let freezer_keepalive = running.cgroup().and_then(|cg| cg.freezer_keepalive());
        let server = Server {
            running,
            channel,
            _freezer_keepalive: freezer_keepalive,
        };
        // What the program did before p_startgame counts towards every
        // game's CPU time in a fresh process: a server that spent the
        // limit on it would have each game judged otherwise.
        let before = server.cpu_time().unwrap_or_default();
        if before >= config.limits.cpu {
            server.close();
            return Started::Unfit(format!(
                "the program used {:.1} s of CPU time before p_startgame, over the game's limit",
                before.as_secs_f64()
            ));
        }
        // Another process of the program would be frozen with the server
        // while each game is played, so whether it called p_startgame too
        // (a broken rule in a fresh process) would show only between
        // games, after one was judged: such a program plays fresh.
        let processes = server.program_processes();
        if processes.is_some_and(|n| n > 1) {
            server.close();
            return Started::Unfit(
                "the program had more than one process when it called p_startgame".into(),
            );
        }
        return Started::Server(Box::new(server));
    }
    // Not a server: this was a game, as in a fresh process.
    match Transport::socket(channel) {
        Ok(transport) => Started::Played(play_launched(
            running, transport, first, start, deck, number, config,
        )),
        Err(e) => not_started(e),
    }
}

/// What one game through the server gave.
enum Served {
    /// The game was played (its result), and whether the server is still
    /// fit for more games.
    Game(Box<GameResult>, bool),
    /// The server never started the game (it died, hung or misbehaved
    /// before its child spoke), or went while it was played and took its
    /// child along: the game is to be played again in a fresh process, and
    /// the server is unfit for more.
    NotStarted,
}

/// The least memory limit a game's cgroup is given (1 MiB), whatever its
/// server already holds.
const LEAST_GAME_MEMORY: u64 = 1 << 20;

/// The per-game cgroup (sandbox as root) or nothing. Its memory limit is
/// the game's less what the server's cgroup holds (`server_memory` bytes):
/// the child shares those pages, charged to the server, and in a fresh
/// process they would count towards the game's limit.
fn game_cgroup(config: &RunConfig, server_memory: Option<u64>) -> Option<GameCgroup> {
    let mut limits = config.limits.clone();
    if let Some(held) = server_memory {
        limits.memory = limits.memory.saturating_sub(held).max(LEAST_GAME_MEMORY);
    }
    match config.launcher {
        Launcher::Bubblewrap { .. } => GameCgroup::create(&limits).ok(),
        Launcher::Plain => None,
    }
}

impl Server {
    /// How many processes of the program its jail (the server's cgroup)
    /// holds: those inside the jail's pid namespace but its init (the
    /// reaper, pid 1 there); bubblewrap stays outside it. `None` without a
    /// cgroup.
    fn program_processes(&self) -> Option<usize> {
        let inside = |pid: &u32| {
            let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
            let nspid = status.lines().find_map(|l| l.strip_prefix("NSpid:"))?;
            let ids: Vec<&str> = nspid.split_whitespace().collect();
            Some(ids.len() >= 2 && ids.last() != Some(&"1"))
        };
        let pids = self.running.cgroup()?.pids();
        Some(pids.iter().filter(|pid| inside(pid) == Some(true)).count())
    }

    /// CPU time used so far by the server's jail (its cgroup), if measured.
    fn cpu_time(&self) -> Option<Duration> {
        self.running.cgroup().and_then(|cg| cg.cpu_time())
    }

    /// Plays deck `number` through a child of the server.
    fn play(&mut self, deck: &ContestDeck, number: usize, config: &RunConfig) -> Served {
        let start = Instant::now();
        let deadline = start + config.limits.wall;
        let server_cpu = self.cpu_time();
        let Ok((mine, theirs)) = UnixStream::pair() else {
            return Served::NotStarted;
        };
        // The game's stderr: a pipe of its own, drained as it is written
        // (as a fresh process's is), so that no output blocks the game or
        // counts towards its memory.
        let Ok((stderr_read, stderr)) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
        else {
            return Served::NotStarted;
        };
        let stderr_drain = process::drain(std::fs::File::from(stderr_read));
        if rustix::net::sockopt::set_socket_passcred(&mine, true).is_err()
            || server::send_with_fds(
                self.channel.as_fd(),
                Order::Game.encode().as_bytes(),
                &[theirs.as_fd(), stderr.as_fd()],
            )
            .is_err()
        {
            return Served::NotStarted;
        }
        drop(theirs);
        drop(stderr);
        // The child's first line, and its pid from the kernel.
        let (first, pid) = match server::receive_line(&mine, Some(deadline)) {
            Ok(Some((line, attached))) => match attached.pid.and_then(Pid::from_raw) {
                Some(pid) => (line, pid),
                None => return Served::NotStarted,
            },
            _ => return Served::NotStarted,
        };
        let Ok(pidfd) = rustix::process::pidfd_open(pid, PidfdFlags::empty()) else {
            return Served::NotStarted;
        };
        // Its own limits before it may play.
        let server_memory = self.running.cgroup().and_then(|cg| cg.memory_usage());
        let cgroup = game_cgroup(config, server_memory);
        if let Some(cgroup) = &cgroup {
            let _ = cgroup.admit(pid.as_raw_nonzero().get() as u32);
        }
        let cpu = config.limits.cpu_seconds();
        let _ = rustix::process::prlimit(
            Some(pid),
            Resource::Cpu,
            Rlimit {
                current: Some(cpu),
                maximum: Some(cpu + 1),
            },
        );
        let Ok(mut channel) = Transport::socket(OwnedFd::from(mine)) else {
            return Served::NotStarted;
        };
        // The server's jail stands still while its child plays: the server
        // only waits for the child meanwhile, and a thread of it, or a
        // process forked before the game (even the child itself, if
        // another process spoke first), must not work for the game beyond
        // the game's CPU, memory and process limits.
        let server_cgroup = self.running.cgroup();
        let frozen = server_cgroup.is_some_and(|cg| cg.freeze(true).is_ok());
        let mut game = Game::new(*deck);
        let mut link = Prefed::new(Some(first), &mut channel, deadline, Some(pidfd.as_fd()));
        let ending = manager::serve_link(&mut link, &mut game);
        drop(channel);
        let seconds = start.elapsed().as_secs_f64();
        // The child exits by itself after its last message; whatever is
        // left of the game then goes.
        if ending != Ending::TimedOut {
            wait_any(&[pidfd.as_fd()], Instant::now() + EXIT_GRACE);
        }
        match &cgroup {
            Some(cgroup) => cgroup.kill_all(),
            None => {
                // Its group too (the child leads one), but only while the
                // child still holds its pid, so that no reused pid is hit.
                if rustix::process::pidfd_send_signal(&pidfd, Signal::KILL).is_ok() {
                    let _ = rustix::process::kill_process_group(pid, Signal::KILL);
                }
            }
        }
        if frozen {
            if let Some(cg) = self.running.cgroup() {
                let _ = cg.freeze(false);
            }
        }
        // The server's word on how its child ended, which also says it is
        // ready for the next game.
        let report = match wait_any(&[self.channel.as_fd()], Instant::now() + REPORT_TIMEOUT) {
            Some(_) => server::receive_line(&self.channel, Some(Instant::now() + REPORT_TIMEOUT))
                .ok()
                .flatten()
                .and_then(|(line, _)| ServerLine::decode(&line)),
            None => None,
        };
        if report.is_none()
            && matches!(ending, Ending::Closed | Ending::Exited | Ending::Failed(_))
            && game.calls() <= 1
        {
            // The server went before its child was dealt a card, and in
            // the sandbox its child went with it (the jail's pid namespace
            // ends with the server): the game is played again in a fresh
            // process, on the same deck. A child that was dealt cards is
            // judged on what it played: it could kill its own server (the
            // server's jail is frozen while it plays, so nothing else
            // could) to have a game it saw and disliked dealt again.
            return Served::NotStarted;
        }
        let (program_ending, fit) = match report {
            Some(ServerLine::Exited(code)) => (Some(ProgramEnding::Exited(code)), true),
            Some(ServerLine::Killed(signal)) => (Some(ProgramEnding::Signaled(signal)), true),
            Some(ServerLine::Gone) => (None, true),
            _ => (None, false),
        };
        let usage = cgroup.as_ref().map_or_else(Usage::default, |cg| Usage {
            cpu_time: cg.cpu_time(),
            peak_memory: cg.peak_memory(),
            oom_killed: cg.oom_killed(),
        });
        drop(cgroup);
        let outcome = program_ending.map(|ending| Outcome {
            ending,
            usage: usage.clone(),
        });
        // Without the server's word, the measures still count.
        let measured = Outcome {
            ending: ProgramEnding::FailedToStart(String::new()),
            usage,
        };
        let outcome = match (&outcome, ending.clone()) {
            (Some(_), _) => outcome,
            (None, Ending::TimedOut) if measured.usage.oom_killed => Some(measured),
            _ => None,
        };
        // The game's processes are gone: only the server can still hold
        // the pipe (an at-fork handler can copy it before the library
        // closes it there), and would have the evaluator wait after every
        // game. That is a misbehaving server.
        let stderr = stderr_drain.recv_timeout(REPORT_TIMEOUT);
        // Nor may the server work beside its games: it is frozen while one
        // is played, but not while it forks, reaps and reports, which take
        // it a few milliseconds; more is a server computing for its games
        // outside their limits.
        let server_work = self
            .cpu_time()
            .zip(server_cpu)
            .map(|(after, before)| after.saturating_sub(before));
        let budget = config.limits.cpu.min(SERVER_WORK_PER_GAME);
        let fit = fit && stderr.is_ok() && server_work.is_none_or(|t| t < budget);
        let mut result = conclude(
            &game,
            ending,
            outcome.as_ref(),
            &stderr.unwrap_or_default(),
            seconds,
            number,
            config,
        );
        if let Some(ServerLine::Hello(_)) = report {
            // A second process said hello: two processes of the program
            // called p_startgame, which breaks the rules as it does in a
            // fresh process (where both ask to start the one game).
            result.score = 0;
            result.status = super::Status::Violation;
            result.reason =
                Some("rule broken: p_startgame called by two processes of the program".into());
        }
        Served::Game(Box::new(result), fit)
    }

    /// Tells the server there are no more games, and ends it.
    fn close(self) {
        let _ = server::send_with_fds(self.channel.as_fd(), Order::Done.encode().as_bytes(), &[]);
        drop(self.channel);
        self.running.wait_until(Instant::now() + EXIT_GRACE);
        let _ = self.running.finish(Duration::ZERO);
    }
}

/// Where a contestant's games were played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Processes {
    /// Games played by children of a fork server.
    pub forked: usize,
    /// Games played in processes of their own.
    pub fresh: usize,
    /// Why the fork server was given up for the remaining games, if it was.
    pub fallback: Option<String>,
}

impl Processes {
    /// Adds another worker's counts.
    pub fn add(&mut self, other: Processes) {
        self.forked += other.forked;
        self.fresh += other.fresh;
        if self.fallback.is_none() {
            self.fallback = other.fallback;
        }
    }
}

/// Plays the decks that `next` hands out (number, deck) through one fork
/// server of `program`, calling `on_game` after each; falls back to fresh
/// processes as the module says. Returns where the games were played.
pub(crate) fn play_through_server(
    supervisor: &super::Supervisor,
    program: &Program,
    config: &RunConfig,
    mut next: impl FnMut() -> Option<(usize, ContestDeck)>,
    mut on_game: impl FnMut(GameResult),
) -> Processes {
    let mut processes = Processes::default();
    let mut server: Option<Server> = None;
    while let Some((number, deck)) = next() {
        if processes.fallback.is_some() {
            processes.fresh += 1;
            on_game(play(supervisor, program, &deck, number, config));
            continue;
        }
        let current = match server.as_mut() {
            Some(current) => current,
            None => match start(program, &deck, number, config) {
                Started::Server(started) => server.insert(*started),
                Started::Unfit(why) => {
                    processes.fresh += 1;
                    processes.fallback = Some(why);
                    on_game(play(supervisor, program, &deck, number, config));
                    continue;
                }
                Started::Played(result) => {
                    processes.fresh += 1;
                    processes.fallback = Some(format!(
                        "not a fork server ({}): an older libpoker, or a program that does not start with p_startgame",
                        result.reason.as_deref().unwrap_or("it played one game")
                    ));
                    on_game(result);
                    continue;
                }
            },
        };
        match current.play(&deck, number, config) {
            Served::Game(result, fit) => {
                processes.forked += 1;
                on_game(*result);
                if !fit {
                    processes.fallback =
                        Some("the fork server died, hung or misbehaved between games".into());
                }
            }
            Served::NotStarted => {
                processes.fallback =
                    Some("the fork server died, hung or misbehaved before a game".into());
                processes.fresh += 1;
                on_game(play(supervisor, program, &deck, number, config));
            }
        }
        if processes.fallback.is_some() {
            if let Some(server) = server.take() {
                server.close();
            }
        }
    }
    if let Some(server) = server {
        server.close();
    }
    processes
}
