# libpoker from Ruby through Fiddle (the standard library): plays the
# contest text's worked example with the embeddable game API, deals
# FreeCell game 617, simulates a record Camicia deal, scores a hand and
# shows how an error reads.
#
# Run against a checkout (after `cargo build --release` at ROOT; Debian:
# ruby):
#   LIBPOKER=$ROOT/target/release/libpoker.so ruby example.rb
require 'fiddle/import'

# The functions and codes of poker.h used here.
module Poker
  extend Fiddle::Importer
  dlload ENV.fetch('LIBPOKER', 'libpoker.so')

  OK = 0
  FINISHED = 1
  CAMICIA_FINISHED = 0

  CamiciaResult = struct(['int status', 'uint64_t cards', 'uint64_t tricks'])

  # PokerGame * is an opaque handle: void * here.
  extern 'void *poker_game_new_text(const char *)'
  extern 'int poker_game_look(void *, int *, int *)'
  extern 'int poker_game_place(void *, int)'
  extern 'int poker_game_score(const void *, int *)'
  extern 'void poker_game_free(void *)'
  extern 'int poker_hand_score(const int *, const int *)'
  extern 'int freecell_deal(int64_t, unsigned char *)'
  extern 'int camicia_simulate(const char *, const char *, void *)'
  extern 'int poker_last_error(char *, int)'
  extern 'int poker_last_error_code(void)'

  # A failed call, with the calling thread's last libpoker error (Fiddle
  # calls the library on the Ruby thread's own OS thread).
  class Error < StandardError
    def self.last
      length = Poker.poker_last_error(nil, 0)
      buf = Fiddle::Pointer.malloc(length + 1, Fiddle::RUBY_FREE)
      Poker.poker_last_error(buf, length + 1)
      new("error #{Poker.poker_last_error_code}: #{buf.to_s.force_encoding('UTF-8')}")
    end
  end

  def self.check(rc, call)
    raise "#{call}: #{rc}" if rc.negative?

    rc
  end

  # Yields a game over a deck of 24 card tokens, freed after the block.
  def self.with_game(deck)
    game = poker_game_new_text(deck)
    raise Error.last if game.null?

    begin
      yield game
    ensure
      poker_game_free(game)
    end
  end
end

# The worked example's board row by row, then the 4 cards never dealt.
WORKED_DECK = 'JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH'
# The record Beggar-My-Neighbour deal of 2022 (Reed Nessler).
CAMICIA_A = '---AJ--Q---------QAKQJJ-QK'
CAMICIA_B = '-----A----KJ-K--------A---'
INT = Fiddle::SIZEOF_INT

def contest_card(value, color) = "#{'9TJQKA'[value - 1]}#{'SHDC'[color - 1]}"
def freecell_card(index) = "#{'A23456789TJQK'[index / 4]}#{'CDHS'[index % 4]}"

board = WORKED_DECK.split.first(20)
total, columns = Poker.with_game(WORKED_DECK) do |game|
  value = Fiddle::Pointer.malloc(INT, Fiddle::RUBY_FREE)
  color = Fiddle::Pointer.malloc(INT, Fiddle::RUBY_FREE)
  loop do
    Poker.check(Poker.poker_game_look(game, value, color), 'poker_game_look')
    at = board.index(contest_card(value[0, INT].unpack1('i'), color[0, INT].unpack1('i')))
    break if Poker.check(Poker.poker_game_place(game, at % 4 + 1), 'poker_game_place') == Poker::FINISHED
  end
  out = Fiddle::Pointer.malloc(4 * INT, Fiddle::RUBY_FREE)
  [Poker.check(Poker.poker_game_score(game, out), 'poker_game_score'), out[0, 4 * INT].unpack('i4')]
end
puts "worked example: #{total} points, columns #{columns.join(' ')}"

cards = Fiddle::Pointer.malloc(52, Fiddle::RUBY_FREE)
Poker.check(Poker.freecell_deal(617, cards), 'freecell_deal')
puts "freecell 617: #{cards[0, 8].bytes.map { |c| freecell_card(c) }.join(' ')}"

result = Poker::CamiciaResult.malloc(Fiddle::RUBY_FREE)
Poker.check(Poker.camicia_simulate(CAMICIA_A, CAMICIA_B, result), 'camicia_simulate')
status = result.status == Poker::CAMICIA_FINISHED ? 'finished' : 'loop'
puts "camicia record: #{status}, #{result.cards} cards, #{result.tricks} tricks"

values = [2, 2, 2, 6, 6]
colors = [2, 3, 4, 4, 3]
points = Poker.check(Poker.poker_hand_score(values.pack('i*'), colors.pack('i*')), 'poker_hand_score')
puts "hand #{values.zip(colors).map { |v, c| contest_card(v, c) }.join(' ')}: #{points} points"

begin
  Poker.with_game('9S TH XX') { raise 'the deck "9S TH XX" was accepted' }
rescue Poker::Error => e
  puts e.message
end
