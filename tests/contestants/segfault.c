/* Dereferences NULL after 6 placements: a crash (SIGSEGV). */
#include <stdio.h>
#include "poker.h"
int main(void)
{
    int v, c, i;
    volatile int *nowhere = 0;
    p_startgame();
    for (i = 0; i < 6; i++) { p_look(&v, &c); p_place(i % 4 + 1); }
    printf("%d\n", *nowhere);
    return 0;
}
