/* Checks libpoker's FreeCell, hand and shuffle C functions from C.
 * Usage: deal_check N...  prints, per deal number, the deal from
 * freecell_deal (converted here by the documented index arithmetic) and the
 * same deal from freecell_format's one-line layout; then checks the error
 * codes and exits 1 on the first wrong one. Driven by crates/libpoker/tests/c_api/freecell_c.rs. */
#include "poker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static void expect(int got, int want, const char *what)
{
    if (got != want) {
        fprintf(stderr, "%s: got %d, want %d\n", what, got, want);
        failures++;
    }
}

int main(int argc, char **argv)
{
    static const char ranks[] = "A23456789TJQK";
    static const char suits[] = "CDHS";
    unsigned char cards[52];
    unsigned char hand[5];
    char text[FREECELL_TEXT_MAX];
    char tiny[6];
    int i, k, n;

    for (i = 1; i < argc; i++) {
        int64_t deal = (int64_t)strtoll(argv[i], NULL, 10);
        expect(freecell_deal(deal, cards), POKER_OK, "freecell_deal");
        for (k = 0; k < 52; k++) {
            printf("%c%c%c", ranks[cards[k] / 4], suits[cards[k] % 4], k == 51 ? '\n' : ' ');
        }
        n = freecell_format(deal, FREECELL_LAYOUT_ORDER, text, (int)sizeof text);
        expect(n, (int)strlen(text), "freecell_format length");
        fputs(text, stdout);
    }

    memset(cards, 0xAA, sizeof cards);
    expect(freecell_deal(0, cards), POKER_ERR_DEAL_NUMBER, "deal 0");
    expect(freecell_deal(-1, cards), POKER_ERR_DEAL_NUMBER, "deal -1");
    expect(freecell_deal(FREECELL_MAX_DEAL + 1, cards), POKER_ERR_DEAL_NUMBER, "deal 2^33");
    expect(cards[0], 0xAA, "nothing written on error");
    expect(freecell_deal(FREECELL_MAX_DEAL, cards), POKER_OK, "deal 2^33-1");
    expect(freecell_deal(1, NULL), POKER_ERR_NULL, "NULL cards");
    expect(freecell_format(1, FREECELL_LAYOUT_COLUMNS, NULL, 0), 156, "length query");
    expect(freecell_format(1, FREECELL_LAYOUT_COLUMNS, NULL, 5), POKER_ERR_NULL, "NULL buf");
    expect(freecell_format(1, 7, text, (int)sizeof text), POKER_ERR_ARGUMENT, "bad format");
    expect(freecell_format(1, FREECELL_LAYOUT_COLUMNS, tiny, (int)sizeof tiny), 156, "cut short");
    expect(strcmp(tiny, "JD KD"), 0, "cut-short text");

    /* AS KS QS JS TS: ace = 3, king = 51, queen = 47, jack = 43, ten = 39. */
    hand[0] = 3; hand[1] = 51; hand[2] = 47; hand[3] = 43; hand[4] = 39;
    expect(poker_hand_category(hand), POKER_HAND_STRAIGHT_FLUSH, "royal flush");
    expect(strcmp(poker_hand_name(POKER_HAND_STRAIGHT_FLUSH), "straight flush"), 0, "name");
    hand[4] = 3;
    expect(poker_hand_category(hand), POKER_ERR_DUPLICATE, "duplicate");
    hand[4] = 52;
    expect(poker_hand_category(hand), POKER_ERR_CARD, "card 52");
    expect(poker_hand_category(NULL), POKER_ERR_NULL, "NULL hand");
    expect(poker_hand_name(9) == NULL, 1, "no name for 9");
    expect(poker_shuffle(1, cards), 0, "shuffle");
    expect(poker_shuffle(1, NULL), POKER_ERR_NULL, "shuffle NULL");

    return failures == 0 ? 0 : 1;
}
