//! Process control for contestants: start one in its own session with the
//! channel as fd 3 and nothing else inherited, watch it exit through a pidfd,
//! drain its output, and afterwards kill every process it left behind.
//!
//! Linux only (pidfd_open, PR_SET_CHILD_SUBREAPER, /proc). The evaluator
//! makes itself a child subreaper, so a contestant's descendants that
//! daemonise (fork, setsid, parent exits) are re-parented to the evaluator
//! instead of init and can still be found and killed. Several games may run
//! at once (`poker bench`): the main processes of running games are kept in
//! a registry so that one game's clean-up never touches another game's
//! contestant. Run the evaluator in a process that starts no other children
//! while games are played.

use super::launcher::Launch;
use crate::sandbox::{Outcome, close_inherited_on_exec};
use rustix::process::{Pid, PidfdFlags, Signal, WaitOptions};
use std::collections::HashSet;
use std::io::Read;
use std::mem::ManuallyDrop;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::process::{Child, ExitStatus, Stdio};
use std::sync::{Mutex, MutexGuard, mpsc};
use std::time::{Duration, Instant};

/// The fd number the contestant finds its channel on.
pub const CHANNEL_FD: RawFd = 3;

/// How much of each output stream is kept for the report: the last bytes.
pub const OUTPUT_CAP: usize = 16 * 1024;

/// Main processes of the games in progress, and the lock that makes
/// spawning and clean-up scans atomic with respect to each other.
static ACTIVE: Mutex<Option<HashSet<i32>>> = Mutex::new(None);

fn active() -> MutexGuard<'static, Option<HashSet<i32>>> {
    ACTIVE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A running contestant.
pub struct Running {
    child: Child,
    launch: Launch,
    /// The manager's end of the channel, until taken.
    channel: Option<OwnedFd>,
    /// Readable once the main process has exited.
    pub pidfd: Option<OwnedFd>,
    drains: Vec<mpsc::Receiver<Vec<u8>>>,
    children_before: HashSet<i32>,
}

fn context(what: &str) -> impl FnOnce(rustix::io::Errno) -> std::io::Error + '_ {
    move |e| std::io::Error::other(format!("{what}: {e}"))
}

/// Proof that this process was set up to supervise contestants
/// ([`become_supervisor`]); the functions that start games ask for it.
#[derive(Debug)]
pub struct Supervisor(());

/// Makes this process a child subreaper (so a contestant's daemonised
/// descendants are re-parented here and can still be found and killed) and
/// not dumpable (so a contestant of the same, non-root user cannot read the
/// evaluator's memory, environment or descriptors through /proc). Call it
/// once, before the first game; it lasts for the process's life.
pub fn become_supervisor() -> std::io::Result<Supervisor> {
    // Any non-zero value turns the attribute on.
    rustix::process::set_child_subreaper(Pid::from_raw(1))
        .map_err(context("prctl(PR_SET_CHILD_SUBREAPER)"))?;
    rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable)
        .map_err(context("prctl(PR_SET_DUMPABLE)"))?;
    Ok(Supervisor(()))
}

/// Ignores SIGPIPE while any of these lives, then restores the previous
/// disposition: a write to a contestant that has gone (over a pipe) must be
/// an error for the evaluator, never its death. Counted, so evaluations
/// running at once in one process do not undo each other.
pub struct SigpipeIgnored(());

/// How many [`SigpipeIgnored`] live, and the disposition before the first.
static SIGPIPE: Mutex<(usize, libc::sighandler_t)> = Mutex::new((0, libc::SIG_DFL));

impl SigpipeIgnored {
    /// Starts ignoring SIGPIPE.
    pub fn new() -> SigpipeIgnored {
        let mut state = SIGPIPE.lock().unwrap_or_else(|p| p.into_inner());
        if state.0 == 0 {
            // SAFETY: sets the disposition to SIG_IGN; no handler code runs.
            // No safe wrapper offers signal dispositions.
            state.1 = unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
        }
        state.0 += 1;
        SigpipeIgnored(())
    }
}

impl Default for SigpipeIgnored {
    fn default() -> Self {
        SigpipeIgnored::new()
    }
}

impl Drop for SigpipeIgnored {
    fn drop(&mut self) {
        let mut state = SIGPIPE.lock().unwrap_or_else(|p| p.into_inner());
        state.0 -= 1;
        if state.0 == 0 && state.1 != libc::SIG_ERR {
            // SAFETY: restores the disposition saved by the first `new`.
            unsafe { libc::signal(libc::SIGPIPE, state.1) };
        }
    }
}

/// Starts a prepared run: stdin empty, stdout and stderr drained into
/// capped buffers, in a new session, and with `channel` a socket pair whose
/// far end is the program's fd 3 (the caller names it in the program's
/// environment, `POKER_MANAGER_FD=3`).
pub fn spawn(mut launch: Launch, channel: bool) -> std::io::Result<Running> {
    let (manager, stub) = match channel {
        true => {
            let (manager, stub) = UnixStream::pair()?;
            (Some(OwnedFd::from(manager)), Some(OwnedFd::from(stub)))
        }
        false => (None, None),
    };
    let stub_fd = stub.as_ref().map(|fd| fd.as_raw_fd());
    // The sandbox marks every inherited descriptor itself, before it
    // passes its own; a plain process needs it here.
    let close_inherited = !launch.closes_inherited_fds();
    let command = &mut launch.command;
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: the closure only makes async-signal-safe system calls and
    // allocates nothing. It runs after the sandbox's own (uid change
    // included), so the parent-death signal is not reset by it.
    unsafe {
        command.pre_exec(move || {
            rustix::process::setsid()?;
            // If the evaluator dies (Ctrl-C, kill), the program goes too.
            rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
            if close_inherited {
                close_inherited_on_exec(CHANNEL_FD + 1, RawFd::MAX)?;
            }
            let Some(stub_fd) = stub_fd else {
                return Ok(());
            };
            // SAFETY: `stub_fd` is open in this child until exec.
            let stub = BorrowedFd::borrow_raw(stub_fd);
            if stub_fd == CHANNEL_FD {
                // dup2 onto itself would keep close-on-exec set.
                rustix::io::fcntl_setfd(stub, rustix::io::FdFlags::empty())?;
            } else {
                // SAFETY: fd 3 becomes the channel; it is never closed here.
                let mut target = ManuallyDrop::new(OwnedFd::from_raw_fd(CHANNEL_FD));
                rustix::io::dup2(stub, &mut target)?;
            }
            Ok(())
        });
    }
    let mut registry = active();
    // A sandboxed run never leaves processes to this one (its orphans go
    // to the sandbox's own init): no table of children is needed.
    let children_before = match launch.is_sandboxed() {
        true => HashSet::new(),
        false => children_of(std::process::id() as i32),
    };
    let mut child = launch.command.spawn()?;
    registry
        .get_or_insert_with(HashSet::new)
        .insert(child.id() as i32);
    drop(registry);
    drop(stub);
    let drains = [
        child.stdout.take().map(drain),
        child.stderr.take().map(drain),
    ]
    .into_iter()
    .flatten()
    .collect();
    let pidfd = Pid::from_child(&child);
    let pidfd = rustix::process::pidfd_open(pidfd, PidfdFlags::empty()).ok();
    Ok(Running {
        child,
        launch,
        channel: manager,
        pidfd,
        drains,
        children_before,
    })
}

/// Reads a stream to its end on a thread, keeping the last [`OUTPUT_CAP`]
/// bytes (where a program's final message is); the contestant never blocks
/// on a full pipe.
pub(crate) fn drain(mut stream: impl Read + Send + 'static) -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 8192];
        loop {
            match stream.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    kept.extend_from_slice(&buf[..n]);
                    if kept.len() > 2 * OUTPUT_CAP {
                        kept.drain(..kept.len() - OUTPUT_CAP);
                    }
                }
            }
        }
        let start = kept.len().saturating_sub(OUTPUT_CAP);
        let _ = tx.send(kept.split_off(start));
    });
    rx
}

impl Running {
    /// The cgroup of the program's jail, if it has one.
    pub fn cgroup(&self) -> Option<&crate::sandbox::GameCgroup> {
        self.launch.cgroup()
    }

    /// The manager's end of the channel (once).
    pub fn take_channel(&mut self) -> Option<OwnedFd> {
        self.channel.take()
    }

    /// The main process's pid (also its process group and session id).
    pub fn pid(&self) -> i32 {
        self.child.id() as i32
    }

    /// Waits until the main process has exited or `deadline` passed;
    /// whether it exited.
    pub fn wait_until(&self, deadline: Instant) -> bool {
        let Some(pidfd) = &self.pidfd else {
            return false;
        };
        loop {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            let wait = deadline - now;
            let timeout = rustix::event::Timespec {
                tv_sec: wait.as_secs() as i64,
                tv_nsec: i64::from(wait.subsec_nanos()),
            };
            let mut fds = [rustix::event::PollFd::new(
                pidfd,
                rustix::event::PollFlags::IN,
            )];
            match rustix::event::poll(&mut fds, Some(&timeout)) {
                Ok(n) if n > 0 => return true,
                Ok(_) | Err(rustix::io::Errno::INTR) => continue,
                Err(_) => return false,
            }
        }
    }

    /// Waits up to `grace` for the main process to exit by itself, then
    /// kills the run's whole tree and collects its output. Returns how the
    /// program ended (`None`: still running when it was killed) with what it
    /// used, and its (capped) stdout and stderr.
    pub fn finish(mut self, grace: Duration) -> (Option<Outcome>, Vec<u8>, Vec<u8>) {
        // Waits on the pidfd (an event), not in sleep steps.
        if !grace.is_zero() {
            self.wait_until(Instant::now() + grace);
        }
        let status: Option<ExitStatus> = self.child.try_wait().ok().flatten();
        self.launch.kill();
        if self.launch.is_sandboxed() {
            // The sandbox's pid namespace ends with bubblewrap, its cgroup
            // holds the rest: no scan of /proc.
            if let Some(group) = Pid::from_raw(self.pid()) {
                let _ = rustix::process::kill_process_group(group, Signal::KILL);
            }
        } else {
            kill_tree(self.pid(), &self.children_before);
        }
        if let Some(set) = active().as_mut() {
            set.remove(&self.pid());
        }
        if status.is_none() {
            let _ = self.child.wait();
        }
        let mut outputs = self
            .drains
            .iter()
            .map(|rx| rx.recv_timeout(Duration::from_secs(2)).unwrap_or_default());
        let stdout = outputs.next().unwrap_or_default();
        let stderr = outputs.next().unwrap_or_default();
        let outcome = status.map(|s| self.launch.outcome(s, &stderr));
        (outcome, stdout, stderr)
    }
}

/// Kills the process group `root` and every process descended from it,
/// including those re-parented to this (subreaper) process since
/// `children_before` was taken; repeats until none is left.
fn kill_tree(root: i32, children_before: &HashSet<i32>) {
    let me = std::process::id() as i32;
    for _ in 0..200 {
        let registry = active();
        // A process of another running game: its main process, or one in
        // that game's session (re-parented here when its parent exited).
        let other_game = |p: &ProcessInfo| {
            let active = |id: i32| id != root && registry.as_ref().is_some_and(|s| s.contains(&id));
            active(p.pid) || active(p.session)
        };
        // Failure (the group is already gone) is harmless.
        if let Some(group) = Pid::from_raw(root) {
            let _ = rustix::process::kill_process_group(group, Signal::KILL);
        }
        let table = process_table();
        let mut victims: Vec<i32> = Vec::new();
        let mut frontier: Vec<i32> = vec![root];
        frontier.extend(
            table
                .iter()
                .filter(|p| {
                    p.ppid == me
                        && p.pid != root
                        && !children_before.contains(&p.pid)
                        && !other_game(p)
                })
                .map(|p| p.pid),
        );
        while let Some(pid) = frontier.pop() {
            if pid != root || table.iter().any(|p| p.pid == root) {
                victims.push(pid);
            }
            frontier.extend(table.iter().filter(|p| p.ppid == pid).map(|p| p.pid));
        }
        let alive: Vec<i32> = victims
            .iter()
            .copied()
            .filter(|pid| table.iter().any(|p| p.pid == *pid && !p.zombie))
            .collect();
        for pid in victims.iter().filter_map(|&pid| Pid::from_raw(pid)) {
            // Failure (already gone) is harmless.
            let _ = rustix::process::kill_process(pid, Signal::KILL);
        }
        // Reap zombies re-parented to us (never `root`: Child::wait owns it).
        for p in &table {
            if p.ppid == me
                && p.zombie
                && p.pid != root
                && !children_before.contains(&p.pid)
                && !other_game(p)
            {
                if let Some(pid) = Pid::from_raw(p.pid) {
                    let _ = rustix::process::waitpid(Some(pid), WaitOptions::NOHANG);
                }
            }
        }
        drop(registry);
        if alive.is_empty() && victims.iter().all(|&v| v == root) {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

struct ProcessInfo {
    pid: i32,
    ppid: i32,
    /// Session id: a contestant's processes share its main process's pid
    /// unless they started a session of their own.
    session: i32,
    zombie: bool,
}

fn process_table() -> Vec<ProcessInfo> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|entry| {
        let pid: i32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // Fields after the command name, which is in parentheses and may
        // itself contain spaces: state, ppid, ...
        let rest = &stat[stat.rfind(')')? + 2..];
        let mut fields = rest.split(' ');
        let state = fields.next()?;
        let ppid = fields.next()?.parse().ok()?;
        let _process_group = fields.next()?;
        let session = fields.next()?.parse().ok()?;
        Some(ProcessInfo {
            pid,
            ppid,
            session,
            zombie: state == "Z" || state == "X",
        })
    })
    .collect()
}

fn children_of(pid: i32) -> HashSet<i32> {
    process_table()
        .into_iter()
        .filter(|p| p.ppid == pid)
        .map(|p| p.pid)
        .collect()
}
