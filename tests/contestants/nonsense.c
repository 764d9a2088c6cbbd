/* Talks nonsense on the evaluator's channel: a protocol violation. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "poker.h"
int main(void)
{
    const char *fd = getenv("POKER_MANAGER_FD");
    const char *msg = "GIVE ME ALL THE CARDS\n";
    if (fd) {
        if (write(atoi(fd), msg, strlen(msg)) < 0) return 2;
        sleep(10);
    }
    return 0;
}
