/* greedy.c: a one-card-lookahead contestant. Each card goes to the allowed
 * column (one of the shortest) where it raises that column's "promise" the
 * most. A column's promise counts what its cards can still become: pairs,
 * trips and quads of equal values, a flush while all cards share a suit, a
 * straight while all values are distinct and fit in 9-K or 10-A.
 * Written exactly as the contest's intended loop (POKER.H). */
#include <stdio.h>
#include "poker.h"

static int values[4][5], colors[4][5], heights[4];

/* How promising a column is with card (v, c) added (v == 0: as it is). */
static double promise(int col, int v, int c)
{
    int vals[6], cols[6], n = heights[col], i, j;
    int same_value = 0, one_suit = 1, distinct = 1, lo = 7, hi = 0;
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
    if (n == 0)
        return 0.0;
    for (i = 0; i < n; i++) {
        for (j = i + 1; j < n; j++) {
            if (vals[i] == vals[j]) {
                same_value++;
                distinct = 0;
            }
        }
        if (cols[i] != cols[0])
            one_suit = 0;
        if (vals[i] < lo)
            lo = vals[i];
        if (vals[i] > hi)
            hi = vals[i];
    }
    /* Equal pairs among the cards: 1 pair, 3 trips, 6 quads. */
    score += 1.2 * same_value;
    if (one_suit)
        score += 0.9 * n;                   /* heading for a flush (7) */
    if (distinct && hi - lo <= 4)
        score += 0.5 * n;                   /* heading for a straight (4) */
    if (one_suit && distinct && hi - lo <= 4)
        score += 0.4 * n;                   /* and a straight flush (8) */
    return score;
}

static int choose(int v, int c)
{
    int col, best = -1, lowest = 5;
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
