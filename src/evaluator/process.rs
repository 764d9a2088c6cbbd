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

use crate::protocol::CHANNEL_ENV;
use std::collections::HashSet;
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Mutex, MutexGuard, mpsc};
use std::time::{Duration, Instant};

/// The fd number the contestant finds its channel on.
pub const CHANNEL_FD: RawFd = 3;

/// How much of each output stream is kept for the report.
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
    /// The manager's end of the channel.
    pub channel: OwnedFd,
    /// Readable once the main process has exited.
    pub pidfd: Option<OwnedFd>,
    drains: Vec<mpsc::Receiver<Vec<u8>>>,
    children_before: HashSet<i32>,
}

fn os_error(what: &str) -> std::io::Error {
    let err = std::io::Error::last_os_error();
    std::io::Error::new(err.kind(), format!("{what}: {err}"))
}

/// Makes this process a child subreaper (once is enough), and not
/// dumpable, so that a contestant running as the same (non-root) user cannot
/// read the evaluator's memory, environment or descriptors through /proc.
pub fn become_subreaper() -> std::io::Result<()> {
    // SAFETY: prctl with integer arguments only.
    if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } != 0 {
        return Err(os_error("prctl(PR_SET_CHILD_SUBREAPER)"));
    }
    // SAFETY: as above.
    if unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) } != 0 {
        return Err(os_error("prctl(PR_SET_DUMPABLE)"));
    }
    Ok(())
}

/// Starts `program` with `args`: stdin empty, stdout and stderr drained
/// into capped buffers, the channel on fd 3 (named by `POKER_MANAGER_FD`),
/// every other `POKER_*` variable removed, in a new session.
pub fn spawn(program: &Path, args: &[String]) -> std::io::Result<Running> {
    let mut pair = [0 as RawFd; 2];
    // SAFETY: `pair` has room for the two descriptors socketpair returns.
    if unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_STREAM | libc::SOCK_CLOEXEC,
            0,
            pair.as_mut_ptr(),
        )
    } != 0
    {
        return Err(os_error("socketpair"));
    }
    // SAFETY: socketpair just created both descriptors; each is owned once.
    let (manager, stub) = unsafe { (OwnedFd::from_raw_fd(pair[0]), OwnedFd::from_raw_fd(pair[1])) };
    let stub_fd = stub.as_raw_fd();

    let mut command = Command::new(program);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("POKER_") {
            command.env_remove(key);
        }
    }
    command.env(CHANNEL_ENV, CHANNEL_FD.to_string());
    // SAFETY: the closure only makes async-signal-safe system calls.
    unsafe {
        command.pre_exec(move || {
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            // If the evaluator dies (Ctrl-C, kill), the contestant goes too.
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            if stub_fd == CHANNEL_FD {
                // dup2 onto itself would keep close-on-exec set.
                if libc::fcntl(CHANNEL_FD, libc::F_SETFD, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
            } else if libc::dup2(stub_fd, CHANNEL_FD) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            // Nothing else of the evaluator's may reach the contestant.
            const CLOSE_RANGE_CLOEXEC: libc::c_uint = 1 << 2;
            libc::syscall(
                libc::SYS_close_range,
                (CHANNEL_FD + 1) as libc::c_uint,
                libc::c_uint::MAX,
                CLOSE_RANGE_CLOEXEC,
            );
            Ok(())
        });
    }
    let mut registry = active();
    let children_before = children_of(std::process::id() as i32);
    let mut child = command.spawn()?;
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
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor.
    let raw = unsafe { libc::syscall(libc::SYS_pidfd_open, child.id() as libc::pid_t, 0) };
    // SAFETY: a non-negative result is a fresh descriptor we now own.
    let pidfd = (raw >= 0).then(|| unsafe { OwnedFd::from_raw_fd(raw as RawFd) });
    Ok(Running {
        child,
        channel: manager,
        pidfd,
        drains,
        children_before,
    })
}

/// Reads a stream to its end on a thread, keeping the first [`OUTPUT_CAP`]
/// bytes; the contestant never blocks on a full pipe.
fn drain(mut stream: impl Read + Send + 'static) -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 8192];
        loop {
            match stream.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = OUTPUT_CAP.saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                }
            }
        }
        let _ = tx.send(kept);
    });
    rx
}

/// What became of the main process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this status.
    Code(i32),
    /// A signal ended it.
    Signal(i32),
    /// Still running when the evaluator killed it.
    Killed,
}

impl Running {
    /// The main process's pid (also its process group and session id).
    pub fn pid(&self) -> i32 {
        self.child.id() as i32
    }

    /// Waits up to `grace` for the main process to exit by itself, then
    /// kills the contestant's whole tree and collects its output.
    /// Returns how the main process ended and its (capped) stdout, stderr.
    pub fn finish(mut self, grace: Duration) -> (Exit, Vec<u8>, Vec<u8>) {
        let deadline = Instant::now() + grace;
        let mut status: Option<ExitStatus> = None;
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(s)) => {
                    status = Some(s);
                    break;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(1)),
                Err(_) => break,
            }
        }
        kill_tree(self.pid(), &self.children_before);
        if let Some(set) = active().as_mut() {
            set.remove(&self.pid());
        }
        let exit = match status {
            Some(s) => match (s.code(), s.signal()) {
                (Some(code), _) => Exit::Code(code),
                (None, Some(signal)) => Exit::Signal(signal),
                _ => Exit::Killed,
            },
            None => {
                let _ = self.child.wait();
                Exit::Killed
            }
        };
        let mut outputs = self
            .drains
            .iter()
            .map(|rx| rx.recv_timeout(Duration::from_secs(2)).unwrap_or_default());
        let stdout = outputs.next().unwrap_or_default();
        let stderr = outputs.next().unwrap_or_default();
        (exit, stdout, stderr)
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
        // SAFETY: kill with a negative pid signals the process group.
        unsafe { libc::kill(-root, libc::SIGKILL) };
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
        for &pid in &victims {
            // SAFETY: signalling a pid; failure (already gone) is harmless.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        // Reap zombies re-parented to us (never `root`: Child::wait owns it).
        for p in &table {
            if p.ppid == me
                && p.zombie
                && p.pid != root
                && !children_before.contains(&p.pid)
                && !other_game(p)
            {
                // SAFETY: waiting on a specific child pid.
                unsafe { libc::waitpid(p.pid, std::ptr::null_mut(), libc::WNOHANG) };
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
