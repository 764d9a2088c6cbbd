/* Splits its memory between before and after p_startgame, 40 MiB each, on
 * a 64 MiB limit. In a fresh process both halves are the game's (status
 * memory). Under a fork server the first half is the server's, charged to
 * the server's cgroup, and the second the child's: the game's limit must
 * count what it shares with the server, or the limit doubles. Prints
 * "ATTACK: touched 80 MiB" when it played on. */
#include <poker.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HALF ((size_t)40 << 20)

int main(void) {
    int i, v, c;
    char *before = malloc(HALF), *after;
    if (!before) return 1;
    memset(before, 1, HALF);
    p_startgame();
    after = malloc(HALF);
    if (!after) return 1;
    memset(after, 2, HALF);
    fprintf(stderr, "ATTACK: touched 80 MiB (%d)\n", before[HALF / 2] + after[HALF / 2]);
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
