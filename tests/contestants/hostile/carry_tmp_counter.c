/* Carries a counter from game to game through a file in /tmp, written
 * after p_startgame: each game prints "seen N" (the number in
 * /tmp/games, 0 when there is none), then writes N + 1 there. In a fresh
 * process /tmp starts empty and every game sees 0; a fork server's games
 * share its /tmp and would see 0, 1, 2, ...: the evaluator gives the
 * server up after its first game, whose remaining games are played fresh
 * and see 0 (`crates/poker-cli/tests/cli_tests/fork_server.rs`). */
#include <poker.h>
#include <stdio.h>

int main(void) {
    int i, v, c, seen = 0;
    FILE *f;
    p_startgame();
    f = fopen("/tmp/games", "r");
    if (f) {
        if (fscanf(f, "%d", &seen) != 1) seen = -1;
        fclose(f);
    }
    fprintf(stderr, "seen %d\n", seen);
    f = fopen("/tmp/games", "w");
    if (!f) return 1;
    fprintf(f, "%d\n", seen + 1);
    fclose(f);
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
