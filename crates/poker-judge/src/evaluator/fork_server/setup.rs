//! Setting up one game of a fork server before its child may play: every
//! limit a fresh process would have, applied to a process proven to be the
//! server's own child, or no game at all.
//!
//! The child's pid comes from the kernel with its first line. By the time
//! the evaluator acts on it, that child may have exited and its pid gone
//! to any process of the machine; so the server's jail is frozen first
//! (and the evaluator waits until the kernel says it is): from then on no
//! process of the jail runs, so the server reaps no child and the child's
//! pid stays its own until the jail is thawed after the game. The child is
//! then proven to be the server's: a process of the jail itself, whose
//! parent is the server, behind a pidfd that was open before the check and
//! shows it still running after it.
//!
//! A limit that cannot be applied (the game's cgroup, moving the child into
//! it, its CPU-time limit, the server's own CPU-time limit, the freeze) is
//! never waived: the game is not played through the server, which is given
//! up, and the reason is reported.

use crate::sandbox::{GameCgroup, Limits};
use rustix::process::{Gid, Pid, PidfdFlags, Resource, Rlimit, Uid, pidfd_open, prlimit};
use std::cell::Cell;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The least memory limit a game's cgroup is given (1 MiB), whatever its
/// server already holds.
const LEAST_GAME_MEMORY: u64 = 1 << 20;

/// How long the server's jail may take to freeze.
pub(crate) const FREEZE_TIMEOUT: Duration = Duration::from_secs(1);

/// How far (seconds) the server's soft CPU-time limit is set above what
/// it used and a game's limit, so that it moves only every few seconds of
/// the server's own work.
const SERVER_CPU_SLACK: u64 = 10;

/// The hard CPU-time limit (seconds) the server was started with: its
/// soft limit moves, its hard limit stays (raising it takes privileges).
pub(crate) const SERVER_CPU_HARD: u64 = u32::MAX as u64 + 1;

/// What setting a game up needs from the server's jail: the sandbox's
/// cgroups ([`SandboxJail`]), or a stand-in in tests.
pub(crate) trait Jailer {
    /// A game's cgroup.
    type Cgroup;
    /// Freezes every process of the server's jail and waits until it is.
    fn freeze(&self) -> io::Result<()>;
    /// Thaws the server's jail.
    fn thaw(&self);
    /// Whether `pid` is a process of the server's jail itself (not of a
    /// game's cgroup).
    fn holds(&self, pid: Pid) -> bool;
    /// Memory charged to the server's jail, its games' included.
    fn memory_held(&self) -> Option<u64>;
    /// CPU time the server's jail has used.
    fn cpu_used(&self) -> Option<Duration>;
    /// Makes a game's cgroup inside the server's, with `limits`.
    fn game_cgroup(&self, limits: &Limits) -> io::Result<Self::Cgroup>;
    /// Moves the process `pid` into `cgroup`.
    fn admit(&self, cgroup: &Self::Cgroup, pid: Pid) -> io::Result<()>;
    /// Sets the CPU-time limit (seconds) of the process `pid`.
    fn limit_cpu(&self, pid: Pid, soft: u64, hard: u64) -> io::Result<()>;
}

/// The sandbox's cgroups of a fork server's jail, and what sets the CPU-time
/// limits of its processes when the evaluator cannot itself.
pub(crate) struct SandboxJail<'a> {
    pub(crate) cgroup: &'a GameCgroup,
    pub(crate) as_user: Option<&'a LimitSetter>,
}

/// A thread whose ids are those of a jail's processes (the uid its jail
/// leased, and equal gid), which sets their CPU-time limits and makes the
/// files that read their `/tmp`'s inode counter: `prlimit` on another
/// user's process takes `CAP_SYS_RESOURCE`, which a root evaluator may lack
/// (in a container), or the same ids; a file made in a jail's file system
/// must belong to a user of its user namespace, which root is not; and a
/// thread's ids are its own at the system-call level. It ends with this
/// handle.
pub(crate) struct LimitSetter {
    orders: mpsc::Sender<AsUser>,
    results: mpsc::Receiver<io::Result<u64>>,
}

/// What the thread of a [`LimitSetter`] does.
enum AsUser {
    /// Sets the CPU-time limit of a process.
    Limit(Pid, Rlimit),
    /// Makes a file in a folder (see [`new_inode_in`]).
    NewInode(OwnedFd),
}

impl LimitSetter {
    /// The thread for the processes of `uid`.
    pub(crate) fn new(uid: u32) -> LimitSetter {
        let (orders, orders_rx) = mpsc::channel::<AsUser>();
        let (results_tx, results) = mpsc::channel();
        std::thread::spawn(move || {
            let (user, group) = (Uid::from_raw(uid), Gid::from_raw(uid));
            let ids = rustix::thread::set_thread_res_gid(group, group, group)
                .and_then(|()| rustix::thread::set_thread_res_uid(user, user, user))
                .map_err(io::Error::from);
            for order in orders_rx {
                let done = match (&ids, order) {
                    (Err(e), _) => Err(io::Error::new(e.kind(), e.to_string())),
                    (Ok(()), AsUser::Limit(pid, limit)) => prlimit(Some(pid), Resource::Cpu, limit)
                        .map(|_| 0)
                        .map_err(io::Error::from),
                    (Ok(()), AsUser::NewInode(dir)) => new_inode_in(&dir),
                };
                if results_tx.send(done).is_err() {
                    break;
                }
            }
        });
        LimitSetter { orders, results }
    }

    fn ask(&self, order: AsUser) -> io::Result<u64> {
        let gone = || io::Error::other("the thread acting as the jail's user is gone");
        self.orders.send(order).map_err(|_| gone())?;
        self.results.recv().map_err(|_| gone())?
    }

    fn set(&self, pid: Pid, limit: Rlimit) -> io::Result<()> {
        self.ask(AsUser::Limit(pid, limit)).map(|_| ())
    }

    /// [`new_inode_in`] `dir`, as the jail's user.
    pub(crate) fn new_inode(&self, dir: OwnedFd) -> io::Result<u64> {
        self.ask(AsUser::NewInode(dir))
    }
}

/// The inode number of a new file in the folder `dir`: a file with no name
/// (`O_TMPFILE`: no folder's times change), gone once closed.
pub(crate) fn new_inode_in(dir: &OwnedFd) -> io::Result<u64> {
    use rustix::fs::{Mode, OFlags};
    let flags = OFlags::TMPFILE | OFlags::WRONLY | OFlags::CLOEXEC;
    let file = rustix::fs::openat(dir, ".", flags, Mode::RUSR | Mode::WUSR)?;
    Ok(rustix::fs::fstat(&file)?.st_ino)
}

impl Jailer for SandboxJail<'_> {
    type Cgroup = GameCgroup;

    fn freeze(&self) -> io::Result<()> {
        self.cgroup.freeze_and_wait(Instant::now() + FREEZE_TIMEOUT)
    }

    fn thaw(&self) {
        let _ = self.cgroup.freeze(false);
    }

    fn holds(&self, pid: Pid) -> bool {
        self.cgroup.holds(pid)
    }

    fn memory_held(&self) -> Option<u64> {
        self.cgroup.memory_usage()
    }

    fn cpu_used(&self) -> Option<Duration> {
        self.cgroup.cpu_time()
    }

    fn game_cgroup(&self, limits: &Limits) -> io::Result<GameCgroup> {
        self.cgroup.create_game(limits)
    }

    fn admit(&self, cgroup: &GameCgroup, pid: Pid) -> io::Result<()> {
        cgroup.admit(pid.as_raw_nonzero().get() as u32)
    }

    fn limit_cpu(&self, pid: Pid, soft: u64, hard: u64) -> io::Result<()> {
        let limit = Rlimit {
            current: Some(soft),
            maximum: Some(hard),
        };
        match (prlimit(Some(pid), Resource::Cpu, limit), self.as_user) {
            (Err(rustix::io::Errno::PERM), Some(as_user)) => as_user.set(pid, limit),
            (set, _) => set.map(|_| ()).map_err(io::Error::from),
        }
    }
}

/// The server's process: its pid as the evaluator sees it, and a pidfd
/// taken when it was proven a process of its jail.
pub(crate) struct ServerProcess {
    pub(crate) pid: Pid,
    pub(crate) pidfd: OwnedFd,
    /// The soft CPU-time limit (seconds) last set on it; 0 before.
    pub(crate) cpu_soft: Cell<u64>,
}

impl ServerProcess {
    /// The process `pid` (the sender of the server's hello), if it is a
    /// running process of `jail`.
    pub(crate) fn prove(jail: &impl Jailer, pid: Pid) -> Option<ServerProcess> {
        let pidfd = pidfd_open(pid, PidfdFlags::empty()).ok()?;
        (jail.holds(pid) && running(pidfd.as_fd())).then_some(ServerProcess {
            pid,
            pidfd,
            cpu_soft: Cell::new(0),
        })
    }
}

/// A game set up: its cgroup, and its child's pidfd. The server's jail
/// stays frozen until the game is over.
pub(crate) struct GameSetup<C> {
    pub(crate) cgroup: C,
    pub(crate) pidfd: OwnedFd,
}

/// Whether the process behind `pidfd` has not exited (its pidfd is not
/// readable yet): then its pid is still its own.
fn running(pidfd: BorrowedFd<'_>) -> bool {
    !poker_protocol::wait::is_readable(pidfd)
}

/// The parent of the process `pid`, from `/proc/<pid>/status`.
fn parent_of(pid: Pid) -> Option<Pid> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid.as_raw_nonzero())).ok()?;
    let ppid = status.lines().find_map(|l| l.strip_prefix("PPid:"))?;
    Pid::from_raw(ppid.trim().parse().ok()?)
}

/// Sets the server's CPU-time limit (which its next child inherits) to
/// what its jail has used and a game's limit, its jail frozen: the server
/// then holds its pid.
fn limit_server(jail: &impl Jailer, server: &ServerProcess, limits: &Limits) -> Result<(), String> {
    let used = jail.cpu_used().unwrap_or_default().as_secs() + 1;
    let cpu = limits.cpu_seconds();
    // Moved once it comes within a game's limit of what the server used:
    // every child inherits less than that limit and the slack above it.
    if used + cpu <= server.cpu_soft.get() {
        return Ok(());
    }
    let soft = used + cpu + SERVER_CPU_SLACK;
    let set = match running(server.pidfd.as_fd()) {
        true => jail.limit_cpu(server.pid, soft, SERVER_CPU_HARD),
        false => Err(io::Error::other("the server has exited")),
    };
    set.map_err(|e| format!("the server's CPU-time limit could not be set: {e}"))?;
    server.cpu_soft.set(soft);
    Ok(())
}

/// Gives a server just started the CPU-time limit its first child will
/// inherit ([`set_up`] moves it for each next child), freezing its jail
/// meanwhile; the error says why it could not.
pub(crate) fn bound_server(
    jail: &impl Jailer,
    server: &ServerProcess,
    limits: &Limits,
) -> Result<(), String> {
    jail.freeze()
        .map_err(|e| format!("the server's jail could not be frozen: {e}"))?;
    let set = limit_server(jail, server, limits);
    jail.thaw();
    set
}

/// Sets up the game whose child said its first line with pid `pid`, under
/// `limits`: freezes the server's jail, proves the child, bounds the
/// server's own CPU-time limit (which its next child inherits), makes the
/// game's cgroup (the memory limit less what the jail holds, its games'
/// leftovers included), moves the child into it and sets its CPU-time
/// limit. On success the jail stays frozen; on failure it is thawed, the
/// child is left untouched, and the error says which limit could not be
/// applied.
pub(crate) fn set_up<J: Jailer>(
    jail: &J,
    server: &ServerProcess,
    pid: Pid,
    limits: &Limits,
) -> Result<GameSetup<J::Cgroup>, String> {
    let not_child = || "a game's first message came from a process that is not its server's child";
    // Before the freeze and the checks: whichever process holds the pid.
    let pidfd = pidfd_open(pid, PidfdFlags::empty()).map_err(|_| not_child().to_string())?;
    jail.freeze()
        .map_err(|e| format!("the server's jail could not be frozen for a game: {e}"))?;
    let set = (|| {
        let is_child = jail.holds(pid) && parent_of(pid) == Some(server.pid);
        // Read after the checks: both still running, so the pids read were
        // theirs.
        if !(is_child && running(pidfd.as_fd()) && running(server.pidfd.as_fd())) {
            return Err(not_child().to_string());
        }
        limit_server(jail, server, limits)?;
        // The game's cgroup counts CPU time where the jail's does: then the
        // watch holds the limit and the rlimit is its backstop.
        let (cpu_soft, cpu_hard) = limits.cpu_rlimit(jail.cpu_used().is_some());
        let held = jail.memory_held().unwrap_or(0);
        let game_limits = Limits {
            memory: limits.memory.saturating_sub(held).max(LEAST_GAME_MEMORY),
            ..limits.clone()
        };
        let cgroup = jail
            .game_cgroup(&game_limits)
            .map_err(|e| format!("a game's cgroup could not be made: {e}"))?;
        jail.admit(&cgroup, pid)
            .map_err(|e| format!("a game's child could not be moved into its cgroup: {e}"))?;
        jail.limit_cpu(pid, cpu_soft, cpu_hard)
            .map_err(|e| format!("a game's CPU-time limit could not be set: {e}"))?;
        Ok(cgroup)
    })();
    match set {
        Ok(cgroup) => Ok(GameSetup { cgroup, pidfd }),
        Err(why) => {
            jail.thaw();
            Err(why)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::process::{Child, Command};

    /// Which step of a set-up fails.
    #[derive(Clone, Copy, PartialEq)]
    enum Fails {
        Nothing,
        Freeze,
        Cgroup,
        Admit,
        ServerCpu,
        ChildCpu,
    }

    /// A jail that holds every process, records what is done, and fails
    /// at one step.
    struct Recorder {
        fails: Fails,
        done: RefCell<Vec<String>>,
    }

    impl Recorder {
        fn new(fails: Fails) -> Recorder {
            Recorder {
                fails,
                done: RefCell::new(Vec::new()),
            }
        }

        fn note(&self, what: String, step: Fails) -> io::Result<()> {
            if self.fails == step {
                return Err(io::Error::other(format!("{what} refused")));
            }
            self.done.borrow_mut().push(what);
            Ok(())
        }

        fn done(&self) -> Vec<String> {
            self.done.borrow().clone()
        }
    }

    impl Jailer for Recorder {
        type Cgroup = u64;
        fn freeze(&self) -> io::Result<()> {
            self.note("freeze".into(), Fails::Freeze)
        }
        fn thaw(&self) {
            self.done.borrow_mut().push("thaw".into());
        }
        fn holds(&self, _: Pid) -> bool {
            true
        }
        fn memory_held(&self) -> Option<u64> {
            Some(100 << 20)
        }
        fn cpu_used(&self) -> Option<Duration> {
            Some(Duration::from_millis(2500))
        }
        fn game_cgroup(&self, limits: &Limits) -> io::Result<u64> {
            self.note(format!("cgroup {}", limits.memory >> 20), Fails::Cgroup)?;
            Ok(limits.memory)
        }
        fn admit(&self, _: &u64, pid: Pid) -> io::Result<()> {
            self.note(format!("admit {}", pid.as_raw_nonzero()), Fails::Admit)
        }
        fn limit_cpu(&self, pid: Pid, soft: u64, hard: u64) -> io::Result<()> {
            let step = if pid == rustix::process::getpid() {
                Fails::ServerCpu
            } else {
                Fails::ChildCpu
            };
            self.note(format!("cpu {} {soft} {hard}", pid.as_raw_nonzero()), step)
        }
    }

    /// A process of this test's own, its pid, and a pidfd.
    fn sleeper() -> (Child, Pid) {
        let child = Command::new("sleep").arg("60").spawn().expect("sleep");
        let pid = Pid::from_child(&child);
        (child, pid)
    }

    /// This test process as the server (the sleeper's parent).
    fn this_server() -> ServerProcess {
        ServerProcess {
            pid: rustix::process::getpid(),
            pidfd: pidfd_open(rustix::process::getpid(), PidfdFlags::empty()).unwrap(),
            cpu_soft: Cell::new(0),
        }
    }

    fn limits() -> Limits {
        Limits {
            memory: 256 << 20,
            cpu: Duration::from_secs(2),
            ..Limits::default()
        }
    }

    #[test]
    fn a_child_of_the_server_gets_every_limit_with_its_server_frozen() {
        let (mut child, pid) = sleeper();
        let jail = Recorder::new(Fails::Nothing);
        let server = this_server();
        let set = set_up(&jail, &server, pid, &limits()).expect("set up");
        assert_eq!(set.cgroup, 156 << 20);
        // 256 MiB less the 100 the jail holds; the server's soft limit is
        // its 2.5 s (rounded up), the game's 2 s and 10 s of slack; the
        // child's, the backstop at twice the watched 2 s.
        let me = rustix::process::getpid().as_raw_nonzero();
        let it = pid.as_raw_nonzero();
        let hard = SERVER_CPU_HARD;
        assert_eq!(
            jail.done(),
            [
                "freeze".to_string(),
                format!("cpu {me} 15 {hard}"),
                "cgroup 156".into(),
                format!("admit {it}"),
                format!("cpu {it} 4 5"),
            ]
        );
        // The next game: the server's limit is still 3 s + 2 s or more
        // above what it used, so it stays.
        let set = set_up(&jail, &server, pid, &limits()).expect("set up");
        assert_eq!(set.cgroup, 156 << 20);
        assert_eq!(jail.done().len(), 9);
        assert!(
            !jail.done()[5..]
                .iter()
                .any(|d| d.starts_with(&format!("cpu {me}")))
        );
        child.kill().unwrap();
        child.wait().unwrap();
    }

    #[test]
    fn a_process_that_is_not_the_servers_child_is_never_moved_or_limited() {
        // The sleeper's parent is this test, not the "server" (another
        // sleeper), although the jail says it holds both.
        let (mut server, server_pid) = sleeper();
        let (mut stranger, pid) = sleeper();
        let server_process = ServerProcess {
            pid: server_pid,
            pidfd: pidfd_open(server_pid, PidfdFlags::empty()).unwrap(),
            cpu_soft: Cell::new(0),
        };
        let jail = Recorder::new(Fails::Nothing);
        let refused = set_up(&jail, &server_process, pid, &limits()).err();
        assert_eq!(
            refused.as_deref(),
            Some("a game's first message came from a process that is not its server's child")
        );
        assert_eq!(jail.done(), ["freeze", "thaw"]);
        // Not signalled: still running.
        assert!(stranger.try_wait().unwrap().is_none());
        for child in [&mut server, &mut stranger] {
            child.kill().unwrap();
            child.wait().unwrap();
        }
    }

    #[test]
    fn a_pid_whose_process_is_gone_is_never_acted_on() {
        let mut gone = Command::new("true").spawn().unwrap();
        let pid = Pid::from_child(&gone);
        gone.wait().unwrap();
        let jail = Recorder::new(Fails::Nothing);
        assert!(set_up(&jail, &this_server(), pid, &limits()).is_err());
        assert!(jail.done().iter().all(|d| d == "freeze" || d == "thaw"));
    }

    /// Sets up a game with `fails` failing: the error, and what was done.
    fn failing(fails: Fails) -> (String, Vec<String>) {
        let (mut child, pid) = sleeper();
        let jail = Recorder::new(fails);
        let why = set_up(&jail, &this_server(), pid, &limits())
            .err()
            .expect("a failed set-up");
        child.kill().unwrap();
        child.wait().unwrap();
        (why, jail.done())
    }

    #[test]
    fn a_jail_that_cannot_be_frozen_gets_no_game() {
        let (why, done) = failing(Fails::Freeze);
        assert!(
            why.starts_with("the server's jail could not be frozen"),
            "{why}"
        );
        // Nothing made, moved or limited.
        assert!(done.is_empty(), "{done:?}");
    }

    #[test]
    fn a_game_whose_cgroup_cannot_be_made_is_not_played_without_one() {
        let (why, done) = failing(Fails::Cgroup);
        assert!(
            why.starts_with("a game's cgroup could not be made"),
            "{why}"
        );
        assert_eq!(done.last().map(String::as_str), Some("thaw"));
        assert!(!done.iter().any(|d| d.starts_with("admit")), "{done:?}");
    }

    #[test]
    fn a_child_that_cannot_be_moved_into_its_cgroup_is_not_played() {
        let (why, done) = failing(Fails::Admit);
        assert!(
            why.starts_with("a game's child could not be moved"),
            "{why}"
        );
        assert_eq!(done.last().map(String::as_str), Some("thaw"));
    }

    #[test]
    fn a_server_whose_cpu_limit_cannot_be_bounded_gets_no_game() {
        // Its next child would inherit the server's limit.
        let (why, done) = failing(Fails::ServerCpu);
        assert!(
            why.starts_with("the server's CPU-time limit could not be set"),
            "{why}"
        );
        assert_eq!(done, ["freeze", "thaw"]);
    }

    #[test]
    fn a_child_whose_cpu_limit_cannot_be_set_is_not_played() {
        let (why, done) = failing(Fails::ChildCpu);
        assert!(
            why.starts_with("a game's CPU-time limit could not be set"),
            "{why}"
        );
        assert_eq!(done.last().map(String::as_str), Some("thaw"));
    }
}
