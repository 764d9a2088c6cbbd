//! Machine-wide kernel state two games could share although no namespace
//! holds it: the TCP ephemeral-port table, socket cookies, `AF_VSOCK`, the
//! inode counter, the namespaces' and mounts' ids. Each hostile contestant
//! of tests/contestants/hostile gains nothing in the sandbox (no socket, no
//! `getsockopt`, no pipe or memfd, no `statx`, no `/proc`): no LEAK or
//! ATTACK line, round robin's score. Each has a control that shows the
//! trick unconfined with a deterministic probe (the evaluator runs as root
//! here, so a probe may make network namespaces of its own); the full
//! spy-then-friend runs, which depend on what else the machine does
//! between two games, are ignored tests (`cargo test --release -p
//! poker-cli --test cli_tests sandbox_machine_wide -- --ignored`).

use crate::common::tier::{self, needs};
use crate::sandbox_attacks::{
    assert_contains, assert_plays_like_roundrobin, hostile, machine, off, on, roundrobin, scratch,
    stderr_of,
};

/// The code the spies write: the first card of the test deck, JC, as
/// `p_look` gives it (value 3 = J, color 4 = clubs, poker.h), as
/// `(value - 1) * 4 + (color - 1)`.
const FIRST_CARD_CODE: u32 = (3 - 1) * 4 + (4 - 1);

// port_table_spy then port_table_friend, sandboxed; expected: neither can
// make a socket, both score round robin's score.
#[test]
fn port_table_relay_is_blocked() {
    needs!(tier::SANDBOX);
    let _machine = machine();
    let s = scratch("port_table_on");
    let json = on(
        &s,
        &[],
        &[
            &hostile("port_table_spy.c"),
            &hostile("port_table_friend.c"),
        ],
    );
    assert_plays_like_roundrobin(&json, "port_table_spy");
    assert_plays_like_roundrobin(&json, "port_table_friend");
    assert_contains(
        stderr_of(&json, "port_table_spy"),
        "port table: cannot connect: Operation not permitted",
    );
    assert_contains(
        stderr_of(&json, "port_table_friend"),
        "port table: nothing read (Operation not permitted)",
    );
}

// port_table_spy unconfined; expected: a child in a new network namespace
// reads the code the spy wrote (its first card) from the shared table.
#[test]
fn port_table_is_shared_across_network_namespaces_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let _machine = machine();
    let s = scratch("port_table_off");
    let json = off(&s, &[], &[&hostile("port_table_spy.c"), &roundrobin()]);
    let stderr = stderr_of(&json, "port_table_spy");
    assert_contains(stderr, &format!("WROTE: code {FIRST_CARD_CODE}"));
    assert_contains(
        stderr,
        &format!("ATTACK: port table read from another network namespace: code {FIRST_CARD_CODE}"),
    );
}

// The whole relay unconfined: the spy's game, then the friend's; expected:
// the friend reads the spy's first card. Ignored: another program's
// connects to the same destinations between the two games would move it.
#[test]
#[ignore]
fn port_table_relay_works_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let _machine = machine();
    let s = scratch("port_table_relay_off");
    let json = off(
        &s,
        &[],
        &[
            &hostile("port_table_spy.c"),
            &hostile("port_table_friend.c"),
        ],
    );
    assert_contains(
        stderr_of(&json, "port_table_friend"),
        &format!("LEAK: read code {FIRST_CARD_CODE}"),
    );
}

// socket_cookie_spy then socket_cookie_friend, sandboxed; expected: no
// socket, no socket option (not even of the channel), no CPU of their
// choice; both score round robin's score.
#[test]
fn socket_cookie_relay_is_blocked() {
    needs!(tier::SANDBOX);
    let s = scratch("socket_cookie_on");
    let json = on(
        &s,
        &[],
        &[
            &hostile("socket_cookie_spy.c"),
            &hostile("socket_cookie_friend.c"),
        ],
    );
    for name in ["socket_cookie_spy", "socket_cookie_friend"] {
        assert_plays_like_roundrobin(&json, name);
        let stderr = stderr_of(&json, name);
        assert_contains(stderr, "socket: Operation not permitted");
        assert_contains(stderr, "getsockopt of the channel: Operation not permitted");
        assert_contains(stderr, "sched_setaffinity: Operation not permitted");
    }
}

// socket_cookie_spy unconfined; expected: a child in a new network
// namespace gets the cookie the spy set up (its first card).
#[test]
fn socket_cookies_are_shared_across_network_namespaces_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let _machine = machine();
    let s = scratch("socket_cookie_off");
    let json = off(&s, &[], &[&hostile("socket_cookie_spy.c"), &roundrobin()]);
    let stderr = stderr_of(&json, "socket_cookie_spy");
    assert_contains(stderr, "ATTACK: cookie of the channel: ");
    assert_contains(
        stderr,
        &format!(
            "ATTACK: socket cookie read from another network namespace: code {FIRST_CARD_CODE}"
        ),
    );
}

// The whole relay unconfined; expected: the friend reads the spy's first
// card. Ignored: a cookie asked on CPU 0 by anything else between the two
// games would move it.
#[test]
#[ignore]
fn socket_cookie_relay_works_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let _machine = machine();
    let s = scratch("socket_cookie_relay_off");
    let json = off(
        &s,
        &[],
        &[
            &hostile("socket_cookie_spy.c"),
            &hostile("socket_cookie_friend.c"),
        ],
    );
    assert_contains(
        stderr_of(&json, "socket_cookie_friend"),
        &format!("LEAK: read code {FIRST_CARD_CODE}"),
    );
}

// vsock sandboxed; expected: no vsock socket, no /dev/vsock.
#[test]
fn vsock_is_blocked() {
    needs!(tier::SANDBOX);
    let s = scratch("vsock_on");
    let json = on(&s, &[], &[&hostile("vsock.c"), &roundrobin()]);
    assert_plays_like_roundrobin(&json, "vsock");
    let stderr = stderr_of(&json, "vsock");
    assert_contains(stderr, "vsock socket: Operation not permitted");
    assert_contains(stderr, "/dev/vsock: No such file or directory");
}

// vsock unconfined; expected: the socket is created.
#[test]
fn vsock_works_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("vsock_off");
    let json = off(&s, &[], &[&hostile("vsock.c"), &roundrobin()]);
    assert_contains(stderr_of(&json, "vsock"), "ATTACK: vsock socket created");
}

// inode_spy then inode_friend, sandboxed; expected: every way to make a
// counted inode refused, nothing read; the evaluator's own descriptors
// still carry numbers from the counter (taken before the game: what
// remains, see the threat model).
#[test]
fn inode_counter_relay_is_blocked() {
    needs!(tier::SANDBOX);
    let s = scratch("inode_on");
    let json = on(
        &s,
        &[],
        &[&hostile("inode_spy.c"), &hostile("inode_friend.c")],
    );
    assert_plays_like_roundrobin(&json, "inode_spy");
    assert_plays_like_roundrobin(&json, "inode_friend");
    let spy = stderr_of(&json, "inode_spy");
    for way in ["pipes", "sockets", "memfds"] {
        assert_contains(spy, &format!("advance {way}: Operation not permitted"));
    }
    let friend = stderr_of(&json, "inode_friend");
    for way in ["a pipe", "a socket", "a memfd"] {
        assert_contains(friend, &format!("{way}: Operation not permitted"));
    }
    assert_contains(friend, "/proc: No such file or directory");
    assert_contains(friend, "made by the evaluator: fd 3 inode ");
}

// inode_spy then inode_friend unconfined; expected: the spy moves the
// counter by its 1000 pipes (a pipe made afterwards shows it), the friend
// reads it through a pipe, a socket and /proc.
#[test]
fn inode_counter_is_moved_and_read_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("inode_off");
    let json = off(
        &s,
        &[],
        &[&hostile("inode_spy.c"), &hostile("inode_friend.c")],
    );
    assert_contains(
        stderr_of(&json, "inode_spy"),
        "ATTACK: moved the inode counter by",
    );
    let friend = stderr_of(&json, "inode_friend");
    for way in ["a pipe", "a socket", "/proc"] {
        assert_contains(friend, &format!("LEAK: inode counter through {way}: "));
    }
}

// namespace_ids sandboxed; expected: no id read, no mountinfo.
#[test]
fn namespace_ids_are_out_of_reach() {
    needs!(tier::SANDBOX);
    let s = scratch("namespace_ids_on");
    let json = on(&s, &[], &[&hostile("namespace_ids.c"), &roundrobin()]);
    assert_plays_like_roundrobin(&json, "namespace_ids");
    let stderr = stderr_of(&json, "namespace_ids");
    assert_contains(stderr, "mount namespace id: No such file or directory");
    assert_contains(stderr, "statx: Operation not permitted");
    assert_contains(stderr, "/proc/self/mountinfo: No such file or directory");
}

// namespace_ids unconfined; expected: the mount namespace's id, the
// network namespace's cookie (of a new socket and of the channel) and the
// root's mount id are read.
#[test]
fn namespace_ids_are_read_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("namespace_ids_off");
    let json = off(&s, &[], &[&hostile("namespace_ids.c"), &roundrobin()]);
    let stderr = stderr_of(&json, "namespace_ids");
    for what in [
        "LEAK: mount namespace id ",
        "LEAK: network namespace cookie (a new socket) ",
        "LEAK: network namespace cookie (the channel) ",
        "LEAK: mount id of / ",
    ] {
        assert_contains(stderr, what);
    }
}
