/* Places in column 5: a violation at call 3. */
#include "poker.h"
int main(void) { int v, c; p_startgame(); p_look(&v, &c); p_place(5); return 0; }
