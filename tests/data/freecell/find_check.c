/* Checks freecell_find and freecell_deal_range from C: each deal the batch
 * dealer writes is the one freecell_deal writes; each board is found again;
 * every error code and its last error. Prints "ok" and exits 0, or names
 * the first failures and exits 1. Driven by crates/libpoker/tests/c_api/freecell_c.rs, with and
 * without POKER_PLAIN=1. */
#include "poker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static void expect(long long got, long long want, const char *what)
{
    if (got != want) {
        fprintf(stderr, "%s: got %lld, want %lld\n", what, got, want);
        failures++;
    }
}

int main(void)
{
    static const int64_t firsts[] = {1, 2147483600, 4294967290, 8589934500};
    unsigned char one[52];
    unsigned char *many = malloc(52 * 100);
    int64_t numbers[8];
    int i, k;

    if (many == NULL) return 2;
    for (i = 0; i < 4; i++) {
        int64_t count = firsts[i] == 8589934500 ? 92 : 100;
        expect(freecell_deal_range(firsts[i], count, many), POKER_OK, "freecell_deal_range");
        for (k = 0; k < count; k++) {
            expect(freecell_deal(firsts[i] + k, one), POKER_OK, "freecell_deal");
            expect(memcmp(one, many + 52 * k, 52), 0, "deal_range matches freecell_deal");
        }
        expect(freecell_find(many, 52, numbers, 8), 1, "freecell_find, full board");
        expect(numbers[0], firsts[i], "freecell_find's number");
        expect(freecell_find(many, 6, NULL, 0) >= 1, 1, "freecell_find, count only");
        expect(freecell_find(many, 4, numbers, 8) > 8, 1, "freecell_find, 4 cards");
        for (k = 1; k < 8; k++) expect(numbers[k - 1] < numbers[k], 1, "ascending");
    }
    expect(freecell_deal_range(5, 0, NULL), POKER_OK, "count 0");
    expect(freecell_deal_range(0, 1, many), POKER_ERR_DEAL_NUMBER, "first 0");
    expect(poker_last_error_code(), POKER_ERR_DEAL_NUMBER, "last error");
    expect(freecell_deal_range(8589934591LL, 2, many), POKER_ERR_DEAL_NUMBER, "past the end");
    expect(freecell_deal_range(1, -1, many), POKER_ERR_ARGUMENT, "negative count");
    expect(freecell_deal_range(1, 1, NULL), POKER_ERR_NULL, "NULL cards");
    expect(freecell_deal_range(1, 4000000000000000000LL, many), POKER_ERR_DEAL_NUMBER, "overflow");
    expect(freecell_find(NULL, 52, numbers, 8), POKER_ERR_NULL, "find NULL cards");
    expect(freecell_find(many, 52, NULL, 1), POKER_ERR_NULL, "find NULL numbers");
    expect(freecell_find(many, 0, numbers, 8), POKER_ERR_COUNT, "find 0 cards");
    expect(freecell_find(many, 53, numbers, 8), POKER_ERR_COUNT, "find 53 cards");
    expect(freecell_find(many, 52, numbers, -1), POKER_ERR_ARGUMENT, "find negative max");
    many[1] = many[0];
    expect(freecell_find(many, 52, numbers, 8), POKER_ERR_DUPLICATE, "find duplicate");
    expect(poker_last_error_code(), POKER_ERR_DUPLICATE, "last error, duplicate");
    many[1] = 52;
    expect(freecell_find(many, 2, numbers, 8), POKER_ERR_CARD, "find index 52");
    free(many);
    if (failures) return 1;
    puts("ok");
    return 0;
}
