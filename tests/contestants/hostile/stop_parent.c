/* stop_parent: sends SIGSTOP to the evaluator (its nearest ancestor named poker), which would
 * freeze the whole evaluation; prints "ATTACK: succeeded ..." when kill()
 * worked. Never kill(-1, ...): without a sandbox that would stop every
 * process of the machine. Then plays round robin (which, unsandboxed,
 * waits until someone sends the evaluator SIGCONT). */
#define _GNU_SOURCE
#include <string.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include "poker.h"

/* The evaluator: the nearest ancestor named `poker`, found by walking
 * /proc/<pid>/stat from /proc/self (getppid() names no process outside a
 * PID namespace, where --sandbox off starts programs). 0 if none. */
static pid_t find_evaluator(void)
{
    char path[64], buf[512], *open_paren, *close_paren;
    int pid = 0, ppid, depth;
    for (depth = 0; depth < 64; depth++) {
        FILE *f;
        size_t n;
        if (depth == 0) snprintf(path, sizeof path, "/proc/self/stat");
        else snprintf(path, sizeof path, "/proc/%d/stat", pid);
        f = fopen(path, "r");
        if (!f) return 0;
        n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = 0;
        open_paren = strchr(buf, '(');
        close_paren = strrchr(buf, ')');
        if (!open_paren || !close_paren) return 0;
        if (depth > 0 && close_paren - open_paren == 6 && !strncmp(open_paren + 1, "poker", 5))
            return pid;
        if (sscanf(close_paren + 2, "%*c %d", &ppid) != 1 || ppid <= 0) return 0;
        pid = ppid;
    }
    return 0;
}

int main(void)
{
    int i, v, c;
    pid_t parent = find_evaluator();
    if (parent > 1 && kill(parent, SIGSTOP) == 0)
        fprintf(stderr, "ATTACK: succeeded: sent SIGSTOP to the evaluator (pid %d)\n", (int)parent);
    else
        fprintf(stderr, "cannot stop pid %d\n", (int)parent);
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
