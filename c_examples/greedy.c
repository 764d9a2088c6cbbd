/* greedy.c: a one-card-lookahead contestant. Each card goes to the allowed
 * column (one of the shortest, by the balance rule) where it raises that
 * column's promise the most. A column's promise is a rough value of what
 * its cards already make or can still become: equal values (pair, trips,
 * quads), a flush while every card shares a suit, a straight while all
 * values are distinct and fit in 9-K or 10-A.
 * Written exactly as the contest's intended loop (POKER.H). */
#include <stdio.h>
#include "poker.h"

static int values[4][5], colors[4][5], heights[4];

/* Promise of a flush, a straight, by the number of cards in it (weights
 * tuned by hand on 1,000 practice decks, POKER_SEED=1..1000). */
static const double FLUSH[6] = {0.0, 0.0, 0.8, 2.2, 4.3, 7.0};
static const double STRAIGHT[6] = {0.0, 0.0, 0.1, 0.5, 1.5, 4.0};
/* Promise of the equal values: by the count of one value. */
static const double SAME[5] = {0.0, 0.0, 2.0, 4.5, 7.0};

/* How promising column col is with card (v, c) added (v == 0: as it is). */
static double promise(int col, int v, int c)
{
    int vals[5], cols[5], count[7] = {0}, n = heights[col], i;
    int one_suit = 1, distinct = 1, lo = 7, hi = 0;
    double score = 0.0;

    for (i = 0; i < n; i++) {
        vals[i] = values[col][i];
        cols[i] = colors[col][i];
    }
    if (v) {
        vals[n] = v;
        cols[n] = c;
        n++;
    }
    for (i = 0; i < n; i++) {
        if (++count[vals[i]] > 1)
            distinct = 0;
        if (cols[i] != cols[0])
            one_suit = 0;
        if (vals[i] < lo)
            lo = vals[i];
        if (vals[i] > hi)
            hi = vals[i];
    }
    for (i = 1; i <= 6; i++)
        score += SAME[count[i]];
    if (one_suit)
        score += FLUSH[n];
    if (distinct && hi - lo <= 4)
        score += STRAIGHT[n];
    if (one_suit && distinct && hi - lo <= 4 && n == 5)
        score += 1.0;                       /* straight flush: 8, not 7 */
    return score;
}

static int choose(int v, int c)
{
    int col, best = 0, lowest = 5;
    double gain, best_gain = -1e9;

    for (col = 0; col < 4; col++)
        if (heights[col] < lowest)
            lowest = heights[col];
    for (col = 0; col < 4; col++) {
        if (heights[col] != lowest)
            continue;                       /* balance rule */
        gain = promise(col, v, c) - promise(col, 0, 0);
        if (gain > best_gain) {
            best_gain = gain;
            best = col;
        }
    }
    values[best][heights[best]] = v;
    colors[best][heights[best]] = c;
    heights[best]++;
    return best + 1;
}

int main(void)
{
    int i, v, c, t;

    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        t = choose(v, c);
        p_place(t);
    }
    return 0; /* not reached: the 20th p_place stops the program */
}
