/* kill_parent: sends SIGKILL to the evaluator (getppid): no report at
 * all. Prints "ATTACK: succeeded ..." when kill() worked (then this
 * process dies too: the evaluator set PR_SET_PDEATHSIG). Then plays round
 * robin. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include "poker.h"

int main(void)
{
    int i, v, c;
    pid_t parent = getppid();
    if (parent > 1 && kill(parent, SIGKILL) == 0)
        fprintf(stderr, "ATTACK: succeeded: sent SIGKILL to the evaluator (pid %d)\n", (int)parent);
    else
        fprintf(stderr, "cannot kill pid %d\n", (int)parent);
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
