#!/usr/bin/env python3
"""roundrobin.py: the Python twin of c_examples/roundrobin.c, the simplest
legal contestant. Card i goes to column 1, 2, 3, 4, 1, 2, ... which always
keeps the columns balanced. Written as the contest's intended loop.

Evaluate: poker eval python_examples/roundrobin.py
"""
from libpoker import p_look, p_place, p_startgame

p_startgame()
for i in range(1, 21):
    v, c = p_look()
    t = (i - 1) % 4 + 1
    p_place(t)
