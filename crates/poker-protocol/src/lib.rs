//! The private channel between the evaluator (the manager) and the library
//! linked into a contestant (the stub): the manager holds the deck and
//! answers one request at a time, so the contestant's process never holds a
//! card before it is turned. `docs/protocol.md` defines the protocol
//! (messages, limits, errors, version 2, why four clients); this module
//! implements it.
//!
//! The protocol comes in two layers: [`LineAssembler`] and the messages
//! turn bytes into requests or replies without any I/O (and are what the
//! fuzzers drive); [`Transport`] moves lines over a reader and a writer
//! descriptor, with a deadline and a watch on the peer's exit.
//!
//! Version 2 adds the fork server ([`fork_server`]): one process per contestant
//! forks a child per game, each child playing over a socket of its own
//! exactly as above.
//!
//! [`manager`] is the manager's side: it serves one game over any [`manager::Link`]
//! (the evaluator's socket, or the judge's interactor in memory) with the
//! one rule checker of `poker_core::contest`, through [`apply`], the one
//! dispatch of a request to the game (practice mode's too).
#![deny(missing_docs)]

mod assembly;
mod dispatch;
pub mod fork_server;
pub mod manager;
mod message;
mod transport;
pub mod wait;

pub use assembly::{Breach, LineAssembler};
pub use dispatch::apply;
pub use message::{Reply, Request};
pub use transport::{ChannelFds, Received, Transport};

/// The environment variable naming the stub's channel: one file descriptor
/// (a socket, both directions) or `READ,WRITE` (two pipes).
pub const CHANNEL_ENV: &str = "POKER_MANAGER_FD";

/// The longest line either side sends or accepts, newline included.
pub const MAX_LINE: usize = 256;
