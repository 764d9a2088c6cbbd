/* poker_judge.c: the contest functions of poker.h for a program judged on
 * a contest system. The judge's interactor holds the deck, checks every
 * rule and scores the board; this file only forwards the calls to it, one
 * line per call, over the program's standard input and output (the
 * protocol: docs/protocol.md in libpoker's sources).
 *
 * Before main() starts (a constructor that runs before the program's own),
 * the channel's two descriptors are moved out of the way, descriptor 1 is
 * pointed at standard error and descriptor 0 at /dev/null: printf, puts,
 * std::cout, raw write(1, ...) all end up on standard error, and scanf or
 * read(0, ...) see an empty input, so the program can neither disturb the
 * judge nor steal its replies. The file compiles as C (C99 and later) and
 * as C++ (the same text as poker_judge.cpp). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "poker.h"

static int poker_channel_in = -1;
static int poker_channel_out = -1;

__attribute__((constructor(101))) static void poker_take_channel(void)
{
    int nothing;

    poker_channel_in = fcntl(0, F_DUPFD_CLOEXEC, 3);
    poker_channel_out = fcntl(1, F_DUPFD_CLOEXEC, 3);
    nothing = open("/dev/null", O_RDONLY);
    if (nothing >= 0) {
        dup2(nothing, 0);
        if (nothing != 0)
            close(nothing);
    } else {
        close(0);
    }
    dup2(2, 1);
}

static void poker_lost(const char *what)
{
    fflush(stdout);
    fprintf(stderr, "poker: lost the judge's channel (%s)\n", what);
    exit(POKER_EXIT_CHANNEL);
}

/* Sends one request line and reads the one reply line into reply (without
 * its newline). */
static void poker_ask(const char *request, char *reply, size_t size)
{
    size_t sent = 0, length = strlen(request), got = 0;
    ssize_t n;
    char byte;

    if (poker_channel_in < 0 || poker_channel_out < 0)
        poker_lost("no standard input or output");
    while (sent < length) {
        n = write(poker_channel_out, request + sent, length - sent);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            poker_lost("cannot write");
        sent += (size_t)n;
    }
    for (;;) {
        n = read(poker_channel_in, &byte, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            poker_lost("closed by the judge");
        if (byte == '\n')
            break;
        if (got + 1 >= size)
            poker_lost("reply too long");
        reply[got++] = byte;
    }
    reply[got] = '\0';
}

/* A broken rule: say which, wait until the judge has closed the channel
 * (so its verdict comes first), and stop. */
static void poker_violation(const char *reply)
{
    char byte;

    fflush(stdout);
    fprintf(stderr, "poker: %s\n", reply + 2);
    for (;;) {
        ssize_t n = read(poker_channel_in, &byte, 1);
        if (n == 0 || (n < 0 && errno != EINTR))
            break;
    }
    exit(POKER_EXIT_VIOLATION);
}

static void poker_expect_ok(const char *reply)
{
    if (strncmp(reply, "V ", 2) == 0)
        poker_violation(reply);
    if (strcmp(reply, "OK") != 0)
        poker_lost("unexpected reply");
}

void p_startgame(void)
{
    char reply[256];

    poker_ask("S\n", reply, sizeof reply);
    poker_expect_ok(reply);
}

void p_look(int *value, int *color)
{
    char reply[256];
    int v, c;
    char end;

    poker_ask(value == NULL || color == NULL ? "N\n" : "L\n", reply, sizeof reply);
    if (strncmp(reply, "V ", 2) == 0)
        poker_violation(reply);
    if (value == NULL || color == NULL
        || sscanf(reply, "C %d %d%c", &v, &c, &end) != 2)
        poker_lost("unexpected reply");
    *value = v;
    *color = c;
}

void p_place(int column)
{
    char request[32], reply[256];

    sprintf(request, "P %d\n", column);
    poker_ask(request, reply, sizeof reply);
    if (strncmp(reply, "END ", 4) == 0)
        exit(0);
    poker_expect_ok(reply);
}
