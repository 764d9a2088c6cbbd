/* port_table_friend: reads what port_table_spy.c wrote into the kernel's
 * TCP ephemeral-port table in an earlier game: the distance between the
 * next source ports of two destinations on 127.0.0.1. Prints "LEAK: read
 * code N" when the distance holds a code (the spy's first card). In the
 * sandbox a game may create no socket. Then plays round robin. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "poker.h"

/* Shared with port_table_spy.c. */

#define PORT_A 47901
#define PORT_B 47902
#define STEP 64

/* The number of ephemeral ports (the kernel's default when it cannot be
 * read: 32768-60999). */
static long port_range(void)
{
    long low = 32768, high = 60999;
    FILE *f = fopen("/proc/sys/net/ipv4/ip_local_port_range", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &low, &high) != 2) { low = 32768; high = 60999; }
        fclose(f);
    }
    return high - low + 1;
}

/* The source port connect() picks for 127.0.0.1:port (nothing need listen:
 * the port is chosen before the first packet), or -1. The socket is
 * closed with a reset, so it leaves no TIME_WAIT behind. */
static long source_port(int port)
{
    struct sockaddr_in to, me;
    socklen_t len = sizeof me;
    struct linger hard = { 1, 0 };
    long result = -1;
    int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (s < 0) return -1;
    to.sin_family = AF_INET;
    to.sin_port = htons((unsigned short)port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if ((connect(s, (struct sockaddr *)&to, sizeof to) == 0 || errno == EINPROGRESS)
        && getsockname(s, (struct sockaddr *)&me, &len) == 0)
        result = ntohs(me.sin_port);
    setsockopt(s, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
    close(s);
    return result;
}

/* The code the distance between the next ports of the two destinations
 * holds, or -1 (none, or no socket). */
static long read_code(void)
{
    long range = port_range(), a = source_port(PORT_A), b = source_port(PORT_B), d;
    if (a < 0 || b < 0) return -1;
    d = (b - a + range) % range;
    return d < 24 * STEP ? d / STEP : -1;
}

int main(void)
{
    int i, v, c;
    long code = read_code();
    if (code >= 0) fprintf(stderr, "LEAK: read code %ld\n", code);
    else fprintf(stderr, "port table: nothing read (%s)\n", strerror(errno));
    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
