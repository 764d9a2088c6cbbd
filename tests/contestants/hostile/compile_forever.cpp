/* compile_forever: a constant the compiler must compute, with 4e10 steps
 * of a loop, so compiling takes minutes (GCC gives up only past its
 * constexpr operation limit); the compile time limit must stop it, say
 * so, and the evaluation go on. Would play round robin. */
#include "poker.h"

constexpr long spin()
{
    long s = 0;
    for (long i = 0; i < 200000; i++)
        for (long j = 0; j < 200000; j++)
            s += i ^ j;
    return s;
}

constexpr long forever = spin();

int main()
{
    int v, c;
    p_startgame();
    for (int i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1 + (forever == 0));
    }
    return 0;
}
