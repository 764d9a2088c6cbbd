/* include_ptmx: a source that hangs the compiler: the preprocessor opens
 * /dev/ptmx (a new pseudo-terminal master) and waits forever for text.
 * The evaluator must give up (compile time limit), say so, and go on. */
#include "/dev/ptmx"
#include "poker.h"

int main(void)
{
    int i, v, c;
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
