/* Has its fork server work between games. A thread started before
 * p_startgame computes whenever it can; the server's jail is frozen while
 * a game is played, so the thread works only between games, and a
 * pthread_atfork child handler holds each child back, before it speaks,
 * until the server has used 1 s more of CPU time (read from /proc, so
 * however loaded the machine): 1 s of CPU for the server per game,
 * outside every game's limits. The evaluator must give such a server up.
 * Plays round robin. */
#include <poker.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *work(void *unused) {
    volatile unsigned long x = 0;
    (void)unused;
    for (;;) x++;
    return NULL;
}

/* CPU seconds process `pid` has used (user and system), or -1. */
static double cpu_seconds(pid_t pid) {
    char path[64];
    unsigned long user, system;
    FILE *f;
    int n;
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    if ((f = fopen(path, "r")) == NULL) return -1;
    /* Fields 14 and 15; the name (field 2) holds no space here. */
    n = fscanf(f, "%*d %*s %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
               &user, &system);
    fclose(f);
    return n == 2 ? (double)(user + system) / (double)sysconf(_SC_CLK_TCK) : -1;
}

static void hold_back(void) {
    pid_t server = getppid();
    double start = cpu_seconds(server), now = start;
    while (start >= 0 && now >= 0 && now < start + 1.0) {
        usleep(1000);
        now = cpu_seconds(server);
    }
}

int main(void) {
    pthread_t thread;
    int i, v, c;
    pthread_create(&thread, NULL, work, NULL);
    pthread_atfork(NULL, NULL, hold_back);
    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
