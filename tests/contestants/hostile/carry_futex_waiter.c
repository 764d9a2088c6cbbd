/* Carries a number from game to game through a second thread of the
 * fork server waiting on a futex word of a shared read-only mapping (the
 * program's own file: no writable shared memory for the evaluator to
 * find). Before its last placement a game moves that waiter from word 0
 * to word 1 (FUTEX_CMP_REQUEUE); the server's at-fork handler, before the
 * next game, wakes words 1 to 63 one by one to find where the waiter is
 * and that game prints "seen N", N = the word (0: none). A fresh process
 * never forks, so it sees 0; a fork server's second game would see 1:
 * the evaluator finds the server's second thread after the first game,
 * gives the server up and plays the rest fresh, so every game sees 0
 * (`crates/poker-cli/tests/cli_tests/fork_server.rs`). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/futex.h>
#include <poker.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static unsigned *words;
static int seen;

static long futex(unsigned *word, int op, unsigned value, unsigned *to, unsigned expected) {
    return syscall(SYS_futex, word, op, value, 1, to, expected);
}

static void *waiter(void *unused) {
    (void)unused;
    for (;;) futex(words, FUTEX_WAIT, words[0], NULL, 0);
    return NULL;
}

static void prepare(void) {
    int k;
    for (k = 1; k < 64; k++)
        if (futex(words + k, FUTEX_WAKE, 1, NULL, 0) == 1) {
            seen = k;
            return;
        }
}

int main(int argc, char **argv) {
    int i, v, c;
    pthread_t thread;
    (void)argc;
    int fd = open(argv[0], O_RDONLY);
    words = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
    if (words == MAP_FAILED) return 1;
    pthread_create(&thread, NULL, waiter, NULL);
    pthread_atfork(prepare, NULL, NULL);
    p_startgame();
    fprintf(stderr, "seen %d\n", seen);
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        if (i == 20) futex(words, FUTEX_CMP_REQUEUE, 0, words + 1, words[0]);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
