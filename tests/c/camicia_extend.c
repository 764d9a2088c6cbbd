/* camicia_extend checked from C (strict C89), driven by
 * crates/libpoker/tests/c_api/camicia_ffi.rs and sanitizers.rs. Expected
 * values: tests/data/camicia/records.json and extensions.json (found by a
 * separate implementation), and the documented error codes. Exit status =
 * first failed check's line, 0 if all pass. */
#include <stdio.h>
#include <string.h>
#include "poker.h"

#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "failed: %s\n", #cond); return __LINE__; } } while (0)

int main(void)
{
    CamiciaExtension x;
    CamiciaResult r;
    char why[300];

    /* Mann & Wu 2007 (7157 cards) extends to Anderson 2013 (7225, 1016). */
    CHECK(camicia_extend("K-KK----K-A-----JAA--Q--J-", "---Q---Q-J-----J------AQ--", &x) == POKER_OK);
    CHECK(x.original.status == CAMICIA_FINISHED && x.original.cards == 7157 && x.original.tricks == 1007);
    CHECK(x.longest.status == CAMICIA_FINISHED && x.longest.cards == 7225 && x.longest.tricks == 1016);
    CHECK(x.added == 68);
    CHECK(strcmp(x.a, "--A-Q--J--J---Q--AJ-K---K-") == 0);
    CHECK(strcmp(x.b, "-J-------Q------A--A--QKK-") == 0);
    CHECK(strcmp(x.index, "354080525834808704496") == 0);
    CHECK(x.joins_card <= x.original.cards && x.before_join >= x.added);
    /* The deal found plays its game from C too. */
    CHECK(camicia_simulate(x.a, x.b, &r) == POKER_OK);
    CHECK(r.cards == 7225 && r.tricks == 1016);

    /* Collins 2006 (6913 cards) extends to 7544 cards, 1048 tricks. */
    CHECK(camicia_extend("A-QK------Q----KA-----J---", "-JAK----A--Q----J---QJ--K-", &x) == POKER_OK);
    CHECK(x.original.cards == 6913 && x.longest.cards == 7544 && x.longest.tricks == 1048);
    CHECK(strcmp(x.a, "--J--Q--A---KQ-A-----AQJQ-") == 0);
    CHECK(strcmp(x.b, "--K---------------JJAK--K-") == 0);

    /* Nessler 2022 is already the longest deal of its basin. */
    CHECK(camicia_extend("---AJ--Q---------QAKQJJ-QK", "-----A----KJ-K--------A---", &x) == POKER_OK);
    CHECK(x.added == 0 && x.longest.cards == 8344 && x.joins_trick == 0);
    CHECK(strcmp(x.a, "---AJ--Q---------QAKQJJ-QK") == 0);

    /* Refusals leave *out as it was. */
    x.added = 12345;
    CHECK(camicia_extend("---K---Q-KQAJ-----AAJ--J--", "----------Q----KQ-J-----KA", &x) == POKER_ERR_LOOP);
    CHECK(poker_last_error(why, sizeof why) > 0 && strstr(why, "loop") != NULL);
    CHECK(camicia_extend("2 A 7 8 Q 10", "3 4 5 6 K 9 J", &x) == POKER_ERR_NOT_FULL_DECK);
    CHECK(poker_last_error(why, sizeof why) > 0 && strstr(why, "26 and 26") != NULL);
    CHECK(camicia_extend("K-KK----K-A-----JAA--Q--J-", "---Q---Q-J-----J------AQ--K", &x) == POKER_ERR_NOT_FULL_DECK);
    CHECK(camicia_extend("2 3", "4 Z", &x) == POKER_ERR_TOKEN);
    CHECK(camicia_extend(NULL, "2", &x) == POKER_ERR_NULL);
    CHECK(camicia_extend("2", "3", NULL) == POKER_ERR_NULL);
    CHECK(x.added == 12345);

    printf("ok\n");
    return 0;
}
