/* column_five.c: breaks a rule on every deck: the first card goes to
 * column 5, outside 1..4 (wrong answer). */
#include "poker.h"

int main(void)
{
    int v, c;

    p_startgame();
    p_look(&v, &c);
    p_place(5);
    return 0;
}
