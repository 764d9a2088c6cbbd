/* endless.c: looks at the first card and then never places it: an
 * endless loop (time limit exceeded on every deck). */
#include "poker.h"

int main(void)
{
    int v, c;
    volatile unsigned long spin = 0;

    p_startgame();
    p_look(&v, &c);
    for (;;)
        spin++;
    return 0;
}
