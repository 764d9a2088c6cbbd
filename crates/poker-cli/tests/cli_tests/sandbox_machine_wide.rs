//! Machine-wide kernel state two games could share although no namespace
//! holds it: the TCP ephemeral-port table, socket cookies, `AF_VSOCK`, the
//! inode counter, the namespaces' and mounts' ids, the pty count, record
//! locks on the host's device nodes, what a compiler's `/proc` would show,
//! and the program's own path. Each hostile contestant
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
    assert_contains, assert_plays_like_roundrobin, entry, hostile, machine, off, on, roundrobin,
    scratch, stderr_of,
};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

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

/// The machine's pty count (`/proc/sys/kernel/pty/nr`).
fn pty_count() -> u64 {
    let text = std::fs::read_to_string("/proc/sys/kernel/pty/nr").unwrap();
    text.trim().parse().unwrap()
}

/// Runs `f` while a thread reads the machine's pty count over and over:
/// what `f` returned and the highest count read.
fn while_reading_pty_count<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let done = AtomicBool::new(false);
    let highest = AtomicU64::new(pty_count());
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                highest.fetch_max(pty_count(), Ordering::Relaxed);
                std::thread::yield_now();
            }
        });
        let result = f();
        done.store(true, Ordering::Relaxed);
        result
    });
    (result, highest.into_inner())
}

// pty_pool sandboxed (50 attempts to open /dev/ptmx, each held), while
// this test reads the machine's pty count; expected: no ptmx in the
// game's /dev, the count never up by the attempts, round robin's score.
#[test]
fn the_pty_pool_is_out_of_a_games_reach() {
    needs!(tier::SANDBOX);
    let s = scratch("pty_pool_on");
    let before = pty_count();
    let (json, highest) =
        while_reading_pty_count(|| on(&s, &[], &[&hostile("pty_pool.c"), &roundrobin()]));
    assert_plays_like_roundrobin(&json, "pty_pool");
    let stderr = stderr_of(&json, "pty_pool");
    assert_contains(stderr, "ptmx: No such file or directory");
    assert_contains(stderr, "ptmx: 0 opened");
    assert!(
        highest < before + 50,
        "the pty count went from {before} to {highest}"
    );
}

// pty_pool unconfined; expected: its 50 ptys opened, and the machine's
// count, read by the game itself, up by them.
#[test]
fn the_pty_pool_is_the_machines_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("pty_pool_off");
    let json = off(&s, &[], &[&hostile("pty_pool.c"), &roundrobin()]);
    let stderr = stderr_of(&json, "pty_pool");
    assert_contains(stderr, "ptmx: 50 opened");
    assert_contains(stderr, "ATTACK: the machine's pty count rose by ");
}

/// The six lock commands dev_locks tries, as it names them.
const LOCK_COMMANDS: [&str; 6] = [
    "F_SETLK",
    "F_SETLKW",
    "F_GETLK",
    "F_OFD_SETLK",
    "F_OFD_SETLKW",
    "F_OFD_GETLK",
];

// dev_locks sandboxed; expected: every lock command, classic and OFD,
// refused on each of the five devices; round robin's score.
#[test]
fn locks_on_device_nodes_are_refused() {
    needs!(tier::SANDBOX);
    let s = scratch("dev_locks_on");
    let json = on(&s, &[], &[&hostile("dev_locks.c"), &roundrobin()]);
    assert_plays_like_roundrobin(&json, "dev_locks");
    let stderr = stderr_of(&json, "dev_locks");
    for device in ["null", "zero", "full", "random", "urandom"] {
        for command in LOCK_COMMANDS {
            assert_contains(
                stderr,
                &format!("{command} on /dev/{device}: Operation not permitted"),
            );
        }
    }
}

// dev_locks unconfined; expected: every lock command works on /dev/null
// (the host's inode, which any process of the machine can ask about).
#[test]
fn locks_on_device_nodes_work_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("dev_locks_off");
    let json = off(&s, &[], &[&hostile("dev_locks.c"), &roundrobin()]);
    let stderr = stderr_of(&json, "dev_locks");
    for command in LOCK_COMMANDS {
        assert_contains(stderr, &format!("ATTACK: {command} on /dev/null works"));
    }
}

// own_name (C) and own_name.py sandboxed; expected: each runs from the
// fixed path, with no other argument than the evaluator gives.
#[test]
fn a_game_runs_from_a_fixed_path() {
    needs!(tier::SANDBOX);
    let s = scratch("own_name_on");
    let json = on(&s, &[], &[&hostile("own_name.c"), &hostile("own_name.py")]);
    let names = json["contestants"].as_array().unwrap();
    let stderr = |suffix: &str| {
        let c = names
            .iter()
            .find(|c| c["path"].as_str().unwrap().ends_with(suffix))
            .unwrap();
        c["tests"][0]["stderr"].as_str().unwrap().to_owned()
    };
    assert_contains(
        &stderr("own_name.c"),
        "argv[0]: /game/program (1 arguments)",
    );
    assert_contains(
        &stderr("own_name.py"),
        "argv[0]: /game/program.py (1 arguments)",
    );
}

// own_name unconfined; expected: its path names the evaluator's scratch
// folder (poker-eval-...), as the fixed path does not.
#[test]
fn a_programs_path_names_the_scratch_folder_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("own_name_off");
    let json = off(&s, &[], &[&hostile("own_name.c"), &roundrobin()]);
    assert_contains(stderr_of(&json, "own_name"), "/poker-eval-");
}

// own_uid sandboxed, while this test holds a uid lease as another jail
// would; expected: every game is uid and gid 1000 inside its jail, not the
// leased uid outside, which is the first free one of the range and so
// tells how many jails are alive.
#[test]
fn a_game_has_the_same_uid_whatever_jails_are_alive() {
    needs!(tier::SANDBOX);
    let range = poker_judge::sandbox::DEFAULT_UID_RANGE;
    let _another_jail = poker_judge::sandbox::UidLease::acquire(range).expect("a uid lease");
    let s = scratch("own_uid_on");
    let json = on(&s, &[], &[&hostile("own_uid.c")]);
    assert_plays_like_roundrobin(&json, "own_uid");
    for game in entry(&json, "own_uid")["tests"].as_array().unwrap() {
        let stderr = game["stderr"].as_str().unwrap_or("");
        assert_eq!(stderr.trim(), "uid: 1000 gid: 1000", "{game}");
    }
}

// own_uid unconfined; expected: the evaluator's own uid (root here).
#[test]
fn a_program_has_the_evaluators_uid_without_the_sandbox() {
    needs!(tier::SANDBOX);
    let s = scratch("own_uid_off");
    let json = off(&s, &[], &[&hostile("own_uid.c"), &roundrobin()]);
    assert_contains(stderr_of(&json, "own_uid"), "uid: 0 gid: 0");
}

// include_counter.pas ({$I /proc/sys/kernel/pty/nr}) sandboxed; expected:
// not run, fpc naming the file it cannot open (a compiler has no /proc);
// round robin's score.
#[test]
fn a_compiler_reads_no_machine_counter() {
    needs!(tier::SANDBOX, tier::PASCAL);
    let s = scratch("include_counter_on");
    let json = on(&s, &[], &[&hostile("include_counter.pas"), &roundrobin()]);
    assert_plays_like_roundrobin(&json, "roundrobin");
    let why = entry(&json, "include_counter")["not_run"]
        .as_str()
        .unwrap_or_else(|| panic!("include_counter was run: {json}"));
    assert_contains(why, "/proc/sys/kernel/pty/nr");
}

// include_counter.pas unconfined; expected: the machine's pty count
// compiled into the program.
#[test]
fn a_compiler_reads_the_machines_pty_count_without_the_sandbox() {
    needs!(tier::SANDBOX, tier::PASCAL);
    let s = scratch("include_counter_off");
    let json = off(&s, &[], &[&hostile("include_counter.pas"), &roundrobin()]);
    assert_contains(
        stderr_of(&json, "include_counter"),
        "LEAK: the machine's pty count at compile time: ",
    );
}
