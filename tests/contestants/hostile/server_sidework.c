/* Has its fork server compute between games, outside the games.
 *
 * A thread started before p_startgame computes whenever a game's child
 * asks through a shared page. Under a fork server the thread stays in the
 * server; each game's child, from a pthread_atfork handler (before it says
 * its first line, so while the server is not yet frozen for the game),
 * waits until the thread has done SIDE_MS of CPU work, then uses GAME_MS of
 * its own and plays round robin. The game's own cgroup sees only GAME_MS,
 * 70% of a limit of 1 s; with the server's work charged to the game, as it
 * must be, the game is over its limit by 0.2 s. In a fresh process nothing forks,
 * the thread never works, and the game is within its limit. It ignores
 * SIGXCPU: under load the kernel's RLIMIT_CPU was seen here to signal the
 * child early (at 0.63 s of CPU time on a 1 s limit), which would end the
 * game before it shows what is charged; the hard limit (2 s) and the
 * evaluator's watch still hold. */
#include <poker.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef SIDE_MS
#define SIDE_MS 500
#endif
#ifndef GAME_MS
#define GAME_MS 700
#endif

/* [0]: work asked; [1]: the thread's CPU time so far, in ms. */
static volatile long *page;

static long thread_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void *side_work(void *unused) {
    volatile unsigned long spins = 0;
    (void)unused;
    for (;;) {
        if (page[0]) {
            spins++;
            page[1] = thread_ms();
        } else {
            usleep(1000);
        }
    }
    return NULL;
}

/* In each game's child, right after the fork. */
static void ask_for_side_work(void) {
    long start = page[1];
    page[0] = 1;
    while (page[1] < start + SIDE_MS) usleep(1000);
    page[0] = 0;
}

int main(void) {
    pthread_t thread;
    volatile unsigned long spins = 0;
    long start;
    int i, v, c;
    page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) return 1;
    pthread_create(&thread, NULL, side_work, NULL);
    pthread_atfork(NULL, NULL, ask_for_side_work);
    signal(SIGXCPU, SIG_IGN);
    p_startgame();
    start = thread_ms();
    while (thread_ms() < start + GAME_MS) spins++;
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
