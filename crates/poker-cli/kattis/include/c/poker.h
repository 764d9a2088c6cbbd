/* poker.h: the contest module POKER.H ("Poker American") for programs
 * judged on a contest system (Kattis, DOMjudge). Include it exactly as the
 * contest text does:
 *
 *     #include "poker.h"
 *     p_startgame();
 *     for (i = 1; i <= 20; i++) { p_look(&v, &c); t = f(v, c); p_place(t); }
 *
 * The functions are in poker_judge.c (C) or poker_judge.cpp (C++), which
 * the judge compiles together with the program. They talk to the judge over
 * the program's standard input and output, which they take over before
 * main() starts: from then on, standard output goes to standard error and
 * standard input reads as empty, so nothing the program prints or reads
 * disturbs the game. */
#ifndef POKER_JUDGE_H
#define POKER_JUDGE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Starts the game; call it once, before any other function. */
void p_startgame(void);

/* Turns the next card: writes its value, 1..6 for 9, 10, J, Q, K, A, and
 * its color, 1..4 for spades, hearts, diamonds, clubs. A NULL pointer
 * breaks a rule. */
void p_look(int *value, int *color);

/* Places the card just looked at in column 1..4. The longest and shortest
 * column may never differ by more than 1. The 20th call ends the program
 * (exit status 0, C output flushed); the judge scores the board. */
void p_place(int column);

/* Exit statuses when the game cannot go on: a broken rule (the rule is
 * printed on standard error and the game scores 0), and a lost channel to
 * the judge (the program was not started by the judge). */
#define POKER_EXIT_VIOLATION 3
#define POKER_EXIT_CHANNEL 4

#ifdef __cplusplus
}
#endif

#endif /* POKER_JUDGE_H */
