/* rollouts.c: a strong reference contestant for "Poker American".
 *
 * Each card goes to the allowed column whose choice scores best on average
 * over simulated endings of the game (Monte-Carlo rollouts). A rollout
 * shuffles the cards not seen yet, deals them in that order, and places each
 * with a greedy policy; the final board is scored exactly. All candidate
 * columns are tried on the same shuffles, so their comparison is fair.
 *
 * The greedy policy puts a card where it raises the columns' estimated worth
 * the most. A column's worth is its expected points: for every hand it could
 * still become (a flush in its suit, a straight, four of a kind, ...), the
 * chance that the cards it lacks come, from the cards not seen yet, one per
 * future block of four. The unseen cards are known exactly: each deck holds
 * the 24 cards 9..A of four suits once.
 *
 * From the 15th card on the game is small enough to solve: the card goes
 * to the column with the best exact expected final total (every order of
 * the unseen cards, each later card placed as well as possible). That is
 * the best possible play there; it adds little to the rollouts, which
 * already choose well when only a few cards are left.
 *
 * Uses only POKER.H; deterministic (its own seeded generator). */
#include <string.h>
#include "poker.h"

#ifndef ROLLOUTS
#define ROLLOUTS 400        /* simulated endings per candidate column */
#endif
#ifndef EXACT
#define EXACT 6             /* play exactly once this few cards are left */
#endif

/* What a hand worth p points counts for in the estimate, p = 0..8: tuned
 * by hand-driven coordinate search over 20,000 practice decks (the plain
 * points 0..8 make the greedy weaker by about 0.3). */
static const double weight[9] = {0, 1.5, 2.5, 3.5, 3.5, 5.5, 6.5, 6.5, 7.5};

/* A card is value * 4 + suit, value 0..5 (9..A), suit 0..3. */
#define RANK(card) ((card) >> 2)
#define SUIT(card) ((card) & 3)

typedef struct {
    int cards[4][5];
    int height[4];
    int placed;             /* cards on the board */
    int unseen[24];         /* 1 while the card has not been turned */
    int pool;               /* how many are unseen */
    int rank_left[6], suit_left[4];
} State;

/* hit[u][n]: chance that a block of 4 cards drawn from u unseen cards holds
 * at least one of n given ones: 1 - C(u-n, 4) / C(u, 4). */
static double hit[25][25];

static double choose4(int n)
{
    return n < 4 ? 0.0 : (double)n * (n - 1) * (n - 2) * (n - 3) / 24.0;
}

static void init_tables(void)
{
    int u, n;
    for (u = 0; u <= 24; u++)
        for (n = 0; n <= 24; n++)
            hit[u][n] = (n <= 0 || u < 4) ? (n > 0 && n <= u ? 1.0 : 0.0)
                      : 1.0 - choose4(u - n) / choose4(u);
}

/* Contest points of five cards. */
static int points(const int *hand)
{
    int count[6] = {0}, ranks = 0, flush = 1, most = 0, pairs = 0, i;
    for (i = 0; i < 5; i++) {
        count[RANK(hand[i])]++;
        ranks |= 1 << RANK(hand[i]);
        if (SUIT(hand[i]) != SUIT(hand[0]))
            flush = 0;
    }
    for (i = 0; i < 6; i++) {
        if (count[i] > most)
            most = count[i];
        if (count[i] == 2)
            pairs++;
    }
    if ((ranks == 31 || ranks == 62) && flush) return 8;
    if (flush) return 7;
    if (most == 4) return 6;
    if (most == 3 && pairs) return 5;
    if (ranks == 31 || ranks == 62) return 4;
    if (most == 3) return 3;
    return pairs;
}

/* Chance of at least `need` hits in `picks` future blocks, when a block
 * holds a wanted card with chance hit[pool][left - hits so far]. */
static double chance(int need, int picks, int left, int pool)
{
    double p[6] = {1, 0, 0, 0, 0, 0}, next[6];
    int t, k;
    if (need <= 0)
        return 1.0;
    if (need > picks || need > left)
        return 0.0;
    for (t = 0; t < picks; t++) {
        memset(next, 0, sizeof next);
        for (k = 0; k <= t && k < need; k++) {
            double h = hit[pool][left - k];
            next[k + 1] += p[k] * h;
            next[k] += p[k] * (1 - h);
        }
        next[need] += p[need];
        memcpy(p, next, sizeof p);
    }
    return p[need];
}

/* Estimated worth of a column with `h` cards (see the top). Hands are
 * considered best first; each adds its weight times its chance times the
 * chance that no better hand came. The chances are squared: taken as they
 * are, they ignore that the other columns compete for the same cards, and
 * squaring (tuned like the weights) discounts the long shots most. */
static double worth(const int *cards, int h, const State *s)
{
    int count[6] = {0}, i, x, y, picks = 5 - h, suit = -1, one_suit = 1;
    int ranks = 0, paired = 0;
    double miss = 1.0, sum = 0.0, p;

    if (picks == 0)
        return points(cards);
    for (i = 0; i < h; i++) {
        count[RANK(cards[i])]++;
        ranks |= 1 << RANK(cards[i]);
        if (i == 0)
            suit = SUIT(cards[0]);
        else if (SUIT(cards[i]) != suit)
            one_suit = 0;
    }
    for (x = 0; x < 6; x++)
        if (count[x] >= 2)
            paired++;

#define ADD(pts, prob) do { p = (prob); p *= p; sum += weight[pts] * p * miss; miss *= 1 - p; } while (0)
    /* Straight flush (8): the two windows 9-K and 10-A in the column's suit. */
    if (h > 0 && one_suit && !paired) {
        int w;
        for (w = 0; w < 2; w++) {
            int window = 31 << w;
            if ((ranks & ~window) == 0) {
                p = 1.0;
                for (x = 0; x < 6; x++)
                    if ((window >> x & 1) && !count[x])
                        p *= s->unseen[x * 4 + suit] ? hit[s->pool][1] : 0.0;
                ADD(8, p);
            }
        }
    }
    /* Flush (7). */
    if (h > 0 && one_suit)
        ADD(7, chance(picks, picks, s->suit_left[suit], s->pool));
    /* Four of a kind (6): four of x and one other card. */
    for (x = 0; x < 6; x++)
        if (count[x] > 0 && h - count[x] <= 1)
            ADD(6, chance(4 - count[x], picks - (1 - (h - count[x])),
                          s->rank_left[x], s->pool));
    /* Full house (5): three of x, two of y, nothing else. */
    for (x = 0; x < 6; x++)
        for (y = 0; y < 6; y++)
            if (x != y && count[x] <= 3 && count[y] <= 2 && count[x] + count[y] == h
                && (count[x] > 0 || count[y] > 0))
                ADD(5, chance(3 - count[x], 3 - count[x], s->rank_left[x], s->pool)
                       * chance(2 - count[y], 2 - count[y], s->rank_left[y], s->pool));
    /* Straight (4): every missing rank of a window, any suit. */
    if (!paired) {
        int w;
        for (w = 0; w < 2; w++) {
            int window = 31 << w;
            if ((ranks & ~window) == 0) {
                p = 1.0;
                for (x = 0; x < 6; x++)
                    if ((window >> x & 1) && !count[x])
                        p *= hit[s->pool][s->rank_left[x]];
                ADD(4, p);
            }
        }
    }
    /* Three of a kind (3). */
    for (x = 0; x < 6; x++)
        if (count[x] > 0 && count[x] <= 3 && paired - (count[x] >= 2) == 0)
            ADD(3, chance(3 - count[x], picks, s->rank_left[x], s->pool));
    /* Two pair (2). */
    for (x = 0; x < 6; x++)
        for (y = x + 1; y < 6; y++)
            if (count[x] <= 2 && count[y] <= 2 && count[x] + count[y] > 0
                && h - count[x] - count[y] <= 1)
                ADD(2, chance(2 - count[x], 2 - count[x], s->rank_left[x], s->pool)
                       * chance(2 - count[y], 2 - count[y], s->rank_left[y], s->pool));
    /* One pair (1). */
    for (x = 0; x < 6; x++)
        if (count[x] > 0)
            ADD(1, chance(2 - count[x], picks, s->rank_left[x], s->pool));
#undef ADD
    return sum;
}

static void see(State *s, int card)
{
    s->unseen[card] = 0;
    s->pool--;
    s->rank_left[RANK(card)]--;
    s->suit_left[SUIT(card)]--;
}

static int shortest(const State *s)
{
    int lowest = 5, c;
    for (c = 0; c < 4; c++)
        if (s->height[c] < lowest)
            lowest = s->height[c];
    return lowest;
}

/* The greedy policy: the allowed column where `card` (already seen) adds
 * the most worth. */
static int greedy(const State *s, int card)
{
    int lowest = shortest(s), c, best = -1, n = 0;
    double gain, best_gain = -1e9;
    for (c = 0; c < 4; c++)
        n += s->height[c] == lowest;
    for (c = 0; c < 4; c++) {
        int col[5];
        if (s->height[c] != lowest)
            continue;
        if (n == 1)
            return c;
        memcpy(col, s->cards[c], sizeof col);
        col[s->height[c]] = card;
        gain = worth(col, s->height[c] + 1, s) - worth(s->cards[c], s->height[c], s);
        if (gain > best_gain) {
            best_gain = gain;
            best = c;
        }
    }
    return best;
}

static void put(State *s, int column, int card)
{
    s->cards[column][s->height[column]++] = card;
    s->placed++;
}

/* Seeded xorshift generator, so games are reproducible. */
static unsigned long long rng = 0x2545F4914F6CDD1DULL;

static unsigned next_random(unsigned bound)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)((rng >> 11) % bound);
}

/* Plays the rest of the game greedily with the unseen cards dealt in
 * `order`, and returns the final total. */
static int rollout(State s, const int *order)
{
    int i = 0, c, total = 0;
    while (s.placed < 20) {
        int card = order[i++];
        see(&s, card);
        put(&s, greedy(&s, card), card);
    }
    for (c = 0; c < 4; c++)
        total += points(s.cards[c]);
    return total;
}

/* Whether columns a and b hold the same cards (then they are equivalent). */
static int same_column(const State *s, int a, int b)
{
    int i, j, found;
    if (s->height[a] != s->height[b])
        return 0;
    for (i = 0; i < s->height[a]; i++) {
        found = 0;
        for (j = 0; j < s->height[b]; j++)
            found |= s->cards[a][i] == s->cards[b][j];
        if (!found)
            return 0;
    }
    return 1;
}

/* The exact expected final total from state `s` (after a placement) when
 * every remaining card is placed as well as possible: the next card is each
 * unseen card with equal chance (the four never-dealt cards are among the
 * unseen, so this is exact), and goes to its best allowed column. Cheap
 * only near the end: from the 15th card on it is at most about a million
 * boards, and from the 17th a few thousand. */
static double expected_best(const State *s)
{
    int lowest, c, d, x, n = 0;
    double total = 0.0;
    if (s->placed == 20) {
        int t = 0;
        for (c = 0; c < 4; c++)
            t += points(s->cards[c]);
        return t;
    }
    lowest = shortest(s);
    for (x = 0; x < 24; x++) {
        State seen;
        double best = -1.0;
        if (!s->unseen[x])
            continue;
        seen = *s;
        see(&seen, x);
        n++;
        for (c = 0; c < 4; c++) {
            int duplicate = 0;
            double v;
            State next;
            if (seen.height[c] != lowest)
                continue;
            for (d = 0; d < c; d++)
                duplicate |= seen.height[d] == lowest && same_column(&seen, d, c);
            if (duplicate)
                continue;
            next = seen;
            put(&next, c, x);
            v = expected_best(&next);
            if (v > best)
                best = v;
        }
        total += best;
    }
    return total / n;
}

static int choose(State *s, int card)
{
    int candidates[4], n = 0, lowest, c, d, r, i, best = 0;
    long score[4] = {0, 0, 0, 0};
    int order[24], left = 0;

    see(s, card);
    lowest = shortest(s);
    for (c = 0; c < 4; c++) {
        int duplicate = 0;
        if (s->height[c] != lowest)
            continue;
        for (d = 0; d < n; d++)
            duplicate |= same_column(s, candidates[d], c);
        if (!duplicate)
            candidates[n++] = c;
    }
    if (n == 1)
        return candidates[0];
    if (20 - s->placed <= EXACT) {
        /* Near the end: the candidate with the best exact expectation. */
        double value, best_value = -1.0;
        for (d = 0; d < n; d++) {
            State next = *s;
            put(&next, candidates[d], card);
            value = expected_best(&next);
            if (value > best_value) {
                best_value = value;
                best = d;
            }
        }
        return candidates[best];
    }
    if (ROLLOUTS == 0)
        return greedy(s, card);
    for (c = 0; c < 24; c++)
        if (s->unseen[c])
            order[left++] = c;
    for (r = 0; r < ROLLOUTS; r++) {
        for (i = left - 1; i > 0; i--) {
            int j = (int)next_random((unsigned)i + 1), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (d = 0; d < n; d++) {
            State next = *s;
            put(&next, candidates[d], card);
            score[d] += rollout(next, order);
        }
    }
    for (d = 1; d < n; d++)
        if (score[d] > score[best])
            best = d;
    return candidates[best];
}

int main(void)
{
    State s;
    int i, v, c, t;

    memset(&s, 0, sizeof s);
    for (i = 0; i < 24; i++)
        s.unseen[i] = 1;
    s.pool = 24;
    for (i = 0; i < 6; i++)
        s.rank_left[i] = 4;
    for (i = 0; i < 4; i++)
        s.suit_left[i] = 6;
    init_tables();

    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        t = choose(&s, (v - 1) * 4 + (c - 1));
        put(&s, t, (v - 1) * 4 + (c - 1));
        p_place(t + 1);
    }
    return 0; /* not reached: the 20th p_place stops the program */
}
