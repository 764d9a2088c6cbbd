//! Games through a contestant's fork server (protocol version 2, see
//! [`poker_protocol::fork_server`]): the program is started once, with
//! `POKER_PROTOCOL=2`, and its library forks one child per game.
//!
//! Each game still has its own channel (a fresh socket pair), its own
//! standard error (a fresh pipe), its own wall-clock deadline, CPU-time
//! rlimit (set on the child from here) and its own cgroup inside its
//! server's (`setup`: the child is moved into it before it is told `OK`
//! to its `S`), its own status, CPU time and peak memory; it is judged by
//! the same rules as a game in a fresh process. What the program used
//! before `p_startgame` is charged to every game, as a fresh process
//! would spend it in each.
//!
//! The server needs the sandbox's cgroup (the sandbox as root): its memory
//! and process limits hold for the server and its games together, and its
//! jail is frozen while each game is played. Without one, or when a limit
//! cannot be applied to a game, the games are played in fresh processes.
//! A program that does not answer as a server (an older library, a program
//! that exits or calls another function before `p_startgame`) has played
//! its first game as a fresh process would; so has one whose server dies,
//! hangs or misbehaves: from then on its remaining games are played in
//! fresh processes, each judged on its own; so are the games after one
//! that could leave something for the next (see `carry.rs`).

mod carry;
mod game;
pub(crate) mod setup;

use super::config::GameSettings;
use super::one_game::{
    EXIT_GRACE, Prefed, launch_with_channel, not_started, play_launched, play_with,
};
use super::process::Running;
use super::source::GameSource;
pub use super::source::Processes;
use super::{GameProcess, GameResult, Launcher, Program};
use crate::sandbox::{CgroupShape, FreezerKeepalive, GameCgroup, Limits};
use carry::ServerState;
use poker_core::contest::ContestDeck;
use poker_protocol::Transport;
use poker_protocol::fork_server::{self, FORK_SERVER_VERSION, Order, PROTOCOL_ENV, ServerLine};
use rustix::process::Pid;
use setup::{LimitSetter, SERVER_CPU_HARD, SandboxJail, ServerProcess};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
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

/// Waits until one of `fds` is readable or `deadline` passes; which one
/// (`None`: the deadline, or a failed wait).
fn wait_any(fds: &[BorrowedFd<'_>], deadline: Instant) -> Option<usize> {
    poker_protocol::wait::until_readable(fds, Some(deadline))
        .ok()
        .flatten()
}

/// A running fork server.
pub(crate) struct Server {
    running: Running,
    channel: OwnedFd,
    /// The server's own process, proven a process of its jail.
    process: ServerProcess,
    /// Sets its processes' CPU-time limits where the evaluator cannot.
    limit_setter: Option<LimitSetter>,
    /// Keeps the v1 freezer cheap to use around each game.
    _freezer_keepalive: Option<FreezerKeepalive>,
    /// The server's CPU time charged to games so far: what it had used
    /// when it said hello, then when the last game was judged, so that its
    /// work between two games is charged to the second.
    cpu_charged: Option<Duration>,
    /// The CPU time it used before its first game (before `p_startgame`
    /// returned its hello): charged to every game, as a fresh process
    /// spends it in each.
    startup: Duration,
    /// The pid of its last game's child inside the jail: the next one's
    /// must follow it (see [`carry::next_child`]).
    last_child: Option<i32>,
    /// What it held when it started, then after the last game: each game
    /// must leave it as it was.
    state: ServerState,
}

/// What starting a server gave.
// Made once per server start: its size costs nothing.
#[allow(clippy::large_enum_variant)]
enum Started {
    /// A server, ready for its first game.
    Server(Box<Server>),
    /// Not a server: the program played the game it was started for.
    Played(GameResult),
    /// A server that is not to be used (why): it was ended, and its games
    /// are to be played in fresh processes.
    Unfit(String),
}

/// The limits the server process itself starts under: the game's, with a
/// CPU-time limit of its own, bounded once it says hello to what it used,
/// a game's limit and some slack, and moved as it uses more (see
/// [`setup`]), below a hard limit that stays.
fn server_limits(limits: &Limits) -> Limits {
    Limits {
        cpu: Duration::from_secs(SERVER_CPU_HARD - 1),
        ..limits.clone()
    }
}

/// Why a run of `launcher` cannot have a fork server at all, if it
/// cannot: one needs the sandbox's cgroup, to hold the server and its
/// games to one memory and process limit and to freeze the server while a
/// game is played.
pub(crate) fn unfit_launcher(launcher: &Launcher) -> Option<String> {
    let why = match launcher {
        Launcher::Plain => "without the sandbox",
        Launcher::Bubblewrap { facts, .. } => match &facts.cgroup {
            None => "without a cgroup for the sandbox's jails (run as root)",
            Some(cg) if !(cg.memory && cg.processes) => {
                "without the memory and pids cgroup controllers"
            }
            Some(_) => return None,
        },
    };
    Some(format!(
        "no fork server {why}: nothing could freeze it while its games are played, or hold it \
         and its games to the memory and process limits"
    ))
}

/// Starts `program` as a fork server. If it answers otherwise, what it
/// does is deck `number`'s game, played and judged as a fresh process.
fn start(program: &Program, deck: &ContestDeck, number: usize, settings: &GameSettings) -> Started {
    let start = Instant::now();
    let protocol = (PROTOCOL_ENV.into(), FORK_SERVER_VERSION.to_string().into());
    let limits = server_limits(&settings.limits);
    let shape = CgroupShape::ForkServer;
    let (running, channel) =
        match launch_with_channel(program, &[protocol], &limits, shape, settings) {
            Ok(launched) => launched,
            Err(e) => return Started::Unfit(format!("cannot start the fork server: {e}")),
        };
    let deadline = start + settings.limits.wall;
    let mut watched = vec![channel.as_fd()];
    watched.extend(running.pidfd.as_ref().map(|fd| fd.as_fd()));
    let first = match wait_any(&watched, deadline) {
        Some(0) => match fork_server::receive_line(&channel, Some(deadline)) {
            Ok(Some((line, attached))) => Some((line, attached.pid)),
            _ => None,
        },
        _ => None,
    };
    drop(watched);
    let (first, sender) = first.unzip();
    if first.as_deref().and_then(ServerLine::decode) != Some(ServerLine::Hello(FORK_SERVER_VERSION))
    {
        // Not a server: this was a game, as in a fresh process.
        return match Transport::socket(channel) {
            Ok(transport) => Started::Played(play_launched(
                running, transport, first, start, deck, number, settings,
            )),
            Err(e) => Started::Played(not_started(program, number, e)),
        };
    }
    let unfit = |running: Running, why: &str| {
        let _ = running.finish();
        Started::Unfit(why.into())
    };
    let Some(jail) = running.cgroup() else {
        return unfit(running, "the fork server's jail has no cgroup");
    };
    let process = sender.flatten().and_then(Pid::from_raw).and_then(|pid| {
        let jail = SandboxJail {
            cgroup: jail,
            as_user: None,
        };
        ServerProcess::prove(&jail, pid)
    });
    let Some(process) = process else {
        return unfit(
            running,
            "the fork server's hello came from no process of its jail",
        );
    };
    let freezer_keepalive = jail.freezer_keepalive();
    let limit_setter = running.leased_uid().map(LimitSetter::new);
    // What the program did before p_startgame counts towards every
    // game's CPU time in a fresh process, and so in every forked game.
    let before = jail.cpu_time();
    let state = match noted(jail, process.pid, limit_setter.as_ref()) {
        Ok(state) => state,
        Err(why) => return unfit(running, &why),
    };
    let server = Server {
        running,
        channel,
        process,
        limit_setter,
        _freezer_keepalive: freezer_keepalive,
        cpu_charged: before,
        startup: before.unwrap_or_default(),
        last_child: None,
        state,
    };
    // A server that spent the limit on it would have every game over it:
    // they are played fresh, each judged on its own.
    let before = server.startup;
    if before >= settings.limits.cpu {
        server.close();
        return Started::Unfit(format!(
            "the program used {:.1} s of CPU time before p_startgame, over the game's limit",
            before.as_secs_f64()
        ));
    }
    // Its first child inherits its CPU-time limit.
    if let Err(why) = setup::bound_server(&server.setup_jail(), &server.process, &settings.limits) {
        server.close();
        return Started::Unfit(why);
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
    Started::Server(Box::new(server))
}

/// The state of the server `pid` just started, its jail frozen meanwhile.
fn noted(
    jail: &GameCgroup,
    pid: Pid,
    as_user: Option<&LimitSetter>,
) -> Result<ServerState, String> {
    jail.freeze_and_wait(Instant::now() + setup::FREEZE_TIMEOUT)
        .map_err(|e| format!("the server's jail could not be frozen: {e}"))?;
    let state = ServerState::note(pid, as_user);
    let _ = jail.freeze(false);
    state
}

/// What one game through the server gave.
enum Served {
    /// The game was played (its result), and why the server is unfit for
    /// more games, if it is (`None`: fit).
    Game(Box<GameResult>, Option<String>),
    /// The game was not played through the server (why: it died, hung or
    /// misbehaved before its child spoke, a limit could not be applied to
    /// the game, or it went while its child played and took the child along
    /// before a card was dealt): the game is to be played again in a fresh
    /// process, and the server is unfit for more.
    NotStarted(String),
}

impl Server {
    /// The cgroup of the server's jail (it has one: see [`start`]).
    fn jail(&self) -> &GameCgroup {
        self.running
            .cgroup()
            .expect("a fork server is started only in a jail with a cgroup")
    }

    /// The server's jail, for setting a game up.
    fn setup_jail(&self) -> SandboxJail<'_> {
        SandboxJail {
            cgroup: self.jail(),
            as_user: self.limit_setter.as_ref(),
        }
    }

    /// How many processes of the program its jail (the server's cgroup)
    /// holds: those inside the jail's pid namespace but its init (the
    /// reaper, pid 1 there); bubblewrap stays outside it.
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

    /// CPU time used so far by the server's jail (its own cgroup, not its
    /// games'), if measured.
    fn cpu_time(&self) -> Option<Duration> {
        self.running.cgroup().and_then(|cg| cg.cpu_time())
    }

    /// Tells the server there are no more games, and ends it.
    fn close(self) {
        let _ =
            fork_server::send_with_fds(self.channel.as_fd(), Order::Done.encode().as_bytes(), &[]);
        drop(self.channel);
        self.running.wait_until(Instant::now() + EXIT_GRACE);
        let _ = self.running.finish();
    }
}

/// The games of one contestant through one fork server of its program,
/// falling back to fresh processes as the module says.
pub(crate) struct ForkServer<'a> {
    supervisor: &'a super::Supervisor,
    program: &'a Program,
    settings: &'a GameSettings,
    server: Option<Server>,
    processes: Processes,
}

impl<'a> ForkServer<'a> {
    /// No server yet: the first game starts it (or, if the run cannot
    /// have one, every game is played fresh).
    pub(crate) fn new(
        supervisor: &'a super::Supervisor,
        program: &'a Program,
        settings: &'a GameSettings,
    ) -> ForkServer<'a> {
        ForkServer {
            supervisor,
            program,
            settings,
            server: None,
            processes: Processes {
                fallback: settings.no_fork_server.clone(),
                ..Processes::default()
            },
        }
    }
}

impl GameSource for ForkServer<'_> {
    fn play(&mut self, deck: &ContestDeck, number: usize) -> GameResult {
        let (program, settings) = (self.program, self.settings);
        let forked = match self.processes.fallback {
            Some(_) => None,
            None => serve(
                &mut self.server,
                &mut self.processes,
                program,
                deck,
                number,
                settings,
            ),
        };
        let result = match forked {
            Some(Played::Forked(mut result)) => {
                result.process = GameProcess::Forked;
                self.processes.forked += 1;
                result
            }
            Some(Played::Fresh(result)) => {
                self.processes.fresh += 1;
                result
            }
            None => {
                self.processes.fresh += 1;
                play_with(self.supervisor, program, deck, number, settings)
            }
        };
        // A server given up is ended once the game is judged.
        if self.processes.fallback.is_some() {
            if let Some(server) = self.server.take() {
                server.close();
            }
        }
        result
    }

    fn finish(self: Box<Self>) -> Processes {
        if let Some(server) = self.server {
            server.close();
        }
        self.processes
    }
}

/// A game played while trying the fork server.
enum Played {
    /// By a child of the server.
    Forked(GameResult),
    /// By the program started as a server, which played it as a fresh
    /// process (it is not one).
    Fresh(GameResult),
}

/// Plays deck `number` through `server`, started first if need be; `None`
/// when the game is to be played in a fresh process. Sets
/// `processes.fallback` (why) when the server is given up, and the
/// server's start-up CPU time once it is known.
fn serve(
    server: &mut Option<Server>,
    processes: &mut Processes,
    program: &Program,
    deck: &ContestDeck,
    number: usize,
    settings: &GameSettings,
) -> Option<Played> {
    let current = match server {
        Some(current) => current,
        None => match start(program, deck, number, settings) {
            Started::Server(started) => {
                processes.startup_cpu = Some(started.startup);
                server.insert(*started)
            }
            Started::Unfit(why) => {
                processes.fallback = Some(why);
                return None;
            }
            Started::Played(result) => {
                processes.fallback = Some(format!(
                    "not a fork server ({}): an older libpoker, or a program that does not start with p_startgame",
                    result.reason.as_deref().unwrap_or("it played one game")
                ));
                return Some(Played::Fresh(result));
            }
        },
    };
    match current.play(deck, number, settings) {
        Served::Game(result, unfit) => {
            processes.fallback = unfit;
            Some(Played::Forked(*result))
        }
        Served::NotStarted(why) => {
            processes.fallback = Some(why);
            None
        }
    }
}
