/* exit_139: makes 4 placements and calls exit(139), the exit code a shell
 * gives a program killed by SIGSEGV (128 + 11). It must be reported as
 * what it is, "exited with status 139", not as a crash. */
#include <stdlib.h>
#include "poker.h"

int main(void)
{
    int i, v, c;
    p_startgame();
    for (i = 1; i <= 4; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    exit(139);
}
