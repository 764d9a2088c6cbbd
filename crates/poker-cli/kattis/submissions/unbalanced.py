"""unbalanced.py: breaks a rule on every deck: the first two cards go to
column 1, so it holds 2 cards while column 4 is empty (wrong answer)."""
from libpoker import p_look, p_place, p_startgame

p_startgame()
for i in range(2):
    p_look()
    p_place(1)
