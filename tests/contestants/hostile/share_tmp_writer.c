/* share_tmp_writer: writes every card it is dealt to
 * /tmp/poker-shared-cards (as deck tokens, "JC TH ..."), one card at a
 * time, for share_tmp_reader, run after it, to find. Plays round robin
 * meanwhile. */
#include <stdio.h>
#include "poker.h"

int main(void)
{
    int i, v, c;
    FILE *f = fopen("/tmp/poker-shared-cards", "w");
    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        if (f) {
            fprintf(f, "%s%c%c", i > 1 ? " " : "", "9TJQKA"[v - 1], "SHDC"[c - 1]);
            fflush(f); /* the 20th p_place ends the program */
        }
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
