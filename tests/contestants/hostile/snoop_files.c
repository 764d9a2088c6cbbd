/* snoop_files: reads what a program of the evaluator's user can read:
 * /etc/shadow, the listing of /root and of the evaluator's cwd
 * (/proc/<ppid>/cwd), the other contestants' sources (the .c/.pas/.py
 * arguments of the evaluator's command line) and where the evaluator's
 * descriptors lead (each /proc/<ppid>/fd entry, reading any regular file among
 * them). Prints "LEAK: ..." for each thing it got. Then plays round
 * robin. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
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

static void first_line(const char *what, const char *path)
{
    char line[512];
    FILE *f = fopen(path, "r");
    if (!f) return;
    if (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        fprintf(stderr, "LEAK: %s %s: %s\n", what, path, line);
    }
    fclose(f);
}

static void listing(const char *what, const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    int shown = 0;
    if (!d) return;
    fprintf(stderr, "LEAK: %s %s holds:", what, path);
    while ((e = readdir(d)) != NULL && shown < 20)
        if (e->d_name[0] != '.') { fprintf(stderr, " %s", e->d_name); shown++; }
    fputc('\n', stderr);
    closedir(d);
}

static int ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

int main(void)
{
    int i, v, c;
    char path[4200], target[4096], args[65536];
    pid_t parent = find_evaluator();
    FILE *f;
    first_line("secret file", "/etc/shadow");
    listing("home folder", "/root");
    if (parent > 1) {
        DIR *d;
        struct dirent *e;
        snprintf(path, sizeof path, "/proc/%d/cwd", (int)parent);
        listing("the evaluator's folder", path);
        snprintf(path, sizeof path, "/proc/%d/cmdline", (int)parent);
        f = fopen(path, "r");
        if (f) {
            size_t n = fread(args, 1, sizeof args - 1, f);
            const char *p;
            fclose(f);
            args[n] = 0;
            for (p = args; p < args + n; p += strlen(p) + 1) {
                if (strstr(p, "snoop_files")) continue;
                if (ends_with(p, ".c") || ends_with(p, ".pas") || ends_with(p, ".py")) {
                    if (p[0] == '/') first_line("another contestant's source", p);
                    else {
                        snprintf(path, sizeof path, "/proc/%d/cwd/%s", (int)parent, p);
                        first_line("another contestant's source", path);
                    }
                }
            }
        }
        snprintf(path, sizeof path, "/proc/%d/fd", (int)parent);
        d = opendir(path);
        while (d && (e = readdir(d)) != NULL) {
            char link[4300];
            ssize_t n;
            struct stat st;
            if (e->d_name[0] == '.') continue;
            snprintf(link, sizeof link, "/proc/%d/fd/%s", (int)parent, e->d_name);
            n = readlink(link, target, sizeof target - 1);
            if (n <= 0) continue;
            target[n] = 0;
            fprintf(stderr, "LEAK: the evaluator's fd %s -> %s\n", e->d_name, target);
            if (stat(link, &st) == 0 && S_ISREG(st.st_mode)) first_line("the evaluator's open file", link);
        }
        if (d) closedir(d);
    }
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
