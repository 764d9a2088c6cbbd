/* vsock: creates an AF_VSOCK socket (vsock is not per network namespace:
 * on a judge that is a virtual machine it addresses the hypervisor and
 * the other machines on it) and asks the machine's context id through
 * /dev/vsock. Prints "ATTACK: vsock socket created" and "ATTACK: local
 * context id N" for what worked. In the sandbox a game may create no
 * socket and has no /dev/vsock. Then plays round robin. */
#include <errno.h>
#include <fcntl.h>
#include <linux/vm_sockets.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include "poker.h"

int main(void)
{
    int i, v, c, s = socket(AF_VSOCK, SOCK_STREAM, 0), dev;
    unsigned int cid = 0;
    if (s >= 0) {
        fprintf(stderr, "ATTACK: vsock socket created\n");
        close(s);
    } else {
        fprintf(stderr, "vsock socket: %s\n", strerror(errno));
    }
    dev = open("/dev/vsock", O_RDONLY);
    if (dev >= 0 && ioctl(dev, IOCTL_VM_SOCKETS_GET_LOCAL_CID, &cid) == 0)
        fprintf(stderr, "ATTACK: local context id %u\n", cid);
    else
        fprintf(stderr, "/dev/vsock: %s\n", strerror(errno));
    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
