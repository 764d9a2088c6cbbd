/* memory_hog: allocates and touches 1 GiB (a write on every page) before
 * playing round robin; prints "ATTACK: succeeded: touched 1024 MiB" when
 * it got them all. 1 GiB is four times the default limit and takes under
 * a second to touch here (3 GiB took 7.5 s, past a 5 s time limit). Under the memory limit (default 256 MiB) it must be
 * killed and scored 0 with status "memory". */
#include <stdio.h>
#include <stdlib.h>
#include "poker.h"

int main(void)
{
    int i, v, c;
    size_t size = (size_t)1 << 30, at;
    char *block = malloc(size);
    if (block) {
        for (at = 0; at < size; at += 4096) block[at] = (char)at;
        fprintf(stderr, "ATTACK: succeeded: touched %zu MiB\n", size >> 20);
    } else fprintf(stderr, "malloc of 1 GiB failed\n");
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
