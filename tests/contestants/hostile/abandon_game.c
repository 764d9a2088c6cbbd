/* Abandons a game it has seen to the end, hoping to have it played again.
 *
 * Plays round robin, but after its 20th look, when it is a fork server's
 * child (its parent runs the same program), it kills its server and exits
 * before its last placement, as a program would with a hand it does not
 * like. A game abandoned in a fresh process scores 0 (incomplete); a game
 * whose child was dealt cards must not be played again on a fresh deal of
 * luck because its server went. In a fresh process it places its last card. */
#include <poker.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int parent_is_same_program(void) {
    char me[4096], it[4096], link[64];
    ssize_t a, b;
    snprintf(link, sizeof link, "/proc/%d/exe", (int)getppid());
    a = readlink("/proc/self/exe", me, sizeof me);
    b = readlink(link, it, sizeof it);
    return a > 0 && a == b && memcmp(me, it, (size_t)a) == 0;
}

int main(void) {
    int i, v, c;
    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        if (i == 20 && parent_is_same_program()) {
            fprintf(stderr, "ATTACK: abandoned the game after seeing every card\n");
            kill(getppid(), SIGKILL);
            _exit(0);
        }
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
