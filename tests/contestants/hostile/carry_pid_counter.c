/* Carries a number from game to game through the pid counter of its
 * jail's pid namespace: each game prints "seen N", N = its pid less its
 * parent's less 1, then forks and reaps 5 children. In a fresh process
 * (the reaper is pid 1, the program 2) every game sees 0; a fork server's
 * children would see how many processes the games before them made (0,
 * 6, 12, ...): the evaluator finds the next child's pid past the one
 * expected, gives the server up before that game is dealt a card and
 * plays it and the rest fresh, so every game sees 0
 * (`crates/poker-cli/tests/cli_tests/fork_server.rs`). */
#include <poker.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    int i, v, c;
    p_startgame();
    fprintf(stderr, "seen %d\n", (int)(getpid() - getppid() - 1));
    for (i = 0; i < 5; i++) {
        pid_t pid = fork();
        if (pid == 0) _exit(0);
        if (pid > 0) waitpid(pid, NULL, 0);
    }
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
