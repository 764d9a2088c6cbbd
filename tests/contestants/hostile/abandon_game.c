/* Abandons a game it has seen to the end, hoping to have it played again.
 *
 * Plays round robin, but after its 20th look, when it is a fork server's
 * child (p_startgame returned in another process than the one that called
 * it: the server forked it), it kills its server (its parent) and exits
 * before its last placement, as a program would with a hand it does not
 * like. A game abandoned in a fresh process scores 0 (incomplete); a game
 * whose child was dealt cards must not be played again on a fresh deal of
 * luck because its server went. In a fresh process it places its last card. */
#include <poker.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
    int i, v, c;
    pid_t before = getpid();
    p_startgame();
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        if (i == 20 && getpid() != before) {
            fprintf(stderr, "ATTACK: abandoned the game after seeing every card\n");
            kill(getppid(), SIGKILL);
            _exit(0);
        }
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
