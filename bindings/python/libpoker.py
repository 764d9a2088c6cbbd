"""libpoker for Python: a ctypes binding (no compiled extension).

    import libpoker
    with libpoker.Game(seed=42) as game:          # the embeddable game API
        for i in range(20):
            value, color = game.look()
            game.place(i % 4 + 1)
        total, columns = game.score()
    libpoker.hand_score([(1, 1), (2, 1), (3, 1), (4, 1), (5, 1)])   # 8

Contestants use the contest's own three functions: ``p_startgame()``,
``value, color = p_look()``, ``p_place(column)``. The 20th ``p_place`` ends
the process from inside the library (C ``exit()``), which skips Python's own
shutdown: this module flushes ``sys.stdout`` and ``sys.stderr`` before each
``p_place`` so nothing printed is lost, but ``atexit`` handlers and
``finally`` blocks do not run after the 20th placement.

Cards use the contest encoding: value 1..6 = 9, 10, J, Q, K, A; color
1..4 = spades, hearts, diamonds, clubs. Errors raise :class:`PokerError`
carrying the library's code and message: the module checks only what C
cannot see (a list's length where C reads a fixed number of cards, a value
that would not fit its C type), and leaves every other check to the library.

The library is found, in order: ``$LIBPOKER`` (the file, or its folder);
``libpoker.so`` next to this module; ``target/release`` then
``target/debug`` of the source tree holding this module; ``<prefix>/lib``
when installed by ``make install`` (as ``<prefix>/share/libpoker/python``);
the system's library path (``ctypes.util.find_library("poker")``).
"""

import ctypes
import gc
import os
import sys

# ctypes.util and secrets are imported where they are used: a contestant
# under a fork server is forked once a game, and each import here would
# enlarge every fork (secrets alone adds about 4 MB, through hashlib).

__all__ = [
    "PokerError", "Game", "hand_score", "version", "library_path",
    "p_startgame", "p_look", "p_place",
    "freecell_deal", "freecell_format", "freecell_find", "card_token", "hand_category", "shuffle",
    "camicia_simulate", "camicia_extend",
]

# Codes from poker.h, one table for the whole library (crates/libpoker/tests/c_api/binding_codes.rs
# checks both ways that they match the header): POKER_OK is OK here,
# POKER_ERR_NULL is ERR_NULL, and so on.
OK = 0
FINISHED = 1
ERR_NULL = -1
ERR_ARGUMENT = -2
ERR_NOT_STARTED = -3
ERR_STARTED_TWICE = -4
ERR_LOOKED_TWICE = -5
ERR_PLACE_WITHOUT_LOOK = -6
ERR_COLUMN_OUT_OF_RANGE = -7
ERR_UNBALANCED = -8
ERR_LOOK_NULL = -9
ERR_GAME_OVER = -10
ERR_IN_PROGRESS = -11
ERR_INTERNAL = -12
ERR_CARD = -13
ERR_DUPLICATE = -14
ERR_NOT_IN_DECK = -15
ERR_COUNT = -16
ERR_TOKEN = -17
ERR_DEAL_NUMBER = -18
ERR_LOOP = -19
ERR_NOT_FULL_DECK = -20
# Reserved, never returned: 0.1's FREECELL_ERR_INTERNAL and
# POKER_HAND_ERR_INTERNAL; the number keeps that meaning for good.
ERR_RESERVED_99 = -99

FREECELL_MIN_DEAL = 1
FREECELL_MAX_DEAL = 8589934591
FREECELL_LAYOUT_COLUMNS = 0
FREECELL_LAYOUT_ROWS = 1
FREECELL_LAYOUT_ORDER = 2
FREECELL_TEN_AS_10 = 8
FREECELL_TEXT_MAX = 256

CAMICIA_FINISHED = 0
CAMICIA_LOOP = 1

# Deprecated 0.1 names, aliases of the codes above: removed in 0.4.0.
FREECELL_OK = OK
CAMICIA_OK = OK
POKER_HAND_ERR_NULL = ERR_NULL
POKER_HAND_ERR_CARD = ERR_CARD
POKER_HAND_ERR_DUPLICATE = ERR_DUPLICATE
POKER_HAND_ERR_INTERNAL = ERR_INTERNAL
FREECELL_ERR_NULL = ERR_NULL
FREECELL_ERR_RANGE = ERR_DEAL_NUMBER
FREECELL_ERR_ARGUMENT = ERR_ARGUMENT
FREECELL_ERR_INTERNAL = ERR_INTERNAL
CAMICIA_ERR_NULL = ERR_NULL
CAMICIA_ERR_TOKEN = ERR_TOKEN
CAMICIA_ERR_PENALTY = ERR_CARD
CAMICIA_ERR_INTERNAL = ERR_INTERNAL


class PokerError(Exception):
    """A call failed; ``code`` is the library's code (``ERR_*``) and the
    message the library's explanation."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


_c_int_p = ctypes.POINTER(ctypes.c_int)


class _CamiciaResult(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("cards", ctypes.c_uint64), ("tricks", ctypes.c_uint64)]


class _CamiciaExtension(ctypes.Structure):
    _fields_ = [("a", ctypes.c_char * 27), ("b", ctypes.c_char * 27), ("index", ctypes.c_char * 24),
                ("longest", _CamiciaResult), ("original", _CamiciaResult),
                ("added", ctypes.c_uint64), ("joins_trick", ctypes.c_uint64),
                ("joins_card", ctypes.c_uint64), ("before_join", ctypes.c_uint64),
                ("nodes", ctypes.c_uint64)]

_lib = None
_path = None


def _candidates():
    env = os.environ.get("LIBPOKER")
    if env:
        yield os.path.join(env, "libpoker.so") if os.path.isdir(env) else env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "libpoker.so")
    root = os.path.dirname(os.path.dirname(here))
    for profile in ("release", "debug"):
        yield os.path.join(root, "target", profile, "libpoker.so")
    # Installed by `make install`: <prefix>/share/libpoker/python -> <prefix>/lib
    yield os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(here))), "lib", "libpoker.so")
    import ctypes.util

    found = ctypes.util.find_library("poker")
    if found:
        yield found


def _load():
    global _lib, _path
    if _lib is not None:
        return _lib
    tried = []
    for path in _candidates():
        tried.append(path)
        if os.sep in path and not os.path.exists(path):
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        _declare(lib)
        _lib, _path = lib, path
        return lib
    raise OSError(
        "libpoker.so not found (tried: %s); build it with `cargo build --release` "
        "or set LIBPOKER to its path" % ", ".join(tried or ["nothing"]))


def _declare(lib):
    def fn(name, restype, *argtypes):
        f = getattr(lib, name)
        f.restype = restype
        f.argtypes = list(argtypes)

    game_p = ctypes.c_void_p
    fn("p_startgame", None)
    fn("p_look", None, _c_int_p, _c_int_p)
    fn("p_place", None, ctypes.c_int)
    fn("poker_fork_server_start", ctypes.c_int)
    fn("poker_fork_server_next", ctypes.c_int)
    fn("poker_fork_server_child", None)
    fn("poker_fork_server_reap", None, ctypes.c_int)
    fn("poker_game_new", game_p, ctypes.c_uint64)
    fn("poker_game_new_deck", game_p, _c_int_p, _c_int_p)
    fn("poker_game_new_text", game_p, ctypes.c_char_p)
    fn("poker_game_look", ctypes.c_int, game_p, _c_int_p, _c_int_p)
    fn("poker_game_place", ctypes.c_int, game_p, ctypes.c_int)
    fn("poker_game_score", ctypes.c_int, game_p, _c_int_p)
    fn("poker_game_free", None, game_p)
    fn("poker_game_error", ctypes.c_int, game_p, ctypes.c_char_p, ctypes.c_int)
    fn("poker_last_error", ctypes.c_int, ctypes.c_char_p, ctypes.c_int)
    fn("poker_last_error_code", ctypes.c_int)
    fn("poker_hand_score", ctypes.c_int, _c_int_p, _c_int_p)
    fn("poker_optimum", ctypes.c_int, _c_int_p, _c_int_p, ctypes.c_int, _c_int_p)
    fn("poker_version", ctypes.c_char_p)
    bytes52 = ctypes.c_ubyte * 52
    fn("freecell_deal", ctypes.c_int, ctypes.c_int64, bytes52)
    fn("freecell_format", ctypes.c_int, ctypes.c_int64, ctypes.c_int, ctypes.c_char_p, ctypes.c_int)
    fn("freecell_find", ctypes.c_int64, ctypes.POINTER(ctypes.c_ubyte), ctypes.c_int,
       ctypes.POINTER(ctypes.c_int64), ctypes.c_int64)
    fn("poker_hand_category", ctypes.c_int, ctypes.c_ubyte * 5)
    fn("poker_hand_name", ctypes.c_char_p, ctypes.c_int)
    fn("poker_card_token", ctypes.c_char_p, ctypes.c_int)
    fn("poker_shuffle", ctypes.c_int, ctypes.c_uint64, bytes52)
    fn("camicia_simulate", ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p,
       ctypes.POINTER(_CamiciaResult))
    fn("camicia_extend", ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p,
       ctypes.POINTER(_CamiciaExtension))


def library_path():
    """The path of the loaded libpoker.so (loading it if needed)."""
    _load()
    return _path


def version():
    """The loaded library's version, e.g. ``"0.3.0"``."""
    return _load().poker_version().decode()


def _message(getter):
    """Reads a message through a (buf, len) -> length function."""
    buf = ctypes.create_string_buffer(512)
    n = getter(buf, len(buf))
    if n >= len(buf):
        buf = ctypes.create_string_buffer(n + 1)
        getter(buf, len(buf))
    return buf.value.decode("utf-8", "replace")


def _last_error():
    return _message(_load().poker_last_error)


def _check(code):
    if code < 0:
        raise PokerError(code, _last_error())
    return code


def _card_arrays(cards, count, what):
    """Two C int arrays of ``count`` values and colors. C reads exactly
    ``count`` cards, so a list of another length is refused here."""
    cards = list(cards)
    if len(cards) != count:
        raise PokerError(ERR_COUNT, "%s: expected %d cards, found %d" % (what, count, len(cards)))
    values = (ctypes.c_int * count)()
    colors = (ctypes.c_int * count)()
    for i, card in enumerate(cards):
        try:
            values[i], colors[i] = (int(x) for x in card)
        except (TypeError, ValueError):
            raise PokerError(ERR_CARD, "%s: card %d is not a (value, color) pair: %r"
                             % (what, i + 1, card)) from None
    return values, colors


def hand_score(cards):
    """Contest points 0..8 of five cards as one column, each card a
    ``(value, color)`` pair: straight flush 8, flush 7, four of a kind 6,
    full house 5, straight 4, three of a kind 3, two pair 2, one pair 1,
    nothing 0. Bad or repeated cards raise PokerError."""
    values, colors = _card_arrays(cards, 5, "bad hand")
    return _check(_load().poker_hand_score(values, colors))


def optimum(cards):
    """The hindsight optimum of a deal: ``(total, columns)``, the best total
    any balanced placement could reach knowing every card in advance, and
    one placement reaching it (``columns[i]`` is the column 1..4 of card i).
    ``cards``: the 20 dealt cards or a whole 24-card deck, each a
    ``(value, color)`` pair in dealing order. Bad input raises PokerError."""
    cards = list(cards)
    count = len(cards)
    values, colors = _card_arrays(cards, count, "optimum")
    columns = (ctypes.c_int * 20)()
    total = _check(_load().poker_optimum(values, colors, count, columns))
    return total, list(columns)


class Game:
    """One contest game, already started: alternate :meth:`look` and
    :meth:`place` 20 times, then :meth:`score`. A broken rule raises
    PokerError and ends the game with 0 points, as in the contest.

    ``Game(seed=n)``: the deck shuffled from ``n`` (the deck of
    ``POKER_SEED=n``); ``Game(deck="9S TS ...")``: 24 card tokens;
    ``Game(deck=[(value, color), ...])``: 24 coded cards; ``Game()``: a
    random seed, kept in ``self.seed``."""

    def __init__(self, seed=None, deck=None):
        lib = _load()
        self._lib = lib
        self._handle = None
        self.seed = None
        if deck is None:
            if seed is None:
                import secrets

                seed = secrets.randbits(64)
            self.seed = int(seed)
            if not 0 <= self.seed < 2 ** 64:
                raise PokerError(ERR_ARGUMENT, "seed %d is outside 0..2**64-1" % self.seed)
            handle = lib.poker_game_new(self.seed)
        elif seed is not None:
            raise PokerError(ERR_ARGUMENT, "give a seed or a deck, not both")
        elif isinstance(deck, str):
            handle = lib.poker_game_new_text(deck.encode())
        else:
            values, colors = _card_arrays(deck, 24, "bad deck")
            handle = lib.poker_game_new_deck(values, colors)
        if not handle:
            raise PokerError(lib.poker_last_error_code(), _last_error())
        self._handle = handle

    def _live(self):
        if self._handle is None:
            raise PokerError(ERR_NULL, "the game was closed")
        return self._handle

    def look(self):
        """Turns the next card; returns ``(value, color)``."""
        value, color = ctypes.c_int(), ctypes.c_int()
        _check(self._lib.poker_game_look(self._live(), ctypes.byref(value), ctypes.byref(color)))
        return value.value, color.value

    def place(self, column):
        """Places the card just looked at in ``column`` 1..4; returns True
        when that was the 20th placement."""
        return _check(self._lib.poker_game_place(self._live(), int(column))) == FINISHED

    def score(self):
        """``(total, [points of columns 1..4])`` once the game is over (0 and
        zeros after a broken rule); PokerError while it is in progress."""
        columns = (ctypes.c_int * 4)()
        total = _check(self._lib.poker_game_score(self._live(), columns))
        return total, list(columns)

    @property
    def error(self):
        """The first rule the game broke, as the library words it, or ''."""
        handle = self._live()
        return _message(lambda buf, n: self._lib.poker_game_error(handle, buf, n))

    def close(self):
        """Frees the game (also done by ``with`` and garbage collection)."""
        if self._handle is not None:
            self._lib.poker_game_free(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


# The contest's functions (POKER.H), for contestants written in Python.

def p_startgame():
    """Starts the game; call it once, before any other function.

    Under an evaluator that runs a fork server (``poker bench``), the first
    call forks one child per game with ``os.fork`` (so Python's at-fork
    hooks run: ``random`` is re-seeded in each child, ``threading`` is
    reset) and returns only in each child, which plays its game. What the
    program did before this call is shared by every game."""
    lib = _load()
    _flush()
    if lib.poker_fork_server_start():
        # Objects made before the fork are never collected in the server,
        # so a child's collections leave their pages shared.
        gc.freeze()
        while True:
            lib.poker_fork_server_next()   # exits when there are no more games
            _flush()
            pid = os.fork()
            if pid == 0:
                lib.poker_fork_server_child()
                break
            lib.poker_fork_server_reap(pid)
    lib.p_startgame()


def p_look():
    """Turns the next card; returns ``(value, color)``."""
    value, color = ctypes.c_int(), ctypes.c_int()
    _load().p_look(ctypes.byref(value), ctypes.byref(color))
    return value.value, color.value


def _flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass


def p_place(column):
    """Places the card just looked at in ``column`` 1..4. The 20th call ends
    the process; Python's output is flushed first."""
    lib = _load()
    _flush()
    lib.p_place(int(column))


# FreeCell deals, 52-card hands and shuffles. Cards are Microsoft indices
# rank * 4 + suit (rank 0 = ace ... 12 = king; suit 0 = clubs, 1 = diamonds,
# 2 = hearts, 3 = spades), as freecell_deal writes them.

def _card_bytes(cards):
    """Card indices as a C ``unsigned char`` array; the library checks them
    (0..51, each once). An index that is no byte would be cut short by
    ctypes, so it is refused here, with the library's code."""
    cards = [int(c) for c in cards]
    for i, card in enumerate(cards):
        if not 0 <= card <= 255:
            raise PokerError(ERR_CARD, "card %d: index %d is not a card index (0..51)"
                             % (i + 1, card))
    return (ctypes.c_ubyte * len(cards))(*cards)


_C_INT_LIMIT = 2 ** (8 * ctypes.sizeof(ctypes.c_int) - 1)


def card_token(index):
    """The token of a card index: 0 -> 'AC', 51 -> 'KS', ten as 'T'."""
    index = int(index)
    if not -_C_INT_LIMIT <= index < _C_INT_LIMIT:
        # ctypes would cut it short to a C int (2**32 would become 0, "AC").
        raise PokerError(ERR_CARD, "%d is not a card index (0..51)" % index)
    lib = _load()
    token = lib.poker_card_token(index)
    if token is None:
        raise PokerError(lib.poker_last_error_code(), _last_error())
    return token.decode()


def _deal_number(deal_number):
    """``deal_number`` as C's ``int64_t``; the library checks its range. A
    number that does not fit would be cut short by ctypes, so it is refused
    here, with the library's code and wording."""
    deal_number = int(deal_number)
    if not -2 ** 63 <= deal_number < 2 ** 63:
        raise PokerError(ERR_DEAL_NUMBER, "deal %d does not exist: deal numbers run from %d to %d"
                         " (2^33 - 1)" % (deal_number, FREECELL_MIN_DEAL, FREECELL_MAX_DEAL))
    return deal_number


def freecell_deal(deal_number):
    """Microsoft FreeCell deal ``deal_number`` (1..8589934591): the 52 card
    indices in dealing order (card k goes to column k % 8)."""
    deal_number = _deal_number(deal_number)
    cards = (ctypes.c_ubyte * 52)()
    _check(_load().freecell_deal(deal_number, cards))
    return list(cards)


def freecell_find(cards, max=100):
    """The deal numbers whose first cards, in dealing order, are ``cards``
    (1 to 52 distinct card indices, as freecell_deal gives them), over all
    of 1..8589934591: a pair ``(total, numbers)`` with the count of
    matching deals and the smallest ``max`` of them, ascending. Bad or
    repeated cards raise PokerError."""
    array = _card_bytes(cards)
    max = int(max)
    out = (ctypes.c_int64 * max)() if max > 0 else None
    total = _check(_load().freecell_find(array, len(cards), out, max))
    return total, list(out[:min(total, max)]) if max > 0 else []


_LAYOUTS = {"columns": FREECELL_LAYOUT_COLUMNS, "rows": FREECELL_LAYOUT_ROWS,
            "order": FREECELL_LAYOUT_ORDER}


def freecell_format(deal_number, layout="columns", ten_as_10=False):
    """Deal ``deal_number`` as text: ``layout`` "columns" (fc-solve's 8
    lines), "rows" (7 rows) or "order" (one line); ten as ``10`` if
    ``ten_as_10``. Every line ends with a newline."""
    deal_number = _deal_number(deal_number)
    if layout not in _LAYOUTS:
        raise PokerError(ERR_ARGUMENT, "layout %r is not one of %s"
                         % (layout, ", ".join(sorted(_LAYOUTS))))
    flags = _LAYOUTS[layout] | (FREECELL_TEN_AS_10 if ten_as_10 else 0)
    buf = ctypes.create_string_buffer(FREECELL_TEXT_MAX)
    _check(_load().freecell_format(deal_number, flags, buf, len(buf)))
    return buf.value.decode()


def hand_category(cards):
    """The standard poker category name of five card indices ("one pair",
    ..., "straight flush"); bad or repeated cards raise PokerError."""
    cards = _card_bytes(cards)
    if len(cards) != 5:
        # C reads exactly five.
        raise PokerError(ERR_COUNT, "expected 5 cards, found %d" % len(cards))
    code = _check(_load().poker_hand_category(cards))
    return _load().poker_hand_name(code).decode()


def shuffle(seed):
    """A 52-card deck shuffled reproducibly from ``seed`` (0..2**64-1), as
    card indices in dealing order (the order of ``poker shuffle --seed``)."""
    seed = int(seed)
    if not 0 <= seed < 2 ** 64:
        raise PokerError(ERR_ARGUMENT, "seed %d is outside 0..2**64-1" % seed)
    cards = (ctypes.c_ubyte * 52)()
    _check(_load().poker_shuffle(seed, cards))
    return list(cards)


def camicia_simulate(player_a, player_b):
    """One game of Camicia (Beggar-My-Neighbour, exercism's rules); each
    player's deck top card first, as a string (``"2 A 7 8 Q 10"``,
    ``"---K---Q-KQAJ--"``) or a list of tokens (``["2", "A"]``). Returns
    ``{"status": "finished" or "loop", "cards": n, "tricks": n}``; a bad
    token raises PokerError naming it (its player, number and byte offset)."""
    decks = _decks(player_a, player_b)
    out = _CamiciaResult()
    code = _load().camicia_simulate(decks[0].encode(), decks[1].encode(), ctypes.byref(out))
    _check(code)
    return _game(out)


def _game(result):
    status = {CAMICIA_FINISHED: "finished", CAMICIA_LOOP: "loop"}.get(result.status, str(result.status))
    return {"status": status, "cards": result.cards, "tricks": result.tricks}


def _decks(player_a, player_b):
    return [p if isinstance(p, str) else " ".join(str(t) for t in p) for p in (player_a, player_b)]


def camicia_extend(player_a, player_b):
    """The longest deal of a Camicia deal's basin (backward extension,
    exact; see docs/camicia.md): the hands as for :func:`camicia_simulate`,
    together a full deck (26 and 26 cards, four each of J, Q, K, A).
    Returns ``{"a": ..., "b": ...}`` (the longest deal's hands in ``-``
    notation), ``"index"`` (its index, an int), ``"game"`` (its game, as
    camicia_simulate returns it), ``"original"`` (the given deal's game),
    ``"added"`` (cards beyond it), ``"joins_trick"`` and ``"joins_card"``
    (tricks and cards of the given game before the two games meet),
    ``"before_join"`` (cards of the longest deal's game before it joins)
    and ``"nodes"`` (states searched). Raises PokerError: ERR_NOT_FULL_DECK
    for hands that are not a full deck, ERR_LOOP for a game that loops,
    ERR_TOKEN for a bad token."""
    decks = _decks(player_a, player_b)
    out = _CamiciaExtension()
    _check(_load().camicia_extend(decks[0].encode(), decks[1].encode(), ctypes.byref(out)))
    return {"a": out.a.decode(), "b": out.b.decode(), "index": int(out.index.decode()),
            "game": _game(out.longest), "original": _game(out.original), "added": out.added,
            "joins_trick": out.joins_trick, "joins_card": out.joins_card,
            "before_join": out.before_join, "nodes": out.nodes}
