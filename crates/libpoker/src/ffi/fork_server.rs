//! The fork server inside a contestant's process (protocol version 2, see
//! [`poker_protocol::fork_server`]): when the evaluator asks for it, the first
//! `p_startgame` does not return at once; the process forks one child per
//! game, each child returns from `p_startgame` and plays its game, and the
//! process itself only waits for it and asks for the next.
//!
//! C, C++ and Pascal programs get it inside `p_startgame` (the library
//! forks with `fork()`, after `fflush(NULL)`). Bindings whose language must
//! fork itself (Python's `os.fork` runs the interpreter's at-fork hooks)
//! drive the same steps through the four `poker_fork_server_*` functions:
//!
//! ```c
//! if (poker_fork_server_start()) {
//!     for (;;) {
//!         poker_fork_server_next();        /* exits when there are no more games */
//!         fflush(NULL);
//!         pid_t pid = fork();
//!         if (pid == 0) { poker_fork_server_child(); break; }
//!         poker_fork_server_reap(pid);
//!     }
//! }
//! p_startgame();
//! ```
//!
//! A thread that holds one of the library's locks at `fork()` does not
//! exist in the child, which would wait for that lock for good. So the
//! thread that receives a game order takes both locks (`STATE`, then
//! `SESSION`: the library's one order) and holds them through the fork,
//! until its `poker_fork_server_child` (in the child) or
//! `poker_fork_server_reap` (in the server) releases them: another
//! thread's libpoker call waits meanwhile, in both processes' sense.

use super::contest_exit::{POKER_EXIT_CHANNEL, finish};
use super::runtime::Session;
use super::{inherited, session};
use poker_protocol::fork_server::{FORK_SERVER_VERSION, Order, PROTOCOL_ENV, ServerLine};
use poker_protocol::{CHANNEL_ENV, ChannelFds, Transport, fork_server};
use rustix::fs::{FileType, fstat};
use rustix::process::{DumpableBehavior, set_dumpable_behavior};
use std::cell::RefCell;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::raw::c_int;
use std::sync::{Mutex, MutexGuard};

/// The server's state in this process.
enum State {
    /// Not decided yet.
    Unasked,
    /// Not a server: the first `p_startgame` plays as in version 1.
    No,
    /// Serving: the channel to the evaluator, and the next game's
    /// descriptors once received.
    Serving {
        channel: OwnedFd,
        game: Option<[OwnedFd; 2]>,
    },
    /// A game's child: the fork server is over in this process.
    Child,
}

static STATE: Mutex<State> = Mutex::new(State::Unasked);

fn state() -> MutexGuard<'static, State> {
    STATE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Both locks, held by the thread that forks a game's child.
struct Held {
    state: MutexGuard<'static, State>,
    session: MutexGuard<'static, Session>,
}

thread_local! {
    /// The locks this thread took with a game order, until its child or
    /// reap call.
    static HELD: RefCell<Option<Held>> = const { RefCell::new(None) };
}

/// The locks this thread holds from a game order, if it does.
fn take_held() -> Option<Held> {
    HELD.try_with(|held| held.borrow_mut().take())
        .ok()
        .flatten()
}

/// Both locks: those this thread holds from a game order, or taken now.
fn held_or_lock() -> Held {
    take_held().unwrap_or_else(|| {
        let state = state();
        Held {
            state,
            session: session::lock(),
        }
    })
}

fn lost(what: &str) -> ! {
    finish(
        POKER_EXIT_CHANNEL,
        "",
        &format!("poker: lost the evaluator's channel ({what})\n"),
    )
}

/// Whether the evaluator asked for the fork server: `POKER_PROTOCOL=2`
/// beside a channel that is one socket, which the server then owns.
fn asked() -> Option<OwnedFd> {
    if std::env::var_os(PROTOCOL_ENV)?.to_str()? != FORK_SERVER_VERSION.to_string() {
        return None;
    }
    let fds = ChannelFds::parse(std::env::var_os(CHANNEL_ENV)?.to_str()?)?;
    if fds.read != fds.write {
        return None;
    }
    // SAFETY: a descriptor named by the evaluator for the library's use;
    // it is only inspected here.
    let fd = unsafe { BorrowedFd::borrow_raw(fds.read) };
    let stat = fstat(fd).ok()?;
    if FileType::from_raw_mode(stat.st_mode) != FileType::Socket {
        return None;
    }
    let (channel, _) = inherited::take(fds)?;
    Some(channel)
}

/// Starts the fork server if the evaluator asked for it and no contest
/// function ran yet: sends the hello. 1 = this process is now the server
/// (call [`poker_fork_server_next`]); 0 = play as usual (no fork server,
/// or called again, or in a game's child).
#[unsafe(no_mangle)]
pub extern "C" fn poker_fork_server_start() -> c_int {
    super::guard(0, || {
        let mut state = state();
        if !matches!(*state, State::Unasked) {
            return 0;
        }
        // A session that started owns the channel already.
        let channel = match session::is_fresh().then(asked).flatten() {
            Some(channel) => channel,
            None => {
                *state = State::No;
                return 0;
            }
        };
        // Not dumpable: its games run as the same user, and could otherwise
        // write the server's memory (and its other files in /proc) for
        // the next game to find. Its children are made dumpable again.
        if let Err(e) = set_dumpable_behavior(DumpableBehavior::NotDumpable) {
            drop(state);
            lost(&format!("prctl(PR_SET_DUMPABLE): {e}"));
        }
        let hello = ServerLine::Hello(FORK_SERVER_VERSION).encode();
        if let Err(e) = Transport::new(channel.as_fd(), channel.as_fd()).send(hello.as_bytes()) {
            drop(state);
            lost(&e.to_string());
        }
        *state = State::Serving {
            channel,
            game: None,
        };
        1
    })
}

/// In the server: waits for the evaluator's next order. Returns 1 when a
/// game is to be played (fork, then [`poker_fork_server_child`] in the
/// child and [`poker_fork_server_reap`] in the server); when there are no
/// more games, exits the process with status 0 (after `fflush(NULL)`).
/// Outside a server it returns 0.
///
/// After a 1 the calling thread holds the library's locks until its
/// [`poker_fork_server_child`] or [`poker_fork_server_reap`], so that no
/// lock is left held in the child by a thread the child does not have:
/// fork from this thread and call no other libpoker function from it in
/// between (other threads' calls wait until then).
#[unsafe(no_mangle)]
pub extern "C" fn poker_fork_server_next() -> c_int {
    // The locks of an order that no child or reap call followed.
    drop(take_held());
    let order = super::guard(Err("internal error".to_string()), || {
        let mut state = state();
        let order = receive_order(&mut state)?;
        if order == Some(Order::Game) {
            let session = session::lock();
            let held = Held { state, session };
            // Without this thread's storage (it is exiting) the locks are
            // released here, as before.
            let _ = HELD.try_with(|slot| *slot.borrow_mut() = Some(held));
        }
        Ok(order)
    });
    match order {
        Ok(None) => 0,
        Ok(Some(Order::Game)) => 1,
        Ok(Some(Order::Done)) => finish(0, "", ""),
        Err(what) => lost(&what),
    }
}

/// The server's next order (`None` outside a server); a game's descriptors
/// go into `state`.
fn receive_order(state: &mut State) -> Result<Option<Order>, String> {
    let State::Serving { channel, game } = state else {
        return Ok(None);
    };
    let (line, attached) = match fork_server::receive_line(channel.as_fd(), None) {
        Ok(Some(received)) => received,
        Ok(None) => return Err("closed by the evaluator".into()),
        Err(e) => return Err(e.to_string()),
    };
    match Order::decode(&line) {
        Some(Order::Done) => Ok(Some(Order::Done)),
        Some(Order::Game) => {
            let [socket, stderr]: [OwnedFd; 2] = attached
                .fds
                .try_into()
                .map_err(|_| "a game order without its two descriptors".to_string())?;
            *game = Some([socket, stderr]);
            Ok(Some(Order::Game))
        }
        None => {
            let shown: String = line.chars().take(40).collect();
            Err(format!("unexpected order {shown:?}"))
        }
    }
}

/// In a game's child, right after the fork: makes the game's socket the
/// channel and its pipe the standard error, closes the server's channel,
/// and starts a process group of its own. The next `p_startgame` then
/// plays the game. Does nothing outside a freshly forked child.
/// Releases the locks that [`poker_fork_server_next`] took.
#[unsafe(no_mangle)]
pub extern "C" fn poker_fork_server_child() {
    let failed = super::guard(Some("internal error".to_string()), || {
        let Held {
            mut state,
            mut session,
        } = held_or_lock();
        let State::Serving { game, .. } = &mut *state else {
            return None;
        };
        let Some([socket, stderr]) = game.take() else {
            return Some("no game was ordered".into());
        };
        // Replacing the state closes the server's channel in this child.
        *state = State::Child;
        // A group of its own: what the game starts can be signalled as one.
        let _ = rustix::process::setpgid(None, None);
        // As a fresh process is.
        let _ = set_dumpable_behavior(DumpableBehavior::Dumpable);
        if let Err(e) = rustix::stdio::dup2_stderr(&stderr) {
            return Some(format!("dup2: {e}"));
        }
        drop(stderr);
        session::adopt_channel(&mut session, socket);
        None
    });
    if let Some(what) = failed {
        lost(&what);
    }
}

/// In the server, after forking the game's child `pid`: closes the game's
/// descriptors, waits for the child, and tells the evaluator how it ended.
/// Releases the locks that [`poker_fork_server_next`] took.
#[unsafe(no_mangle)]
pub extern "C" fn poker_fork_server_reap(pid: c_int) {
    let failed = super::guard(Some("internal error".to_string()), || {
        let Held { mut state, session } = held_or_lock();
        drop(session);
        let State::Serving { channel, game } = &mut *state else {
            return None;
        };
        *game = None;
        let line = match rustix::process::Pid::from_raw(pid).map(wait) {
            Some(Some(line)) => line,
            _ => ServerLine::Gone,
        };
        let sent = Transport::new(channel.as_fd(), channel.as_fd()).send(line.encode().as_bytes());
        sent.err().map(|e| e.to_string())
    });
    if let Some(what) = failed {
        lost(&what);
    }
}

/// Waits for the child `pid` to end; how, as the line reporting it.
fn wait(pid: rustix::process::Pid) -> Option<ServerLine> {
    use rustix::process::{WaitOptions, waitpid};
    loop {
        match waitpid(Some(pid), WaitOptions::empty()) {
            Ok(Some((_, status))) => {
                if let Some(code) = status.exit_status() {
                    return Some(ServerLine::Exited(code));
                }
                if let Some(signal) = status.terminating_signal() {
                    return Some(ServerLine::Killed(signal));
                }
            }
            Err(rustix::io::Errno::INTR) => continue,
            _ => return None,
        }
    }
}

/// The whole fork server for C, C++ and Pascal programs, run by the first
/// `p_startgame`: returns in each game's child (to play it); the server
/// itself never returns from here.
pub(crate) fn serve_if_asked() {
    if poker_fork_server_start() == 0 {
        return;
    }
    loop {
        poker_fork_server_next();
        // Or every game would repeat what the program buffered so far.
        // SAFETY: fflush(NULL) flushes every open C output stream.
        unsafe { libc::fflush(std::ptr::null_mut()) };
        // SAFETY: the child only continues in this thread, into the
        // library's own code and then the contestant's; this thread holds
        // the library's locks (see the module's docs), so the child finds
        // none held by a thread it does not have. (glibc's fork makes its
        // own malloc usable in the child.)
        let pid = unsafe { libc::fork() };
        match pid {
            0 => {
                poker_fork_server_child();
                return;
            }
            pid if pid > 0 => poker_fork_server_reap(pid),
            _ => {
                let error = std::io::Error::last_os_error();
                drop(take_held());
                lost(&format!("fork: {error}"))
            }
        }
    }
}
