//! The seccomp filter of every game and compilation.
//!
//! A game's is an allow-list ([`super::calls::game_calls`]): every call not
//! on it fails with `EPERM`, so a call the census missed gives a careless
//! program an error, not a crash. A compilation's is broader: every call
//! but those of [`super::calls::compiler_denied_calls`] (it never sees a
//! deck and runs no contestant code). Both refuse every socket but
//! `AF_UNIX` and the socket and network-namespace cookies.
//!
//! Built with `seccompiler` (pure Rust, from the rust-vmm project, used by
//! Firecracker): no C library or `-dev` package to build against, argument
//! conditions for the calls allowed or denied only with some arguments. It
//! compiles rules for one architecture but checks neither x32 call numbers
//! nor, with our answer, foreign architectures, so a prefix of our own
//! does: a call of another architecture (i386 through `int $0x80`) or an
//! x32 call (number at or above `0x4000_0000`) fails with `EPERM` before
//! the rules are read, and `clone3` with `ENOSYS` (see [`program`]).
//!
//! bubblewrap installs the filter just before it starts the reaper
//! (`--seccomp FD`), so its own set-up is not filtered; the reaper, the
//! program and every descendant run under it.

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::sync::OnceLock;

use seccompiler::{
    SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule,
    TargetArch, sock_filter,
};

use super::calls::{
    AF_UNIX, CLONE_DENIED, COOKIE_OPTIONS, FCNTL_COMMANDS, FCNTL_LOCK_COMMANDS, IOCTL_REQUESTS,
    MADVISE_ADVICE, PRCTL_OPTIONS, SOL_SOCKET, When, compiler_denied_calls, game_calls,
};

/// The name of the filters as reports record it (`"syscall_filter"`):
/// `poker-` and the first 12 hex digits of the SHA-256 of both compiled
/// filters (a game's, then a compilation's, as [`program_bytes`] gives
/// them), so that any change to what is allowed or denied, or to how it is
/// compiled, names other filters. It differs between architectures, as the
/// filters do. `tests/data/sandbox/syscall_filter.txt` holds the call
/// lists and this name on x86_64 (a test compares them).
pub fn syscall_filter() -> &'static str {
    static NAME: OnceLock<String> = OnceLock::new();
    NAME.get_or_init(|| {
        let mut hash = Sha256::new();
        hash.update(program_bytes(Role::Game));
        hash.update(program_bytes(Role::Compiler));
        let digest = hash.finalize();
        let hex: String = digest[..6].iter().map(|b| format!("{b:02x}")).collect();
        format!("poker-{hex}")
    })
}

/// Whom a filter is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A game: the allow-list.
    Game,
    /// A compilation: everything but the denied calls.
    Compiler,
}

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

/// A condition on a 32-bit argument (the kernel reads only its low half).
fn condition32(arg: u8, op: SeccompCmpOp, value: u64) -> SeccompCondition {
    SeccompCondition::new(arg, SeccompCmpArgLen::Dword, op, value).expect("valid condition")
}

fn rule(conditions: Vec<SeccompCondition>) -> SeccompRule {
    SeccompRule::new(conditions).expect("valid rule")
}

/// Rules allowing a call when its 32-bit argument `arg` is one of `values`.
fn one_of(arg: u8, values: &[(&str, u64)]) -> Vec<SeccompRule> {
    values
        .iter()
        .map(|&(_, value)| rule(vec![condition32(arg, SeccompCmpOp::Eq, value)]))
        .collect()
}

/// A game's rules: the calls allowed, each with the argument conditions
/// under which it is (none: always).
fn game_rules() -> BTreeMap<i64, Vec<SeccompRule>> {
    game_calls()
        .into_iter()
        .map(|call| {
            let rules = match call.when {
                When::Always => Vec::new(),
                // clone(flags, ...): none of the denied flags set.
                When::CloneWithoutNamespaces => vec![rule(vec![condition(
                    0,
                    SeccompCmpOp::MaskedEq(CLONE_DENIED),
                    0,
                )])],
                // ioctl(fd, request, ...): the request is an unsigned int.
                When::IoctlRequests => one_of(1, IOCTL_REQUESTS),
                // prctl(option, ...), madvise(addr, length, advice): ints.
                When::PrctlOptions => one_of(0, PRCTL_OPTIONS),
                When::MadviseAdvice => one_of(2, MADVISE_ADVICE),
                // fcntl(fd, cmd, ...): cmd is an unsigned int.
                When::FcntlCommands => one_of(1, FCNTL_COMMANDS),
                // prlimit64(pid, ...): pid_t is an int.
                When::OwnProcess => one_of(0, &[("self", 0)]),
            };
            (call.nr, rules)
        })
        .collect()
}

/// A compilation's rules: the calls denied, each with the argument
/// conditions under which it is (none: always).
fn compiler_rules() -> BTreeMap<i64, Vec<SeccompRule>> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = compiler_denied_calls()
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
                condition32(0, SeccompCmpOp::MaskedEq(flag), flag),
                condition32(0, SeccompCmpOp::Ne, 0xffff_ffff),
            ])
        })
        .collect();
    rules.insert(libc::SYS_personality, personality);
    // The network: socket(domain, ...) and socketpair(domain, ...) only
    // for AF_UNIX (domain is an int).
    let not_unix = || vec![rule(vec![condition32(0, SeccompCmpOp::Ne, AF_UNIX)])];
    rules.insert(libc::SYS_socket, not_unix());
    rules.insert(libc::SYS_socketpair, not_unix());
    // getsockopt(fd, SOL_SOCKET, SO_COOKIE or SO_NETNS_COOKIE, ...).
    let cookies = COOKIE_OPTIONS
        .iter()
        .map(|&(_, option)| {
            rule(vec![
                condition32(1, SeccompCmpOp::Eq, SOL_SOCKET),
                condition32(2, SeccompCmpOp::Eq, option),
            ])
        })
        .collect();
    rules.insert(libc::SYS_getsockopt, cookies);
    // clone with a namespace flag (bubblewrap made the compiler's).
    let namespaces = (0..64)
        .map(|bit| 1u64 << bit)
        .filter(|flag| CLONE_DENIED & flag != 0)
        .map(|flag| rule(vec![condition(0, SeccompCmpOp::MaskedEq(flag), flag)]))
        .collect();
    rules.insert(libc::SYS_clone, namespaces);
    // fcntl(fd, cmd, ...) with a record-lock command (cmd is an unsigned
    // int): a lock on a file two jails share is seen from both.
    rules.insert(libc::SYS_fcntl, one_of(1, FCNTL_LOCK_COMMANDS));
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
fn program(role: Role) -> Vec<sock_filter> {
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
    let deny = SeccompAction::Errno(libc::EPERM as u32);
    let filter = match role {
        // Listed: allowed; anything else: EPERM.
        Role::Game => SeccompFilter::new(game_rules(), deny, SeccompAction::Allow, ARCH),
        // Listed: EPERM; anything else: allowed.
        Role::Compiler => SeccompFilter::new(compiler_rules(), SeccompAction::Allow, deny, ARCH),
    }
    .expect("the filter's rules are valid");
    let compiled: seccompiler::BpfProgram = filter.try_into().expect("the filter compiles");
    prog.extend(compiled);
    prog
}

/// The compiled filter of `role` as bubblewrap reads it: `struct
/// sock_filter`s in native byte order.
pub fn program_bytes(role: Role) -> &'static [u8] {
    static GAME: OnceLock<Vec<u8>> = OnceLock::new();
    static COMPILER: OnceLock<Vec<u8>> = OnceLock::new();
    let cell = match role {
        Role::Game => &GAME,
        Role::Compiler => &COMPILER,
    };
    cell.get_or_init(|| {
        let mut bytes = Vec::new();
        for i in program(role) {
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
    use crate::calls::{MADVISE_ADVICE, REFUSED_ON_PURPOSE};
    use std::fmt::Write;

    /// The golden file: the filters' name and every list they are built
    /// from, as [`lists`] writes them. A change to a list changes the file
    /// (and the name), so a review sees it.
    const GOLDEN: &str = include_str!("../../../tests/data/sandbox/syscall_filter.txt");

    fn pairs(list: &[(&str, u64)]) -> String {
        let named: Vec<String> = list.iter().map(|(n, v)| format!("{n} {v:#x}")).collect();
        named.join(", ")
    }

    /// The filters' name, then what a game may call (with which arguments)
    /// and what a compilation may not.
    fn lists() -> String {
        let mut text = String::new();
        let mut line = |s: String| writeln!(text, "{s}").unwrap();
        line(format!("name {}", syscall_filter()));
        line("game: allowed, every other call EPERM (clone3 ENOSYS)".into());
        for call in game_calls() {
            let when = match call.when {
                When::Always => String::new(),
                When::CloneWithoutNamespaces => format!(" flags without {CLONE_DENIED:#x}"),
                When::IoctlRequests => format!(" request one of {}", pairs(IOCTL_REQUESTS)),
                When::PrctlOptions => format!(" option one of {}", pairs(PRCTL_OPTIONS)),
                When::MadviseAdvice => format!(" advice one of {}", pairs(MADVISE_ADVICE)),
                When::FcntlCommands => format!(" command one of {}", pairs(FCNTL_COMMANDS)),
                When::OwnProcess => " pid 0 (its own)".into(),
            };
            line(format!("  {} {}{when}", call.name, call.nr));
        }
        line("game: refused on purpose".into());
        for (name, _) in REFUSED_ON_PURPOSE {
            line(format!("  {name}"));
        }
        line("compilation: denied (EPERM), every other call allowed".into());
        for (name, nr) in compiler_denied_calls() {
            line(format!("  {name} {nr}"));
        }
        line("compilation: denied with these arguments".into());
        line(format!("  preadv2, pwritev2 flags with {RWF_NOWAIT:#x}"));
        let unsafe_flags: Vec<String> = UNSAFE_PERSONALITY
            .iter()
            .map(|f| format!("{f:#x}"))
            .collect();
        line(format!(
            "  personality setting one of {}",
            unsafe_flags.join(", ")
        ));
        line(format!("  socket, socketpair domain not {AF_UNIX}"));
        line(format!(
            "  getsockopt level {SOL_SOCKET} option one of {}",
            pairs(COOKIE_OPTIONS)
        ));
        line(format!("  clone flags with any of {CLONE_DENIED:#x}"));
        line(format!(
            "  fcntl command one of {}",
            pairs(FCNTL_LOCK_COMMANDS)
        ));
        text
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_call_lists_and_the_filters_name_match_the_golden_file() {
        let text = lists();
        if std::env::var_os("POKER_BLESS").is_some() {
            let path = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../tests/data/sandbox/syscall_filter.txt"
            );
            let comments: String = GOLDEN
                .lines()
                .take_while(|l| l.starts_with('#'))
                .map(|l| format!("{l}\n"))
                .collect();
            std::fs::write(path, format!("{comments}{text}")).unwrap();
            return;
        }
        let golden: String = GOLDEN
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(
            text, golden,
            "the filters changed: review the change, then rewrite tests/data/sandbox/syscall_filter.txt \
             with `POKER_BLESS=1 cargo test -p poker-sandbox golden_file`"
        );
    }

    #[test]
    fn the_name_is_poker_and_twelve_hex_digits() {
        let name = syscall_filter();
        let hex = name.strip_prefix("poker-").expect(name);
        assert_eq!(hex.len(), 12, "{name}");
        assert!(
            hex.chars()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()),
            "{name}"
        );
    }

    #[test]
    fn every_instruction_is_eight_bytes_and_the_prefix_checks_the_architecture() {
        for role in [Role::Game, Role::Compiler] {
            let bytes = program_bytes(role);
            assert_eq!(bytes.len() % 8, 0);
            // First instruction: load the arch field (offset 4 of seccomp_data).
            assert_eq!(&bytes[..2], &BPF_LD_W_ABS.to_ne_bytes());
            assert_eq!(&bytes[4..8], &4u32.to_ne_bytes());
            // Well under the kernel's 4096-instruction limit.
            assert!(bytes.len() / 8 < 1000, "{role:?}: {}", bytes.len() / 8);
        }
    }
}
