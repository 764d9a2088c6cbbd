"""Tests of bindings/python/libpoker.py, run by crates/poker-cli/tests/cli_tests/python.rs with the
freshly built library (LIBPOKER), the header (POKER_HEADER) and the shared
vectors folder (POKER_VECTORS). Expected values come from the contest text
(seed 001), hand-checked hands and the shared vectors, never from the code
under test."""

import os
import re
import threading
import unittest

import libpoker
from libpoker import Game, PokerError

# The contest text's worked example row by row, then its 4 unused cards.
SEED_DECK = "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH"


def round_robin(game):
    finished = False
    for i in range(20):
        game.look()
        finished = game.place(i % 4 + 1)
    return finished


class GameApi(unittest.TestCase):
    def test_seed_example_scores_eleven(self):
        with Game(deck=SEED_DECK) as game:
            self.assertEqual(game.look(), (3, 4))  # JC: J = 3, clubs = 4
            game.place(1)
            for i in range(1, 20):
                game.look()
                game.place(i % 4 + 1)
            self.assertEqual(game.score(), (11, [2, 5, 1, 3]))
            self.assertEqual(game.error, "")

    def test_coded_ordered_deck_scores_four_straight_flushes(self):
        deck = [(i // 4 + 1, i % 4 + 1) for i in range(24)]
        with Game(deck=deck) as game:
            self.assertTrue(round_robin(game))
            self.assertEqual(game.score(), (32, [8, 8, 8, 8]))

    def test_unbalanced_placement_raises_with_the_rule_and_scores_zero(self):
        game = Game(seed=1)
        for column in (1, 2, 3):
            game.look()
            game.place(column)
        game.look()
        with self.assertRaises(PokerError) as caught:
            game.place(1)
        self.assertEqual(caught.exception.code, libpoker.ERR_UNBALANCED)
        self.assertIn("card 4 (call 9, p_place)", str(caught.exception))
        self.assertIn("differ by more than 1", game.error)
        self.assertEqual(game.score(), (0, [0, 0, 0, 0]))
        with self.assertRaises(PokerError) as caught:
            game.look()
        self.assertEqual(caught.exception.code, libpoker.ERR_GAME_OVER)
        game.close()
        game.close()  # twice is fine

    def test_each_rule_has_its_code(self):
        game = Game(seed=2)
        game.look()
        with self.assertRaises(PokerError) as caught:
            game.look()
        self.assertEqual(caught.exception.code, libpoker.ERR_LOOKED_TWICE)
        with self.assertRaises(PokerError) as caught:
            Game(seed=3).place(1)
        self.assertEqual(caught.exception.code, libpoker.ERR_PLACE_WITHOUT_LOOK)
        game = Game(seed=4)
        game.look()
        with self.assertRaises(PokerError) as caught:
            game.place(0)
        self.assertEqual(caught.exception.code, libpoker.ERR_COLUMN_OUT_OF_RANGE)
        with self.assertRaises(PokerError) as caught:
            Game(seed=5).score()
        self.assertEqual(caught.exception.code, libpoker.ERR_IN_PROGRESS)
        self.assertIn("0 of 20", caught.exception.message)

    def test_bad_decks_raise_with_the_library_message(self):
        with self.assertRaises(PokerError) as caught:
            Game(deck="9S 9S")
        self.assertIn("more than once", str(caught.exception))
        with self.assertRaises(PokerError) as caught:
            Game(deck=[(7, 1)] * 24)
        self.assertIn("not a contest card", str(caught.exception))
        with self.assertRaises(PokerError):
            Game(seed=-1)

    def test_a_closed_game_refuses_calls(self):
        game = Game(seed=9)
        game.close()
        with self.assertRaises(PokerError):
            game.look()

    def test_threads_with_their_own_games_agree(self):
        expected = []
        for seed in range(200):
            with Game(seed=seed) as game:
                round_robin(game)
                expected.append(game.score()[0])
        results = {}

        def work(k):
            totals = []
            for seed in range(200):
                with Game(seed=seed) as game:
                    round_robin(game)
                    totals.append(game.score()[0])
            results[k] = totals

        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual([results[k] for k in range(4)], [expected] * 4)


class Hands(unittest.TestCase):
    # values 1..6 = 9 10 J Q K A; colors 1..4 = spades hearts diamonds clubs
    TABLE = [
        ([(1, 1), (2, 1), (3, 1), (4, 1), (5, 1)], 8),  # 9S-KS
        ([(2, 2), (3, 2), (4, 2), (5, 2), (6, 2)], 8),  # TH-AH
        ([(1, 1), (2, 1), (3, 1), (4, 1), (6, 1)], 7),  # 9S TS JS QS AS
        ([(1, 1), (1, 2), (1, 3), (1, 4), (6, 1)], 6),  # four nines
        ([(2, 2), (2, 3), (2, 4), (6, 4), (6, 3)], 5),  # seed column 2
        ([(1, 1), (2, 2), (3, 3), (4, 4), (5, 1)], 4),  # 9S TH JD QC KS
        ([(4, 1), (4, 3), (5, 3), (4, 2), (1, 3)], 3),  # seed column 4
        ([(3, 4), (1, 1), (5, 4), (5, 2), (3, 3)], 2),  # seed column 1
        ([(1, 2), (6, 1), (5, 1), (1, 4), (3, 2)], 1),  # seed column 3
        ([(1, 1), (2, 2), (3, 3), (4, 4), (6, 1)], 0),  # 9S TH JD QC AS
    ]

    def test_contest_point_table(self):
        for cards, points in self.TABLE:
            self.assertEqual(libpoker.hand_score(cards), points, cards)

    def test_bad_hands_raise(self):
        for cards, code in (([(1, 1)] * 5, libpoker.ERR_DUPLICATE),
                            ([(1, 1), (2, 2), (3, 3), (4, 4), (6, 5)], libpoker.ERR_CARD),
                            ([(1, 1)], libpoker.ERR_COUNT)):
            with self.assertRaises(PokerError) as caught:
                libpoker.hand_score(cards)
            self.assertEqual(caught.exception.code, code)

    def test_standard_categories_by_index(self):
        # Indices rank * 4 + suit (ace = rank 0; clubs = suit 0).
        self.assertEqual(libpoker.hand_category([0, 4, 8, 12, 16]), "straight flush")  # A-5 clubs
        self.assertEqual(libpoker.hand_category([0, 1, 2, 3, 4]), "four of a kind")
        self.assertEqual(libpoker.hand_category([0, 5, 10, 15, 32]), "high card")
        with self.assertRaises(PokerError):
            libpoker.hand_category([0, 0, 1, 2, 3])
        with self.assertRaises(PokerError):
            libpoker.hand_category([52, 0, 1, 2, 3])

    def test_shuffle_is_a_reproducible_permutation(self):
        deck = libpoker.shuffle(7)
        self.assertEqual(sorted(deck), list(range(52)))
        self.assertEqual(deck, libpoker.shuffle(7))
        self.assertNotEqual(deck, libpoker.shuffle(8))


def header_defines():
    """The header's `#define NAME VALUE` lines and deprecated codes
    (`  NAME POKER_DEPRECATED("note") = VALUE,`), aliases (`#define OLD NEW`)
    resolved to their values."""
    with open(os.environ["POKER_HEADER"]) as f:
        text = f.read()
    raw = dict(re.findall(r"^#define (\w+) (-?\w+)$", text, re.M))
    raw.update(re.findall(r'^  (\w+) POKER_DEPRECATED\("[^"]*"\) = (-?\w+),?$', text, re.M))
    resolved = {}
    for name, value in raw.items():
        while value in raw:
            value = raw[value]
        if re.fullmatch(r"-?\d+", value):
            resolved[name] = int(value)
    return resolved


class Header(unittest.TestCase):
    def test_optimum_of_blocks_of_one_rank_is_four_straight_flushes(self):
        # Hand-checked: blocks of one rank each (9, 10, J, Q, K), suits in
        # the same order, so column j can take every card of suit j: 4 x 8.
        deck = [(value, color) for value in range(1, 7) for color in range(1, 5)]
        total, columns = libpoker.optimum(deck)
        self.assertEqual(total, 32)
        self.assertEqual(len(columns), 20)
        for block in range(5):
            self.assertEqual(sorted(columns[4 * block:4 * block + 4]), [1, 2, 3, 4])
        with self.assertRaises(libpoker.PokerError) as caught:
            libpoker.optimum(deck[:19])
        self.assertEqual(caught.exception.code, libpoker.ERR_COUNT)
        with self.assertRaises(libpoker.PokerError) as caught:
            libpoker.optimum(deck[:23] + [deck[0]])
        self.assertEqual(caught.exception.code, libpoker.ERR_DUPLICATE)
        with self.assertRaises(libpoker.PokerError) as caught:
            libpoker.optimum([(7, 1)] + deck[1:])
        self.assertEqual(caught.exception.code, libpoker.ERR_CARD)

    def test_module_codes_match_the_header(self):
        defines = header_defines()
        checked = 0
        for name, value in defines.items():
            py = name[len("POKER_"):] if name.startswith("POKER_") else name
            if py.startswith(("ERR_", "OK", "FINISHED", "FREECELL_", "HAND_ERR_", "CAMICIA_")):
                attr = "POKER_" + py if py.startswith("HAND_") else py
                self.assertEqual(getattr(libpoker, attr), value, name)
                checked += 1
        # OK, FINISHED, 20 ERR_*, 12 FREECELL_*, 7 CAMICIA_*, 4 POKER_HAND_ERR_*.
        self.assertGreaterEqual(checked, 2 + 20 + 12 + 7 + 4)

    def test_loaded_library_has_the_header_version(self):
        d = header_defines()
        self.assertEqual(libpoker.version(), "%d.%d.%d" % (
            d["POKER_VERSION_MAJOR"], d["POKER_VERSION_MINOR"], d["POKER_VERSION_PATCH"]))
        self.assertTrue(libpoker.library_path().endswith("libpoker.so"))


class FreeCellVectors(unittest.TestCase):
    """tests/data/freecell/deals.tsv: pysol-cards' deals (see its SOURCE.md)."""

    def rows(self):
        path = os.path.join(os.environ["POKER_VECTORS"], "freecell", "deals.tsv")
        with open(path) as f:
            lines = [l.rstrip("\n") for l in f if not l.startswith("#")]
        header = lines[0].split("\t")
        return [dict(zip(header, l.split("\t"))) for l in lines[1:] if l]

    def test_deals_match_the_shared_vectors(self):
        ok = 0
        for row in self.rows():
            n = int(row["deal"])
            if row["status"] != "ok":
                with self.assertRaises(PokerError) as caught:
                    libpoker.freecell_deal(n)
                self.assertEqual(caught.exception.code, libpoker.ERR_DEAL_NUMBER)
                with self.assertRaises(PokerError):
                    libpoker.freecell_format(n)
                continue
            tokens = " ".join(libpoker.card_token(c) for c in libpoker.freecell_deal(n))
            self.assertEqual(tokens, row["deal_order"], n)
            self.assertEqual(libpoker.freecell_format(n, "order"), row["deal_order"] + "\n")
            self.assertEqual(libpoker.freecell_format(n, "columns"),
                             row["columns"].replace("|", "\n") + "\n")
            ok += 1
        self.assertGreaterEqual(ok, 30)

    def test_ten_as_10_and_rows(self):
        # Deal 1 from the vectors: rows start "JD 2D 9H JC 5D 7H 7C 5H".
        self.assertTrue(libpoker.freecell_format(1, "rows").startswith("JD 2D 9H JC 5D 7H 7C 5H\n"))
        with_10 = libpoker.freecell_format(1, "order", ten_as_10=True)
        self.assertNotIn("T", with_10)
        self.assertEqual(with_10.replace("10", "T"), libpoker.freecell_format(1, "order"))
        with self.assertRaises(PokerError):
            libpoker.freecell_format(1, "diagonal")

    def test_find_gives_back_the_deal_number(self):
        for n in (1, 617, 2147483648, 8589934591):
            cards = libpoker.freecell_deal(n)
            self.assertEqual(libpoker.freecell_find(cards), (1, [n]))
            total, numbers = libpoker.freecell_find(cards[:4], max=5)
            self.assertGreater(total, 5)
            self.assertEqual(len(numbers), 5)
            self.assertEqual(numbers, sorted(numbers))
            for m in numbers:
                self.assertEqual(libpoker.freecell_deal(m)[:4], cards[:4])
        self.assertEqual(libpoker.freecell_find(libpoker.freecell_deal(1)[:6], max=0)[1], [])
        with self.assertRaises(PokerError) as raised:
            libpoker.freecell_find([3, 3])
        self.assertEqual(raised.exception.code, libpoker.ERR_DUPLICATE)
        with self.assertRaises(PokerError) as raised:
            libpoker.freecell_find([])
        self.assertEqual(raised.exception.code, libpoker.ERR_COUNT)
        with self.assertRaises(PokerError) as raised:
            libpoker.freecell_find([1, 60])
        self.assertEqual(raised.exception.code, libpoker.ERR_CARD)

    def test_card_tokens_come_from_the_library(self):
        # Worked out by hand from index = rank * 4 + suit (ace = rank 0,
        # ten = rank 9, king = rank 12; clubs, diamonds, hearts, spades).
        for index, token in ((0, "AC"), (1, "AD"), (4, "2C"), (36, "TC"), (42, "JH"), (51, "KS")):
            self.assertEqual(libpoker.card_token(index), token)
        for index in (-1, 52):
            with self.assertRaises(PokerError) as raised:
                libpoker.card_token(index)
            self.assertEqual(raised.exception.code, libpoker.ERR_CARD)
            self.assertEqual(raised.exception.message, "%d is not a card index (0..51)" % index)

    def test_numbers_ctypes_would_cut_short_are_refused(self):
        # 2**64 + 1 and 256 + 1 would reach C as deal 1 and card 1, 2**32
        # as card index 0.
        for call in (lambda: libpoker.freecell_deal(2 ** 64 + 1),
                     lambda: libpoker.freecell_format(2 ** 64 + 1)):
            with self.assertRaises(PokerError) as raised:
                call()
            self.assertEqual(raised.exception.code, libpoker.ERR_DEAL_NUMBER)
        for call in (lambda: libpoker.hand_category([257, 4, 8, 12, 16]),
                     lambda: libpoker.freecell_find([257]),
                     lambda: libpoker.card_token(2 ** 32)):
            with self.assertRaises(PokerError) as raised:
                call()
            self.assertEqual(raised.exception.code, libpoker.ERR_CARD)


class CamiciaVectors(unittest.TestCase):
    """tests/data/camicia: exercism's canonical data, known pitfalls of other
    implementations and published record deals (see its README.md)."""

    def load(self, name):
        import json
        with open(os.path.join(os.environ["POKER_VECTORS"], "camicia", name)) as f:
            return json.load(f)

    def test_canonical_cases(self):
        cases = self.load("canonical.json")["cases"]
        for case in cases:
            got = libpoker.camicia_simulate(case["input"]["playerA"], case["input"]["playerB"])
            self.assertEqual(got, case["expected"], case["description"])
        self.assertEqual(len(cases), 28)

    def test_pitfalls(self):
        for case in self.load("pitfalls.json"):
            got = libpoker.camicia_simulate(case["playerA"], case["playerB"])
            self.assertEqual(got, case["expected"], case["id"])

    def test_record_deals(self):
        for record in self.load("records.json")["records"]:
            got = libpoker.camicia_simulate(record["a"], record["b"])
            want = {k: record[k] for k in ("status", "cards", "tricks")}
            self.assertEqual(got, want, record.get("finder"))

    def test_a_bad_token_is_named(self):
        with self.assertRaises(PokerError) as caught:
            libpoker.camicia_simulate("2 3", "4 Z")
        self.assertEqual(caught.exception.code, libpoker.ERR_TOKEN)
        self.assertIn("player B: 'Z' is not a card (token 1, byte 2, both counted from 0)", str(caught.exception))


class CamiciaExtension(unittest.TestCase):
    """camicia_extend on the published records (tests/data/camicia/records.json)
    against their extensions found by a separate implementation
    (extensions.json): Mann & Wu 2007 to 7225 cards, Collins 2006 to 7544."""

    def load(self, name, key):
        import json
        with open(os.path.join(os.environ["POKER_VECTORS"], "camicia", name)) as f:
            return json.load(f)[key]

    def test_every_record_extends_as_published(self):
        records = {(r["finder"], r["year"]): r for r in self.load("records.json", "records")}
        checked = 0
        for want in self.load("extensions.json", "extensions"):
            record = records[(want["finder"], want["year"])]
            got = libpoker.camicia_extend(record["a"], record["b"])
            name = "%s %d" % (want["finder"], want["year"])
            self.assertEqual(got["original"]["cards"], record["cards"], name)
            if not want["extends"]:
                self.assertEqual(got["added"], 0, name)
                self.assertEqual((got["a"], got["b"]), (record["a"], record["b"]), name)
                continue
            self.assertEqual(got["game"]["cards"], want["cards"], name)
            self.assertEqual(got["added"], want["cards"] - record["cards"], name)
            if "a" in want:
                self.assertEqual((got["a"], got["b"]), (want["a"], want["b"]), name)
                self.assertEqual(got["game"]["tricks"], want["tricks"], name)
            # The deal found plays its game forward.
            self.assertEqual(libpoker.camicia_simulate(got["a"], got["b"]), got["game"], name)
            checked += 1
        self.assertEqual(checked, 5)

    def test_anderson_2013_is_found_with_its_index(self):
        records = self.load("records.json", "records")
        mann_wu = next(r for r in records if r["year"] == 2007)
        anderson = next(r for r in records if r["year"] == 2013)
        got = libpoker.camicia_extend(mann_wu["a"], mann_wu["b"])
        self.assertEqual(got["index"], int(anderson["index"]))
        self.assertEqual(got["game"], {"status": "finished", "cards": 7225, "tricks": 1016})

    def test_a_loop_and_a_deal_that_is_not_a_full_deck_are_refused(self):
        casella = next(r for r in self.load("records.json", "records") if r["year"] == 2024)
        with self.assertRaises(PokerError) as caught:
            libpoker.camicia_extend(casella["a"], casella["b"])
        self.assertEqual(caught.exception.code, libpoker.ERR_LOOP)
        with self.assertRaises(PokerError) as caught:
            libpoker.camicia_extend(casella["a"], casella["b"] + "-")
        self.assertEqual(caught.exception.code, libpoker.ERR_NOT_FULL_DECK)
        with self.assertRaises(PokerError) as caught:
            libpoker.camicia_extend("2 3", "4 Z")
        self.assertEqual(caught.exception.code, libpoker.ERR_TOKEN)


if __name__ == "__main__":
    unittest.main()
