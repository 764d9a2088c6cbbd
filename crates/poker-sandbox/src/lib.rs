//! Running one untrusted program confined, and saying how it ended: the
//! jail (bubblewrap namespaces, a uid of its own, a cgroup, rlimits, a
//! seccomp filter) and the process machinery around it. This crate knows
//! nothing of games: `poker-judge` plays and judges them on top of it.
//!
//! A run: [`launcher::Launcher::choose`] once (the sandbox, or plain
//! processes in a PID namespace of their own), then per program
//! [`Runner::start`] (its limits, its private root image:
//! [`private_root`], with the evaluator's channel as fd 3 if asked:
//! [`Fds`]) gives a [`Running`]; [`Running::finish`] ends it, kills
//! whatever it left, and gives its [`Outcome`]: how it ended
//! ([`Ended`]), what it used, its captured output. [`cpu_watch`] holds a
//! run's CPU-time limit by its cgroup's measure; [`affinity`] and
//! [`load`] place runs on CPUs and measure what others took of them.
//!
//! One game = one [`Jail`]: [`Jail::new`] leases a uid ([`UidLease`]),
//! creates a cgroup ([`GameCgroup`]) and prepares the mounts ([`Mounts`]);
//! [`Jail::command`] gives the [`std::process::Command`] that starts the
//! program under `bwrap`; [`Jail::outcome`] says how it ended and what it
//! used; [`Jail::limit_reports`] says how each of the [`Limits`] was
//! enforced. [`probe`] checks once that bubblewrap works here. The
//! command line itself is a pure [`plan`] of the limits, mounts and
//! descriptor numbers, tested by a golden file.
//!
//! # Threat model
//!
//! (For users, with the figures measured: `docs/sandbox.md`.)
//!
//! The contestant's program is hostile. It **can**:
//! - read what the evaluator gives it read-only: a game, its contestant's
//!   private [`Image`] (copies of the loader, the libraries, libpoker, the
//!   program; for Python the interpreter and its standard library: no host
//!   file, nothing of `/etc`; see [`closure`] for how the libraries are
//!   found without running anything); a compilation, the host's `/usr`
//!   (with `/bin`, `/lib`... as links into it) and, of `/etc`, only the
//!   dynamic linker's files, `alternatives/` and Free Pascal's `fpc*.cfg`;
//!   and what the evaluator binds read-only ([`Mounts::ro_binds`]);
//! - write its private `/tmp`, a tmpfs of [`Limits::tmp_size`] bytes
//!   (writing past it fails with `ENOSPC`), gone after the game;
//! - see no `/proc` at all, a game or a compilation (no contestant or
//!   compiler of the census needs one; a game's would show the host's
//!   mounts, naming the scratch folder and the contestant's index, and
//!   number its inodes from the machine-wide counter; a compiler's would
//!   show the machine's counters to an include directive);
//! - see a read-only `/dev` of [`plan::DEVICES`] (`null`, `zero`, `full`,
//!   `random`, `urandom`): no `ptmx` or `pts`, no `tty`, no `shm` (so no
//!   POSIX shared memory or named semaphores);
//! - run as [`PROGRAM_PATH`] (a Python script as [`PYTHON_SCRIPT_PATH`]),
//!   so its `argv[0]` names nothing of the host;
//! - make the system calls of the games' allow-list ([`syscall_filter`],
//!   [`calls::game_calls`]), as the kernel allows them an unprivileged user
//!   in a user namespace of its own (a compiler: every call but
//!   [`calls::compiler_denied_calls`]): a kernel bug in what remains is
//!   still a way out;
//! - use the descriptors the evaluator passes (its channel on fd 3).
//!
//! It **cannot**:
//! - see other files of the host (`/root`, `/home`, the host's `/tmp`,
//!   the rest of `/etc`), other games, or the evaluator's processes;
//! - reach any network: it has only a loopback interface of its own;
//! - write outside `/tmp` (`/` and `/dev` are remounted read-only);
//!   signal, trace or see processes outside its pid namespace; use System V IPC or abstract sockets of others (ipc and
//!   network namespaces); create user namespaces (`--disable-userns`);
//!   gain capabilities (none, and no-new-privileges) or a controlling
//!   terminal (`--new-session`);
//! - outlive the evaluator (`--die-with-parent`) or its game: dropping the
//!   jail kills everything in its cgroup;
//! - exceed the memory or process limits of [`Limits`] (the kernel's cgroup
//!   where there is one, rlimits otherwise: see [`Jail::limit_reports`]).
//!
//! # Shared kernel state
//!
//! A game shares nothing with another contestant's games that the kernel
//! keeps between them, or two contestants could play as a team (a spy
//! passing its cards to a friend). Each shared object and how it is closed:
//! - kernel keys (not namespaced; `/proc/keys` lists every key a caller may
//!   view, of any uid): `add_key`, `keyctl`, `request_key` are denied, and
//!   each game joins a fresh anonymous session keyring after its uid change
//!   (not the evaluator's, which may hold an organiser's tickets);
//! - the page cache: a game reads no host file and no file of another
//!   contestant's games, only its contestant's own copies ([`Image`]), so a
//!   page it warms or evicts is one no other contestant can read, by
//!   probing or by timing; the probes themselves (`fadvise64`, `mincore`,
//!   `cachestat`, `readahead`, `preadv2`/`pwritev2` with `RWF_NOWAIT`,
//!   Linux AIO, `io_uring`) are denied as well;
//! - file-access events on shared files: `inotify_*`, `fanotify_*` denied;
//! - other processes (bubblewrap's init is pid 1 of the game): `ptrace`,
//!   `process_vm_*`, `perf_event_open`, `kcmp`, `pidfd_getfd` denied;
//! - `/tmp`, System V IPC, abstract sockets, the network: private
//!   namespaces and a tmpfs per game;
//! - a compiler's build folder: mode 0700, owned by the compilation's
//!   leased uid while it runs, its files capped by `RLIMIT_FSIZE`;
//! - the pty pool (one count for the machine, whatever devpts instance
//!   made a pty): no `ptmx` in any jail;
//! - record locks on inodes two jails share (the host's device nodes bound
//!   into `/dev`): `fcntl` only with [`calls::FCNTL_COMMANDS`], never a
//!   lock command, classic or OFD (compilers are refused those too);
//! - the machine's counters of `/proc/sys` (the pty count...): no `/proc`
//!   for compilers either;
//! - the CPU and everything alive at once: two evaluations do not run
//!   jails at the same time, unless each holds CPUs of its own
//!   ([`MachineLease`]);
//! - the kernel's machine-wide counters and tables that no namespace
//!   covers, closed by the games' allow-list ([`calls`]) and their missing
//!   `/proc`:
//!   - the TCP ephemeral-port table (`connect` without `bind` takes its
//!     source port from one perturbation table for the machine, which each
//!     connect moves on): no socket;
//!   - socket cookies (`SO_COOKIE`, per-CPU batches of one counter) and
//!     the network namespace's cookie (`SO_NETNS_COOKIE`): no socket and
//!     no `getsockopt`, not even of the channel; no `sched_setaffinity`;
//!   - `AF_VSOCK` (not per network namespace; on a virtual machine it
//!     reaches the hypervisor): no socket, no `/dev/vsock`;
//!   - the mount namespace's id (`NS_GET_MNTNS_ID`) and the namespaces'
//!     inode numbers: no `/proc/self/ns`, `ioctl` only for `TCGETS`,
//!     `FIOCLEX`, `FIONCLEX`;
//!   - mount ids and `/proc/self/mountinfo` (which named the host's
//!     scratch folder and the contestant's index): no `statx`, no `/proc`;
//!   - the inode counter (`get_next_ino`: pipes, sockets, memfds, a
//!     fresh `/proc`'s lookups): no pipe, socket, memfd, pidfd, eventfd,
//!     timerfd or epoll instance, no `/proc`; a game's `/tmp` numbers its
//!     own inodes; `clone` without `CLONE_PIDFD` (pidfs numbers every
//!     process of the machine);
//!   - the load average, uptime and process count (`sysinfo`): refused;
//!   - same-page merging across the machine (`MADV_MERGEABLE`) and
//!     core-scheduling cookies (`PR_SCHED_CORE`): `madvise` and `prctl`
//!     only with the advice and options of [`calls::MADVISE_ADVICE`] and
//!     [`calls::PRCTL_OPTIONS`].
//!
//! What remains:
//! - the evaluator's own reads: it copies a contestant's libraries from the
//!   host when it builds the image, before any game, so a spy's choice of
//!   system libraries (in its `DT_NEEDED`) warms host pages no game reads;
//! - the clock: a spy can end its last game at a chosen moment and the next
//!   game can read the time: 9.0–9.6 bits a transition between
//!   consecutive games, as measured (descriptors made at a game's start
//!   carry a time within one tick of the previous game's end). The
//!   evaluator plays its games in a
//!   seeded shuffled order across contestants and decks
//!   (`evaluator::game_order`, the seed in the audit), so a spy cannot know
//!   whose game comes next;
//! - the inode numbers of the descriptors the evaluator makes for a game
//!   (its standard error, its channel), read with `fstat`: they say how
//!   many counted inodes the machine made between two games, which no game
//!   can change (it can make none): no bits from a spy;
//! - page-fault timing on memory a game maps;
//! - CPU contention between concurrent games (`poker bench --jobs`, one
//!   contestant only), and between evaluations on disjoint CPU sets:
//!   the caches those CPUs share, memory bandwidth, the clock frequency.
//!
//! # Timing
//!
//! The contest's limit is CPU time, measured by the game's cgroup and held
//! by the evaluator's watch, with `RLIMIT_CPU` a backstop at twice it (the
//! kernel's tick-sampled count overcharges a process sharing its CPU). The
//! wall clock is a hang guard, extended by the CPU time others took on the
//! game's CPUs while it waited; no game is ever played again because of how
//! it ended (a program could use that to redraw a deal it disliked). What
//! is still shared, and what an organiser does about it (`poker doctor`):
//! caches, memory bandwidth, SMT siblings and the CPU's frequency, which
//! change how much work a CPU-second buys; docs/contest.md, "Fair timing".
//!
//! # Users
//!
//! When the evaluator runs as root, each game runs as a uid and gid of its
//! own from [`DEFAULT_UID_RANGE`] (2 000 000 000–2 000 000 999), with no
//! supplementary groups, so even a kernel bug that let it out of its mount
//! namespace would leave it an unprivileged stranger to every file.
//! Without root there is no uid change: the game runs as the organiser's
//! uid inside its own user namespace. It still sees only what is bound,
//! but whatever it reaches it reaches with the organiser's rights, no cgroup
//! is writable, memory is an address-space rlimit per process and the
//! process count is not enforced: run contests as root.
//!
//! # The reaper
//!
//! bubblewrap reports a death by signal n as exit code 128 + n. So that
//! `exit(139)` is not read as SIGSEGV, the program runs under a reaper of
//! our own ([`REAPER_PATH`], a static program embedded in the evaluator and
//! copied into each jail) that reports its exact wait status on a pipe it
//! does not pass on.
//!
//! # Private images
//!
//! bubblewrap opens bind sources as the game's uid and has no bind from a
//! descriptor, so a contestant's copies must be readable by that uid: when
//! root, the evaluator mounts a tmpfs (mode 0755) per contestant under its
//! 0711 scratch folder, copies the files in once, and every game of that
//! contestant binds it read-only (its `/usr` as a whole, other top folders
//! likewise, files under `/tmp` one by one); it is unmounted when the
//! contestant's program is dropped, and [`clean_stale`] unmounts those of
//! an evaluator that was killed. Without root it is a plain folder of
//! copies, as private (no other contestant's game binds it).
//!
//! # Getting the program in
//!
//! bubblewrap opens what it binds as the game's uid, after the uid change,
//! so it cannot bind a file under a 0700 folder such as `/root`. A file in
//! [`Mounts::ro_binds`] is therefore opened by the evaluator (still root)
//! and handed to bubblewrap as a descriptor (`--ro-bind-data`), which
//! copies it into the jail read-only, executable when the host file is.
//! (bubblewrap 0.8's `--ro-bind-fd` resolves the descriptor back to its
//! path and fails the same way.) Folders are bound as they are and must be
//! reachable by others.
//!
//! # The cgroup
//!
//! [`GameCgroup::create`] tries cgroup v2 first (a hierarchy with the
//! `memory` and `pids` controllers: the delegated folder named by
//! `POKER_SANDBOX_CGROUP`, else `poker-sandbox/` at the cgroup2 mount), then
//! cgroup v1 (`memory`, `pids`, `cpuacct` hierarchies, each under
//! `poker-sandbox/`). The bubblewrap process joins it before it starts, so
//! everything the game runs is in it. A delegated folder is prepared once:
//! when the evaluator itself lives in it (`systemd-run --scope -p
//! Delegate=yes`), it first moves into `<folder>/supervisor`
//! ([`SUPERVISOR_LEAF`]), since a cgroup v2 folder holding processes cannot
//! enable controllers for its children. A named folder that cannot be used
//! is an error; without any cgroup, rlimits stand in and
//! [`cgroup_fallback`] says why (the evaluator warns once).
//!
//! A fork server's jail ([`CgroupShape::ForkServer`]) holds its games'
//! cgroups inside its own, so that the memory and process limits hold for
//! the server and its games together: on v2 a folder with a
//! [`SERVER_LEAF`] for the server and a leaf per game, on v1 the games'
//! `memory` and `pids` folders inside the server's.
#![deny(missing_docs)]

pub mod affinity;
mod bwrap;
pub mod calls;
mod cgroup;
pub mod closure;
pub mod cpu_watch;
mod error;
mod facts;
mod fds;
mod filter;
mod image;
pub mod launcher;
mod lease;
mod limits;
pub mod load;
mod mounts;
mod pid_namespace;
pub mod plan;
pub mod private_root;
pub mod process;
mod reaper;
mod runner;
mod scratch;
pub mod size;
mod status;
mod uid;
mod wait;

pub use bwrap::{BASE_ENV, Ended, Jail, Usage, probe, probe_jail};
pub use cgroup::{
    CGROUP_ENV, CGROUP_PARENT, CgroupError, CgroupJoin, CgroupShape, CpuMeter, FreezerKeepalive,
    GameCgroup, SERVER_LEAF, SUPERVISOR_LEAF, Waits, fallback as cgroup_fallback,
};
pub use error::{LaunchError, SandboxError};
pub use facts::{CgroupFacts, JailFacts};
pub use fds::close_inherited_on_exec;
pub use filter::{Role as FilterRole, program_bytes, syscall_filter};
pub use image::{Image, clean_stale};
pub use lease::MachineLease;
pub use limits::{Enforcement, LimitReport, Limits, RlimitScope, WALL_PER_CPU};
pub use mounts::{
    ETC_FILES, FIRST_PASSED_FD, Mounts, PROGRAM_PATH, PYTHON_SCRIPT_PATH, reachable_by_others,
};
pub use process::{Outcome, Running};
pub use reaper::REAPER_PATH;
pub use runner::{Fds, Runner};
pub use scratch::{private_dir, private_dir_in};
pub use status::ProgramEnding;
pub use uid::{DEFAULT_UID_RANGE, UidLease};
