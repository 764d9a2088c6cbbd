/* crash.c: places a few cards, then writes through a null pointer (a run
 * time error on every deck). */
#include <stdlib.h>
#include "poker.h"

int main(int argc, char **argv)
{
    int v, c, i;
    volatile int *nowhere = NULL;

    (void)argv;
    p_startgame();
    for (i = 1; i <= 3; i++) {
        p_look(&v, &c);
        p_place(i);
    }
    if (argc < 1000)
        *nowhere = v;
    abort();
}
