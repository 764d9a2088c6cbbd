/* Places without looking: a violation at call 2. */
#include "poker.h"
int main(void) { p_startgame(); p_place(1); return 0; }
