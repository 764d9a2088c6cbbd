//! The seccomp filter of every game and compilation: system calls that let
//! one jail reach kernel state shared with another (keys, the page cache,
//! file-access events, other processes' memory), or that widen the kernel
//! surface a game can attack, fail with `EPERM`.
//!
//! Built with `seccompiler` (pure Rust, from the rust-vmm project, used by
//! Firecracker): no C library or `-dev` package to build against, argument
//! conditions for the calls that are denied only with some flags. It
//! compiles rules for one architecture but checks neither x32 call numbers
//! nor, with our answer, foreign architectures, so a prefix of our own
//! does: a call of another architecture (i386 through `int $0x80`) or an
//! x32 call (number at or above `0x4000_0000`) fails with `EPERM` before
//! the rules are read.
//!
//! A deny-list: everything else is allowed, as the kernel allows an
//! unprivileged user in its own namespaces. bubblewrap installs the filter
//! just before it starts the program (`--seccomp FD`), so its own set-up is
//! not filtered; every descendant of the program inherits it.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use seccompiler::{
    SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule,
    TargetArch, sock_filter,
};

/// The name of this filter as reports record it (`"syscall_filter"`).
/// Changes whenever the set of denied calls changes.
pub const SYSCALL_FILTER: &str = "poker-1";

/// Calls denied whatever their arguments, by name (for the docs and tests)
/// and number on this architecture.
pub fn denied_calls() -> Vec<(&'static str, i64)> {
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

#[cfg(target_arch = "x86_64")]
const ARCH: TargetArch = TargetArch::x86_64;
#[cfg(target_arch = "aarch64")]
const ARCH: TargetArch = TargetArch::aarch64;

/// `AUDIT_ARCH_X86_64` / `AUDIT_ARCH_AARCH64`: the `arch` field of a
/// native call.
#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 62 | 0x8000_0000 | 0x4000_0000;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 183 | 0x8000_0000 | 0x4000_0000;

/// `RWF_NOWAIT`: read or write only what needs no waiting, which tells a
/// cached page from a cold one.
const RWF_NOWAIT: u64 = 0x8;

/// `personality` flags that weaken the program's own protections or change
/// what later calls mean: `ADDR_NO_RANDOMIZE`, `MMAP_PAGE_ZERO`,
/// `ADDR_COMPAT_LAYOUT`, `READ_IMPLIES_EXEC`, `ADDR_LIMIT_32BIT`,
/// `SHORT_INODE`, `WHOLE_SECONDS`, `STICKY_TIMEOUTS`, `ADDR_LIMIT_3GB`.
const UNSAFE_PERSONALITY: &[u64] = &[
    0x004_0000, 0x010_0000, 0x020_0000, 0x040_0000, 0x080_0000, 0x100_0000, 0x200_0000, 0x400_0000,
    0x800_0000,
];

fn condition(arg: u8, op: SeccompCmpOp, value: u64) -> SeccompCondition {
    SeccompCondition::new(arg, SeccompCmpArgLen::Qword, op, value).expect("valid condition")
}

fn rule(conditions: Vec<SeccompCondition>) -> SeccompRule {
    SeccompRule::new(conditions).expect("valid rule")
}

/// The rules seccompiler compiles: each call that is denied, with the
/// argument conditions under which it is (none: always).
fn rules() -> BTreeMap<i64, Vec<SeccompRule>> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = denied_calls()
        .into_iter()
        .map(|(_, nr)| (nr, Vec::new()))
        .collect();
    // preadv2/pwritev2(fd, iov, iovcnt, pos_l, pos_h, flags).
    let nowait = || {
        vec![rule(vec![condition(
            5,
            SeccompCmpOp::MaskedEq(RWF_NOWAIT),
            RWF_NOWAIT,
        )])]
    };
    rules.insert(libc::SYS_preadv2, nowait());
    rules.insert(libc::SYS_pwritev2, nowait());
    // personality(0xffffffff) only asks; any other call setting an unsafe
    // flag is denied (the argument is an unsigned int).
    let personality = UNSAFE_PERSONALITY
        .iter()
        .map(|&flag| {
            rule(vec![
                SeccompCondition::new(
                    0,
                    SeccompCmpArgLen::Dword,
                    SeccompCmpOp::MaskedEq(flag),
                    flag,
                )
                .expect("valid condition"),
                SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Ne, 0xffff_ffff)
                    .expect("valid condition"),
            ])
        })
        .collect();
    rules.insert(libc::SYS_personality, personality);
    rules
}

const BPF_LD_W_ABS: u16 = 0x20;
const BPF_JEQ_K: u16 = 0x05 | 0x10;
const BPF_JGE_K: u16 = 0x05 | 0x30;
const BPF_RET_K: u16 = 0x06;
const SECCOMP_RET_ERRNO: u32 = 0x0005_0000;
/// Offsets in `struct seccomp_data`: `int nr; __u32 arch; ...`.
const NR_OFFSET: u32 = 0;
const ARCH_OFFSET: u32 = 4;
/// `__X32_SYSCALL_BIT`.
const X32_SYSCALL_BIT: u32 = 0x4000_0000;

fn insn(code: u16, jt: u8, jf: u8, k: u32) -> sock_filter {
    sock_filter { code, jt, jf, k }
}

/// The whole program: our architecture and x32 prefix, then seccompiler's
/// rules (which check the architecture again, harmlessly). BPF jumps only
/// forward and relative, so the prefix leaves seccompiler's jumps intact.
fn program() -> Vec<sock_filter> {
    let eperm = SECCOMP_RET_ERRNO | libc::EPERM as u32;
    let enosys = SECCOMP_RET_ERRNO | libc::ENOSYS as u32;
    let mut prog = vec![
        insn(BPF_LD_W_ABS, 0, 0, ARCH_OFFSET),
        insn(BPF_JEQ_K, 1, 0, AUDIT_ARCH),
        insn(BPF_RET_K, 0, 0, eperm),
        insn(BPF_LD_W_ABS, 0, 0, NR_OFFSET),
        insn(BPF_JGE_K, 0, 1, X32_SYSCALL_BIT),
        insn(BPF_RET_K, 0, 0, eperm),
        // clone3 passes its flags in memory, out of a filter's reach: it
        // must look absent (ENOSYS), so that glibc falls back to clone,
        // whose flags are checked as bubblewrap set them.
        insn(BPF_JEQ_K, 0, 1, libc::SYS_clone3 as u32),
        insn(BPF_RET_K, 0, 0, enosys),
    ];
    let filter = SeccompFilter::new(
        rules(),
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        ARCH,
    )
    .expect("the filter's rules are valid");
    let compiled: seccompiler::BpfProgram = filter.try_into().expect("the filter compiles");
    prog.extend(compiled);
    prog
}

/// The compiled filter as bubblewrap reads it: `struct sock_filter`s in
/// native byte order.
pub fn program_bytes() -> &'static [u8] {
    static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
    BYTES.get_or_init(|| {
        let mut bytes = Vec::new();
        for i in program() {
            bytes.extend_from_slice(&i.code.to_ne_bytes());
            bytes.push(i.jt);
            bytes.push(i.jf);
            bytes.extend_from_slice(&i.k.to_ne_bytes());
        }
        bytes
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_instruction_is_eight_bytes_and_the_prefix_checks_the_architecture() {
        let bytes = program_bytes();
        assert_eq!(bytes.len() % 8, 0);
        // First instruction: load the arch field (offset 4 of seccomp_data).
        assert_eq!(&bytes[..2], &BPF_LD_W_ABS.to_ne_bytes());
        assert_eq!(&bytes[4..8], &4u32.to_ne_bytes());
        // Well under the kernel's 4096-instruction limit.
        assert!(bytes.len() / 8 < 1000);
    }

    #[test]
    fn the_listed_names_are_the_kernels_numbers() {
        // Numbers from the kernel's arch/x86/entry/syscalls/syscall_64.tbl.
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
            let found = denied_calls().into_iter().find(|(n, _)| *n == name);
            assert_eq!(found, Some((name, nr)), "{name}");
        }
    }
}
