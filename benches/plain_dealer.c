/* The plain C FreeCell dealer the batch dealer is measured against: the
 * textbook algorithm (seed 000), one LCG step and one `%` per card, as a C
 * programmer would write it. benches/freecell.rs compiles it with
 * `cc -O2 -shared -fPIC` (no -march=native) and times it in the same run. */
#include <stdint.h>

static void deal(int64_t n, unsigned char *out)
{
    unsigned char deck[52];
    uint32_t state = (uint32_t)(n >= 4294967296LL ? n - 4294967296LL : n);
    int k;
    for (k = 0; k < 52; k++)
        deck[k] = (unsigned char)k;
    for (k = 0; k < 52; k++) {
        uint32_t r;
        int j, left = 52 - k;
        state = state * 214013u + 2531011u;
        if (n < 2147483648LL)
            r = (state >> 16) & 0x7FFF;
        else if (n < 4294967296LL)
            r = ((state >> 16) & 0x7FFF) | 0x8000;
        else
            r = ((state >> 16) & 0xFFFF) + 1;
        j = (int)(r % (uint32_t)left);
        out[k] = deck[j];
        deck[j] = deck[left - 1];
    }
}

/* Deals first .. first + count - 1 into 52 * count bytes. */
void plain_deal_range(int64_t first, int64_t count, unsigned char *cards)
{
    int64_t i;
    for (i = 0; i < count; i++)
        deal(first + i, cards + 52 * i);
}
