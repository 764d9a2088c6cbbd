/* Carries a number from game to game through the resource limits of the
 * jail's init (the sandbox's reaper, pid 1), which outlives a fork
 * server's games: each game prints "seen N", N = the reaper's hard limit
 * of open files less its soft one, then lowers the soft one by 1. In a
 * fresh process every game sees 0; a fork server's games would see 0, 1,
 * 2, ... A game may ask and set only its own limits: the call is refused
 * ("reaper's limits: refused"), and every game sees 0, forked or fresh
 * (`crates/poker-cli/tests/cli_tests/fork_server.rs`). */
#define _GNU_SOURCE
#include <poker.h>
#include <stdio.h>
#include <sys/resource.h>

int main(void) {
    int i, v, c;
    struct rlimit r;
    p_startgame();
    if (prlimit(1, RLIMIT_NOFILE, NULL, &r) != 0) {
        fprintf(stderr, "reaper's limits: refused\nseen 0\n");
    } else {
        fprintf(stderr, "seen %ld\n", (long)(r.rlim_max - r.rlim_cur));
        if (r.rlim_cur > 0) r.rlim_cur--;
        prlimit(1, RLIMIT_NOFILE, &r, NULL);
    }
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
