#!/usr/bin/env python3
"""stdlib.py: a Python contestant that imports and uses the standard-library
modules a contestant plausibly reaches for (math, random, itertools,
collections, functools, heapq, array, struct, re, json, time), so that the
seccomp filter's census sees the calls they make. Then plays round robin
(card i to column 1, 2, 3, 4, 1, ...)."""
import array
import collections
import functools
import heapq
import itertools
import json
import math
import random
import re
import struct
import sys
import time

from libpoker import p_look, p_place, p_startgame

started = time.perf_counter(), time.monotonic(), time.time(), time.process_time()
rng = random.Random()  # seeded from the operating system
fixed = random.Random(7).sample(range(52), 5)
heap = list(fixed)
heapq.heapify(heap)
counts = collections.Counter(itertools.chain(fixed, [heapq.heappop(heap)]))
packed = struct.pack("<5i", *fixed)
values = array.array("i", struct.unpack("<5i", packed))
total = functools.reduce(lambda a, b: a + b, values, 0)
text = json.dumps({"sample": fixed, "sqrt": math.sqrt(total), "r": rng.random() < 2})
assert re.fullmatch(r"\{.*\}", text) and json.loads(text)["sample"] == fixed
time.sleep(0.001)
print("stdlib ok", len(counts), file=sys.stderr)

p_startgame()
for i in range(1, 21):
    v, c = p_look()
    p_place((i - 1) % 4 + 1)
