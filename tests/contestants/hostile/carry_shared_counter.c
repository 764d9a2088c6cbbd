/* Carries a counter from game to game through a page mapped shared before
 * p_startgame: each game prints "seen N" (the games before it that shared
 * the page), then adds itself. In a fresh process every game sees 0; a
 * fork server's games would see 0, 1, 2, ...: the evaluator gives the
 * server up after its first game, whose remaining games are played fresh
 * and see 0 (`crates/poker-cli/tests/cli_tests/fork_server.rs`). */
#include <poker.h>
#include <stdio.h>
#include <sys/mman.h>

int main(void) {
    int i, v, c;
    volatile int *games = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (games == MAP_FAILED) return 1;
    p_startgame();
    fprintf(stderr, "seen %d\n", *games);
    (*games)++;
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
