/* Keeps every game's descriptors open in its fork server.
 *
 * A pthread_atfork handler runs in the server right after each fork, before
 * the library closes the game's channel and standard-error pipe there, and
 * duplicates every descriptor from 3 to 15 (letting the last game's
 * copies go, so as not to run out): the evaluator never sees the
 * end of the game's standard error, and would wait for it after every
 * game. Each game writes "game stderr" to its standard error and plays
 * round robin. */
#include <poker.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int held[16];
static int count;

/* Lets go of the last game's copies and keeps this game's. */
static void keep_all(void) {
    int fd, open_now[16], n = 0;
    while (count > 0) close(held[--count]);
    for (fd = 3; fd < 16 && n < 16; fd++)
        if (fcntl(fd, F_GETFD) != -1) open_now[n++] = fd;
    while (count < n) held[count] = fcntl(open_now[count], F_DUPFD_CLOEXEC, 32), count++;
}

int main(void) {
    int i, v, c;
    pthread_atfork(NULL, keep_all, NULL);
    p_startgame();
    fprintf(stderr, "game stderr\n");
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
