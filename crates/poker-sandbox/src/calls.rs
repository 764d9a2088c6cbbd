//! The system calls of the seccomp filter, in one place: the allow-list of
//! a game, the deny-list of a compilation, and the argument rules of both.
//!
//! A game's list comes from a census: every call the shipped examples and
//! test contestants make (C, C++ with libstdc++, Free Pascal, Python 3 with
//! its start-up, the libpoker module and the standard-library modules a
//! contestant plausibly imports), fresh and as fork servers, plus the
//! reaper's, traced with `strace -f` (see the census test,
//! `crates/poker-cli/tests/cli_tests/syscall_census.rs`). A few calls that
//! do what a listed call does in an older or newer form are listed with it,
//! so that a program built another way gets the same answer. Nothing that
//! creates a kernel object numbered from a machine-wide counter (pipes,
//! sockets, memfds, pidfds, eventfds, timerfds, epoll instances) is on it:
//! no census contestant needs one.

/// A call a game may make, with why (for the docs, the tests and whoever
/// changes the list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allowed {
    /// Its name, as `strace` and the kernel's tables spell it.
    pub name: &'static str,
    /// Its number on this architecture.
    pub nr: i64,
    /// Which arguments it is allowed with.
    pub when: When,
}

/// The arguments a listed call is allowed with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Any.
    Always,
    /// `clone` without a flag of [`CLONE_DENIED`]: threads and processes,
    /// no namespace and no pidfd.
    CloneWithoutNamespaces,
    /// `ioctl` with one of [`IOCTL_REQUESTS`] only.
    IoctlRequests,
    /// `prctl` with one of [`PRCTL_OPTIONS`] only.
    PrctlOptions,
    /// `madvise` with one of [`MADVISE_ADVICE`] only.
    MadviseAdvice,
    /// `fcntl` with one of [`FCNTL_COMMANDS`] only.
    FcntlCommands,
    /// `prlimit64` on the calling process only (pid 0).
    OwnProcess,
}

/// `clone` flags a game may not pass: every namespace flag (a game gets
/// no namespace of its own, it would be a fresh counter to read) and
/// `CLONE_PIDFD` (a pidfd's inode number counts every process of the
/// machine). `CLONE_NEWTIME` (0x80) is only valid through `clone3` and
/// `unshare`, both denied; in `clone` those bits are the exit signal.
pub const CLONE_DENIED: u64 = 0x0000_1000 // CLONE_PIDFD
    | 0x0002_0000 // CLONE_NEWNS
    | 0x0200_0000 // CLONE_NEWCGROUP
    | 0x0400_0000 // CLONE_NEWUTS
    | 0x0800_0000 // CLONE_NEWIPC
    | 0x1000_0000 // CLONE_NEWUSER
    | 0x2000_0000 // CLONE_NEWPID
    | 0x4000_0000; // CLONE_NEWNET

/// The `ioctl` requests the census found: `TCGETS` (`isatty`, asked of
/// the standard streams by the C, Pascal and Python run-times), `FIOCLEX`
/// (Python marks descriptors close-on-exec with it) and its inverse
/// `FIONCLEX`. None reads a namespace id (`NS_GET_*`), a terminal of the
/// host or a device.
pub const IOCTL_REQUESTS: &[(&str, u64)] = &[
    ("TCGETS", 0x5401),
    ("FIOCLEX", 0x5451),
    ("FIONCLEX", 0x5450),
];

/// The `fcntl` commands a game may use, those the census found: copying a
/// descriptor and reading or setting its flags and its file's status
/// flags. No lock command ([`FCNTL_LOCK_COMMANDS`]): a lock on a file two
/// jails share (a device node of `/dev`) is seen by every process of the
/// machine that asks. Nor leases, notifications, pipe sizes or seals.
pub const FCNTL_COMMANDS: &[(&str, u64)] = &[
    ("F_DUPFD", 0),
    ("F_GETFD", 1),
    ("F_SETFD", 2),
    ("F_GETFL", 3),
    ("F_SETFL", 4),
    ("F_DUPFD_CLOEXEC", 1030),
];

/// The `fcntl` commands of record locks, classic and open-file-description
/// ("OFD"): refused to games (not on [`FCNTL_COMMANDS`]) and to compilers
/// (`compiler_rules` in `filter.rs`). On 64-bit Linux the `*64` forms have
/// the same numbers.
pub const FCNTL_LOCK_COMMANDS: &[(&str, u64)] = &[
    ("F_GETLK", 5),
    ("F_SETLK", 6),
    ("F_SETLKW", 7),
    ("F_OFD_GETLK", 36),
    ("F_OFD_SETLK", 37),
    ("F_OFD_SETLKW", 38),
];

/// The `prctl` options a game may use: `PR_SET_DUMPABLE` (the reaper
/// hides itself from its program with it) and the harmless questions and
/// settings of a process's own name, dumpability and parent-death signal.
/// Not the others: core-scheduling cookies (`PR_SCHED_CORE`, hashed kernel
/// addresses), same-page merging (`PR_SET_MEMORY_MERGE`), ...
pub const PRCTL_OPTIONS: &[(&str, u64)] = &[
    ("PR_SET_PDEATHSIG", 1),
    ("PR_GET_PDEATHSIG", 2),
    ("PR_GET_DUMPABLE", 3),
    ("PR_SET_DUMPABLE", 4),
    ("PR_SET_NAME", 15),
    ("PR_GET_NAME", 16),
];

/// The `madvise` advice a game may give about its own memory: the usual
/// access hints, freeing (`MADV_DONTNEED`, which the C library uses for a
/// thread's stack, `MADV_FREE`), huge pages, dumps and forks. Not
/// `MADV_MERGEABLE` (same-page merging across the machine, a known channel),
/// nor page-out, poisoning or collapsing.
pub const MADVISE_ADVICE: &[(&str, u64)] = &[
    ("MADV_NORMAL", 0),
    ("MADV_RANDOM", 1),
    ("MADV_SEQUENTIAL", 2),
    ("MADV_WILLNEED", 3),
    ("MADV_DONTNEED", 4),
    ("MADV_FREE", 8),
    ("MADV_DONTFORK", 10),
    ("MADV_DOFORK", 11),
    ("MADV_HUGEPAGE", 14),
    ("MADV_NOHUGEPAGE", 15),
    ("MADV_DONTDUMP", 16),
    ("MADV_DODUMP", 17),
];

macro_rules! calls {
    ($($name:ident),* $(,)?) => {
        [$((stringify!($name), libc::$name)),*]
    };
}

fn always(pairs: &[(&'static str, i64)]) -> Vec<Allowed> {
    pairs
        .iter()
        .map(|&(name, nr)| Allowed {
            name: name.strip_prefix("SYS_").unwrap_or(name),
            nr,
            when: When::Always,
        })
        .collect()
}

/// Calls the census saw that are refused all the same, with why: each
/// reads machine-wide state, and the programs that make it run on without
/// it (the census test checks that they score as unconfined).
pub const REFUSED_ON_PURPOSE: &[(&str, &str)] = &[(
    "sysinfo",
    "the machine's load averages, uptime and process count: a game's CPU use \
     moves the load average for minutes after it; Python asks it for the \
     memory size at start-up and goes on without",
)];

/// The calls a game may make; every other call fails with `EPERM`
/// (`clone3` with `ENOSYS`, see `filter.rs`).
pub fn game_calls() -> Vec<Allowed> {
    use libc::*;
    let mut calls: Vec<Allowed> = Vec::new();
    // Memory: the loader, malloc (mremap: realloc of a large block), the
    // run-times' stacks and guard pages.
    calls.extend(always(&calls![
        SYS_brk,
        SYS_mmap,
        SYS_munmap,
        SYS_mprotect,
        SYS_mremap,
    ]));
    calls.push(Allowed {
        name: "madvise",
        nr: SYS_madvise,
        when: When::MadviseAdvice,
    });
    // Files: the program's own copies, its private /tmp, the standard
    // streams and the channel (fd 3). Python writes its bytecode caches
    // (mkdir, rename; read-only here, so they fail with EROFS).
    calls.extend(always(&calls![
        SYS_read,
        SYS_write,
        SYS_readv,
        SYS_writev,
        SYS_pread64,
        SYS_pwrite64,
        SYS_lseek,
        SYS_close,
        SYS_openat,
        SYS_newfstatat,
        SYS_fstat,
        SYS_faccessat,
        SYS_faccessat2,
        SYS_readlinkat,
        SYS_getdents64,
        SYS_getcwd,
        SYS_chdir,
        SYS_dup,
        SYS_dup3,
        SYS_mkdirat,
        SYS_renameat,
        SYS_renameat2,
        SYS_unlinkat,
        SYS_ftruncate,
        SYS_fsync,
        SYS_fdatasync,
        SYS_umask,
    ]));
    // Waiting on the channel and talking on it: libpoker polls it, sends
    // on it, and a fork server receives each game's descriptors on it
    // (recvmsg with SCM_RIGHTS).
    calls.extend(always(&calls![
        SYS_ppoll,
        SYS_pselect6,
        SYS_sendto,
        SYS_recvfrom,
        SYS_recvmsg,
    ]));
    // Processes and threads inside the game's own pid namespace: the
    // reaper starts and waits for the program, a fork server forks a child
    // per game and puts it in a process group of its own; threads
    // (std::thread, pthreads; clone3 is answered ENOSYS, so the C library
    // falls back to clone).
    calls.push(Allowed {
        name: "clone",
        nr: SYS_clone,
        when: When::CloneWithoutNamespaces,
    });
    calls.extend(always(&calls![
        SYS_execve,
        SYS_wait4,
        SYS_waitid,
        SYS_exit,
        SYS_exit_group,
        SYS_kill,
        SYS_tgkill,
        SYS_tkill,
        SYS_getpid,
        SYS_getppid,
        SYS_gettid,
        SYS_setpgid,
        SYS_getpgid,
        SYS_getuid,
        SYS_geteuid,
        SYS_getgid,
        SYS_getegid,
        SYS_getrlimit,
        SYS_getrusage,
        SYS_times,
        SYS_sched_yield,
        SYS_sched_getaffinity,
    ]));
    // Thread set-up and synchronisation (the C library, libstdc++).
    calls.extend(always(&calls![
        SYS_futex,
        SYS_set_robust_list,
        SYS_rseq,
        SYS_set_tid_address,
    ]));
    // Signals: handlers and their return, masks, waiting for one.
    calls.extend(always(&calls![
        SYS_rt_sigaction,
        SYS_rt_sigprocmask,
        SYS_rt_sigreturn,
        SYS_rt_sigsuspend,
        SYS_sigaltstack,
    ]));
    // Time and randomness (the vDSO answers most clock reads without a
    // call; these are its fall-backs), sleeping.
    calls.extend(always(&calls![
        SYS_clock_gettime,
        SYS_clock_getres,
        SYS_gettimeofday,
        SYS_clock_nanosleep,
        SYS_nanosleep,
        SYS_getrandom,
    ]));
    // The kernel's name (the C library, Python's platform module).
    calls.extend(always(&calls![SYS_uname]));
    calls.push(Allowed {
        name: "prctl",
        nr: SYS_prctl,
        when: When::PrctlOptions,
    });
    // Descriptor flags and copies (no locks: see FCNTL_COMMANDS).
    calls.push(Allowed {
        name: "fcntl",
        nr: SYS_fcntl,
        when: When::FcntlCommands,
    });
    // Its own resource limits (the C library's getrlimit and setrlimit):
    // not another process's, such as the reaper's, which outlives a fork
    // server's games and would carry what one game set to the next.
    calls.push(Allowed {
        name: "prlimit64",
        nr: SYS_prlimit64,
        when: When::OwnProcess,
    });
    calls.push(Allowed {
        name: "ioctl",
        nr: SYS_ioctl,
        when: When::IoctlRequests,
    });
    #[cfg(target_arch = "x86_64")]
    {
        // The older forms of listed calls, which x86-64 keeps and the Free
        // Pascal run-time (its own system calls, no C library) and the C
        // library use: open, stat, access, readlink...; arch_prctl sets
        // the thread pointer; fork and vfork are clone's older forms.
        calls.extend(always(&calls![
            SYS_open,
            SYS_stat,
            SYS_lstat,
            SYS_access,
            SYS_readlink,
            SYS_getdents,
            SYS_dup2,
            SYS_mkdir,
            SYS_rename,
            SYS_unlink,
            SYS_poll,
            SYS_select,
            SYS_pause,
            SYS_time,
            SYS_arch_prctl,
            SYS_fork,
            SYS_vfork,
        ]));
    }
    calls
}

/// The calls a compilation may not make whatever their arguments, by name
/// (for the docs and tests) and number on this architecture. A compiler
/// keeps a broader list than a game (everything not named here, as the
/// kernel allows an unprivileged user in its own namespaces): it never
/// sees a deck and runs no contestant code. Its network rules
/// (`compiler_rules` in `filter.rs`): sockets only `AF_UNIX`, no socket or
/// network-namespace cookie.
pub fn compiler_denied_calls() -> Vec<(&'static str, i64)> {
    use libc::*;
    let mut calls = vec![
        // The kernel keyring: keys are not namespaced.
        ("add_key", SYS_add_key),
        ("keyctl", SYS_keyctl),
        ("request_key", SYS_request_key),
        // Other processes' memory and performance counters.
        ("ptrace", SYS_ptrace),
        ("process_vm_readv", SYS_process_vm_readv),
        ("process_vm_writev", SYS_process_vm_writev),
        ("perf_event_open", SYS_perf_event_open),
        ("kcmp", SYS_kcmp),
        ("pidfd_getfd", SYS_pidfd_getfd),
        ("process_madvise", SYS_process_madvise),
        ("bpf", SYS_bpf),
        ("userfaultfd", SYS_userfaultfd),
        // Asynchronous I/O: both accept RWF_NOWAIT, a page-cache probe.
        ("io_uring_setup", SYS_io_uring_setup),
        ("io_uring_enter", SYS_io_uring_enter),
        ("io_uring_register", SYS_io_uring_register),
        ("io_setup", SYS_io_setup),
        ("io_submit", SYS_io_submit),
        ("io_getevents", SYS_io_getevents),
        ("io_pgetevents", IO_PGETEVENTS),
        ("io_cancel", SYS_io_cancel),
        ("io_destroy", SYS_io_destroy),
        // File-access events, which show other processes' reads.
        ("inotify_init1", SYS_inotify_init1),
        ("inotify_add_watch", SYS_inotify_add_watch),
        ("fanotify_init", SYS_fanotify_init),
        ("fanotify_mark", SYS_fanotify_mark),
        // The page cache: evicting, probing, filling.
        ("fadvise64", SYS_fadvise64),
        ("mincore", SYS_mincore),
        ("cachestat", CACHESTAT),
        ("readahead", SYS_readahead),
        // Mounts and namespaces.
        ("mount", SYS_mount),
        ("umount2", SYS_umount2),
        ("pivot_root", SYS_pivot_root),
        ("unshare", SYS_unshare),
        ("setns", SYS_setns),
        ("fsopen", SYS_fsopen),
        ("fsconfig", SYS_fsconfig),
        ("fsmount", SYS_fsmount),
        ("fspick", SYS_fspick),
        ("move_mount", SYS_move_mount),
        ("open_tree", SYS_open_tree),
        ("mount_setattr", SYS_mount_setattr),
        ("open_by_handle_at", SYS_open_by_handle_at),
        ("name_to_handle_at", SYS_name_to_handle_at),
        // The machine itself.
        ("kexec_load", SYS_kexec_load),
        ("kexec_file_load", SYS_kexec_file_load),
        ("init_module", SYS_init_module),
        ("finit_module", SYS_finit_module),
        ("delete_module", SYS_delete_module),
        ("swapon", SYS_swapon),
        ("swapoff", SYS_swapoff),
        ("reboot", SYS_reboot),
        ("acct", SYS_acct),
        ("quotactl", SYS_quotactl),
        ("quotactl_fd", SYS_quotactl_fd),
        ("syslog", SYS_syslog),
        ("lookup_dcookie", SYS_lookup_dcookie),
    ];
    #[cfg(target_arch = "x86_64")]
    calls.push(("inotify_init", SYS_inotify_init));
    calls
}

#[cfg(target_arch = "x86_64")]
const IO_PGETEVENTS: i64 = 333;
#[cfg(target_arch = "aarch64")]
const IO_PGETEVENTS: i64 = 292;
/// The same number on every architecture (new calls share one table).
const CACHESTAT: i64 = 451;

/// `AF_UNIX`: the only socket family a compiler may create (a game may
/// create no socket at all: its channel is fd 3).
pub const AF_UNIX: u64 = 1;

/// `getsockopt(SOL_SOCKET, ...)` options no jail may read: `SO_COOKIE`
/// (57) and `SO_NETNS_COOKIE` (71) number sockets and network namespaces
/// from machine-wide counters.
pub const COOKIE_OPTIONS: &[(&str, u64)] = &[("SO_COOKIE", 57), ("SO_NETNS_COOKIE", 71)];

/// `SOL_SOCKET`.
pub const SOL_SOCKET: u64 = 1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_call_is_listed_once_with_the_kernels_number() {
        let calls = game_calls();
        let mut names: Vec<_> = calls.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), calls.len(), "a call listed twice");
        // Numbers from the kernel's arch/x86/entry/syscalls/syscall_64.tbl.
        #[cfg(target_arch = "x86_64")]
        for (name, nr) in [
            ("read", 0),
            ("open", 2),
            ("ioctl", 16),
            ("clone", 56),
            ("recvmsg", 47),
            ("getrandom", 318),
            ("rseq", 334),
            ("faccessat2", 439),
        ] {
            let found = calls.iter().find(|c| c.name == name).map(|c| c.nr);
            assert_eq!(found, Some(nr), "{name}");
        }
    }

    #[test]
    fn no_call_that_makes_a_counted_object_or_reads_a_namespace_is_listed() {
        let names: Vec<_> = game_calls().iter().map(|c| c.name).collect();
        for forbidden in [
            "socket",
            "socketpair",
            "getsockopt",
            "setsockopt",
            "pipe",
            "pipe2",
            "memfd_create",
            "eventfd2",
            "timerfd_create",
            "pidfd_open",
            "epoll_create1",
            "statx",
            "clone3",
            "unshare",
            "setns",
            "ptrace",
            "keyctl",
        ] {
            assert!(!names.contains(&forbidden), "{forbidden} is listed");
        }
    }

    #[test]
    fn no_lock_command_is_among_the_games_fcntl_commands() {
        // Numbers from the kernel's include/uapi/asm-generic/fcntl.h
        // (F_DUPFD_CLOEXEC: F_LINUX_SPECIFIC_BASE 1024 + 6).
        let allowed: Vec<u64> = FCNTL_COMMANDS.iter().map(|&(_, n)| n).collect();
        assert_eq!(allowed, [0, 1, 2, 3, 4, 1030]);
        let locks: Vec<u64> = FCNTL_LOCK_COMMANDS.iter().map(|&(_, n)| n).collect();
        assert_eq!(locks, [5, 6, 7, 36, 37, 38]);
        let fcntl = game_calls().into_iter().find(|c| c.name == "fcntl");
        assert_eq!(fcntl.map(|c| c.when), Some(When::FcntlCommands));
    }

    #[test]
    fn the_compiler_list_names_the_kernels_numbers() {
        #[cfg(target_arch = "x86_64")]
        for (name, nr) in [
            ("add_key", 248),
            ("keyctl", 250),
            ("ptrace", 101),
            ("io_uring_setup", 425),
            ("cachestat", 451),
            ("io_pgetevents", 333),
            ("fadvise64", 221),
            ("userfaultfd", 323),
        ] {
            let found = compiler_denied_calls()
                .into_iter()
                .find(|(n, _)| *n == name);
            assert_eq!(found, Some((name, nr)), "{name}");
        }
    }
}
