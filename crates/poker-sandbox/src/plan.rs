//! The jail as a plan: from the limits, the mounts' arguments, the system
//! files found and the descriptor numbers passed, bubblewrap's command line.
//! Pure (no file, descriptor or process is touched), so it is tested by a
//! golden file without root or bubblewrap; [`super::Jail`] gathers the
//! resources (uid lease, cgroup, copies, descriptors) and follows the plan.

use std::ffi::{OsStr, OsString};

use rustix::process::Resource;

use super::facts::JailFacts;
use super::limits::Limits;
use super::reaper::REAPER_PATH;

/// The devices of a jail's `/dev`, bound from the host: what the census
/// found run-times and compilers open. No `ptmx` or `pts` (the machine's
/// pty count is one for all jails), no `tty`, `shm` or `fd` links.
pub const DEVICES: &[&str] = &["null", "zero", "full", "random", "urandom"];

/// The descriptors a jail hands to bubblewrap, by number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PassedFds {
    /// bubblewrap's JSON status channel (`--json-status-fd`).
    pub status: i32,
    /// The compiled seccomp filter (`--seccomp`).
    pub seccomp: i32,
    /// The reaper's executable (`--ro-bind-data`).
    pub reaper_file: i32,
    /// The reaper's channel, on which it writes the wait status.
    pub reaper_channel: i32,
}

/// What a jail sees of the host's system files.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) enum SystemView {
    /// The host's `/usr` read-only, and of `/etc` the files named (a
    /// compiler's view: it cannot see decks nor run contestant code).
    Host {
        /// Names of files and folders of `/etc` bound when present.
        etc_files: Vec<String>,
    },
    /// No host file: the caller's mounts bring a private copy of each file
    /// the program needs (a game's view).
    Private,
}

/// The uid and gid every program has inside its jail, whatever uid it
/// runs as outside (the jail's user namespace maps one to the other): the
/// uid leased outside is the first free one of its range, and would tell a
/// game how many other jails are alive on the machine.
pub const JAIL_UID: u32 = 1000;

/// bubblewrap's options for a jail: namespaces, the system files of
/// `system`, `/proc`, `/dev`, a `/tmp` of `limits.tmp_size` bytes, the
/// caller's `mount_args`, the reaper, the seccomp filter. `/lib`, `/lib64`,
/// `/bin` and `/sbin` are links into `/usr` in both views.
pub(crate) fn bwrap_options(
    limits: &Limits,
    system: &SystemView,
    mount_args: &[OsString],
    fds: &PassedFds,
) -> Vec<OsString> {
    let mut a: Vec<OsString> = Vec::new();
    let mut push = |items: &[&str]| a.extend(items.iter().map(OsString::from));
    push(&[
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--die-with-parent",
        // The reaper is the namespace's init: the program cannot signal it
        // (the kernel ignores such signals to an init from inside), and
        // when it exits the kernel kills whatever is left.
        "--as-pid-1",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--clearenv",
    ]);
    let uid = JAIL_UID.to_string();
    push(&["--uid", &uid, "--gid", &uid]);
    if matches!(system, SystemView::Host { .. }) {
        push(&["--ro-bind", "/usr", "/usr"]);
    }
    for (link, target) in [
        ("/lib", "usr/lib"),
        ("/lib64", "usr/lib64"),
        ("/bin", "usr/bin"),
        ("/sbin", "usr/sbin"),
    ] {
        push(&["--symlink", target, link]);
    }
    push(&["--dir", "/etc"]);
    if let SystemView::Host { etc_files } = system {
        for name in etc_files {
            let path = format!("/etc/{name}");
            push(&["--ro-bind-try", &path, &path]);
        }
    }
    // No /proc, for a game or a compiler: the census found no contestant
    // and no compiler that needs one. A game's would show the host's
    // mounts (the scratch folder, the contestant's index) and number its
    // inodes from the machine-wide counter on every lookup; a compiler's
    // would show the machine's counters (`/proc/sys/kernel/pty/nr`...),
    // which an include directive copies into the program.
    //
    // /dev: a tmpfs with only DEVICES bound in (no `ptmx` or `pts`, whose
    // count is one for the machine), remounted read-only below.
    push(&["--tmpfs", "/dev"]);
    for device in DEVICES {
        let path = format!("/dev/{device}");
        push(&["--dev-bind", &path, &path]);
    }
    let tmp_size = limits.tmp_size.to_string();
    push(&["--size", &tmp_size, "--tmpfs", "/tmp"]);
    a.extend(mount_args.iter().cloned());
    let (reaper, status, seccomp) = (
        fds.reaper_file.to_string(),
        fds.status.to_string(),
        fds.seccomp.to_string(),
    );
    let mut push = |items: &[&str]| a.extend(items.iter().map(OsString::from));
    push(&["--perms", "0555", "--ro-bind-data", &reaper, REAPER_PATH]);
    push(&[
        "--remount-ro",
        "/",
        "--remount-ro",
        "/dev",
        "--chdir",
        "/tmp",
        "--json-status-fd",
        &status,
        "--seccomp",
        &seccomp,
    ]);
    a
}

/// The rest of bubblewrap's command line: the environment (`base` then
/// `env`) and `-- REAPER FD PROGRAM ARGS...`.
pub(crate) fn bwrap_command_tail(
    base: &[(&str, &str)],
    env: &[(OsString, OsString)],
    reaper_channel: i32,
    program: &OsStr,
    args: &[OsString],
) -> Vec<OsString> {
    let mut a: Vec<OsString> = Vec::new();
    let base = base
        .iter()
        .map(|(k, v)| (OsString::from(k), OsString::from(v)));
    for (k, v) in base.chain(env.iter().cloned()) {
        a.extend(["--setenv".into(), k, v]);
    }
    a.extend([
        "--".into(),
        REAPER_PATH.into(),
        reaper_channel.to_string().into(),
        program.to_owned(),
    ]);
    a.extend(args.iter().cloned());
    a
}

/// The rlimits a jail sets before bubblewrap starts, as `(resource, soft,
/// hard)`: open files; CPU seconds (SIGXCPU at the soft limit, SIGKILL a
/// second later); no core files; the file size when `file_size` is set;
/// the process count per leased uid where no pids cgroup counts them; the
/// address space where no memory cgroup limits memory.
pub fn rlimits(
    limits: &Limits,
    facts: &JailFacts,
    file_size: Option<u64>,
) -> Vec<(Resource, u64, u64)> {
    let l = limits;
    let (cpu_soft, cpu_hard) = l.cpu_rlimit(facts.cgroup.as_ref().is_some_and(|c| c.cpu));
    let mut r = vec![
        (Resource::Nofile, l.open_files.into(), l.open_files.into()),
        (Resource::Cpu, cpu_soft, cpu_hard),
        (Resource::Core, 0, 0),
    ];
    if let Some(bytes) = file_size {
        r.push((Resource::Fsize, bytes, bytes));
    }
    let pids_cgroup = facts.cgroup.as_ref().is_some_and(|c| c.processes);
    if facts.leased_uid && !pids_cgroup {
        r.push((Resource::Nproc, l.processes.into(), l.processes.into()));
    }
    if !facts.cgroup.as_ref().is_some_and(|c| c.memory) {
        r.push((Resource::As, l.memory, l.memory));
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::fixtures;

    #[test]
    fn rlimits_stand_in_where_no_cgroup_limits() {
        // Default limits: 64 files, 5 s of CPU, 256 MiB, 64 processes.
        let limits = Limits::default();
        let with_cgroup = fixtures::full();
        assert_eq!(
            rlimits(&limits, &with_cgroup, None),
            vec![
                (Resource::Nofile, 64, 64),
                // The watch holds 5 s; the backstop is twice that.
                (Resource::Cpu, 10, 11),
                (Resource::Core, 0, 0),
            ]
        );
        let bare = JailFacts {
            leased_uid: true,
            ..fixtures::bare("none")
        };
        assert_eq!(
            rlimits(&limits, &bare, Some(65 << 20)),
            vec![
                (Resource::Nofile, 64, 64),
                (Resource::Cpu, 5, 6),
                (Resource::Core, 0, 0),
                (Resource::Fsize, 65 << 20, 65 << 20),
                (Resource::Nproc, 64, 64),
                (Resource::As, 256 << 20, 256 << 20),
            ]
        );
    }

    #[test]
    fn a_compilers_jail_sees_the_hosts_usr_and_the_etc_files_named() {
        let fds = PassedFds {
            status: 13,
            seccomp: 11,
            reaper_file: 12,
            reaper_channel: 14,
        };
        let system = SystemView::Host {
            etc_files: vec!["ld.so.cache".into()],
        };
        let argv = bwrap_options(&Limits::default(), &system, &[], &fds);
        let text: Vec<String> = argv.iter().map(|a| a.to_string_lossy().into()).collect();
        let text = text.join(" ");
        assert!(text.contains("--ro-bind /usr /usr"), "{text}");
        assert!(
            text.contains("--ro-bind-try /etc/ld.so.cache /etc/ld.so.cache"),
            "{text}"
        );
        // No /proc (the machine's counters), and the games' /dev: no ptmx.
        assert!(!text.contains("--proc"), "{text}");
        assert!(!text.contains("--dev /dev"), "{text}");
        assert!(!text.contains("ptmx"), "{text}");
        assert!(
            text.contains("--tmpfs /dev --dev-bind /dev/null /dev/null"),
            "{text}"
        );
        assert!(text.contains("--remount-ro /dev"), "{text}");
    }

    /// The golden file: one argument a line. To update it after a reviewed
    /// change, print the new plan and compare by hand.
    const GOLDEN: &str = include_str!("../../../tests/data/sandbox/bwrap_argv.txt");

    #[test]
    fn the_plan_of_a_game_matches_the_golden_file() {
        let limits = Limits::default();
        let mounts: Vec<OsString> = [
            "--ro-bind",
            "/tmp/poker-eval-1/images/0/usr",
            "/usr",
            "--perms",
            "0555",
            "--ro-bind-data",
            "10",
            "/game/program",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        let fds = PassedFds {
            status: 13,
            seccomp: 11,
            reaper_file: 12,
            reaper_channel: 14,
        };
        let mut argv = bwrap_options(&limits, &SystemView::Private, &mounts, &fds);
        argv.extend(bwrap_command_tail(
            &[("PATH", "/usr/bin:/bin"), ("HOME", "/tmp")],
            &[("POKER_MANAGER_FD".into(), "3".into())],
            fds.reaper_channel,
            OsStr::new("/game/program"),
            &["--flag".into()],
        ));
        let lines: Vec<String> = argv
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let expected: Vec<&str> = GOLDEN.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines, expected, "\n{}", lines.join("\n"));
    }
}
