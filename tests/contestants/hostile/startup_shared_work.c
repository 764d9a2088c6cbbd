/* Builds one computation across games: STARTUP_MS of CPU time before
 * p_startgame and GAME_MS in each game, each part added to a page mapped
 * shared before the first game; each game prints "computed N ms" (the CPU
 * time in the computation so far). In a fresh process every game spends
 * STARTUP_MS + GAME_MS, over a CPU-time limit between GAME_MS and that
 * sum (status cpu_time). A fork server must judge it the same way: its
 * start-up is charged to every game, and its games may not add to what
 * earlier games computed (`crates/poker-cli/tests/cli_tests/fork_server.rs`,
 * on a 0.5 s limit). It ignores SIGXCPU: under load the kernel's
 * RLIMIT_CPU was seen here to signal a process early, which would end a
 * game before it shows what is charged; the evaluator's CPU watch and the
 * hard limit still hold. */
#include <poker.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>

#ifndef STARTUP_MS
#define STARTUP_MS 300
#endif
#ifndef GAME_MS
#define GAME_MS 350
#endif

static long cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Works for `ms` of this process's CPU time, adding it to `*computed`. */
static void work(long ms, volatile long *computed) {
    long start = cpu_ms(), last = start, now;
    volatile unsigned long spins = 0;
    while ((now = cpu_ms()) < start + ms) {
        spins++;
        *computed += now - last;
        last = now;
    }
}

int main(void) {
    int i, v, c;
    volatile long *computed = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (computed == MAP_FAILED) return 1;
    signal(SIGXCPU, SIG_IGN);
    work(STARTUP_MS, computed);
    p_startgame();
    work(GAME_MS, computed);
    fprintf(stderr, "computed %ld ms\n", *computed);
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
