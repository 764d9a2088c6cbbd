"""libpoker for programs judged on a contest system (Kattis, DOMjudge):
the contest's three functions, under the same names as libpoker's Python
binding, so a program written as in the contest text runs unchanged:

    from libpoker import p_startgame, p_look, p_place
    p_startgame()
    for i in range(20):
        value, color = p_look()
        p_place(i % 4 + 1)

value 1..6 is 9, 10, J, Q, K, A; color 1..4 is spades, hearts, diamonds,
clubs; columns are 1..4 and the longest and shortest column may never
differ by more than 1. The 20th ``p_place`` ends the program (exit status
0, after flushing ``sys.stdout`` and ``sys.stderr``; ``finally`` blocks and
``atexit`` handlers do not run). A broken rule prints the rule on standard
error and ends the program with exit status 3.

The judge's interactor holds the deck, checks every rule and scores the
board; this module only forwards each call to it, one line per call, over
the program's standard input and output. When it is imported it moves the
channel's two descriptors out of the way and points descriptor 1 at
standard error and descriptor 0 at /dev/null: from then on ``print``,
``sys.stdout.write`` and ``os.write(1, ...)`` end up on standard error, and
``input()`` sees an empty input, so the program can neither disturb the
judge nor steal its replies. Import it before printing anything.

A judge runs one file of a Python submission, and may pick this one (it
sorts before most names). Run as the main program, this module is a
launcher: it runs the submission's own file (the first other ``.py`` file
of its folder, by path) as ``__main__``, with ``import libpoker`` giving
this same module.
"""

import os
import sys

__all__ = ["p_startgame", "p_look", "p_place"]

EXIT_VIOLATION = 3
EXIT_CHANNEL = 4


def _take_channel():
    try:
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        pass
    try:
        read_fd, write_fd = os.dup(0), os.dup(1)  # not inherited by children
    except OSError:
        read_fd = write_fd = -1
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    if nothing != 0:
        os.close(nothing)
    os.dup2(2, 1)
    return read_fd, write_fd


_CHANNEL_IN, _CHANNEL_OUT = _take_channel()


def _flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass


def _stop(code, message):
    _flush()
    os.write(2, message.encode("utf-8", "replace"))
    os._exit(code)


def _lost(what):
    _stop(EXIT_CHANNEL, "poker: lost the judge's channel (%s)\n" % what)


def _ask(request):
    if _CHANNEL_IN < 0 or _CHANNEL_OUT < 0:
        _lost("no standard input or output")
    data = request.encode("ascii")
    try:
        while data:
            data = data[os.write(_CHANNEL_OUT, data):]
    except OSError:
        _lost("cannot write")
    reply = b""
    while True:
        try:
            byte = os.read(_CHANNEL_IN, 1)
        except OSError:
            _lost("cannot read")
        if not byte:
            _lost("closed by the judge")
        if byte == b"\n":
            break
        if len(reply) >= 255:
            _lost("reply too long")
        reply += byte
    text = reply.decode("ascii", "replace")
    if text.startswith("V "):
        _violation(text[2:])
    return text


def _violation(message):
    # Wait until the judge has closed the channel, so its verdict comes first.
    _flush()
    os.write(2, ("poker: %s\n" % message).encode("utf-8", "replace"))
    try:
        while os.read(_CHANNEL_IN, 256):
            pass
    except OSError:
        pass
    os._exit(EXIT_VIOLATION)


def p_startgame():
    """Starts the game; call it once, before any other function."""
    if _ask("S\n") != "OK":
        _lost("unexpected reply")


def p_look():
    """Turns the next card; returns ``(value, color)``."""
    parts = _ask("L\n").split(" ")
    if len(parts) != 3 or parts[0] != "C" or not all(p.isdigit() for p in parts[1:]):
        _lost("unexpected reply")
    return int(parts[1]), int(parts[2])


def p_place(column):
    """Places the card just looked at in ``column`` 1..4. The 20th call
    ends the program; Python's output is flushed first."""
    column = max(-2**31, min(2**31 - 1, int(column)))
    reply = _ask("P %d\n" % column)
    if reply.startswith("END "):
        _flush()
        os._exit(0)
    if reply != "OK":
        _lost("unexpected reply")


def _launch():
    here = os.path.dirname(os.path.abspath(__file__))
    mine = os.path.abspath(__file__)
    candidates = []
    for folder, _dirs, files in os.walk(here):
        for name in files:
            path = os.path.join(folder, name)
            if name.endswith((".py", ".py3")) and os.path.abspath(path) != mine:
                candidates.append(path)
    if not candidates:
        _stop(EXIT_CHANNEL, "poker: no program to run beside libpoker.py\n")
    program = sorted(candidates)[0]
    import runpy
    sys.modules["libpoker"] = sys.modules[__name__]
    sys.argv[0] = program
    runpy.run_path(program, run_name="__main__")


if __name__ == "__main__":
    _launch()
