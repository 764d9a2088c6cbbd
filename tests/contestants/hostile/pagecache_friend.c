/* pagecache_friend: reads what pagecache_spy.c left in the page cache of
 * /usr/share/common-licenses/GPL-3: for each of the first 8 pages, a
 * one-byte preadv2 with RWF_NOWAIT fails with EAGAIN when the page is not
 * cached (bit 0). Prints "LEAK: page cache: V/C" when some page was cached,
 * then evicts the pages again (leaving nothing behind) and plays round
 * robin. Where the file is absent it uses the loader, as the spy does;
 * where the probe is denied it times a one-byte read of each page instead
 * (a page read from disk takes far longer than 20 us, a cached one far
 * less) and prints "TIMING: V/C". */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include "poker.h"

#define CHANNEL "/usr/share/common-licenses/GPL-3"
#define FALLBACK "/lib64/ld-linux-x86-64.so.2"
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x8
#endif

static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void decode_by_timing(int fd)
{
    int bits = 0, i;
    char byte;
    for (i = 0; i < 8; i++) {
        long long start = now_ns();
        pread(fd, &byte, 1, (off_t)i * 4096);
        if (now_ns() - start < 20000) bits |= 1 << i;
    }
    fprintf(stderr, "TIMING: %d/%d\n", bits / 16, bits % 16);
}

static void decode(void)
{
    int bits = 0, i;
    char byte;
    struct iovec iov = { &byte, 1 };
    int fd = open(CHANNEL, O_RDONLY);
    if (fd < 0) { perror(CHANNEL); fd = open(FALLBACK, O_RDONLY); }
    if (fd < 0) { perror(FALLBACK); return; }
    posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
    for (i = 0; i < 8; i++) {
        long n = syscall(SYS_preadv2, fd, &iov, 1, (long)i * 4096, 0, RWF_NOWAIT);
        if (n == 1) bits |= 1 << i;
        else if (errno != EAGAIN) {
            fprintf(stderr, "probe: %s\n", strerror(errno));
            decode_by_timing(fd);
            close(fd);
            return;
        }
    }
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    close(fd);
    if (bits) fprintf(stderr, "LEAK: page cache: %d/%d\n", bits / 16, bits % 16);
}

int main(void)
{
    int i, v, c;
    decode();
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
