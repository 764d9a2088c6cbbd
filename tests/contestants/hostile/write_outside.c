/* write_outside: leaves files where they outlive the game and other
 * programs could find them: /dev/shm/poker-hostile-note,
 * /var/tmp/poker-hostile-note and poker-hostile-note in the evaluator's
 * folder (/proc/<ppid>/cwd). Prints "wrote PATH" for each (inside a
 * sandbox a private copy of such a folder may accept the write: the test
 * looks for the files outside). Then plays round robin. */
#include <sys/types.h>
#include <string.h>
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

static void leave(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "written by write_outside\n");
    if (fclose(f) == 0) fprintf(stderr, "wrote %s\n", path);
}

int main(void)
{
    int i, v, c;
    char path[64];
    leave("/dev/shm/poker-hostile-note");
    leave("/var/tmp/poker-hostile-note");
    if (find_evaluator() > 1) {
        snprintf(path, sizeof path, "/proc/%d/cwd/poker-hostile-note", (int)find_evaluator());
        leave(path);
    }
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
