// libpoker from Node.js through koffi: plays the contest text's worked
// example with the embeddable game API, deals FreeCell game 617, simulates
// a record Camicia deal, scores a hand and shows how an error reads.
//
// Run against a checkout (after `cargo build --release` at ROOT; Debian:
// nodejs, npm):
//   npm ci --ignore-scripts     # koffi, as package-lock.json pins it
//   LIBPOKER=$ROOT/target/release/libpoker.so node example.js
'use strict';

const koffi = require('koffi');

const lib = koffi.load(process.env.LIBPOKER || 'libpoker.so');

koffi.opaque('PokerGame');
koffi.struct('CamiciaResult', { status: 'int', cards: 'uint64_t', tricks: 'uint64_t' });

const POKER_OK = 0;
const POKER_FINISHED = 1;
const CAMICIA_FINISHED = 0;

// Synchronous koffi calls run on this thread, whose last error
// poker_last_error gives (an async call runs on another thread).
const poker = {
  gameNewText: lib.func('PokerGame *poker_game_new_text(const char *deck)'),
  gameLook: lib.func('int poker_game_look(PokerGame *game, _Out_ int *value, _Out_ int *color)'),
  gamePlace: lib.func('int poker_game_place(PokerGame *game, int column)'),
  gameScore: lib.func('int poker_game_score(const PokerGame *game, _Out_ int *columns_out)'),
  gameFree: lib.func('void poker_game_free(PokerGame *game)'),
  handScore: lib.func('int poker_hand_score(const int *values, const int *colors)'),
  freecellDeal: lib.func('int freecell_deal(int64_t deal_number, _Out_ uint8_t *cards)'),
  camiciaSimulate: lib.func(
    'int camicia_simulate(const char *player_a, const char *player_b, _Out_ CamiciaResult *out)'),
  lastError: lib.func('int poker_last_error(_Out_ char *buf, int len)'),
  lastErrorCode: lib.func('int poker_last_error_code(void)'),
};

// The worked example's board row by row, then the 4 cards never dealt.
const WORKED_DECK = 'JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH';
// The record Beggar-My-Neighbour deal of 2022 (Reed Nessler).
const CAMICIA_A = '---AJ--Q---------QAKQJJ-QK';
const CAMICIA_B = '-----A----KJ-K--------A---';

class PokerError extends Error {
  // The calling thread's last libpoker error.
  static last() {
    const buf = Buffer.alloc(poker.lastError(null, 0) + 1);
    const length = poker.lastError(buf, buf.length);
    return new PokerError(`error ${poker.lastErrorCode()}: ${buf.toString('utf8', 0, length)}`);
  }
}

function check(rc, call) {
  if (rc < 0) throw new Error(`${call}: ${rc}`);
  return rc;
}

const contestCard = (value, color) => '9TJQKA'[value - 1] + 'SHDC'[color - 1];
const freecellCard = (index) => 'A23456789TJQK'[Math.floor(index / 4)] + 'CDHS'[index % 4];

function newGame(deck) {
  const game = poker.gameNewText(deck);
  if (!game) throw PokerError.last();
  return game;
}

function playWorkedExample() {
  const board = WORKED_DECK.split(' ').slice(0, 20);
  const game = newGame(WORKED_DECK);
  try {
    let rc = POKER_OK;
    while (rc !== POKER_FINISHED) {
      const value = [0];
      const color = [0];
      check(poker.gameLook(game, value, color), 'poker_game_look');
      const at = board.indexOf(contestCard(value[0], color[0]));
      rc = check(poker.gamePlace(game, (at % 4) + 1), 'poker_game_place');
    }
    const columns = new Int32Array(4);
    const total = check(poker.gameScore(game, columns), 'poker_game_score');
    return { total, columns };
  } finally {
    poker.gameFree(game);
  }
}

const { total, columns } = playWorkedExample();
console.log(`worked example: ${total} points, columns ${columns.join(' ')}`);

const cards = new Uint8Array(52);
check(poker.freecellDeal(617, cards), 'freecell_deal');
console.log(`freecell 617: ${Array.from(cards.subarray(0, 8), freecellCard).join(' ')}`);

const result = {};
check(poker.camiciaSimulate(CAMICIA_A, CAMICIA_B, result), 'camicia_simulate');
const status = result.status === CAMICIA_FINISHED ? 'finished' : 'loop';
console.log(`camicia record: ${status}, ${result.cards} cards, ${result.tricks} tricks`);

const values = Int32Array.of(2, 2, 2, 6, 6);
const colors = Int32Array.of(2, 3, 4, 4, 3);
const points = check(poker.handScore(values, colors), 'poker_hand_score');
const hand = Array.from(values, (value, i) => contestCard(value, colors[i])).join(' ');
console.log(`hand ${hand}: ${points} points`);

try {
  poker.gameFree(newGame('9S TH XX'));
  throw new Error('the deck "9S TH XX" was accepted');
} catch (e) {
  if (!(e instanceof PokerError)) throw e;
  console.log(e.message);
}
