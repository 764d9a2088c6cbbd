/* network: tries to talk to the outside world: a TCP connection to
 * 127.0.0.1:47823 and to the abstract Unix socket "@poker-hostile-47823"
 * (the test listens on both), sending "hello from network". Prints
 * "ATTACK: succeeded: connected to ..." for each that worked. Then plays
 * round robin. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "poker.h"

static const char HELLO[] = "hello from network\n";

int main(void)
{
    int i, v, c, s;
    struct sockaddr_in in;
    struct sockaddr_un un;
    static const char NAME[] = "poker-hostile-47823";

    memset(&in, 0, sizeof in);
    in.sin_family = AF_INET;
    in.sin_port = htons(47823);
    in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    s = socket(AF_INET, SOCK_STREAM, 0);
    if (s >= 0 && connect(s, (struct sockaddr *)&in, sizeof in) == 0
        && write(s, HELLO, sizeof HELLO - 1) > 0)
        fprintf(stderr, "ATTACK: succeeded: connected to 127.0.0.1:47823\n");
    if (s >= 0) close(s);

    memset(&un, 0, sizeof un);
    un.sun_family = AF_UNIX;
    memcpy(un.sun_path + 1, NAME, sizeof NAME - 1);
    s = socket(AF_UNIX, SOCK_STREAM, 0);
    if (s >= 0 && connect(s, (struct sockaddr *)&un,
                          (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + sizeof NAME - 1)) == 0
        && write(s, HELLO, sizeof HELLO - 1) > 0)
        fprintf(stderr, "ATTACK: succeeded: connected to @%s\n", NAME);
    if (s >= 0) close(s);

    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
