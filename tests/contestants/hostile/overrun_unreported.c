/* Runs past its CPU-time limit just before its last placement, and leaves
 * no word on how it ended.
 *
 * Under a fork server (p_startgame returned in another process than the
 * one that called it), before its 20th placement it spins to just under
 * its CPU-time limit (its soft RLIMIT_CPU, which the evaluator sets to the
 * limit), then on two more threads to 5 ms past it, faster than the
 * evaluator's CPU watch reads (every 50 ms), kills its server (its parent,
 * frozen while the game is played: it dies when thawed, before it reports
 * how its child ended) and makes its last placement. The game is finished
 * and measured over the limit: it must score 0 as cpu_time, as it does
 * when the server reports. In a fresh process it plays round robin. */
#include <poker.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static volatile int stop;

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *spin(void *unused) {
    volatile unsigned long spins = 0;
    (void)unused;
    while (!stop) spins++;
    return NULL;
}

static void overrun(void) {
    struct rlimit cpu;
    pthread_t threads[2];
    double limit;
    int k;
    if (getrlimit(RLIMIT_CPU, &cpu) != 0 || cpu.rlim_cur == RLIM_INFINITY) return;
    limit = (double)cpu.rlim_cur;
    signal(SIGXCPU, SIG_IGN);
    /* Said first: the watch may stop it during the burst. */
    fprintf(stderr, "ATTACK: bursting past the %.0f s limit\n", limit);
    while (cpu_seconds() < limit - 0.01) {}
    for (k = 0; k < 2; k++) pthread_create(&threads[k], NULL, spin, NULL);
    while (cpu_seconds() < limit + 0.005) {}
    stop = 1;
    fprintf(stderr, "%.3f s of CPU time on a %.0f s limit, server killed\n", cpu_seconds(), limit);
    kill(getppid(), SIGKILL);
}

int main(void) {
    int i, v, c;
    pid_t before = getpid();
    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        if (i == 20 && getpid() != before) overrun();
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
