/* pagecache_friend: reads what pagecache_spy.c left in the page cache of
 * /usr/share/common-licenses/GPL-3: for each of the first 8 pages, a
 * one-byte preadv2 with RWF_NOWAIT fails with EAGAIN when the page is not
 * cached (bit 0). Prints "LEAK: page cache: V/C" when some page was cached,
 * then evicts the pages again (leaving nothing behind) and plays round
 * robin. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include "poker.h"

#define CHANNEL "/usr/share/common-licenses/GPL-3"
#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x8
#endif

static void decode(void)
{
    int bits = 0, i;
    char byte;
    struct iovec iov = { &byte, 1 };
    int fd = open(CHANNEL, O_RDONLY);
    if (fd < 0) { perror(CHANNEL); return; }
    posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
    for (i = 0; i < 8; i++) {
        long n = syscall(SYS_preadv2, fd, &iov, 1, (long)i * 4096, 0, RWF_NOWAIT);
        if (n == 1) bits |= 1 << i;
        else if (errno != EAGAIN) { fprintf(stderr, "probe: %s\n", strerror(errno)); close(fd); return; }
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
