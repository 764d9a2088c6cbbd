"""noisy.py: round robin that prints in every way it can while it plays,
and reads its standard input. With the judge's libpoker module, none of it
may reach the judge: print, sys.stdout.write of a partial line, raw
os.write(1, ...) calls that look like requests, before the game and between
calls. And standard input must read as empty: if anything comes from it (a
stolen reply), the program breaks a rule on purpose."""
import os
import sys

from libpoker import p_look, p_place, p_startgame

print("before the game")
sys.stdout.write("a partial line")
sys.stdout.flush()
os.write(1, b"raw write\n")
print("L")
stolen = sys.stdin.read() != ""
p_startgame()
for i in range(1, 21):
    print("call", i)
    os.write(1, b"L\n")
    v, c = p_look()
    print(" partial", end="")
    os.write(1, b"P 9")
    if i == 10:
        stolen = stolen or os.read(0, 64) != b""
    p_place(9 if stolen else (i - 1) % 4 + 1)
