/* Does STARTUP_MS of CPU work before p_startgame, as a program that builds
 * its tables first, then GAME_MS in each game, and plays round robin. A
 * fresh process spends both in every game: over a CPU-time limit below
 * STARTUP_MS (cpu_time), within one well above the sum (ok); a fork
 * server does the start-up once, and must be judged the same
 * (`crates/poker-cli/tests/cli_tests/fork_server.rs`, on 0.2 s and 0.6 s
 * limits). Ignores SIGXCPU, for the reason startup_shared_work.c gives. */
#include <poker.h>
#include <signal.h>
#include <time.h>

#ifndef STARTUP_MS
#define STARTUP_MS 300
#endif
#ifndef GAME_MS
#define GAME_MS 50
#endif

static long cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void work(long ms) {
    long start = cpu_ms();
    volatile unsigned long spins = 0;
    while (cpu_ms() < start + ms) spins++;
}

int main(void) {
    int i, v, c;
    signal(SIGXCPU, SIG_IGN);
    work(STARTUP_MS);
    p_startgame();
    work(GAME_MS);
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
