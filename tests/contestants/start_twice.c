/* Calls p_startgame twice: a violation at call 2. */
#include "poker.h"
int main(void) { p_startgame(); p_startgame(); return 0; }
