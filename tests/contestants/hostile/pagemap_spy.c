/* pagemap_spy: encodes the first card it is dealt (value * 16 + color,
 * 8 bits) in the page cache of /usr/share/common-licenses/GPL-3, a rarely
 * read host file every game sees, with no call the sandbox denies: it maps
 * the file, turns off read-ahead for the mapping (madvise MADV_RANDOM) and
 * touches page i + 1 for each 1 bit i, which reads that page alone into
 * the cache. It cannot evict: it relies on the pages being cold (the test
 * evicts them first; on a judge machine most of /usr/share is). Prints
 * "encoded V/C" (the friend's LEAK line is the evidence). Then plays
 * round robin. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include "poker.h"

#define CHANNEL "/usr/share/common-licenses/GPL-3"
#define PAGE 4096

static void encode(int value, int color)
{
    int bits = value * 16 + color, i;
    volatile unsigned char sink = 0;
    unsigned char *map;
    int fd = open(CHANNEL, O_RDONLY);
    if (fd < 0) { perror(CHANNEL); return; }
    map = mmap(NULL, 9 * PAGE, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED) { perror("mmap"); return; }
    if (madvise(map, 9 * PAGE, MADV_RANDOM) != 0) { perror("madvise"); return; }
    for (i = 0; i < 8; i++)
        if (bits & (1 << i)) sink += map[(i + 1) * PAGE];
    munmap(map, 9 * PAGE);
    fprintf(stderr, "encoded %d/%d\n", value, color);
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
