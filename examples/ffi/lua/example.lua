-- libpoker from LuaJIT through its ffi library: plays the contest text's
-- worked example with the embeddable game API, deals FreeCell game 617,
-- simulates a record Camicia deal, scores a hand and shows how an error
-- reads. ffi.cdef gets poker.h's declarations from poker_h.lua (generated
-- from the header, and checked against it by the test suite).
--
-- Run against a checkout (after `cargo build --release` at ROOT; Debian:
-- luajit):
--   LIBPOKER=$ROOT/target/release/libpoker.so luajit example.lua
local ffi = require('ffi')

local here = arg[0]:match('^(.*/)') or './'
ffi.cdef(dofile(here .. 'poker_h.lua'))
local poker = ffi.load(os.getenv('LIBPOKER') or 'poker')

-- The worked example's board row by row, then the 4 cards never dealt.
local WORKED_DECK = 'JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH'
-- The record Beggar-My-Neighbour deal of 2022 (Reed Nessler).
local CAMICIA_A = '---AJ--Q---------QAKQJJ-QK'
local CAMICIA_B = '-----A----KJ-K--------A---'

-- "error CODE: MESSAGE" for the last libpoker error (of this, Lua's one, thread).
local function last_error()
  local length = poker.poker_last_error(nil, 0)
  local buf = ffi.new('char[?]', length + 1)
  poker.poker_last_error(buf, length + 1)
  return ('error %d: %s'):format(poker.poker_last_error_code(), ffi.string(buf, length))
end

local function check(rc, call)
  if rc < 0 then error(('%s: %d'):format(call, rc)) end
  return rc
end

local function contest_card(value, color)
  return ('9TJQKA'):sub(value, value) .. ('SHDC'):sub(color, color)
end

local function freecell_card(index)
  local rank, suit = math.floor(index / 4) + 1, index % 4 + 1
  return ('A23456789TJQK'):sub(rank, rank) .. ('CDHS'):sub(suit, suit)
end

-- A game over a deck of 24 card tokens, freed by the garbage collector
-- unless freed before; nil and the error when the deck is refused.
local function new_game(deck)
  local game = poker.poker_game_new_text(deck)
  if game == nil then return nil, last_error() end
  return ffi.gc(game, poker.poker_game_free)
end

local function free_game(game)
  poker.poker_game_free(ffi.gc(game, nil))
end

-- Each card's place in the deck, 0-based: its place on the board, row by row.
local place, count = {}, 0
for card in WORKED_DECK:gmatch('%S+') do
  place[card], count = count, count + 1
end
local game = assert(new_game(WORKED_DECK))
local value, color = ffi.new('int[1]'), ffi.new('int[1]')
repeat
  check(poker.poker_game_look(game, value, color), 'poker_game_look')
  local at = place[contest_card(value[0], color[0])]
  local rc = check(poker.poker_game_place(game, at % 4 + 1), 'poker_game_place')
until rc == poker.POKER_FINISHED
local columns = ffi.new('int[4]')
local total = check(poker.poker_game_score(game, columns), 'poker_game_score')
free_game(game)
print(('worked example: %d points, columns %d %d %d %d'):format(
  total, columns[0], columns[1], columns[2], columns[3]))

local cards = ffi.new('unsigned char[52]')
check(poker.freecell_deal(617, cards), 'freecell_deal')
local row = {}
for i = 0, 7 do row[#row + 1] = freecell_card(cards[i]) end
print('freecell 617: ' .. table.concat(row, ' '))

local result = ffi.new('CamiciaResult')
check(poker.camicia_simulate(CAMICIA_A, CAMICIA_B, result), 'camicia_simulate')
local status = result.status == poker.CAMICIA_FINISHED and 'finished' or 'loop'
print(('camicia record: %s, %d cards, %d tricks'):format(
  status, tonumber(result.cards), tonumber(result.tricks)))

local values = ffi.new('int[5]', { 2, 2, 2, 6, 6 })
local colors = ffi.new('int[5]', { 2, 3, 4, 4, 3 })
local points = check(poker.poker_hand_score(values, colors), 'poker_hand_score')
local hand = {}
for i = 0, 4 do hand[#hand + 1] = contest_card(values[i], colors[i]) end
print(('hand %s: %d points'):format(table.concat(hand, ' '), points))

local refused, why = new_game('9S TH XX')
if refused ~= nil then error('the deck "9S TH XX" was accepted') end
print(why)
