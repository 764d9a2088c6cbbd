/* dev_locks: the device nodes of /dev are the host's inodes, shared by
 * every jail, and a record lock on one is seen by every process of the
 * machine that asks: a spy locks byte 1000 + card of /dev/null, a friend
 * in another evaluation reads it with F_GETLK. Tries every lock command,
 * classic and open-file-description (OFD), on each device a game has,
 * with a read lock (which blocks no one) on byte 1000, released at once.
 * Prints "CMD on DEVICE: ERROR" or "ATTACK: CMD on DEVICE works". In the
 * sandbox the filter refuses every lock command (EPERM). Then plays round
 * robin. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "poker.h"

static const char *const DEVICES[] = {"/dev/null", "/dev/zero", "/dev/full",
                                      "/dev/random", "/dev/urandom"};
static const struct { const char *name; int cmd; short type; } COMMANDS[] = {
    {"F_SETLK", F_SETLK, F_RDLCK},         {"F_SETLKW", F_SETLKW, F_RDLCK},
    {"F_GETLK", F_GETLK, F_WRLCK},         {"F_OFD_SETLK", F_OFD_SETLK, F_RDLCK},
    {"F_OFD_SETLKW", F_OFD_SETLKW, F_RDLCK}, {"F_OFD_GETLK", F_OFD_GETLK, F_WRLCK},
};

/* A lock of `type` on byte 1000 (l_pid 0, as OFD commands require). */
static struct flock byte_1000(short type)
{
    struct flock lock;
    memset(&lock, 0, sizeof lock);
    lock.l_type = type;
    lock.l_whence = SEEK_SET;
    lock.l_start = 1000;
    lock.l_len = 1;
    return lock;
}

int main(void)
{
    unsigned d, k;
    int i, v, c;
    for (d = 0; d < sizeof DEVICES / sizeof *DEVICES; d++) {
        int fd = open(DEVICES[d], O_RDONLY);
        if (fd < 0) {
            fprintf(stderr, "%s: %s\n", DEVICES[d], strerror(errno));
            continue;
        }
        for (k = 0; k < sizeof COMMANDS / sizeof *COMMANDS; k++) {
            struct flock lock = byte_1000(COMMANDS[k].type);
            if (fcntl(fd, COMMANDS[k].cmd, &lock) == 0) {
                fprintf(stderr, "ATTACK: %s on %s works\n", COMMANDS[k].name, DEVICES[d]);
                lock = byte_1000(F_UNLCK);
                fcntl(fd, k < 3 ? F_SETLK : F_OFD_SETLK, &lock);
            } else {
                fprintf(stderr, "%s on %s: %s\n", COMMANDS[k].name, DEVICES[d],
                        strerror(errno));
            }
        }
        close(fd);
    }
    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
