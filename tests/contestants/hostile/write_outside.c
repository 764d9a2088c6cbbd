/* write_outside: leaves files where they outlive the game and other
 * programs could find them: /dev/shm/poker-hostile-note,
 * /var/tmp/poker-hostile-note and poker-hostile-note in the evaluator's
 * folder (/proc/<ppid>/cwd). Prints "wrote PATH" for each (inside a
 * sandbox a private copy of such a folder may accept the write: the test
 * looks for the files outside). Then plays round robin. */
#include <stdio.h>
#include <unistd.h>
#include "poker.h"

static void leave(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "written by write_outside\n");
    if (fclose(f) == 0) fprintf(stderr, "wrote %s\n", path);
}

int main(void)
{
    int i, v, c;
    char path[64];
    leave("/dev/shm/poker-hostile-note");
    leave("/var/tmp/poker-hostile-note");
    if (getppid() > 1) {
        snprintf(path, sizeof path, "/proc/%d/cwd/poker-hostile-note", (int)getppid());
        leave(path);
    }
    p_startgame();
    for (i = 1; i <= 20; i++) { p_look(&v, &c); p_place((i - 1) % 4 + 1); }
    return 0;
}
