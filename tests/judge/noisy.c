/* noisy.c: round robin that prints in every way it can while it plays, and
 * reads its standard input. With the judge's client files, none of it may
 * reach the judge: printf, a partial line left in the stdio buffer, raw
 * write(1, ...) calls that look like requests, before the game and between
 * calls. And standard input must read as empty: if anything comes from it
 * (a stolen reply), the program breaks a rule on purpose. Compiles as C and
 * as C++. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdio.h>
#include <unistd.h>
#include "poker.h"

static void raw(const char *text, size_t length)
{
    if (write(1, text, length) != (ssize_t)length)
        fputs("a raw write failed\n", stderr);
}

int main(void)
{
    int i, v, c, stolen;
    char buffer[64];

    printf("before the game\n");
    printf("a partial line");
    fflush(stdout);
    raw("raw write\n", 10);
    printf("L\nP 1\n");
    stolen = read(0, buffer, sizeof buffer) != 0;
    p_startgame();
    for (i = 1; i <= 20; i++) {
        printf("call %d\n", i);
        raw("L\n", 2);
        p_look(&v, &c);
        printf(" partial");
        raw("P 9", 3);
        if (i == 10)
            stolen |= scanf("%63s", buffer) == 1;
        p_place(stolen ? 9 : (i - 1) % 4 + 1);
    }
    return 0;
}
