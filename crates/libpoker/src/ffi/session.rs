//! The contest functions' one session in this process, behind one lock:
//! the contest calls, the fork server's game child and the practice
//! at-exit report all reach it here.

use super::runtime::Session;
use std::os::fd::OwnedFd;
use std::sync::{Mutex, MutexGuard, TryLockError};

static SESSION: Mutex<Session> = Mutex::new(Session::Fresh);

/// The session, waiting for the lock (a panic that poisoned it left the
/// session usable: each call's state change is whole).
pub(crate) fn lock() -> MutexGuard<'static, Session> {
    SESSION
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The session if no other thread holds it now.
pub(crate) fn try_lock() -> Option<MutexGuard<'static, Session>> {
    match SESSION.try_lock() {
        Ok(session) => Some(session),
        Err(TryLockError::Poisoned(poisoned)) => Some(poisoned.into_inner()),
        Err(TryLockError::WouldBlock) => None,
    }
}

/// Whether no contest function has run yet in this process.
pub(crate) fn is_fresh() -> bool {
    matches!(*lock(), Session::Fresh)
}

/// Makes `socket` this process's channel to the evaluator (a fork server's
/// game child, which holds the lock already).
pub(crate) fn adopt_channel(session: &mut Session, socket: OwnedFd) {
    if let Ok(channel) = poker_protocol::Transport::socket(socket) {
        *session = Session::Evaluated(channel);
    }
}
