/* Carries a counter from game to game through its fork server's memory:
 * each game prints "seen N" (its copy of a counter), then writes N + 1
 * into its parent's copy through /proc/<parent>/mem (the same user, the
 * same address after a fork), and prints "wrote the server's memory" when
 * that worked, or why not. The sandbox gives a game no /proc at all, and
 * the library makes a server not dumpable (so that a game could not write
 * it even with one); this program makes its server dumpable again from a
 * pthread_atfork handler, which runs in the server before each fork. The
 * evaluator then gives the server up after its first game, and the
 * remaining games, played fresh, see 0
 * (`crates/poker-cli/tests/cli_tests/fork_server.rs`). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poker.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

static volatile int games;

static void dumpable_again(void) {
    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

int main(void) {
    int i, v, c, next, fd;
    char path[64];
    pthread_atfork(dumpable_again, NULL, NULL);
    p_startgame();
    fprintf(stderr, "seen %d\n", games);
    next = games + 1;
    snprintf(path, sizeof path, "/proc/%d/mem", (int)getppid());
    fd = open(path, O_RDWR);
    if (fd >= 0 && pwrite(fd, &next, sizeof next, (off_t)(uintptr_t)&games) == sizeof next)
        fprintf(stderr, "wrote the server's memory\n");
    else
        perror(path);
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
