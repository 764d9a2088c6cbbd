/* Stretches its wall-clock guard without working: 60 threads wake
 * together every 40 ms and spin 30 us each, then sleep, for good. On a
 * busy CPU their waits for it, added up, pile up faster than the wall
 * clock runs, though the game itself waits little: an extension by the
 * summed waits would hold the game to the most the guard is extended
 * (`crates/poker-cli/tests/cli_tests/fair_timing.rs`). */
#include <poker.h>
#include <pthread.h>
#include <time.h>

#define THREADS 60
#define PERIOD_NS 40000000L
#define SPIN_NS 30000L

static long long now_ns(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void *burst(void *arg) {
    (void)arg;
    for (;;) {
        long long next = (now_ns(CLOCK_MONOTONIC) / PERIOD_NS + 1) * PERIOD_NS;
        struct timespec at = {next / 1000000000LL, next % 1000000000LL};
        long long begin;
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL);
        begin = now_ns(CLOCK_THREAD_CPUTIME_ID);
        while (now_ns(CLOCK_THREAD_CPUTIME_ID) - begin < SPIN_NS) {
        }
    }
    return 0;
}

int main(void) {
    int i, v, c;
    pthread_t t;
    p_startgame();
    p_look(&v, &c);
    for (i = 0; i < THREADS; i++) pthread_create(&t, 0, burst, 0);
    burst(0);
    return 0;
}
