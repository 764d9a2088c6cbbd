/* own_uid: prints its uid and gid ("uid: U gid: G"). In the sandbox a
 * game runs as a uid leased for it alone; the first free one of the
 * range would tell how many other jails are alive on the machine. Inside
 * its jail every game is the same fixed uid. Then plays round robin. */
#include <stdio.h>
#include <unistd.h>
#include "poker.h"

int main(void)
{
    int i, v, c;
    p_startgame();
    fprintf(stderr, "uid: %d gid: %d\n", (int)getuid(), (int)getgid());
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
