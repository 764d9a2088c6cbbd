/* Writes 64 MiB to stdout and stderr before playing round robin: the
 * evaluator must drain both and still score the game. */
#include <stdio.h>
#include <string.h>
#include "poker.h"
int main(void)
{
    static char block[65536];
    int v, c, i;
    memset(block, 'x', sizeof block);
    for (i = 0; i < 512; i++) {
        fwrite(block, 1, sizeof block, stdout);
        fwrite(block, 1, sizeof block, stderr);
    }
    p_startgame();
    for (i = 0; i < 20; i++) { p_look(&v, &c); p_place(i % 4 + 1); }
    return 0;
}
