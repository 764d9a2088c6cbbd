#!/usr/bin/env python3
"""greedy.py: the Python twin of c_examples/greedy.c (same choices, same
scores), a one-card-lookahead contestant. Each card goes to the allowed
column (one of the shortest, by the balance rule) where it raises that
column's promise the most: equal values (pair, trips, quads), a flush while
every card shares a suit, a straight while all values are distinct and fit
in 9-K or 10-A. Written as the contest's intended loop.

Run: LIBPOKER=target/release PYTHONPATH=bindings/python python3 python_examples/greedy.py
Evaluate: poker eval python_examples/greedy.py
"""
from libpoker import p_look, p_place, p_startgame

# greedy.c's weights, by the number of cards in a flush / straight and by
# the count of one value.
FLUSH = [0.0, 0.0, 0.8, 2.2, 4.3, 7.0]
STRAIGHT = [0.0, 0.0, 0.1, 0.5, 1.5, 4.0]
SAME = [0.0, 0.0, 2.0, 4.5, 7.0]

columns = [[], [], [], []]  # (value, color) per column, first placed first


def promise(cards):
    count = [0] * 7
    for v, _ in cards:
        count[v] += 1
    values = [v for v, _ in cards]
    one_suit = all(c == cards[0][1] for _, c in cards)
    distinct = all(count[v] <= 1 for v in values)
    lo, hi = min(values, default=7), max(values, default=0)
    score = 0.0
    for i in range(1, 7):
        score += SAME[count[i]]
    if one_suit:
        score += FLUSH[len(cards)]
    if distinct and hi - lo <= 4:
        score += STRAIGHT[len(cards)]
    if one_suit and distinct and hi - lo <= 4 and len(cards) == 5:
        score += 1.0  # straight flush: 8, not 7
    return score


def choose(v, c):
    lowest = min(len(col) for col in columns)
    best, best_gain = 0, -1e9
    for i, col in enumerate(columns):
        if len(col) != lowest:
            continue  # balance rule
        gain = promise(col + [(v, c)]) - promise(col)
        if gain > best_gain:
            best, best_gain = i, gain
    columns[best].append((v, c))
    return best + 1


p_startgame()
for i in range(20):
    v, c = p_look()
    p_place(choose(v, c))
