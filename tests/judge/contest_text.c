/* contest_text.c: a program in the form of the contest text's own C usage
 * (void main, // comments, the module's three calls), where f is round
 * robin: card i to column 1, 2, 3, 4, 1, ... */
#include "poker.h"

int i, v, c, t;

int f(int value, int color)
{
    (void)value;
    (void)color;
    return (i - 1) % 4 + 1;
}

void main(void)
{ p_startgame();
  for (i=1; i<=20; i++)
    { p_look(&v, &c);
      t=f(v,c);         // t este bine calculat
      p_place(t);
    }
}
