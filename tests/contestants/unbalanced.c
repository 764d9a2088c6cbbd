/* The contest text's example: place(1), place(2), place(3), place(1) with
 * column 4 empty: a violation at call 9. */
#include "poker.h"
int main(void)
{
    int v, c, i;
    static const int order[4] = {1, 2, 3, 1};
    p_startgame();
    for (i = 0; i < 4; i++) { p_look(&v, &c); p_place(order[i]); }
    return 0;
}
