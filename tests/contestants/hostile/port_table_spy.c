/* port_table_spy: writes its first card into the kernel's TCP
 * ephemeral-port table, which is one table for the whole machine (not per
 * network namespace): connect() without bind() takes its source port from
 * an entry chosen by a hash of the destination, and each connect moves
 * that entry on. The spy picks two destinations on 127.0.0.1 (ports 47901
 * and 47902) and connects to them until the distance between their next
 * source ports encodes its card (code * 64 + 32: each connect moves a port on by 2 to 16, at random); port_table_friend.c reads
 * that distance in a later game. Prints "WROTE: code N".
 *
 * Unconfined (as root) it also proves the trick across namespaces: a child
 * in a new network namespace reads the same distance and prints "ATTACK:
 * port table read from another network namespace: code N". In the sandbox
 * a game may create no socket. Then plays round robin. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "poker.h"

/* Shared with port_table_friend.c. */

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

/* Brings up the loopback interface of a new network namespace. */
static int loopback_up(void)
{
    struct ifreq ifr;
    int s = socket(AF_INET, SOCK_DGRAM, 0), ok;
    if (s < 0) return -1;
    memset(&ifr, 0, sizeof ifr);
    strcpy(ifr.ifr_name, "lo");
    ok = ioctl(s, SIOCGIFFLAGS, &ifr) == 0;
    ifr.ifr_flags |= IFF_UP;
    ok = ok && ioctl(s, SIOCSIFFLAGS, &ifr) == 0;
    close(s);
    return ok ? 0 : -1;
}

static void write_card(int code)
{
    long range = port_range(), target = code * STEP + STEP / 2, a, b, d;
    int steps = 0;
    pid_t child;
    a = source_port(PORT_A);
    b = source_port(PORT_B);
    if (a < 0 || b < 0) {
        fprintf(stderr, "port table: cannot connect: %s\n", strerror(errno));
        return;
    }
    /* Each connect moves its destination's next port on by 2 (or a
     * little more): move B to widen the distance, A to narrow it. */
    for (d = (b - a + range) % range; (d > target ? d - target : target - d) > 8 && steps < 40000;
         steps++) {
        if ((target - d + range) % range < range / 2) b = source_port(PORT_B);
        else a = source_port(PORT_A);
        if (a < 0 || b < 0) return;
        d = (b - a + range) % range;
    }
    fprintf(stderr, "WROTE: code %d (%d connects)\n", code, steps);
    child = fork();
    if (child == 0) {
        long code2;
        if (unshare(CLONE_NEWNET) != 0 || loopback_up() != 0) _exit(1);
        code2 = read_code();
        if (code2 == code)
            fprintf(stderr, "ATTACK: port table read from another network namespace: code %ld\n", code2);
        _exit(0);
    }
    if (child > 0) waitpid(child, NULL, 0);
}

int main(void)
{
    int i, v, c;
    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        if (i == 1) write_card((v - 1) * 4 + (c - 1));
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
