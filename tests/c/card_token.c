/* poker_card_token checked from C (strict C89), driven by
 * crates/libpoker/tests/c_api/freecell_c.rs. Expected tokens worked out by
 * hand from the index rule rank * 4 + suit (rank 0 = ace, 9 = ten,
 * 12 = king; suit 0 = clubs, 1 = diamonds, 3 = spades). Exit status = first
 * failed check's line, 0 if all pass. */
#include <stdio.h>
#include <string.h>
#include "poker.h"

#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "failed: %s\n", #cond); return __LINE__; } } while (0)

/* The token of `card`, or "(null)". */
static const char *token(int card)
{
    const char *t = poker_card_token(card);
    return t != NULL ? t : "(null)";
}

/* The thread's last error message, in a static buffer. */
static const char *last_error(void)
{
    static char buf[128];
    poker_last_error(buf, (int)sizeof buf);
    return buf;
}

int main(void)
{
    CHECK(strcmp(token(0), "AC") == 0);   /* rank 0 ace, suit 0 clubs */
    CHECK(strcmp(token(1), "AD") == 0);   /* rank 0 ace, suit 1 diamonds */
    CHECK(strcmp(token(36), "TC") == 0);  /* 36 = 9 * 4: rank 9 ten, clubs */
    CHECK(strcmp(token(51), "KS") == 0);  /* 51 = 12 * 4 + 3: king of spades */
    CHECK(poker_card_token(51) == poker_card_token(51)); /* static, not allocated */

    CHECK(poker_card_token(-1) == NULL);
    CHECK(poker_last_error_code() == POKER_ERR_CARD);
    CHECK(strcmp(last_error(), "-1 is not a card index (0..51)") == 0);

    CHECK(poker_card_token(52) == NULL);
    CHECK(poker_last_error_code() == POKER_ERR_CARD);
    CHECK(strcmp(last_error(), "52 is not a card index (0..51)") == 0);

    puts("ok");
    return 0;
}
