/* Sends two requests at once (looks ahead without waiting): a violation. */
#include <stdlib.h>
#include <unistd.h>
#include "poker.h"
int main(void)
{
    const char *fd = getenv("POKER_MANAGER_FD");
    p_startgame();
    if (fd) {
        if (write(atoi(fd), "L\nL\n", 4) < 0) return 2;
        sleep(10);
    }
    return 0;
}
