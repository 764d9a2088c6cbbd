/* Spends SPIN_SECONDS of CPU time before p_startgame, as a program that
 * builds its tables first. In a fresh process that counts towards every
 * game's CPU-time limit (status cpu_time on a 1 s limit). A fork server,
 * which has no CPU-time limit of its own, does it once for all its games;
 * the evaluator must judge it as a fresh process would. Prints
 * "ATTACK: precomputed" to stderr when it played on. */
#include <poker.h>
#include <stdio.h>
#include <time.h>

#ifndef SPIN_SECONDS
#define SPIN_SECONDS 2
#endif

static double cpu_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void) {
    int i, v, c;
    volatile unsigned long x = 0;
    while (cpu_now() < SPIN_SECONDS) x++;
    p_startgame();
    fprintf(stderr, "ATTACK: precomputed\n");
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
