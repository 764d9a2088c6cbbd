/* poker-reaper: runs a program inside the sandbox and reports its exact
 * wait status to the evaluator.
 *
 *   poker-reaper FD PROGRAM [ARG...]
 *
 * bubblewrap starts it as pid 1 of the game's PID namespace (--as-pid-1),
 * so the program cannot signal it, and it reaps orphans as an init must.
 * Starts PROGRAM as its child (with its own environment), waits for it and
 * writes `{ "wait-status": N }` (N as waitpid gives it) to descriptor FD,
 * then exits 0. If PROGRAM cannot be run it writes `{ "exec-errno": E }`
 * instead and the child exits 127. FD is close-on-exec, so the program
 * never holds it; the reaper is not dumpable, so the program (same uid)
 * cannot reach it through /proc either.
 *
 * bubblewrap reports a program's death by signal n as exit code 128 + n,
 * which cannot be told from a program that exits with 128 + n; this is
 * what tells them apart.
 *
 * Freestanding (no C library): a few kilobytes, built static by build.rs
 * and embedded in the evaluator, which copies it into each jail. */

#if defined(__x86_64__)
enum { NR_write = 1, NR_close = 3, NR_clone = 56, NR_execve = 59, NR_wait4 = 61,
       NR_fcntl = 72, NR_prctl = 157, NR_exit_group = 231 };
static long sys(long n, long a, long b, long c, long d)
{
    long r;
    register long r10 __asm__("r10") = d;
    __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10)
                     : "rcx", "r11", "memory");
    return r;
}
__asm__(".text\n.global _start\n_start:\n"
        "  xor %rbp, %rbp\n  mov %rsp, %rdi\n  and $-16, %rsp\n  call reaper_main\n  hlt\n");
#elif defined(__aarch64__)
enum { NR_write = 64, NR_close = 57, NR_clone = 220, NR_execve = 221, NR_wait4 = 260,
       NR_fcntl = 25, NR_prctl = 167, NR_exit_group = 94 };
static long sys(long n, long a, long b, long c, long d)
{
    register long x8 __asm__("x8") = n;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
    return x0;
}
__asm__(".text\n.global _start\n_start:\n  mov x0, sp\n  bl reaper_main\n  brk #0\n");
#else
#error "poker-reaper supports x86_64 and aarch64"
#endif

enum { SIGCHLD = 17, F_SETFD = 2, FD_CLOEXEC = 1, PR_SET_DUMPABLE = 4, EINTR = 4 };

static void out(long fd, const char *s)
{
    long n = 0;
    while (s[n]) n++;
    sys(NR_write, fd, (long)s, n, 0);
}

/* Writes a decimal number to fd. */
static void number(long fd, long value)
{
    char digits[24], *p = digits + sizeof digits;
    int negative = value < 0;
    unsigned long v = negative ? -(unsigned long)value : (unsigned long)value;
    *--p = 0;
    do { *--p = (char)('0' + v % 10); v /= 10; } while (v);
    if (negative) *--p = '-';
    out(fd, p);
}

/* Writes `{ "KEY": VALUE }\n` to fd. */
static void field(long fd, const char *key, long value)
{
    out(fd, "{ \"");
    out(fd, key);
    out(fd, "\": ");
    number(fd, value);
    out(fd, " }\n");
}

__attribute__((noreturn)) static void leave(long code)
{
    for (;;) sys(NR_exit_group, code, 0, 0, 0);
}

/* Waits for `pid`, reaping any other child on the way (as an init must:
 * orphans of the program are re-parented to it). */
static int wait_for(long pid)
{
    int status = 0;
    for (;;) {
        long r = sys(NR_wait4, -1, (long)&status, 0, 0);
        if (r == pid) return status;
        if (r < 0 && r != -EINTR) return 127 << 8; /* not expected: no such child */
    }
}

__attribute__((noreturn, used)) void reaper_main(long *sp)
{
    long argc = sp[0], fd = 0, pid;
    char **argv = (char **)(sp + 1), **envp = argv + argc + 1;
    const char *p;
    int status = 0;
    if (argc < 3) {
        out(2, "usage: poker-reaper FD PROGRAM [ARG...]\n");
        leave(127);
    }
    for (p = argv[1]; *p >= '0' && *p <= '9'; p++) fd = fd * 10 + (*p - '0');
    sys(NR_prctl, PR_SET_DUMPABLE, 0, 0, 0);
    sys(NR_fcntl, fd, F_SETFD, FD_CLOEXEC, 0);
    pid = sys(NR_clone, SIGCHLD, 0, 0, 0);
    if (pid == 0) {
        long err = sys(NR_execve, (long)argv[2], (long)(argv + 2), (long)envp, 0);
        field(fd, "exec-errno", -err);
        leave(127);
    }
    if (pid < 0) {
        field(fd, "exec-errno", -pid);
        leave(127);
    }
    status = wait_for(pid);
    field(fd, "wait-status", status);
    sys(NR_close, fd, 0, 0, 0);
    leave(0);
}
