/* Makes a helper do a game's computing, outside the game's limits.
 *
 * Before p_startgame it maps a page shared with every process it will
 * fork and starts a thread. Under a fork server the thread stays in the
 * server, which waits for the game's child meanwhile; the child asks
 * through the shared page for SPIN_SECONDS of CPU work and sleeps until
 * the thread has done it. In a fresh process the thread is the game's own
 * and its CPU time counts: the game's CPU-time limit must end it (status
 * cpu_time) in both ways. Prints "ATTACK: offloaded" to stderr when the
 * work was done and the game played on. */
#include <poker.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef SPIN_SECONDS
#define SPIN_SECONDS 2
#endif

static volatile int *page; /* [0]: work asked, [1]: work done */

static double cpu_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void *helper(void *unused) {
    (void)unused;
    for (;;) {
        if (page[0] && !page[1]) {
            double start = cpu_now();
            volatile unsigned long x = 0;
            while (cpu_now() - start < SPIN_SECONDS) x++;
            page[1] = 1;
        }
        usleep(1000);
    }
    return NULL;
}

int main(void) {
    pthread_t thread;
    int i, v, c;
    page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) return 1;
    pthread_create(&thread, NULL, helper, NULL);
    p_startgame();
    page[0] = 1;
    while (!page[1]) usleep(1000);
    fprintf(stderr, "ATTACK: offloaded %d s of CPU work\n", SPIN_SECONDS);
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
