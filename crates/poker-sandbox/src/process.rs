//! Process control for contestants: start one in its own session with the
//! channel as fd 3 and nothing else inherited, watch it exit through a pidfd,
//! drain its output, and afterwards kill every process it left behind.
//!
//! Linux only (pidfd_open, PID namespaces). Every run's processes are held
//! by a PID namespace: the sandbox's (bubblewrap's, with its cgroup), or,
//! unconfined, one of the program's own behind a relay (see
//! `pid_namespace`). A tree is killed through that namespace, never by
//! pids read from /proc, which may have been reused; so one game's
//! clean-up cannot touch another game's processes.

use super::cpu_watch::Watch;
use super::launcher::Launch;
use crate::{Ended, Usage, close_inherited_on_exec};
use rustix::process::{Pid, PidfdFlags, Signal};
use std::io::Read;
use std::mem::ManuallyDrop;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::process::{Child, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The fd number the contestant finds its channel on.
pub const CHANNEL_FD: RawFd = 3;

/// How much of each output stream is kept for the report: the last bytes.
pub const OUTPUT_CAP: usize = 16 * 1024;

/// How a run ended, what it used and what it wrote: what
/// [`Running::finish`] gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// How the program ended by itself, with what it used then; `None`:
    /// it was still running when the run was killed.
    pub ended: Option<Ended>,
    /// What the run used, by the sandbox's measure, whether it ended by
    /// itself or was killed.
    pub usage: Usage,
    /// The end of its standard output ([`OUTPUT_CAP`] bytes at most).
    pub stdout: Vec<u8>,
    /// The end of its standard error ([`OUTPUT_CAP`] bytes at most).
    pub stderr: Vec<u8>,
}

/// A running program ([`crate::Runner::start`]).
pub struct Running {
    child: Child,
    launch: Launch,
    /// The manager's end of the channel, until taken.
    channel: Option<OwnedFd>,
    /// Readable once the main process has exited.
    pub pidfd: Option<OwnedFd>,
    drains: Vec<mpsc::Receiver<Vec<u8>>>,
    drain_times: Vec<DrainTime>,
    /// Whether its CPU-time limit is watched.
    pub cpu_watch: Watch,
}

fn context(what: &str) -> impl FnOnce(rustix::io::Errno) -> std::io::Error + '_ {
    move |e| std::io::Error::other(format!("{what}: {e}"))
}

/// Proof that this process was set up to supervise contestants
/// ([`become_supervisor`]); the functions that start games ask for it.
#[derive(Debug)]
pub struct Supervisor(());

/// Makes this process not dumpable (so a contestant of the same, non-root
/// user cannot read the evaluator's memory, environment or descriptors
/// through /proc). Call it once, before the first game; it lasts for the
/// process's life. (No child subreaper: a run's orphans stay in its PID
/// namespace, and one that outlives its relay must go to init, which reaps
/// it.)
pub fn become_supervisor() -> std::io::Result<Supervisor> {
    rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable)
        .map_err(context("prctl(PR_SET_DUMPABLE)"))?;
    Ok(Supervisor(()))
}

/// Starts a prepared run: stdin empty, stdout and stderr drained into
/// capped buffers, in a new session, and with `channel` a socket pair whose
/// far end is the program's fd 3 (the caller names it in the program's
/// environment, `POKER_MANAGER_FD=3`).
pub(crate) fn spawn(mut launch: Launch, channel: bool) -> std::io::Result<Running> {
    let (manager, stub) = match channel {
        true => {
            let (manager, stub) = UnixStream::pair()?;
            // The kernel's word on who speaks (a fork server's pid with
            // its hello), from the program's first message on.
            rustix::net::sockopt::set_socket_passcred(&manager, true)?;
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
    let mut child = launch.command.spawn()?;
    drop(stub);
    let (drains, drain_times) = [
        child.stdout.take().map(drain),
        child.stderr.take().map(drain),
    ]
    .into_iter()
    .flatten()
    .unzip();
    let pidfd = rustix::process::pidfd_open(Pid::from_child(&child), PidfdFlags::empty());
    let cpu_watch = match (&pidfd, launch.cpu_watch()) {
        (_, None) => Watch::Absent,
        (Ok(pidfd), Some((meter, limit))) => super::cpu_watch::start(pidfd, meter, limit),
        (Err(e), Some(_)) => Watch::Failed(format!("no pidfd of the run: {e}")),
    };
    Ok(Running {
        child,
        launch,
        channel: manager,
        pidfd: pidfd.ok(),
        drains,
        drain_times,
        cpu_watch,
    })
}

/// The CPU time a [`drain`] thread has taken so far: the judge's own work
/// for a program's output, which a game's wall-clock guard does not count
/// as others' load beside it (a game writing without end would else
/// stretch its own guard).
#[derive(Clone, Debug, Default)]
pub struct DrainTime(Arc<AtomicU64>);

impl DrainTime {
    /// The thread's CPU time so far, as of its last read.
    pub fn get(&self) -> Duration {
        Duration::from_nanos(self.0.load(Ordering::Relaxed))
    }
}

/// Reads a stream to its end on a thread, keeping the last [`OUTPUT_CAP`]
/// bytes (where a program's final message is); the contestant never blocks
/// on a full pipe. Also gives the thread's CPU time, updated after each
/// read.
pub fn drain(mut stream: impl Read + Send + 'static) -> (mpsc::Receiver<Vec<u8>>, DrainTime) {
    let (tx, rx) = mpsc::channel();
    let time = DrainTime::default();
    let spent = time.clone();
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 8192];
        loop {
            let read = stream.read(&mut buf);
            let cpu = crate::load::thread_time().as_nanos();
            spent
                .0
                .store(u64::try_from(cpu).unwrap_or(u64::MAX), Ordering::Relaxed);
            match read {
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
    (rx, time)
}

impl Running {
    /// The cgroup of the program's jail, if it has one.
    pub fn cgroup(&self) -> Option<&crate::GameCgroup> {
        self.launch.cgroup()
    }

    /// The uid (and equal gid) its jail leased, if it has one.
    pub fn leased_uid(&self) -> Option<u32> {
        self.launch.leased_uid()
    }

    /// The CPU time of the threads that read its output (see
    /// [`DrainTime`]).
    pub fn drain_times(&self) -> Vec<DrainTime> {
        self.drain_times.clone()
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
        crate::wait::until_readable(pidfd.as_fd(), deadline)
    }

    /// Kills the run's whole tree now (call [`Running::wait_until`] first
    /// to give the program time to exit by itself) and collects its output:
    /// how it ended, what it used, what it wrote.
    pub fn finish(self) -> Outcome {
        let status = reap(self.pid(), false);
        self.launch.kill();
        if status.is_none() {
            // The spawned process is not reaped yet: its pid is still its.
            if let Some(pid) = Pid::from_raw(self.pid()) {
                match self.launch.is_sandboxed() {
                    // The sandbox's pid namespace ends with bubblewrap, its
                    // cgroup holds the rest.
                    true => {
                        let _ = rustix::process::kill_process_group(pid, Signal::KILL);
                    }
                    // The relay has its namespace's init end it and ends
                    // once the namespace is empty (see `pid_namespace`).
                    false => {
                        let _ = rustix::process::kill_process(pid, Signal::TERM);
                    }
                }
            }
        }
        let killed_cpu = match status {
            None => reap(self.pid(), true).map(|(_, cpu)| cpu),
            Some(_) => None,
        };
        let mut outputs = self
            .drains
            .iter()
            .map(|rx| rx.recv_timeout(Duration::from_secs(2)).unwrap_or_default());
        let stdout = outputs.next().unwrap_or_default();
        let stderr = outputs.next().unwrap_or_default();
        let ended = status.map(|(s, cpu)| self.launch.outcome(s, cpu, &stderr));
        let usage = match &ended {
            Some(ended) => ended.usage.clone(),
            None => self.launch.usage_when_killed(killed_cpu),
        };
        Outcome {
            ended,
            usage,
            stdout,
            stderr,
        }
    }
}

/// Reaps the spawned process `pid` if it has ended (`block`: once it has):
/// how it ended, and the CPU time of it and of every process it reaped, so,
/// unconfined, the program's through its init (see `pid_namespace`).
fn reap(pid: i32, block: bool) -> Option<(ExitStatus, Duration)> {
    use std::os::unix::process::ExitStatusExt;
    let options = if block { 0 } else { libc::WNOHANG };
    let mut status = 0;
    // SAFETY: wait4 writes an int and a rusage we own (rustix's wait has no
    // resource usage).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: as above; `pid` is this process's unreaped child.
        let reaped = unsafe { libc::wait4(pid, &mut status, options, &mut usage) };
        match reaped {
            n if n == pid => break,
            -1 if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {}
            _ => return None,
        }
    }
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    Some((
        ExitStatus::from_raw(status),
        time(usage.ru_utime) + time(usage.ru_stime),
    ))
}
