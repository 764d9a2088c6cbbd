/* read_deck_file: finds the evaluator (its nearest ancestor named poker), reads its command line
 * from /proc/<ppid>/cmdline, takes the argument after --decks (or
 * --decks=FILE) and opens it as given, relative to the evaluator's cwd
 * (/proc/<ppid>/cwd) and relative to its own cwd; prints the first deck
 * line found as "LEAK: ...". Then plays round robin. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
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

static int try_file(const char *path)
{
    char line[512];
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        line[strcspn(line, "\n")] = 0;
        fprintf(stderr, "LEAK: deck file %s: %s\n", path, line);
        fclose(f);
        return 1;
    }
    fclose(f);
    return 0;
}

static void attack(void)
{
    char path[64], args[65536], file[4096];
    const char *decks = NULL, *p;
    size_t n;
    FILE *f;
    pid_t parent = find_evaluator();
    if (parent <= 1) { fprintf(stderr, "no evaluator visible (ppid %d)\n", (int)parent); return; }
    snprintf(path, sizeof path, "/proc/%d/cmdline", (int)parent);
    f = fopen(path, "r");
    if (!f) { perror(path); return; }
    n = fread(args, 1, sizeof args - 1, f);
    fclose(f);
    args[n] = 0;
    for (p = args; p < args + n; p += strlen(p) + 1) {
        if (strcmp(p, "--decks") == 0 && p + strlen(p) + 1 < args + n) { decks = p + strlen(p) + 1; break; }
        if (strncmp(p, "--decks=", 8) == 0) { decks = p + 8; break; }
    }
    if (!decks) { fprintf(stderr, "no --decks in the evaluator's command line\n"); return; }
    if (try_file(decks)) return;
    snprintf(file, sizeof file, "/proc/%d/cwd/%s", (int)parent, decks);
    if (try_file(file)) return;
    fprintf(stderr, "cannot read the deck file %s\n", decks);
}

int main(void)
{
    int i, v, c;
    attack();
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
