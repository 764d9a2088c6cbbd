#!/usr/bin/env python3
"""own_name.py: the Python twin of own_name.c. Prints its script's path
("argv[0]: PATH"), which unconfined names the folder of the contestant's
source. In the sandbox every script runs as /game/program.py. Then plays
round robin."""
import sys

from libpoker import p_look, p_place, p_startgame

print(f"argv[0]: {sys.argv[0]} ({len(sys.argv)} arguments)", file=sys.stderr)
p_startgame()
for i in range(20):
    p_look()
    p_place(i % 4 + 1)
