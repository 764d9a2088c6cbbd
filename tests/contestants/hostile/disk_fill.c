/* disk_fill: initialised variables aligned to 2^28 bytes, each in a
 * section of its own, so that the linker pads the program file out to
 * gigabytes in the evaluator's build folder. A compile-time attack: it
 * never runs. Do not compile it without a file-size limit
 * (ulimit -f 70000 does). */
#include "poker.h"

#define FAR(n) __attribute__((section(".far" #n), aligned(1 << 28))) int far##n = n;
FAR(1) FAR(2) FAR(3) FAR(4) FAR(5) FAR(6)

int main(void)
{
    int i, v, c;
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1 + far1 * 0); }
    return 0;
}
