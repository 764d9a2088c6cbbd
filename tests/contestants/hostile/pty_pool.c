/* pty_pool: the machine's pty count (/proc/sys/kernel/pty/nr) is one for
 * every devpts instance, so ptys held by one game can be counted by a game
 * of another evaluation alive at the same time (a register of ~11 bits a
 * read), and enough of them empty the pool for the whole machine. Opens
 * /dev/ptmx 50 times (within the open-file limit), holding each; prints
 * "ptmx: N opened" or the first error, and, where it can read the count
 * (unconfined), "ATTACK: the machine's pty count rose by N". In the
 * sandbox a game's /dev has no ptmx. Then closes them and plays round
 * robin. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "poker.h"

#define ATTEMPTS 50

/* The machine's pty count, or -1 when it cannot be read. */
static long pty_count(void)
{
    long n = -1;
    FILE *f = fopen("/proc/sys/kernel/pty/nr", "r");
    if (f) {
        if (fscanf(f, "%ld", &n) != 1)
            n = -1;
        fclose(f);
    }
    return n;
}

int main(void)
{
    int fds[ATTEMPTS], opened = 0, i, v, c;
    long before = pty_count(), after;
    for (i = 0; i < ATTEMPTS; i++) {
        fds[opened] = open("/dev/ptmx", O_RDWR | O_NOCTTY);
        if (fds[opened] < 0) {
            fprintf(stderr, "ptmx: %s\n", strerror(errno));
            break;
        }
        opened++;
    }
    after = pty_count();
    fprintf(stderr, "ptmx: %d opened\n", opened);
    if (before >= 0 && after > before)
        fprintf(stderr, "ATTACK: the machine's pty count rose by %ld\n", after - before);
    for (i = 0; i < opened; i++)
        close(fds[i]);
    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
