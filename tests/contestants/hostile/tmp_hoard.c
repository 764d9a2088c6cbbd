/* Grows a file in its /tmp (memory: a tmpfs), opened before p_startgame,
 * by 24 MiB in every game (a memfd would do the same where the system-call
 * filter allowed one; a game's filter refuses memfd_create), and keeps
 * count of what it wrote in a page shared by all the games of a fork
 * server; each game first prints "hoard holds N MiB". In a fresh process
 * every game starts from nothing and fits a 64 MiB limit. Under a fork
 * server the file and the page outlive each game: the evaluator gives the
 * server up after the first game, which could leave them for the next,
 * and plays the rest fresh, so no game finds anything held. (Were it kept,
 * what earlier games wrote would count towards the limit of the server
 * and its games together.) A game that finds more than 64 MiB held breaks
 * a rule on purpose
 * (column 7), so that a bypassed limit shows even where no stderr is kept,
 * and says "ATTACK: hoard of N MiB". */
#include <fcntl.h>
#include <poker.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#define MIB ((size_t)1 << 20)
#define STEP_MIB 24
#define LIMIT_MIB 64

int main(void) {
    int i, v, c, fd = open("/tmp/hoard", O_RDWR | O_CREAT | O_TRUNC, 0600);
    size_t k, off;
    char *pages;
    volatile int *held = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (fd < 0 || held == MAP_FAILED) return 1;
    *held = 0;
    p_startgame();
    fprintf(stderr, "hoard holds %d MiB\n", *held);
    if (*held > LIMIT_MIB) {
        fprintf(stderr, "ATTACK: hoard of %d MiB\n", *held);
        p_place(7);
    }
    off = (size_t)*held * MIB;
    if (ftruncate(fd, (off_t)(off + STEP_MIB * MIB)) != 0) return 1;
    pages = mmap(NULL, STEP_MIB * MIB, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)off);
    if (pages == MAP_FAILED) return 1;
    for (k = 0; k < STEP_MIB * MIB; k += 4096) {
        pages[k] = 1;
        if ((k + 4096) % MIB == 0) (*held)++;
    }
    for (i = 1; i <= 20; i++) {
        p_look(&v, &c);
        p_place((i - 1) % 4 + 1);
    }
    return 0;
}
