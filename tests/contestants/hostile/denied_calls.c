/* denied_calls: tries each system call a game could use to reach kernel
 * state shared with other games (keys, the page cache, file-access
 * events, another process's memory) or to widen its attack surface, each
 * in a harmless form (its own process keyring, its own child, a file of
 * its own, no-op flags). Prints "call NAME: ok" or "call NAME: ERRNO" for
 * each, and "ATTACK: NAME works" when one succeeded. Calls that must keep
 * working under any filter are printed as "control NAME: ...". Then plays
 * round robin. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "poker.h"

#ifndef SYS_cachestat
#define SYS_cachestat 451
#endif
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x8
#endif

static void report(const char *kind, const char *name, long result, int err)
{
    if (result >= 0) {
        fprintf(stderr, "%s %s: ok\n", kind, name);
        if (strcmp(kind, "call") == 0) fprintf(stderr, "ATTACK: %s works\n", name);
    } else {
        const char *e = err == EPERM ? "EPERM" : err == ENOSYS ? "ENOSYS" : err == EINVAL ? "EINVAL"
                      : err == EACCES ? "EACCES" : err == EAGAIN ? "EAGAIN" : "other";
        fprintf(stderr, "%s %s: %s (%s)\n", kind, name, e, strerror(err));
    }
}

#define CALL(name, expr) do { errno = 0; long r_ = (long)(expr); report("call", name, r_, errno); } while (0)
#define CONTROL(name, expr) do { errno = 0; long r_ = (long)(expr); report("control", name, r_, errno); } while (0)

static long posix_result(int err) { errno = err; return err ? -1 : 0; }

static void attack(void)
{
    /* A file of its own in /tmp (a game has no /proc to open itself by). */
    char path[] = "/tmp/denied-calls-XXXXXX", buf[4096];
    int fd = mkstemp(path);
    struct iovec iov = { buf, sizeof buf };
    memset(buf, 'x', sizeof buf);
    if (fd < 0 || write(fd, buf, sizeof buf) != (ssize_t)sizeof buf) { perror("mkstemp"); exit(1); }
    unlink(path);
    /* Keys: one in the process keyring (gone when the process exits). */
    CALL("add_key", syscall(SYS_add_key, "user", "poker-probe", "x", 1, -2 /* KEY_SPEC_PROCESS_KEYRING */));
    CALL("keyctl", syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3 /* session */, 0));
    {
        /* A child of its own, traced and killed. */
        pid_t child = fork();
        if (child == 0) { pause(); _exit(0); }
        report("control", "fork", child, errno);
        CALL("ptrace", syscall(SYS_ptrace, 0x4206 /* PTRACE_SEIZE */, child, 0, 0));
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
    }
    {
        struct iovec local = { buf, 16 }, remote = { buf, 16 };
        CALL("process_vm_readv", syscall(SYS_process_vm_readv, getpid(), &local, 1, &remote, 1, 0));
    }
    {
        struct perf_event_attr attr;
        long pfd;
        memset(&attr, 0, sizeof attr);
        attr.size = sizeof attr;
        attr.type = PERF_TYPE_SOFTWARE;
        attr.config = PERF_COUNT_SW_CPU_CLOCK;
        attr.exclude_kernel = 1;
        pfd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
        report("call", "perf_event_open", pfd, errno);
        if (pfd >= 0) close((int)pfd);
    }
    CALL("userfaultfd", syscall(SYS_userfaultfd, 1 /* UFFD_USER_MODE_ONLY */));
    {
        unsigned char params[120];
        memset(params, 0, sizeof params);
        CALL("io_uring_setup", syscall(SYS_io_uring_setup, 1, params));
    }
    {
        unsigned long ctx = 0;
        long r = syscall(SYS_io_setup, 1, &ctx);
        report("call", "io_setup", r, errno);
        if (r == 0) syscall(SYS_io_destroy, ctx);
    }
    CALL("inotify_init1", syscall(SYS_inotify_init1, 0));
    CALL("fadvise64", posix_result(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)));
    {
        void *page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
        unsigned char vec[1];
        CALL("mincore", page == MAP_FAILED ? -1 : syscall(SYS_mincore, page, 4096, vec));
        if (page != MAP_FAILED) munmap(page, 4096);
    }
    {
        unsigned long long range[2] = { 0, 4096 }, stat[8];
        CALL("cachestat", syscall(SYS_cachestat, fd, range, stat, 0));
    }
    CALL("readahead", syscall(SYS_readahead, fd, 0, 4096));
    CALL("preadv2-nowait", syscall(SYS_preadv2, fd, &iov, 1, 0, 0, RWF_NOWAIT));
    CONTROL("pread64", pread(fd, buf, sizeof buf, 0));
    CALL("unshare", syscall(SYS_unshare, 0));
    {
        /* Same-page merging across the machine, on a page of its own. */
        void *anon = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        CALL("madvise-mergeable", anon == MAP_FAILED ? -1 : syscall(SYS_madvise, anon, 4096, 12 /* MADV_MERGEABLE */));
        CONTROL("madvise-dontneed", anon == MAP_FAILED ? -1 : syscall(SYS_madvise, anon, 4096, 4 /* MADV_DONTNEED */));
        if (anon != MAP_FAILED) munmap(anon, 4096);
    }
    /* A prctl option off the games' list (its own timer slack). */
    CALL("prctl-timerslack", syscall(SYS_prctl, 29 /* PR_SET_TIMERSLACK */, 50000, 0, 0, 0));
    CONTROL("prctl-get-dumpable", syscall(SYS_prctl, 3 /* PR_GET_DUMPABLE */, 0, 0, 0, 0));
    {
        long before = syscall(SYS_personality, 0xffffffff);
        CALL("personality", syscall(SYS_personality, PER_LINUX | ADDR_NO_RANDOMIZE));
        if (before >= 0) syscall(SYS_personality, before);
    }
    /* clone3 must look absent, so that glibc falls back to clone. */
    CALL("clone3", syscall(SYS_clone3, NULL, 0));
#if defined(__x86_64__)
    CALL("x32-getpid", syscall(0x40000000 | SYS_getpid));
    {
        long r;
        __asm__ volatile("int $0x80" : "=a"(r) : "a"(20L /* i386 getpid */) : "memory");
        report("call", "i386-getpid", r < 0 ? -1 : r, r < 0 ? (int)-r : 0);
    }
#endif
    close(fd);
}

int main(void)
{
    int i, v, c;
    attack();
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
