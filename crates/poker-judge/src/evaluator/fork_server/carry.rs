//! What one game of a fork server could leave for the next, looked for
//! while the server's jail is frozen: the server's state is noted when it
//! starts ([`ServerState::note`]) and checked once each game's processes
//! are gone, before the jail is thawed ([`ServerState::left`]), against
//! what it was after the last game. A game's child runs before the freeze
//! that sets its game up (at-fork handlers), so its changes are compared
//! from there; the server itself only waits for orders and children in
//! between, so what changed was changed by a game. Some things are a
//! channel whatever they hold.
//!
//! A game's system-call filter leaves it no pipe, socket, memfd, System V
//! object, `ptrace` or `process_vm_writev`, and `/tmp` is the only folder
//! it may write. What is left, and how each is found (from `/proc` of the
//! server; docs/protocol.md keeps the same list):
//!
//! - memory the server maps shared, which a game could write or make
//!   writable (`/proc/PID/smaps`: `sh` with `mw`);
//! - the server's `/tmp` (its tmpfs, not the program's files that the
//!   sandbox mounts there) changed: a file or folder made, removed or
//!   replaced, a file's content changed (compared whole, up to
//!   [`TMP_CHECKED`] bytes: more is not checked, and gives the server up),
//!   an entry's (or `/tmp`'s own) times, links, owner or size; and its
//!   inode counter moved (a file made, even unnamed: the evaluator makes
//!   one after each game, whose number must be one past the last);
//!   and a descriptor of the server's to a file there or deleted (a game
//!   could write it, or reopen it through `/proc`);
//! - an open file description the server shares with its games whose
//!   offset, flags or locks the game changed (`/proc/PID/fdinfo`);
//! - a resource limit of the server's changed (`prlimit` on its parent,
//!   `/proc/PID/limits`);
//! - a signal sent to the server (pending until the thaw), or a handler of
//!   `SIGCHLD` in it (which sees each child's exit status);
//! - the server dumpable: its games (the same user) could write its memory
//!   through `/proc/PID/mem`, and its other `/proc` files; the library
//!   makes the server not dumpable, so one that is dumpable again made
//!   itself so;
//! - another process of the program beside the server;
//! - a game's child whose pid inside the jail is not one past the last
//!   game's child's ([`next_child`]): a process or thread made in between
//!   (by a game, its child before it spoke, or the server) moved the pid
//!   counter of the jail's pid namespace, which the child reads from its
//!   own pid. That child has seen no card: its game is played fresh.
//!
//! Not looked for: what the server's own code can learn of a game without
//! its help (when it ended, its exit status or CPU time through `waitid` or
//! `getrusage` from a thread or an at-fork handler), a few bits a game, as
//! the clock gives any process, fresh or forked.

use super::setup::{self, LimitSetter};
use rustix::fs::{Mode, OFlags};
use rustix::process::Pid;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io;
use std::os::unix::fs::MetadataExt;

/// The most bytes of files in a server's `/tmp` compared before and after
/// each game (Python's bytecode caches take some tens of kilobytes).
pub(crate) const TMP_CHECKED: u64 = 4 << 20;

/// `SIGCHLD`'s bit in `/proc/PID/status` signal masks (signal 17).
const SIGCHLD_BIT: u64 = 1 << (17 - 1);

/// `/proc/PID/...` of `pid`.
fn proc_path(pid: Pid, what: &str) -> String {
    format!("/proc/{}/{what}", pid.as_raw_nonzero())
}

fn read(pid: Pid, what: &str) -> io::Result<String> {
    fs::read_to_string(proc_path(pid, what))
}

/// The server's state a game could change and the next could find, noted
/// with its jail frozen: when it starts, then after each game. Each game's
/// end is compared with the last (not with the freeze before the game):
/// a game's child runs before that freeze (at-fork handlers), and what it
/// changed then is the game's too.
pub(crate) struct ServerState {
    /// Each descriptor's number, with where it leads and its `fdinfo`.
    fds: BTreeMap<String, (String, String)>,
    /// `/proc/PID/limits`, noted again before each game (the evaluator
    /// moves the server's CPU-time limit then; a game cannot: it may set
    /// its own limits only).
    limits: String,
    /// What its `/tmp` holds, with every entry's times.
    tmp: TmpTree,
    /// The inode number of the last file made in its `/tmp` to read the
    /// counter: the next one made is one past it unless a file was made
    /// in between.
    last_inode: u64,
}

impl ServerState {
    /// Notes the state of the server `pid`, its jail frozen; `as_user`
    /// makes the file that reads the `/tmp`'s inode counter (see
    /// [`new_inode`]). The error says why it could not be read (then
    /// nothing can be checked).
    pub(crate) fn note(pid: Pid, as_user: Option<&LimitSetter>) -> Result<ServerState, String> {
        let unread = |e: io::Error| format!("the fork server could not be inspected: {e}");
        Ok(ServerState {
            fds: descriptors(pid).map_err(unread)?,
            limits: read(pid, "limits").map_err(unread)?,
            tmp: tmp_tree(pid).map_err(unread)?,
            last_inode: new_inode(pid, as_user).map_err(unread)?,
        })
    }

    /// Notes the server's resource limits again, its jail frozen before a
    /// game (its CPU-time limit was just moved).
    pub(crate) fn note_limits(&mut self, pid: Pid) -> Result<(), String> {
        self.limits = read(pid, "limits")
            .map_err(|e| format!("the fork server could not be inspected: {e}"))?;
        Ok(())
    }

    /// After a game, its processes gone and the server's jail still
    /// frozen: what the next game could find of this one, as the reason the
    /// server is given up (`None`: nothing). `processes`: how many
    /// processes of the program its jail holds.
    pub(crate) fn left(
        &mut self,
        pid: Pid,
        processes: Option<usize>,
        as_user: Option<&LimitSetter>,
    ) -> Option<String> {
        self.check(pid, processes, as_user)
            .err()
            .map(|why| format!("a game could leave state for the next: {why}"))
    }

    fn check(
        &mut self,
        pid: Pid,
        processes: Option<usize>,
        as_user: Option<&LimitSetter>,
    ) -> Result<(), String> {
        let unread = |e: io::Error| format!("the server could not be inspected ({e})");
        if processes != Some(1) {
            return Err("the program has another process beside its fork server".into());
        }
        let status = read(pid, "status").map_err(unread)?;
        if dumpable(pid, &status).map_err(unread)? {
            return Err(
                "the server is dumpable (its games could write its memory through /proc)".into(),
            );
        }
        if let Some(mapping) = shared_writable(pid).map_err(unread)? {
            return Err(format!("the server has memory mapped shared ({mapping})"));
        }
        if threads(&status) != Some(1) {
            // A second thread can wait on a futex word of a shared read-only
            // mapping (a library's file): a game can wake it, or requeue it
            // to another word, and so leave a number the server reads after.
            return Err(
                "the server has more than one thread, whose waits a game could \
                 move through shared memory"
                    .into(),
            );
        }
        let tmp = tmp_tree(pid).map_err(unread)?;
        if let Some(path) = changed(&self.tmp, &tmp) {
            return Err(format!("the game changed the server's /tmp ({path})"));
        }
        let inode = new_inode(pid, as_user).map_err(unread)?;
        let expected = self.last_inode + 1;
        self.last_inode = inode;
        if inode != expected {
            return Err(format!(
                "files were made in the server's /tmp, which the next game would count \
                 from its inode numbers ({inode}, not {expected})"
            ));
        }
        let fds = descriptors(pid).map_err(unread)?;
        for (fd, (target, info)) in &fds {
            if target.starts_with("/tmp/") || target.ends_with(" (deleted)") {
                return Err(format!("the server's descriptor {fd} leads to {target}"));
            }
            if self.fds.get(fd).is_some_and(|(_, before)| before != info) {
                return Err(format!(
                    "the game changed the offset, flags or locks of the server's descriptor {fd} ({target})"
                ));
            }
        }
        if read(pid, "limits").map_err(unread)? != self.limits {
            return Err("the game changed a resource limit of the server".into());
        }
        signals(pid, &status).map_err(unread)?
    }
}

/// The inode number of a new file in the `/tmp` of the server `pid`: one
/// past the last file made there. The file has no name (`O_TMPFILE`, no
/// folder's times change) and is gone once closed. Made as the jail's
/// user (`as_user`; else by this thread): the evaluator's root is no user
/// of the jail's user namespace, whose file systems refuse its files.
fn new_inode(pid: Pid, as_user: Option<&LimitSetter>) -> io::Result<u64> {
    let dir = rustix::fs::open(
        proc_path(pid, "root/tmp"),
        OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    match as_user {
        Some(as_user) => as_user.new_inode(dir),
        None => setup::new_inode_in(&dir),
    }
}

/// The pid inside its jail of the game's child `pid` (the evaluator's
/// view), if it follows the last game's child's `last` (the first child's
/// may be any); else why the server is given up.
pub(crate) fn next_child(pid: Pid, last: Option<i32>) -> Result<i32, String> {
    let status =
        read(pid, "status").map_err(|e| format!("a game's child could not be inspected: {e}"))?;
    let inside = pid_in_jail(&status).ok_or("a game's child has no pid in its jail")?;
    match last {
        Some(last) if inside != last.wrapping_add(1) => Err(format!(
            "a game could leave state for the next: processes or threads were made \
             between two games, which the next would count from its pid ({inside}, not {})",
            last.wrapping_add(1)
        )),
        _ => Ok(inside),
    }
}

/// A process's pid in its innermost pid namespace, from its
/// `/proc/PID/status` text (`NSpid:`'s last field).
fn pid_in_jail(status: &str) -> Option<i32> {
    let ids = status.lines().find_map(|l| l.strip_prefix("NSpid:"))?;
    ids.split_whitespace().last()?.parse().ok()
}

/// Each descriptor of `pid`: its number, where it leads, its `fdinfo`.
fn descriptors(pid: Pid) -> io::Result<BTreeMap<String, (String, String)>> {
    let mut fds = BTreeMap::new();
    for entry in fs::read_dir(proc_path(pid, "fd"))? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        // A descriptor closed meanwhile is not there (the server is
        // frozen: only by a thread of a game's, sharing none).
        let Ok(target) = fs::read_link(proc_path(pid, &format!("fd/{name}"))) else {
            continue;
        };
        let info = read(pid, &format!("fdinfo/{name}")).unwrap_or_default();
        fds.insert(name, (target.to_string_lossy().into_owned(), info));
    }
    Ok(fds)
}

/// Whether `pid` (its `/proc/PID/status`: `status`) is dumpable: the
/// kernel gives its `/proc` files (but its folder) to its user then, and to
/// root (of its user namespace, or the machine's) otherwise.
fn dumpable(pid: Pid, status: &str) -> io::Result<bool> {
    let owner = fs::metadata(proc_path(pid, "mem"))?.uid();
    let euid = status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|ids| ids.split_whitespace().nth(1))
        .and_then(|id| id.parse::<u32>().ok())
        .ok_or_else(|| io::Error::other("no Uid line in its status"))?;
    Ok(owner == euid)
}

/// The first mapping of `pid` that is shared and writable, or may be made
/// writable (`mprotect`), as `/proc/PID/smaps` names it.
fn shared_writable(pid: Pid) -> io::Result<Option<String>> {
    // maps first: smaps walks every page, and a server seldom maps shared.
    let maps = read(pid, "maps")?;
    if !maps.lines().any(is_shared) {
        return Ok(None);
    }
    Ok(shared_writable_in(&read(pid, "smaps")?))
}

/// Whether a `maps` (or `smaps` header) line is a shared mapping: its
/// permissions `rwxs` end in `s`.
fn is_shared(line: &str) -> bool {
    line.split_whitespace()
        .nth(1)
        .is_some_and(|perms| perms.len() == 4 && perms.ends_with('s'))
}

/// In `smaps` text: the first shared mapping whose `VmFlags` have `mw`
/// (may write), as its range and what it maps.
fn shared_writable_in(smaps: &str) -> Option<String> {
    let mut header: Option<&str> = None;
    for line in smaps.lines() {
        if let Some(flags) = line.strip_prefix("VmFlags:") {
            let flags: Vec<&str> = flags.split_whitespace().collect();
            if let Some(h) = header
                && flags.contains(&"sh")
                && flags.contains(&"mw")
            {
                return Some(describe_mapping(h));
            }
        } else if line.split_whitespace().nth(1).is_some_and(is_perms) {
            header = Some(line);
        }
    }
    None
}

/// Whether `word` is a mapping's permissions (`rw-s`, `r--p`, ...).
fn is_perms(word: &str) -> bool {
    word.len() == 4 && word.ends_with(['s', 'p'])
}

/// A mapping's range and what it maps, from its `maps` line.
fn describe_mapping(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let what = words.get(5..).map(|w| w.join(" ")).unwrap_or_default();
    match what.is_empty() {
        true => words.first().copied().unwrap_or_default().to_string(),
        false => format!("{} {what}", words.first().copied().unwrap_or_default()),
    }
}

/// What `pid`'s `/tmp` (its root's) holds in its own file system, not
/// what the sandbox mounts there (the program's files, in folders it made
/// for them): `/tmp` itself and each entry under it, by path.
type TmpTree = BTreeMap<String, TmpEntry>;

/// An entry of a server's `/tmp`: what a game could read of it.
#[derive(Clone, Debug, PartialEq)]
struct TmpEntry {
    /// Inode number, type and permissions, links, owner, group, size.
    ids: [u64; 6],
    /// Access, modification and change times (seconds, nanoseconds).
    times: [(i64, i64); 3],
    /// A file's content.
    content: Option<Vec<u8>>,
}

impl TmpEntry {
    /// `meta` of an entry (taken after it was read or listed: reading
    /// sets its access time, once, which is then the time compared), and
    /// a file's `content`.
    fn new(meta: &fs::Metadata, content: Option<Vec<u8>>) -> TmpEntry {
        TmpEntry {
            ids: [
                meta.ino(),
                meta.mode().into(),
                meta.nlink(),
                meta.uid().into(),
                meta.gid().into(),
                meta.size(),
            ],
            times: [
                (meta.atime(), meta.atime_nsec()),
                (meta.mtime(), meta.mtime_nsec()),
                (meta.ctime(), meta.ctime_nsec()),
            ],
            content,
        }
    }
}

fn tmp_tree(pid: Pid) -> io::Result<TmpTree> {
    let root = std::path::PathBuf::from(proc_path(pid, "root/tmp"));
    let device = fs::symlink_metadata(&root)?.dev();
    let mut tree = TmpTree::new();
    let mut bytes = 0;
    let mut todo = vec![(root, "/tmp".to_string())];
    while let Some((dir, shown)) = todo.pop() {
        let entries = fs::read_dir(&dir)?.collect::<io::Result<Vec<_>>>()?;
        tree.insert(
            shown.clone(),
            TmpEntry::new(&fs::symlink_metadata(&dir)?, None),
        );
        for entry in entries {
            let meta = entry.metadata()?;
            if meta.dev() != device {
                continue;
            }
            let name = format!("{shown}/{}", entry.file_name().to_string_lossy());
            if meta.is_dir() {
                todo.push((entry.path(), name));
                continue;
            }
            let content = match meta.is_file() {
                true => {
                    bytes += meta.len();
                    if bytes > TMP_CHECKED {
                        return Err(io::Error::other(format!(
                            "more than {} MiB of files in its /tmp",
                            TMP_CHECKED >> 20
                        )));
                    }
                    Some(fs::read(entry.path())?)
                }
                false => None,
            };
            let meta = fs::symlink_metadata(entry.path())?;
            tree.insert(name, TmpEntry::new(&meta, content));
        }
    }
    Ok(tree)
}

/// The last path (in order) whose entry differs between `before` and
/// `after`: a file made, rather than the folder whose times its making
/// moved.
fn changed(before: &TmpTree, after: &TmpTree) -> Option<String> {
    let paths: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    paths
        .into_iter()
        .rev()
        .find(|path| before.get(*path) != after.get(*path))
        .cloned()
}

/// A signal pending for `pid` (its status: `status`) or one of its threads
/// but `SIGCHLD` (a game's end sends that), or a handler of `SIGCHLD`, as
/// the error.
fn signals(pid: Pid, status: &str) -> io::Result<Result<(), String>> {
    if mask(status, "SigCgt:") & SIGCHLD_BIT != 0 {
        return Ok(Err(
            "the server handles SIGCHLD (its handler sees how each game ended)".into(),
        ));
    }
    let mut pending = mask(status, "ShdPnd:");
    for task in fs::read_dir(proc_path(pid, "task"))? {
        let path = task?.path().join("status");
        // A thread that ended meanwhile has nothing pending.
        if let Ok(status) = fs::read_to_string(path) {
            pending |= mask(&status, "SigPnd:");
        }
    }
    pending &= !SIGCHLD_BIT;
    Ok(match pending {
        0 => Ok(()),
        bits => Err(format!(
            "a signal was sent to the server (signal {})",
            bits.trailing_zeros() + 1
        )),
    })
}

/// How many threads a process has, from its `/proc/PID/status` text
/// (`Threads:`).
fn threads(status: &str) -> Option<usize> {
    let count = status.lines().find_map(|l| l.strip_prefix("Threads:"))?;
    count.trim().parse().ok()
}

/// A `/proc/PID/status` signal mask (hexadecimal) named `field`; 0 if
/// absent.
fn mask(status: &str, field: &str) -> u64 {
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two mappings as Linux 6 writes them in smaps (fields cut short).
    const SMAPS: &str = "\
7f1c2a000000-7f1c2a021000 r--p 00000000 00:1f 1234                       /usr/lib/x86_64-linux-gnu/libc.so.6
Size:                132 kB
Rss:                 120 kB
VmFlags: rd mr mw me sd
7f1c2b000000-7f1c2b001000 r--s 00000000 00:01 5678                       /dev/zero (deleted)
Size:                  4 kB
THPeligible:    0
VmFlags: rd sh mr mw me ms sd
";

    #[test]
    fn a_read_only_shared_mapping_that_may_be_made_writable_is_found() {
        // r--s, but mw: mprotect can make it writable (anonymous shared
        // memory is always opened for writing).
        assert_eq!(
            shared_writable_in(SMAPS).as_deref(),
            Some("7f1c2b000000-7f1c2b001000 /dev/zero (deleted)")
        );
    }

    #[test]
    fn private_mappings_and_shared_ones_that_may_never_be_written_are_not() {
        let read_only_file = SMAPS.replace("rd sh mr mw me ms", "rd sh mr me ms");
        assert_eq!(shared_writable_in(&read_only_file), None);
        let private = SMAPS.replace("r--s", "r--p").replace(" sh ", " ");
        assert_eq!(shared_writable_in(&private), None);
    }

    #[test]
    fn signal_masks_are_read_as_the_kernel_writes_them() {
        // Signal n is bit n - 1: SIGUSR1 (10) and SIGCHLD (17).
        let status = "Name:\tgreedy\nShdPnd:\t0000000000010200\nSigCgt:\t0000000000000000\n";
        assert_eq!(mask(status, "ShdPnd:"), (1 << 9) | SIGCHLD_BIT);
        assert_eq!(mask(status, "SigCgt:"), 0);
        assert_eq!(mask(status, "SigBlk:"), 0);
    }

    #[test]
    fn a_tmp_entry_made_removed_rewritten_or_touched_is_a_change() {
        let entry = |ino: u64, content: Option<&[u8]>| TmpEntry {
            ids: [ino, 0o100600, 1, 1000, 1000, 1],
            times: [(100, 5); 3],
            content: content.map(<[u8]>::to_vec),
        };
        let tree = |entries: &[(&str, u64, Option<&[u8]>)]| -> TmpTree {
            entries
                .iter()
                .map(|&(path, ino, content)| (path.to_string(), entry(ino, content)))
                .collect()
        };
        let before = tree(&[("/tmp/a", 5, Some(b"1")), ("/tmp/d", 6, None)]);
        assert_eq!(changed(&before, &before.clone()), None);
        let rewritten = tree(&[("/tmp/a", 5, Some(b"2")), ("/tmp/d", 6, None)]);
        assert_eq!(changed(&before, &rewritten).as_deref(), Some("/tmp/a"));
        let made = tree(&[
            ("/tmp/a", 5, Some(b"1")),
            ("/tmp/b", 7, None),
            ("/tmp/d", 6, None),
        ]);
        assert_eq!(changed(&before, &made).as_deref(), Some("/tmp/b"));
        let replaced = tree(&[("/tmp/a", 5, Some(b"1")), ("/tmp/d", 8, None)]);
        assert_eq!(changed(&before, &replaced).as_deref(), Some("/tmp/d"));
        assert_eq!(changed(&before, &TmpTree::new()).as_deref(), Some("/tmp/d"));
        // The same content written again, or a folder's entry made and
        // removed: only a time moves (here the change time, by 1 ns).
        let mut touched = before.clone();
        touched.get_mut("/tmp/d").unwrap().times[2].1 += 1;
        assert_eq!(changed(&before, &touched).as_deref(), Some("/tmp/d"));
    }

    #[test]
    fn threads_are_read_from_status() {
        // As Linux 6 writes /proc/PID/status (lines cut).
        let status = "Name:\tgreedy\nTgid:\t7\nThreads:\t3\nSigQ:\t0/63\n";
        assert_eq!(threads(status), Some(3));
        assert_eq!(threads("Name:\tgreedy\n"), None);
    }

    #[test]
    fn a_pid_in_the_jail_is_the_innermost_of_nspid() {
        let status = "Name:\tgreedy\nNSpid:\t81234\t7\nPPid:\t81200\n";
        assert_eq!(pid_in_jail(status), Some(7));
        assert_eq!(pid_in_jail("NSpid:\t81234\n"), Some(81234));
        assert_eq!(pid_in_jail("Name:\tgreedy\n"), None);
    }

    #[test]
    fn a_mapping_is_shared_when_its_permissions_end_in_s() {
        assert!(is_shared(
            "7f00-7f01 rw-s 00000000 00:01 5 /dev/zero (deleted)"
        ));
        assert!(!is_shared("7f00-7f01 rw-p 00000000 00:00 0"));
        assert!(!is_shared("Size:                  4 kB"));
    }
}
