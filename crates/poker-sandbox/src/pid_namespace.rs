//! Unconfined programs (`--sandbox off`) in a PID namespace of their own,
//! so the kernel kills everything they started when they end, even once
//! the evaluator is gone (SIGKILLed: nobody is left to kill a tree by
//! pids).
//!
//! Between fork and exec of the program's command, the child (still in
//! the evaluator's namespaces) takes the parent-death signal, unshares a
//! PID namespace (inside a user namespace of its own when not root, since
//! only root may unshare a PID namespace alone; no uid is mapped in it, as
//! the evaluator is not dumpable and so cannot write its own
//! `/proc/self/uid_map`: the program sees itself as the overflow uid 65534
//! but the kernel still checks its files as the organiser's),
//! renames itself `poker-pidns` (the relay) and forks pid 1 of the new
//! namespace, a minimal init (`poker-init`), which forks the program's
//! process (pid 2) and goes on to exec the program there, both with the
//! parent-death signal. The program is not the namespace's init because
//! the kernel drops signals an init has no handler for, SIGXCPU included:
//! as pid 1, a program would meet its CPU-time limit only at the hard
//! limit, a second late. The init reaps every process of the namespace;
//! when the program's process ends, it hands the program's raw wait status
//! to the relay through a pipe and exits, which ends the namespace. The
//! relay then ends exactly as the program did (its exit code, or the same
//! signal), so the evaluator reads the program's status. The chain: the
//! evaluator dies → the kernel kills the relay → it kills the init → the
//! kernel kills the whole namespace.
//!
//! While the evaluator lives, it ends a run's whole tree by asking the
//! relay (SIGTERM), which asks the init (SIGTERM): the init SIGKILLs every
//! other process of the namespace, reaps the program (so the program's CPU
//! time reaches the evaluator's count through the relay) and exits; the
//! kernel then kills whatever is left, and the relay ends only once they
//! are all gone, so the tree is dead when the evaluator has reaped the
//! relay. No pid read from /proc is ever signalled. Inside the namespace
//! the init takes only SIGTERM (the one signal it handles), which ends the
//! sender's own game and nothing else; SIGKILL from the relay, or the
//! relay's death, still ends it.
//!
//! Where the kernel refuses the namespaces (user namespaces turned off,
//! a container without the right), the program is not run: the launch
//! fails, saying why ([`PidNamespace::new`]). A fallback without the
//! namespace would leave the program's descendants to pids that may be
//! reused by then.

use std::io;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicI32, Ordering};

use std::os::fd::{AsRawFd, OwnedFd};

use rustix::process::{Signal, WaitOptions};
use rustix::thread::UnshareFlags;

/// What the child needs, known before the fork (nothing is allocated
/// between fork and exec).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PidNamespace {
    root: bool,
}

impl PidNamespace {
    /// For this evaluator's uid and gid; an error saying why when the
    /// kernel refuses such a namespace (checked once per process, by a
    /// child that tries and exits).
    pub fn new() -> io::Result<PidNamespace> {
        let namespace = PidNamespace {
            root: rustix::process::geteuid().is_root(),
        };
        static USABLE: OnceLock<Result<(), String>> = OnceLock::new();
        USABLE
            .get_or_init(|| namespace.probe())
            .clone()
            .map_err(io::Error::other)?;
        Ok(namespace)
    }

    fn flags(&self) -> UnshareFlags {
        match self.root {
            true => UnshareFlags::NEWPID,
            false => UnshareFlags::NEWPID | UnshareFlags::NEWUSER,
        }
    }

    /// Whether a child of this process may unshare the namespaces.
    fn probe(&self) -> Result<(), String> {
        let flags = self.flags();
        // SAFETY: the child only makes async-signal-safe system calls and
        // exits without returning.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            return Err(format!(
                "cannot fork to try a PID namespace: {}",
                io::Error::last_os_error()
            ));
        }
        if pid == 0 {
            // SAFETY: as in `enter`; the child exits at once.
            let code = match unsafe { rustix::thread::unshare_unsafe(flags) } {
                Ok(()) => 0,
                Err(e) => e.raw_os_error(),
            };
            exit(code);
        }
        let child = rustix::process::Pid::from_raw(pid);
        let status = loop {
            match rustix::process::waitpid(child, WaitOptions::empty()) {
                Ok(Some((_, status))) => break status,
                Err(rustix::io::Errno::INTR) => continue,
                Ok(None) => return Err("lost the PID namespace probe".into()),
                Err(e) => return Err(format!("cannot wait for the PID namespace probe: {e}")),
            }
        };
        match status.exit_status() {
            Some(0) => Ok(()),
            Some(errno) => Err(format!(
                "unconfined programs run in a PID namespace of their own (so that \
                 all they start can be killed), and the kernel refused one: \
                 unshare({}): {}; allow unprivileged user namespaces \
                 (sysctl kernel.unprivileged_userns_clone=1 or \
                 user.max_user_namespaces) or run the evaluator as root",
                match self.root {
                    true => "CLONE_NEWPID",
                    false => "CLONE_NEWPID | CLONE_NEWUSER",
                },
                io::Error::from_raw_os_error(errno)
            )),
            None => Err(format!("the PID namespace probe ended oddly: {status:?}")),
        }
    }

    /// To call in a command's `pre_exec`, before anything that must apply
    /// to the program itself (it returns only in the program's process).
    pub(crate) fn enter(&self) -> io::Result<()> {
        rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
        // SAFETY: a new PID (and user) namespace changes no memory of this
        // single-threaded child; file descriptors are untouched. A refusal
        // (the probe in `new` passed, so rare) fails the launch: the
        // program never runs outside a namespace.
        unsafe { rustix::thread::unshare_unsafe(self.flags()) }?;
        // Not `poker`: a program looking for the evaluator by name finds it,
        // not this.
        rustix::thread::set_name(c"poker-pidns")?;
        // The init's report of the program's status (close-on-exec: the
        // program never holds it).
        let (status_read, status_write) =
            rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
        // The init's SIGTERM handler, in place before the init exists and
        // blocked until its program runs (see `init`): no SIGTERM is lost.
        // SAFETY: sets a handler that only calls kill, and the mask.
        unsafe {
            on_signal(libc::SIGTERM, end_namespace);
            sigterm_mask(libc::SIG_BLOCK);
        }
        // SAFETY: the child only returns to the caller's pre_exec (through
        // `init`), which goes on to exec; the parent makes async-signal-safe
        // system calls and exits without returning.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            return Err(io::Error::last_os_error());
        }
        if pid == 0 {
            rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
            drop(status_read);
            return init(status_write);
        }
        drop(status_write);
        relay(pid, status_read)
    }
}

/// Pid 1 of the namespace: forks the program's process (where it returns,
/// to go on to exec the program), then reaps every process of the
/// namespace until the program's ends, and reports its raw wait status on
/// `report` and exits (which ends the namespace).
fn init(report: OwnedFd) -> io::Result<()> {
    rustix::thread::set_name(c"poker-init")?;
    // SAFETY: as in `enter`.
    let program = unsafe { libc::fork() };
    if program < 0 {
        return Err(io::Error::last_os_error());
    }
    if program == 0 {
        rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
        // The program starts with the default SIGTERM, unblocked.
        // SAFETY: async-signal-safe disposition and mask changes.
        unsafe {
            libc::signal(libc::SIGTERM, libc::SIG_DFL);
            sigterm_mask(libc::SIG_UNBLOCK);
        }
        drop(report);
        return Ok(());
    }
    // A SIGTERM that came early is handled now, the program running.
    // SAFETY: as above.
    unsafe { sigterm_mask(libc::SIG_UNBLOCK) };
    // As the relay's: no descriptor but the report, so that nothing waits
    // on this process.
    close_all_but(report.as_raw_fd());
    loop {
        match rustix::process::wait(WaitOptions::empty()) {
            Ok(Some((pid, status))) if pid.as_raw_nonzero().get() == program => {
                let raw = status.as_raw().to_ne_bytes();
                let _ = rustix::io::write(&report, &raw);
                exit(0);
            }
            // An orphan of the program's, reaped.
            Ok(_) | Err(rustix::io::Errno::INTR) => continue,
            Err(_) => exit(127),
        }
    }
}

/// Closes every descriptor but `kept`.
fn close_all_but(kept: i32) {
    let kept = kept as u32;
    // SAFETY: close_range takes two descriptor numbers and flags (rustix
    // has no close_range).
    unsafe {
        if kept > 0 {
            libc::syscall(libc::SYS_close_range, 0u32, kept - 1, 0u32);
        }
        libc::syscall(libc::SYS_close_range, kept + 1, u32::MAX, 0u32);
    }
}

/// Sets `handler` for `signal`, without SA_RESTART.
///
/// # Safety
/// `handler` must be async-signal-safe.
unsafe fn on_signal(signal: libc::c_int, handler: extern "C" fn(libc::c_int)) {
    // SAFETY: sigaction is async-signal-safe; the caller vouches for the
    // handler.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = handler as libc::sighandler_t;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(signal, &action, std::ptr::null_mut());
    }
}

/// Blocks or unblocks (`how`) SIGTERM for this thread.
///
/// # Safety
/// Async-signal-safe; only the signal mask changes.
unsafe fn sigterm_mask(how: libc::c_int) {
    // SAFETY: sigprocmask on a set made here.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGTERM);
        libc::sigprocmask(how, &set, std::ptr::null_mut());
    }
}

/// The init's SIGTERM handler (the relay's request): SIGKILL to every
/// process of the namespace but the init, which then reaps the program
/// (so its CPU time is counted) and ends as usual. From inside, the kernel
/// lets a program send it too: that only ends its own game.
extern "C" fn end_namespace(_: libc::c_int) {
    // SAFETY: kill is async-signal-safe; from a namespace's init, -1 names
    // every other process of the namespace.
    unsafe { libc::kill(-1, libc::SIGKILL) };
}

/// The namespace's init, for the relay's SIGTERM handler.
static PID_ONE: AtomicI32 = AtomicI32::new(0);

/// The relay's SIGTERM handler: SIGTERM to the init (its own unreaped
/// child, so the pid is still the init's), which kills every other process
/// of the namespace ([`end_namespace`]), reaps the program and exits,
/// which ends the namespace.
extern "C" fn kill_pid_one(_: libc::c_int) {
    let pid = PID_ONE.load(Ordering::Relaxed);
    if pid > 0 {
        // kill is async-signal-safe; a failure has nowhere to go.
        if let Some(pid) = rustix::process::Pid::from_raw(pid) {
            let _ = rustix::process::kill_process(pid, Signal::TERM);
        }
    }
}

/// Waits for the init (`pid`), reads the program's wait status from
/// `report` and ends as the program did (as the init did, when killed
/// before it could report); on SIGTERM, kills the init first (see the
/// module's documentation). Never returns.
fn relay(pid: i32, report: OwnedFd) -> ! {
    PID_ONE.store(pid, Ordering::Relaxed);
    // Set before the descriptors are closed below: the evaluator's spawn
    // returns only once they are, so a SIGTERM from it always finds the
    // handler.
    // SAFETY: the handler only loads an atomic and calls kill.
    unsafe {
        on_signal(libc::SIGTERM, kill_pid_one);
        sigterm_mask(libc::SIG_UNBLOCK);
    }
    // The program's output pipes and the spawn's error pipe must not wait
    // for this process: it keeps only the init's report.
    close_all_but(report.as_raw_fd());
    let child = rustix::process::Pid::from_raw(pid);
    let init_status = loop {
        match rustix::process::waitpid(child, WaitOptions::empty()) {
            Ok(Some((_, status))) => break status.as_raw(),
            Err(rustix::io::Errno::INTR) => continue,
            _ => exit(127),
        }
    };
    // The init has exited: the pipe holds its whole report or nothing.
    let mut raw = [0u8; 4];
    let status = loop {
        match rustix::io::read(&report, &mut raw) {
            Ok(4) => break i32::from_ne_bytes(raw),
            Err(rustix::io::Errno::INTR) => continue,
            _ => break init_status,
        }
    };
    if libc::WIFEXITED(status) {
        exit(libc::WEXITSTATUS(status));
    }
    if libc::WIFSIGNALED(status) {
        let signal = libc::WTERMSIG(status);
        // SAFETY: resetting a disposition is async-signal-safe (rustix has
        // no signal()); `signal` is the kernel's, so a valid number.
        // Signalling oneself then ends the relay as the program ended (no
        // core file: RLIMIT_CORE is 0).
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            let _ = rustix::process::kill_process(
                rustix::process::getpid(),
                Signal::from_raw_unchecked(signal),
            );
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
