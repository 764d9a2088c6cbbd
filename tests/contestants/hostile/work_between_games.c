/* Has its fork server work between games. A thread started before
 * p_startgame computes whenever it can and writes the server's CPU time
 * into a page shared with every child; the server's jail is frozen while
 * a game is played, so the thread works only between games, and a
 * pthread_atfork child handler holds each child back, before it speaks,
 * until the server has used 1 s more of CPU time (as the thread wrote
 * it, so however loaded the machine): 1 s of CPU for the server per game,
 * outside every game's limits. The evaluator must give such a server up.
 * Plays round robin. */
#include <poker.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* The server's CPU seconds, as its thread last wrote them. */
static volatile double *server_cpu;

static void *work(void *unused) {
    volatile unsigned long x = 0;
    unsigned long k;
    struct timespec t;
    (void)unused;
    for (;;) {
        for (k = 0; k < 1000000; k++) x++;
        if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) == 0)
            *server_cpu = t.tv_sec + t.tv_nsec / 1e9;
    }
    return NULL;
}

static void hold_back(void) {
    double start = *server_cpu;
    while (*server_cpu < start + 1.0) usleep(1000);
}

int main(void) {
    pthread_t thread;
    int i, v, c;
    server_cpu = mmap(NULL, sizeof *server_cpu, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (server_cpu == MAP_FAILED) return 1;
    *server_cpu = 0;
    pthread_create(&thread, NULL, work, NULL);
    pthread_atfork(NULL, NULL, hold_back);
    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
