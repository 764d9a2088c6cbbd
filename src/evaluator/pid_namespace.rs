//! Unconfined programs (`--sandbox off`) as pid 1 of a PID namespace of
//! their own, so the kernel kills everything they started when they end,
//! even once the evaluator is gone (SIGKILLed: nobody is left to kill a
//! tree by pids).
//!
//! Between fork and exec of the program's command, the child (still in
//! the evaluator's namespaces) takes the parent-death signal, unshares a
//! PID namespace (inside a user namespace of its own when not root, since
//! only root may unshare a PID namespace alone; no uid is mapped in it, as
//! the evaluator is not dumpable and so cannot write its own
//! `/proc/self/uid_map`: the program sees itself as the overflow uid 65534
//! but the kernel still checks its files as the organiser's),
//! renames itself `poker-pidns` and forks: its child, pid 1 of the new
//! namespace, goes on to exec the program with the parent-death signal
//! too; it waits and ends exactly as the program did (its exit code, or
//! the same signal), so the evaluator reads the program's status. The
//! chain: the evaluator dies → the kernel kills this process → it kills
//! pid 1 → the kernel kills the whole namespace.
//!
//! Where the kernel refuses the namespaces (user namespaces turned off,
//! a container without the right), the program runs as before, only its
//! own process bound to the evaluator's life.

use std::io;

use rustix::process::{Signal, WaitOptions};
use rustix::thread::UnshareFlags;

/// What the child needs, known before the fork (nothing is allocated
/// between fork and exec).
#[derive(Clone, Copy, Debug)]
pub struct PidNamespace {
    root: bool,
}

impl PidNamespace {
    /// For this evaluator's uid and gid.
    pub fn new() -> PidNamespace {
        PidNamespace {
            root: rustix::process::geteuid().is_root(),
        }
    }

    /// To call in a command's `pre_exec`, before anything that must apply
    /// to the program itself (it returns only in the program's process).
    pub fn enter(&self) -> io::Result<()> {
        rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
        let mut flags = UnshareFlags::NEWPID;
        if !self.root {
            flags |= UnshareFlags::NEWUSER;
        }
        // SAFETY: a new PID (and user) namespace changes no memory of this
        // single-threaded child; file descriptors are untouched.
        if unsafe { rustix::thread::unshare_unsafe(flags) }.is_err() {
            return Ok(());
        }
        // Not `poker`: a program looking for the evaluator by name finds it,
        // not this.
        rustix::thread::set_name(c"poker-pidns")?;
        // SAFETY: the child only returns to the caller's pre_exec, which
        // goes on to exec; the parent makes async-signal-safe system calls
        // and exits without returning.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            return Err(io::Error::last_os_error());
        }
        if pid == 0 {
            rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
            return Ok(());
        }
        relay(pid)
    }
}

/// Waits for pid 1 and ends as it did; never returns.
fn relay(pid: i32) -> ! {
    // The program's output pipes and the spawn's error pipe must not wait
    // for this process: it needs no descriptor.
    // SAFETY: close_range takes two descriptor numbers and flags (rustix
    // has no close_range).
    unsafe { libc::syscall(libc::SYS_close_range, 0u32, u32::MAX, 0u32) };
    let child = rustix::process::Pid::from_raw(pid);
    let status = loop {
        match rustix::process::waitpid(child, WaitOptions::empty()) {
            Ok(Some((_, status))) => break status,
            Err(rustix::io::Errno::INTR) => continue,
            _ => exit(127),
        }
    };
    if let Some(code) = status.exit_status() {
        exit(code);
    }
    if let Some(signal) = status.terminating_signal() {
        // SAFETY: resetting a disposition and signalling oneself are
        // async-signal-safe; no core file (RLIMIT_CORE is 0).
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::kill(libc::getpid(), signal);
        }
        exit(128 + signal);
    }
    exit(127)
}

fn exit(code: i32) -> ! {
    // SAFETY: _exit is async-signal-safe and runs no destructor or handler
    // of the evaluator's copied state.
    unsafe { libc::_exit(code) }
}
