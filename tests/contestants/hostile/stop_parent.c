/* stop_parent: sends SIGSTOP to the evaluator (getppid), which would
 * freeze the whole evaluation; prints "ATTACK: succeeded ..." when kill()
 * worked. Never kill(-1, ...): without a sandbox that would stop every
 * process of the machine. Then plays round robin (which, unsandboxed,
 * waits until someone sends the evaluator SIGCONT). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include "poker.h"

int main(void)
{
    int i, v, c;
    pid_t parent = getppid();
    if (parent > 1 && kill(parent, SIGSTOP) == 0)
        fprintf(stderr, "ATTACK: succeeded: sent SIGSTOP to the evaluator (pid %d)\n", (int)parent);
    else
        fprintf(stderr, "cannot stop pid %d\n", (int)parent);
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
