/* own_name: prints its argv[0] ("argv[0]: PATH"), which unconfined names
 * the evaluator's scratch folder and the contestant's index. In the
 * sandbox every program runs as /game/program. Then plays round robin. */
#include <stdio.h>
#include "poker.h"

int main(int argc, char **argv)
{
    int i, v, c;
    fprintf(stderr, "argv[0]: %s (%d arguments)\n", argv[0], argc);
    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
