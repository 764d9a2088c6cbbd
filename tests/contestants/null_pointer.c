/* Passes NULL to p_look: a violation at call 2. */
#include <stddef.h>
#include "poker.h"
int main(void) { p_startgame(); p_look(NULL, NULL); return 0; }
