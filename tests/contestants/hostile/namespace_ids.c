/* namespace_ids: reads the numbers the kernel gives a game's namespaces
 * and mounts from machine-wide counters, which tell a game its place in
 * the run: the mount namespace's id (ioctl NS_GET_MNTNS_ID on
 * /proc/self/ns/mnt), the namespaces' inode numbers, the network
 * namespace's cookie (SO_NETNS_COOKIE of a new socket and of the channel),
 * the unique id of the root's mount (statx STATX_MNT_ID_UNIQUE), and what
 * /proc/self/mountinfo says of the host (the scratch folder, the
 * contestant's index). Prints "LEAK: WHAT N" for each that worked. In the
 * sandbox there is no /proc, no socket, no getsockopt and no statx. Then
 * plays round robin. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "poker.h"

#define NS_GET_MNTNS_ID _IOR(0xb7, 0x5, uint64_t)
#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71
#endif
#define STATX_MNT_ID_UNIQUE_BIT 0x4000U

struct statx_head {
    uint32_t mask, blksize;
    uint64_t attributes;
    uint32_t nlink, uid, gid;
    uint16_t mode, pad0;
    uint64_t ino, size, blocks, attributes_mask;
    uint64_t times[8];
    uint32_t rdev_major, rdev_minor, dev_major, dev_minor;
    uint64_t mnt_id;
    uint64_t rest[16];
};

static void netns_cookie(const char *what, int fd)
{
    uint64_t cookie = 0;
    socklen_t len = sizeof cookie;
    if (fd >= 0 && getsockopt(fd, SOL_SOCKET, SO_NETNS_COOKIE, &cookie, &len) == 0)
        fprintf(stderr, "LEAK: network namespace cookie (%s) %llu\n", what, (unsigned long long)cookie);
    else
        fprintf(stderr, "network namespace cookie (%s): %s\n", what, strerror(errno));
}

int main(void)
{
    int i, v, c, fd;
    uint64_t id = 0;
    struct stat st;
    struct statx_head sx;
    char line[4096];
    FILE *f;
    const char *ns[] = { "mnt", "net", "pid", "ipc", "uts", "user", "cgroup" };

    fd = open("/proc/self/ns/mnt", O_RDONLY);
    if (fd >= 0 && ioctl(fd, NS_GET_MNTNS_ID, &id) == 0)
        fprintf(stderr, "LEAK: mount namespace id %llu\n", (unsigned long long)id);
    else
        fprintf(stderr, "mount namespace id: %s\n", strerror(errno));
    if (fd >= 0) close(fd);
    for (i = 0; i < 7; i++) {
        char path[64];
        snprintf(path, sizeof path, "/proc/self/ns/%s", ns[i]);
        if (stat(path, &st) == 0)
            fprintf(stderr, "LEAK: %s namespace inode %lu\n", ns[i], (unsigned long)st.st_ino);
    }
    fd = socket(AF_UNIX, SOCK_DGRAM, 0);
    netns_cookie("a new socket", fd);
    if (fd >= 0) close(fd);
    netns_cookie("the channel", 3);
    memset(&sx, 0, sizeof sx);
    if (syscall(SYS_statx, AT_FDCWD, "/", 0, STATX_MNT_ID_UNIQUE_BIT, &sx) == 0)
        fprintf(stderr, "LEAK: mount id of / %llu\n", (unsigned long long)sx.mnt_id);
    else
        fprintf(stderr, "statx: %s\n", strerror(errno));
    f = fopen("/proc/self/mountinfo", "r");
    if (f) {
        while (fgets(line, sizeof line, f))
            if (strstr(line, "poker-eval"))
                fprintf(stderr, "LEAK: mountinfo names the host: %s", line);
        fclose(f);
    } else {
        fprintf(stderr, "/proc/self/mountinfo: %s\n", strerror(errno));
    }
    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
