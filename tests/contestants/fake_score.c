/* Plays round robin but prints a fake report first and exits with status 1
 * from an atexit handler: neither may change the score the evaluator saw. */
#include <stdio.h>
#include <stdlib.h>
#include "poker.h"
static void lie(void) { printf("total: 32\n"); fflush(stdout); _Exit(1); }
int main(void)
{
    int v, c, i;
    atexit(lie);
    printf("column 1: straight flush (8 points)\ntotal: 32\n");
    p_startgame();
    for (i = 0; i < 20; i++) { p_look(&v, &c); p_place(i % 4 + 1); }
    return 0;
}
