/* game_api.c: the embeddable game API tested as C (run by crates/libpoker/tests/c_api/game_api.rs).
 * Expected values are hand-checked from the contest text (seed 001): its
 * worked example scores 2 + 5 + 1 + 3 = 11, and the point table
 * 8/7/6/5/4/3/2/1/0. Prints "ok" and exits 0 when every check passes. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "poker.h"

static int failures = 0;

#define CHECK(cond) do { if (!(cond)) { \
    fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    failures++; } } while (0)

/* The seed's worked example row by row, then its 4 unused cards. */
static const char *SEED_DECK =
    "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH";

static int round_robin(PokerGame *game)
{
    int i, v, c, rc = POKER_OK;
    for (i = 0; i < 20; i++) {
        if (poker_game_look(game, &v, &c) != POKER_OK)
            return -100;
        rc = poker_game_place(game, i % 4 + 1);
        if (rc != (i == 19 ? POKER_FINISHED : POKER_OK))
            return -101;
    }
    return rc;
}

static void seed_example_scores_eleven(void)
{
    int columns[4] = {-1, -1, -1, -1}, v = 0, c = 0;
    PokerGame *game = poker_game_new_text(SEED_DECK);
    CHECK(game != NULL);
    /* The first card is JC: value 3 (J), color 4 (clubs). */
    CHECK(poker_game_look(game, &v, &c) == POKER_OK);
    CHECK(v == 3 && c == 4);
    CHECK(poker_game_score(game, columns) == POKER_ERR_IN_PROGRESS);
    CHECK(columns[0] == -1);
    CHECK(poker_game_place(game, 1) == POKER_OK);
    poker_game_free(game);

    game = poker_game_new_text(SEED_DECK);
    CHECK(round_robin(game) == POKER_FINISHED);
    CHECK(poker_game_score(game, columns) == 11);
    CHECK(columns[0] == 2 && columns[1] == 5 && columns[2] == 1 && columns[3] == 3);
    CHECK(poker_game_score(game, NULL) == 11);
    CHECK(poker_game_error(game, NULL, 0) == 0);
    /* Playing on after the end is a rule broken, and the score stays. */
    CHECK(poker_game_look(game, &v, &c) == POKER_ERR_GAME_OVER);
    CHECK(poker_game_score(game, NULL) == 11);
    CHECK(poker_game_error(game, NULL, 0) == 0);
    poker_game_free(game);
}

static void ordered_deck_from_codes_scores_four_straight_flushes(void)
{
    /* 9S 9H 9D 9C 10S 10H ... : round robin gives each column one suit,
     * 9 to K: four straight flushes, 4 x 8 = 32. */
    int values[24], colors[24], i, columns[4];
    PokerGame *game;
    for (i = 0; i < 24; i++) {
        values[i] = i / 4 + 1;
        colors[i] = i % 4 + 1;
    }
    game = poker_game_new_deck(values, colors);
    CHECK(game != NULL);
    CHECK(round_robin(game) == POKER_FINISHED);
    CHECK(poker_game_score(game, columns) == 32);
    CHECK(columns[0] == 8 && columns[3] == 8);
    poker_game_free(game);

    colors[23] = 1; /* AS twice, AC missing */
    CHECK(poker_game_new_deck(values, colors) == NULL);
    {
        char msg[200];
        CHECK(poker_last_error(msg, sizeof msg) > 0);
        CHECK(strstr(msg, "more than once") != NULL);
    }
    colors[23] = 5;
    CHECK(poker_game_new_deck(values, colors) == NULL);
    CHECK(poker_game_new_deck(NULL, colors) == NULL);
    CHECK(poker_game_new_text("9S TS") == NULL);
    CHECK(poker_game_new_text(NULL) == NULL);
}

static void each_rule_has_its_code(void)
{
    int v, c, columns[4] = {7, 7, 7, 7};
    char msg[256];
    PokerGame *game;

    /* The contest text's example: place(1), place(2), place(3), place(1). */
    game = poker_game_new(1);
    CHECK(poker_game_look(game, &v, &c) == POKER_OK);
    CHECK(poker_game_place(game, 1) == POKER_OK);
    CHECK(poker_game_look(game, &v, &c) == POKER_OK);
    CHECK(poker_game_place(game, 2) == POKER_OK);
    CHECK(poker_game_look(game, &v, &c) == POKER_OK);
    CHECK(poker_game_place(game, 3) == POKER_OK);
    CHECK(poker_game_look(game, &v, &c) == POKER_OK);
    CHECK(poker_game_place(game, 1) == POKER_ERR_UNBALANCED);
    CHECK(poker_game_error(game, msg, sizeof msg) > 0);
    CHECK(strstr(msg, "call 9") != NULL);
    CHECK(strstr(msg, "differ by more than 1") != NULL);
    /* A broken rule scores 0, and the game is over. */
    CHECK(poker_game_score(game, columns) == 0);
    CHECK(columns[0] == 0 && columns[3] == 0);
    CHECK(poker_game_look(game, &v, &c) == POKER_ERR_GAME_OVER);
    /* The first broken rule is the one the game keeps. */
    CHECK(poker_game_error(game, msg, sizeof msg) > 0);
    CHECK(strstr(msg, "call 9") != NULL);
    /* Truncation keeps a NUL. */
    CHECK(poker_game_error(game, msg, 5) > 5);
    CHECK(strlen(msg) == 4);
    poker_game_free(game);

    game = poker_game_new(2);
    CHECK(poker_game_look(game, &v, &c) == POKER_OK);
    CHECK(poker_game_look(game, &v, &c) == POKER_ERR_LOOKED_TWICE);
    poker_game_free(game);

    game = poker_game_new(3);
    CHECK(poker_game_place(game, 1) == POKER_ERR_PLACE_WITHOUT_LOOK);
    poker_game_free(game);

    game = poker_game_new(4);
    CHECK(poker_game_look(game, &v, &c) == POKER_OK);
    CHECK(poker_game_place(game, 5) == POKER_ERR_COLUMN_OUT_OF_RANGE);
    poker_game_free(game);

    game = poker_game_new(5);
    CHECK(poker_game_look(game, &v, NULL) == POKER_ERR_LOOK_NULL);
    CHECK(poker_game_score(game, NULL) == 0);
    poker_game_free(game);
}

static void null_handles_are_reported(void)
{
    int v, c;
    char msg[64];
    CHECK(poker_game_look(NULL, &v, &c) == POKER_ERR_NULL);
    CHECK(poker_game_place(NULL, 1) == POKER_ERR_NULL);
    CHECK(poker_game_score(NULL, NULL) == POKER_ERR_NULL);
    CHECK(poker_game_error(NULL, msg, sizeof msg) == POKER_ERR_NULL);
    CHECK(poker_last_error(msg, sizeof msg) > 0);
    CHECK(strstr(msg, "NULL") != NULL);
    poker_game_free(NULL);
}

static int hand(const char *spec)
{
    /* spec: five "vc" digit pairs, e.g. "15 25 35 45 55". */
    int values[5], colors[5], i;
    for (i = 0; i < 5; i++) {
        values[i] = spec[3 * i] - '0';
        colors[i] = spec[3 * i + 1] - '0';
    }
    return poker_hand_score(values, colors);
}

static void hands_score_the_contest_table(void)
{
    /* values 1..6 = 9 10 J Q K A; colors 1..4 = S H D C */
    CHECK(hand("11 21 31 41 51") == 8); /* 9S TS JS QS KS */
    CHECK(hand("22 32 42 52 62") == 8); /* TH JH QH KH AH */
    CHECK(hand("11 21 31 41 61") == 7); /* 9S TS JS QS AS */
    CHECK(hand("11 12 13 14 61") == 6); /* four nines */
    CHECK(hand("22 23 24 64 63") == 5); /* seed column 2: TH TD TC AC AD */
    CHECK(hand("11 22 33 44 51") == 4); /* 9S TH JD QC KS */
    CHECK(hand("41 43 53 42 13") == 3); /* seed column 4: QS QD KD QH 9D */
    CHECK(hand("34 11 54 52 33") == 2); /* seed column 1: JC 9S KC KH JD */
    CHECK(hand("12 61 51 14 32") == 1); /* seed column 3: 9H AS KS 9C JH */
    CHECK(hand("11 22 33 44 61") == 0); /* 9S TH JD QC AS */
    CHECK(hand("11 11 33 44 61") == POKER_ERR_DUPLICATE);
    CHECK(hand("71 22 33 44 61") == POKER_ERR_CARD);
    CHECK(hand("10 22 33 44 61") == POKER_ERR_CARD);
    CHECK(poker_hand_score(NULL, NULL) == POKER_ERR_NULL);
}

/* Threads: each plays its own games on its own handles; the totals must be
 * those the same seeds give on one thread. */
#define GAMES 300
static int expected[GAMES];

static void *play_many(void *arg)
{
    int i, *bad = (int *)arg;
    for (i = 0; i < GAMES; i++) {
        PokerGame *game = poker_game_new((uint64_t)i);
        if (round_robin(game) != POKER_FINISHED || poker_game_score(game, NULL) != expected[i])
            (*bad)++;
        poker_game_free(game);
    }
    return NULL;
}

static void separate_handles_on_threads_agree(void)
{
    pthread_t threads[4];
    int bad[4] = {0, 0, 0, 0}, i;
    for (i = 0; i < GAMES; i++) {
        PokerGame *game = poker_game_new((uint64_t)i);
        CHECK(round_robin(game) == POKER_FINISHED);
        expected[i] = poker_game_score(game, NULL);
        CHECK(expected[i] >= 0 && expected[i] <= 32);
        poker_game_free(game);
    }
    for (i = 0; i < 4; i++)
        CHECK(pthread_create(&threads[i], NULL, play_many, &bad[i]) == 0);
    for (i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
        CHECK(bad[i] == 0);
    }
}

int main(void)
{
    seed_example_scores_eleven();
    ordered_deck_from_codes_scores_four_straight_flushes();
    each_rule_has_its_code();
    null_handles_are_reported();
    hands_score_the_contest_table();
    separate_handles_on_threads_agree();
    if (failures == 0)
        printf("ok\n");
    return failures == 0 ? 0 : 1;
}
