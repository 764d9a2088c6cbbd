/* Has its fork server work between games. A thread started before
 * p_startgame computes whenever it can; the server's jail is frozen while
 * a game is played, so the thread works only between games, and a
 * pthread_atfork child handler holds each child back for 1 s before it
 * speaks to stretch that time: 1 s of CPU for the server per game, outside
 * every game's limits. The evaluator must give such a server up. Plays
 * round robin. */
#include <poker.h>
#include <pthread.h>
#include <unistd.h>

static void *work(void *unused) {
    volatile unsigned long x = 0;
    (void)unused;
    for (;;) x++;
    return NULL;
}

static void hold_back(void) {
    usleep(1000000);
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
