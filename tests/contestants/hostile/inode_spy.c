/* inode_spy: tries every way a game could move the machine-wide inode
 * counter (get_next_ino: new pipes, sockets, memfds; in a fresh /proc,
 * every first lookup too, but a game has no /proc), which a friend reads
 * in a later game from the number of an inode it makes. For each way, makes 1000 objects
 * and prints "advance WAY: ok" or its error; "ATTACK: moved the inode
 * counter by N with WAY" when a pipe made afterwards shows the counter
 * moved by at least 1000. Files in its own /tmp do not count: a tmpfs
 * mounted by a user numbers its own inodes. In the sandbox every such
 * call is refused. Then plays round robin. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include "poker.h"

#define COUNT 1000

/* The counter's value now: the inode number of a new pipe, or 0. */
static unsigned long counter(void)
{
    int p[2];
    struct stat st;
    unsigned long ino = 0;
    if (pipe(p) != 0) return 0;
    if (fstat(p[0], &st) == 0) ino = st.st_ino;
    close(p[0]);
    close(p[1]);
    return ino;
}

static int by_pipes(void) { return counter() ? 0 : -1; }

static int by_sockets(void)
{
    int s = socket(AF_UNIX, SOCK_DGRAM, 0);
    if (s < 0) return -1;
    close(s);
    return 0;
}

static int by_memfds(void)
{
    int fd = memfd_create("inode-spy", 0);
    if (fd < 0) return -1;
    close(fd);
    return 0;
}

static void advance(const char *way, int (*make)(void))
{
    unsigned long before = counter(), after;
    int i, failed = 0, err = 0;
    for (i = 0; i < COUNT; i++)
        if (make() != 0) { failed++; err = errno; }
    after = counter();
    if (failed == COUNT) fprintf(stderr, "advance %s: %s\n", way, strerror(err));
    else fprintf(stderr, "advance %s: ok\n", way);
    if (before && after >= before + COUNT)
        fprintf(stderr, "ATTACK: moved the inode counter by %lu with %s\n", after - before, way);
}

int main(void)
{
    int i, v, c;
    if (!counter()) fprintf(stderr, "pipe: %s\n", strerror(errno));
    advance("pipes", by_pipes);
    advance("sockets", by_sockets);
    advance("memfds", by_memfds);
    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
