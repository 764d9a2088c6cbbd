/* Looks twice without placing: a violation at call 3. */
#include "poker.h"
int main(void) { int v, c; p_startgame(); p_look(&v, &c); p_look(&v, &c); return 0; }
