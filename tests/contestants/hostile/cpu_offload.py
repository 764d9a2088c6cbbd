#!/usr/bin/env python3
"""cpu_offload.py: the Python twin of cpu_offload.c. A thread started
before p_startgame does 2 s of CPU work for each game, asked through an
anonymous shared mapping (shared with every process the program forks):
under a fork server the thread lives in the server, outside the game's
cgroup and CPU-time limit, and the server's jail is frozen while a game is
played, so the work is never done. Prints "ATTACK: offloaded" to stderr
when it was done and the game played on."""
import mmap
import sys
import threading
import time

from libpoker import p_look, p_place, p_startgame

page = mmap.mmap(-1, 4096)  # MAP_SHARED | MAP_ANONYMOUS


def helper():
    while True:
        if page[0] == 1 and page[1] == 0:
            start = time.thread_time()
            while time.thread_time() - start < 2:
                pass
            page[1] = 1
        time.sleep(0.001)


threading.Thread(target=helper, daemon=True).start()
p_startgame()
page[0] = 1
while page[1] == 0:
    time.sleep(0.001)
print("ATTACK: offloaded 2 s of CPU work", file=sys.stderr)
for i in range(20):
    p_look()
    p_place(i % 4 + 1)
