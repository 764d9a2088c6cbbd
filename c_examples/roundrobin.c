/* roundrobin.c: the simplest legal contestant. Card i goes to column
 * 1, 2, 3, 4, 1, 2, ... which always keeps the columns balanced.
 * Written exactly as the contest's intended loop (POKER.H). */
#include <stdio.h>
#include "poker.h"

int main(void)
{
    int i, v, c, t;

    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        t = (i - 1) % 4 + 1;
        p_place(t);
    }
    return 0; /* not reached: the 20th p_place stops the program */
}
