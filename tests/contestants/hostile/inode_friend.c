/* inode_friend: reads the machine-wide inode counter every way a game
 * could make an inode numbered from it (a pipe, a socket, a memfd, a
 * lookup under /proc) and prints "LEAK: inode counter through WAY: N" for
 * each that worked: a spy moving the counter in an earlier game would be
 * read here. Also prints the numbers of the descriptors the evaluator
 * made for it (its stderr pipe, its channel), which are from the same
 * counter but taken before the game started, so no game moves what they
 * say. In the sandbox every such call is refused and there is no /proc.
 * Then plays round robin. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include "poker.h"

static void show(const char *way, int fd)
{
    struct stat st;
    if (fd < 0) {
        fprintf(stderr, "%s: %s\n", way, strerror(errno));
        return;
    }
    if (fstat(fd, &st) == 0)
        fprintf(stderr, "LEAK: inode counter through %s: %lu\n", way, (unsigned long)st.st_ino);
    close(fd);
}

int main(void)
{
    int i, v, c, p[2];
    struct stat st;
    if (pipe(p) == 0) {
        close(p[1]);
        show("a pipe", p[0]);
    } else {
        show("a pipe", -1);
    }
    show("a socket", socket(AF_UNIX, SOCK_DGRAM, 0));
    show("a memfd", memfd_create("inode-friend", 0));
    if (stat("/proc/self/fdinfo", &st) == 0)
        fprintf(stderr, "LEAK: inode counter through /proc: %lu\n", (unsigned long)st.st_ino);
    else
        fprintf(stderr, "/proc: %s\n", strerror(errno));
    for (i = 2; i <= 3; i++)
        if (fstat(i, &st) == 0)
            fprintf(stderr, "made by the evaluator: fd %d inode %lu\n", i, (unsigned long)st.st_ino);
    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
