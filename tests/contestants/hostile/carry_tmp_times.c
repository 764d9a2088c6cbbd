/* Carries a bit from game to game through times in its /tmp: before
 * p_startgame it writes /tmp/mark and keeps the modification and change
 * times of the file and of /tmp; each game prints "seen N", N = 1 when
 * the file's times moved since, + 2 when /tmp's did, then writes the
 * file again with the same content and makes and removes /tmp/gone. In a
 * fresh process every game sees 0; a fork server's later games would see
 * 3 (the contents of /tmp the same): the evaluator finds the times moved,
 * gives the server up after the first game, and the rest are played
 * fresh (`crates/poker-cli/tests/cli_tests/fork_server.rs`). */
#include <poker.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void write_mark(void) {
    FILE *f = fopen("/tmp/mark", "w");
    if (f) {
        fputs("0\n", f);
        fclose(f);
    }
}

static int moved(const struct stat *a, const struct stat *b) {
    return a->st_mtim.tv_sec != b->st_mtim.tv_sec || a->st_mtim.tv_nsec != b->st_mtim.tv_nsec
        || a->st_ctim.tv_sec != b->st_ctim.tv_sec || a->st_ctim.tv_nsec != b->st_ctim.tv_nsec;
}

int main(void) {
    int i, v, c, seen;
    struct stat mark0, tmp0, mark, tmp;
    FILE *f;
    write_mark();
    if (stat("/tmp/mark", &mark0) || stat("/tmp", &tmp0)) return 1;
    p_startgame();
    if (stat("/tmp/mark", &mark) || stat("/tmp", &tmp)) return 1;
    seen = moved(&mark0, &mark) + 2 * moved(&tmp0, &tmp);
    fprintf(stderr, "seen %d\n", seen);
    /* Past the clock's tick, so that the times written differ. */
    usleep(20000);
    write_mark();
    f = fopen("/tmp/gone", "w");
    if (f) fclose(f);
    unlink("/tmp/gone");
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
