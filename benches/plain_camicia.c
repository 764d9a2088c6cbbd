/* A plain Camicia (Beggar-My-Neighbour) simulator, the kind anyone would
 * write: card by card, decks as ring buffers, and loops found by hashing
 * every round-start state into a table. The Camicia benchmark compiles it
 * (cc -O2, no -march=native) as the outside reference for its ratios.
 *
 * Rules as in the library (exercism's "camicia"): A plays first; J, Q, K, A
 * make the other player pay 1, 2, 3, 4 cards; a payment card while paying
 * turns the debt round; a debt paid in full gives the pile to whoever laid
 * the last payment card, who leads next; a player who must play with no
 * cards loses the pile; a round start repeating an earlier one is a loop.
 * Cards and tricks are counted as the library counts them.
 *
 * Cards are penalties: 0 for a number card, 1..4 for J, Q, K, A.
 * Returns 0 for a finished game, 1 for a loop. */

#include <stdint.h>

#define MAX_CARDS 64
#define TABLE_BITS 14
#define TABLE_SIZE (1u << TABLE_BITS)

struct deck {
    unsigned char card[MAX_CARDS];
    int head, len;
};

static void push(struct deck *d, unsigned char c) {
    d->card[(d->head + d->len) % MAX_CARDS] = c;
    d->len++;
}

static unsigned char pop(struct deck *d) {
    unsigned char c = d->card[d->head];
    d->head = (d->head + 1) % MAX_CARDS;
    d->len--;
    return c;
}

/* FNV-1a over the leader, then each deck's cards with its length. */
static uint64_t state_hash(const struct deck *d, int lead) {
    uint64_t h = 1469598103934665603ull;
    h = (h ^ (uint64_t)lead) * 1099511628211ull;
    for (int p = 0; p < 2; p++) {
        h = (h ^ (uint64_t)(100 + d[p].len)) * 1099511628211ull;
        for (int i = 0; i < d[p].len; i++)
            h = (h ^ d[p].card[(d[p].head + i) % MAX_CARDS]) * 1099511628211ull;
    }
    return h | 1; /* 0 marks an empty slot */
}

static uint64_t table[TABLE_SIZE];
static uint32_t used[TABLE_SIZE];
static uint32_t n_used;

/* True if `h` was seen before in this game; otherwise remembers it (a full
 * table, far past any known game, counts as seen). */
static int seen(uint64_t h) {
    if (n_used == TABLE_SIZE / 2)
        return 1;
    for (uint32_t i = (uint32_t)h & (TABLE_SIZE - 1);; i = (i + 1) & (TABLE_SIZE - 1)) {
        if (table[i] == h)
            return 1;
        if (table[i] == 0) {
            table[i] = h;
            used[n_used++] = i;
            return 0;
        }
    }
}

/* Empties the table, slot by used slot (cheaper than clearing it all). */
static void forget(void) {
    while (n_used > 0)
        table[used[--n_used]] = 0;
}

int plain_camicia(const unsigned char *a, int na, const unsigned char *b, int nb,
                  uint64_t *cards_out, uint64_t *tricks_out) {
    struct deck d[2] = {{{0}, 0, 0}, {{0}, 0, 0}};
    unsigned char pile[MAX_CARDS];
    int pile_len = 0, turn = 0, owed = 0, owner = 0, status = 0;
    uint64_t cards = 0, tricks = 0;
    for (int i = 0; i < na; i++) push(&d[0], a[i]);
    for (int i = 0; i < nb; i++) push(&d[1], b[i]);
    if (na == 0)
        goto done;
    seen(state_hash(d, 0));
    for (;;) {
        if (d[turn].len == 0) {
            /* Must play, cannot: the other takes the pile; game over. */
            tricks++;
            break;
        }
        unsigned char c = pop(&d[turn]);
        pile[pile_len++] = c;
        cards++;
        if (c > 0) {
            owed = c;
            owner = turn;
            turn = 1 - turn;
        } else if (owed > 0) {
            if (--owed == 0) {
                for (int i = 0; i < pile_len; i++) push(&d[owner], pile[i]);
                pile_len = 0;
                tricks++;
                turn = owner;
                if (d[1 - owner].len == 0)
                    break;
                if (seen(state_hash(d, turn))) {
                    status = 1;
                    break;
                }
            }
        } else {
            turn = 1 - turn;
        }
    }
done:
    forget();
    *cards_out = cards;
    *tricks_out = tricks;
    return status;
}
