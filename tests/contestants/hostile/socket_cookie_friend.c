/* socket_cookie_friend: reads what socket_cookie_spy.c wrote into the
 * socket cookies in an earlier game: it moves to CPU 0 and asks the cookie
 * of a new socket; 64 * k + code + 8 holds the spy's first card. Prints
 * "LEAK: read code N". In the sandbox a game may create no socket, ask no
 * socket option nor choose its CPU. Then plays round robin. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "poker.h"

#ifndef SO_COOKIE
#define SO_COOKIE 57
#endif

/* Shared with socket_cookie_spy.c. */
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

int main(void)
{
    int i, v, c;
    uint64_t cookie = next_cookie();
    channel_cookie();
    if (cookie % 64 >= 8 && cookie % 64 < 32)
        fprintf(stderr, "LEAK: read code %d\n", (int)(cookie % 64) - 8);
    else
        fprintf(stderr, "socket cookie: nothing read\n");
    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
