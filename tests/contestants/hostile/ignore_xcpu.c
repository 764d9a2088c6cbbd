/* Ignores SIGXCPU and spins once the game has started. RLIMIT_CPU alone
 * stops it only at its hard limit, a second past the soft one (SIGKILL);
 * the evaluator's CPU watch must stop it at the limit itself, by its
 * cgroup's measure. */
#include <poker.h>
#include <signal.h>

int main(void) {
    volatile unsigned long spins = 0;
    signal(SIGXCPU, SIG_IGN);
    p_startgame();
    for (;;) spins++;
}
