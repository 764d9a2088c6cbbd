/* Thinks forever after the 3rd card: a timeout. */
#include "poker.h"
int main(void)
{
    int v, c, i;
    volatile unsigned long spin = 0;
    p_startgame();
    for (i = 0; i < 3; i++) { p_look(&v, &c); p_place(i + 1); }
    p_look(&v, &c);
    for (;;) spin++;
}
