/* ptrace_parent: attaches to the evaluator with PTRACE_ATTACH (from
 * there it could read or rewrite the evaluator's memory, e.g. the deck or
 * the scores), reads one word of its memory, and detaches. Prints
 * "ATTACK: succeeded: ..." when the attach worked. Then plays round
 * robin. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
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
    int i, v, c, status;
    pid_t parent = find_evaluator();
    if (parent > 1 && ptrace(PTRACE_ATTACH, parent, 0, 0) == 0) {
        if (waitpid(parent, &status, __WALL) == parent) {
            long word;
            char path[64], line[256];
            unsigned long start = 0;
            FILE *maps;
            snprintf(path, sizeof path, "/proc/%d/maps", (int)parent);
            maps = fopen(path, "r");
            if (maps && fgets(line, sizeof line, maps)) sscanf(line, "%lx", &start);
            if (maps) fclose(maps);
            errno = 0;
            word = ptrace(PTRACE_PEEKDATA, parent, (void *)start, 0);
            fprintf(stderr, "ATTACK: succeeded: attached to the evaluator (pid %d), word at %#lx: %#lx%s\n",
                    (int)parent, start, (unsigned long)word, errno ? " (peek failed)" : "");
        }
        ptrace(PTRACE_DETACH, parent, 0, 0);
    } else fprintf(stderr, "cannot attach to pid %d: %s\n", (int)parent, strerror(errno));
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
