/* sometimes_breaks.c: round robin, except that a first card that is the
 * ace of spades (value 6, color 1) goes to column 5, outside 1..4: a
 * broken rule on that deck only. */
#include "poker.h"

int main(void)
{
    int i, v, c;

    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place(i == 1 && v == 6 && c == 1 ? 5 : (i - 1) % 4 + 1);
    }
    return 0;
}
