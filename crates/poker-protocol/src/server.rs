//! [`crate::fork_server`]'s former path: each item forwards to its new one.

use crate::fork_server;
use std::os::fd::{AsFd, BorrowedFd};
use std::time::Instant;

/// [`fork_server::PROTOCOL_ENV`]'s former path.
#[deprecated(note = "moved to poker_protocol::fork_server; removed in 0.4.0")]
pub const PROTOCOL_ENV: &str = fork_server::PROTOCOL_ENV;

/// [`fork_server::FORK_SERVER_VERSION`]'s former path.
#[deprecated(note = "moved to poker_protocol::fork_server; removed in 0.4.0")]
pub const FORK_SERVER_VERSION: u32 = fork_server::FORK_SERVER_VERSION;

/// [`fork_server::ServerLine`]'s former path.
#[deprecated(note = "moved to poker_protocol::fork_server; removed in 0.4.0")]
pub type ServerLine = fork_server::ServerLine;

/// [`fork_server::Order`]'s former path.
#[deprecated(note = "moved to poker_protocol::fork_server; removed in 0.4.0")]
pub type Order = fork_server::Order;

/// [`fork_server::Attached`]'s former path.
#[deprecated(note = "moved to poker_protocol::fork_server; removed in 0.4.0")]
pub type Attached = fork_server::Attached;

/// [`fork_server::send_with_fds`]'s former path.
#[deprecated(note = "moved to poker_protocol::fork_server; removed in 0.4.0")]
pub fn send_with_fds(
    socket: BorrowedFd<'_>,
    line: &[u8],
    fds: &[BorrowedFd<'_>],
) -> std::io::Result<()> {
    fork_server::send_with_fds(socket, line, fds)
}

/// [`fork_server::receive_line`]'s former path.
#[deprecated(note = "moved to poker_protocol::fork_server; removed in 0.4.0")]
pub fn receive_line(
    socket: impl AsFd,
    deadline: Option<Instant>,
) -> std::io::Result<Option<(String, fork_server::Attached)>> {
    fork_server::receive_line(socket, deadline)
}
