/* include_deck: #includes the deck file, so that the compiler's error
 * message (which the evaluator reports as the reason the contestant was
 * not run) quotes the deck. The test replaces DECK_FILE_PATH with the
 * absolute path of its deck file first (as written here it does not
 * compile either). */
#include "DECK_FILE_PATH"
#include "poker.h"

int main(void)
{
    int i, v, c;
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
