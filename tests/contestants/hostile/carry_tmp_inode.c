/* Carries a number from game to game through the inode counter of its
 * /tmp (a tmpfs numbers each new inode one past the last): before
 * p_startgame it makes an unnamed file there (O_TMPFILE) and keeps its
 * inode number; each game makes another, prints "seen N", N = the
 * distance less 1, then makes and closes 5 more. In a fresh process
 * every game sees 0; a fork server's games would see 0, 6, 12, ...
 * (with the evaluator's own probes among them): the evaluator finds the
 * counter moved, gives the server up after the game, and the rest are
 * played fresh. The one forked game sees 1: the file the evaluator made
 * to read the counter when the server started
 * (`crates/poker-cli/tests/cli_tests/fork_server.rs`). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poker.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* A new unnamed file's inode number in /tmp; 0 when none can be made. */
static unsigned long new_inode(void) {
    struct stat st;
    int fd = open("/tmp", O_TMPFILE | O_RDWR, 0600);
    unsigned long ino = 0;
    if (fd < 0) return 0;
    if (fstat(fd, &st) == 0) ino = (unsigned long)st.st_ino;
    close(fd);
    return ino;
}

int main(void) {
    int i, v, c;
    unsigned long first = new_inode(), now;
    p_startgame();
    now = new_inode();
    if (first == 0 || now == 0) fprintf(stderr, "seen -1 (no O_TMPFILE)\n");
    else fprintf(stderr, "seen %ld\n", (long)(now - first - 1));
    for (i = 0; i < 5; i++) new_inode();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
