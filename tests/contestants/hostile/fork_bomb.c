/* fork_bomb: forks until fork() fails (at most 1000 times, so that a
 * missing limit shows up as "forks: 1000" instead of hurting the machine),
 * each child sleeping forever; prints "forks: N" to stderr, then plays
 * round robin. Under the process limit (default 64) N stays below it and
 * the game is scored normally; the evaluator kills the sleepers after the
 * game. Do not run it unsandboxed. */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>
#include "poker.h"

#define CAP 1000

int main(void)
{
    int i, v, c, forks = 0;
    while (forks < CAP) {
        pid_t pid = fork();
        if (pid < 0) break;
        if (pid == 0) { for (;;) pause(); }
        forks++;
    }
    fprintf(stderr, "forks: %d\n", forks);
    if (forks >= CAP) fprintf(stderr, "ATTACK: succeeded: %d forks, no process limit\n", forks);
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
