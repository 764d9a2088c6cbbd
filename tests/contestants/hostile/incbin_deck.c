/* incbin_deck: embeds a file into the program at compile time
 * (`.incbin`), so that the evaluator's compiler, not the contestant,
 * reads it. The test replaces DECK_FILE_PATH with the absolute path of
 * its deck file before evaluating this source (as written here it does
 * not compile). Prints the embedded bytes as "LEAK: ...", then plays
 * round robin. */
#include <stdio.h>
#include "poker.h"

__asm__(".section .rodata\n"
        ".global embedded_deck\n"
        "embedded_deck:\n"
        ".incbin \"DECK_FILE_PATH\"\n"
        ".byte 0\n"
        ".previous\n");
extern const char embedded_deck[];

int main(void)
{
    int i, v, c;
    const char *p;
    fprintf(stderr, "LEAK: embedded at compile time: ");
    for (p = embedded_deck; *p; p++) fputc(*p == '\n' ? ' ' : *p, stderr);
    fputc('\n', stderr);
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
