//! POKER.H: the contest's three functions, exactly as the contest gave them.

use super::contest_exit::{POKER_EXIT_INTERNAL, finish};
use super::runtime::{Session, Step};
use super::session;
use poker_protocol::Request;
use std::cell::Cell;
use std::io::Write;
use std::os::raw::c_int;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set, under the session lock, once a call has decided to end the process.
static EXITING: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// Whether this thread is the one ending the process.
    static ENDS_PROCESS: Cell<bool> = const { Cell::new(false) };
}

/// Runs one contest call under the session lock, then acts on the step
/// with the lock released (so exiting never holds it). Once one call has
/// decided to end the process, calls from other threads wait for the exit,
/// and calls from the exiting thread (its `atexit` handlers) do nothing:
/// one game ends once, with one report.
fn call(request: Request) -> Option<(i32, i32)> {
    if EXITING.load(Ordering::SeqCst) {
        wait_for_exit();
        return None;
    }
    let step = super::guard(None, || {
        let mut session = session::lock();
        if EXITING.load(Ordering::SeqCst) {
            return Some(Step::Continue(None));
        }
        let step = session.handle(request);
        if matches!(*session, Session::Practice(..)) && !AT_EXIT.swap(true, Ordering::SeqCst) {
            // SAFETY: registering a handler that takes no arguments and
            // never unwinds (it runs under catch_unwind).
            unsafe { libc::atexit(practice_at_exit) };
        }
        if matches!(step, Step::Exit { .. }) {
            EXITING.store(true, Ordering::SeqCst);
            let _ = ENDS_PROCESS.try_with(|ends| ends.set(true));
        }
        Some(step)
    });
    if EXITING.load(Ordering::SeqCst) && !matches!(step, Some(Step::Exit { .. })) {
        wait_for_exit();
        return None;
    }
    match step {
        Some(Step::Continue(code)) => code,
        Some(Step::Exit {
            code,
            stdout,
            stderr,
        }) => finish(code, &stdout, &stderr),
        None => finish(
            POKER_EXIT_INTERNAL,
            "",
            "poker: internal error in libpoker\n",
        ),
    }
}

/// Whether [`practice_at_exit`] is registered.
static AT_EXIT: AtomicBool = AtomicBool::new(false);

/// Runs when a practice-mode program exits: if the game stopped before its
/// 20th placement (the program returned or called `exit` early), says so
/// on stderr. After the 20th placement or a broken rule the library itself
/// is ending the process, and this does nothing.
extern "C" fn practice_at_exit() {
    let _ = std::panic::catch_unwind(|| {
        if EXITING.load(Ordering::SeqCst) {
            return;
        }
        // Another thread may hold the session while the program exits:
        // then say nothing rather than wait.
        let Some(session) = session::try_lock() else {
            return;
        };
        if let Some(message) = session.unfinished_message() {
            // SAFETY: fflush(NULL) flushes every open C output stream, so
            // the program's own output comes first.
            unsafe { libc::fflush(std::ptr::null_mut()) };
            let _ = std::io::stderr().write_all(message.as_bytes());
        }
    });
}

/// Parks a thread that called while another is ending the process; returns
/// at once on the ending thread itself (a call from its `atexit` handlers,
/// when its thread-local storage may already be gone).
fn wait_for_exit() {
    if ENDS_PROCESS.try_with(Cell::get).unwrap_or(true) {
        return;
    }
    loop {
        std::thread::park();
    }
}

/// Starts the game. Call it once, before any other function of the module
/// (contest text, POKER.H).
///
/// Practice mode (program run directly): the 24-card deck (9, 10, J, Q, K, A
/// of four suits) is `POKER_DECK` if set (24 tokens such as `TS 9h AC ...`),
/// else shuffled uniformly from `POKER_SEED` (a u64) if set, else from a
/// fresh random seed that the final report names.
/// Evaluation mode (started by `poker eval`): the evaluator holds the deck.
///
/// Errors end the program with a one-line message on stderr: called twice
/// (exit status 3); a malformed `POKER_DECK` or `POKER_SEED` (exit status 2).
///
/// Under an evaluator that asks for the fork server (`POKER_PROTOCOL=2`),
/// the first call forks one child per game and returns only in each child,
/// which then plays its game; see docs/protocol.md.
#[unsafe(no_mangle)]
pub extern "C" fn p_startgame() {
    super::fork_server::serve_if_asked();
    call(Request::StartGame);
}

/// Turns the next card and writes it through the two pointers.
///
/// `*value`: 1 = 9, 2 = 10, 3 = J, 4 = Q, 5 = K, 6 = A.
/// `*color`: 1 = spades, 2 = hearts, 3 = diamonds, 4 = clubs.
///
/// Rules (contest text): must follow `p_startgame` or a `p_place`; calling it
/// twice in a row, before `p_startgame`, or with a NULL pointer ends the
/// program with a message on stderr naming the rule, the card and the call
/// number, and exit status 3.
///
/// # Safety
/// Each pointer must be NULL (a reported violation) or point to a writable
/// `int`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn p_look(value: *mut c_int, color: *mut c_int) {
    if value.is_null() || color.is_null() {
        call(Request::LookNull);
        return;
    }
    if let Some((v, c)) = call(Request::Look) {
        // SAFETY: both pointers were checked non-null; the caller promises
        // they point to writable ints, as POKER.H requires.
        unsafe {
            *value = v;
            *color = c;
        }
    }
}

/// Places the card just looked at in `column` (1..4).
///
/// At every moment the longest and the shortest column may differ by at most
/// 1, so each block of 4 cards goes one to each column. A column outside
/// 1..4, a placement that breaks the balance, or a `p_place` without a
/// `p_look` before it ends the program with a message on stderr naming the
/// rule, the card and the call number, and exit status 3.
///
/// The 20th call stops the program (exit status 0): the library flushes the
/// program's C stdio, then (in practice mode) prints, starting on a new
/// line, the deck and its source, the board (tens as `T`), each column's
/// hand and points, and a last line `total: N`. A program that exits before
/// its 20th placement is told on stderr (practice mode, when it exits
/// through C `exit` or by returning from `main`): `game ended after N of 20
/// placements; the evaluator scores it 0`.
#[unsafe(no_mangle)]
pub extern "C" fn p_place(column: c_int) {
    call(Request::Place(column));
}
