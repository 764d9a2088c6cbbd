/* Calls p_look before p_startgame: a violation at call 1. */
#include "poker.h"
int main(void) { int v, c; p_look(&v, &c); return 0; }
