/* share_tmp_reader: reads /tmp/poker-shared-cards, left by
 * share_tmp_writer (an earlier contestant), and prints it as
 * "LEAK: ...". Then plays round robin. */
#include <stdio.h>
#include <string.h>
#include "poker.h"

int main(void)
{
    int i, v, c;
    char line[512];
    FILE *f = fopen("/tmp/poker-shared-cards", "r");
    if (f) {
        if (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = 0;
            fprintf(stderr, "LEAK: another contestant's cards: %s\n", line);
        }
        fclose(f);
    } else fprintf(stderr, "no /tmp/poker-shared-cards\n");
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
