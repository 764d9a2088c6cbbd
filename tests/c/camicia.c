/* Camicia's C API checked from C (strict C89), driven by crates/libpoker/tests/c_api/camicia_ffi.rs.
 * Expected values: the seed's examples and records.json (Nessler 2022,
 * Casella 2024), and the documented error codes. Exit status = first
 * failed check's line, 0 if all pass. It also checks that the deprecated
 * names (CAMICIA_OK, camicia_simulate_ex) still work: POKER_DEPRECATED,
 * defined empty before poker.h, silences their warnings. */
#include <stdio.h>
#define POKER_DEPRECATED(note)
#include "poker.h"

#define CHECK(cond) do { if (!(cond)) { fprintf(stderr, "failed: %s\n", #cond); return __LINE__; } } while (0)

int main(void)
{
    CamiciaResult r;
    CamiciaError e;
    const uint8_t a[] = {0, 4, 0, 0, 2, 0};
    const uint8_t b[] = {0, 0, 0, 0, 3, 0, 1};

    CHECK(camicia_simulate("2 A 7 8 Q 10", "3 4 5 6 K 9 J", &r) == CAMICIA_OK);
    CHECK(r.status == CAMICIA_FINISHED && r.cards == 13 && r.tricks == 1);

    CHECK(camicia_simulate("j 2 3", "4 J 5", &r) == CAMICIA_OK);
    CHECK(r.status == CAMICIA_LOOP && r.cards == 8 && r.tricks == 3);

    CHECK(camicia_simulate("---AJ--Q---------QAKQJJ-QK", "-----A----KJ-K--------A---", &r) == 0);
    CHECK(r.status == CAMICIA_FINISHED && r.cards == 8344 && r.tricks == 1164);

    CHECK(camicia_simulate("---K---Q-KQAJ-----AAJ--J--", "----------Q----KQ-J-----KA", &r) == 0);
    CHECK(r.status == CAMICIA_LOOP && r.cards == 474 && r.tricks == 66);

    CHECK(camicia_simulate_penalties(a, 6, b, 7, &r) == CAMICIA_OK);
    CHECK(r.status == CAMICIA_FINISHED && r.cards == 13 && r.tricks == 1);
    CHECK(camicia_simulate_penalties(NULL, 0, b, 1, &r) == CAMICIA_OK);
    CHECK(r.status == CAMICIA_FINISHED && r.cards == 0 && r.tricks == 0);

    CHECK(camicia_simulate(NULL, "2", &r) == POKER_ERR_NULL);
    CHECK(camicia_simulate("2", "3", NULL) == POKER_ERR_NULL);
    CHECK(camicia_simulate_penalties(NULL, 3, b, 7, &r) == POKER_ERR_NULL);
    CHECK(camicia_simulate_penalties(a, 6, b, 7, NULL) == POKER_ERR_NULL);
    CHECK(camicia_simulate_penalties(b, 7, (const uint8_t *)"\005", 1, &r) == POKER_ERR_CARD);

    CHECK(camicia_simulate_ex("2 3", "4 5 Z 6", &r, &e) == POKER_ERR_TOKEN);
    CHECK(e.player == 1 && e.token == 2 && e.offset == 4);
    CHECK(camicia_simulate_ex("2 1", "4", &r, NULL) == POKER_ERR_TOKEN);
    CHECK(camicia_simulate_ex("2", "3", &r, &e) == CAMICIA_OK);
    CHECK(e.player == -1);

    printf("ok\n");
    return 0;
}
