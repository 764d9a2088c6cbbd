{ greedy.pas: the Pascal twin of c_examples/greedy.c (same choices, same
  scores), a one-card-lookahead contestant. Each card goes to the allowed
  column (one of the shortest, by the balance rule) where it raises that
  column's promise the most. A column's promise is a rough value of what its
  cards already make or can still become: equal values (pair, trips, quads),
  a flush while every card shares a suit, a straight while all values are
  distinct and fit in 9-K or 10-A.
  Written as the contest's intended loop, with the contest's unit. }
program greedy;

uses Poker;

{ Promise of a flush, a straight, by the number of cards in it; of equal
  values, by the count of one value (greedy.c's weights). Typed double
  constants, so the arithmetic and its ties are exactly the C twin's. }
const
  FLUSH: array[0..5] of double = (0.0, 0.0, 0.8, 2.2, 4.3, 7.0);
  STRAIGHT: array[0..5] of double = (0.0, 0.0, 0.1, 0.5, 1.5, 4.0);
  SAME: array[0..4] of double = (0.0, 0.0, 2.0, 4.5, 7.0);
  STRAIGHT_FLUSH_BONUS: double = 1.0;
  NONE: double = -1e9;

var
  values, colors: array[0..3, 0..4] of integer;
  heights: array[0..3] of integer;
  i, v, c, t: integer;

{ How promising column col is with card (v, c) added (v = 0: as it is). }
function promise(col, v, c: integer): double;
var
  vals, cols: array[0..4] of integer;
  count: array[0..6] of integer;
  n, i, lo, hi: integer;
  one_suit, distinct: boolean;
  score: double;
begin
  n := heights[col];
  for i := 0 to 6 do count[i] := 0;
  for i := 0 to n - 1 do
  begin
    vals[i] := values[col, i];
    cols[i] := colors[col, i];
  end;
  if v <> 0 then
  begin
    vals[n] := v;
    cols[n] := c;
    n := n + 1;
  end;
  one_suit := true; distinct := true; lo := 7; hi := 0;
  score := 0;
  for i := 0 to n - 1 do
  begin
    count[vals[i]] := count[vals[i]] + 1;
    if count[vals[i]] > 1 then distinct := false;
    if cols[i] <> cols[0] then one_suit := false;
    if vals[i] < lo then lo := vals[i];
    if vals[i] > hi then hi := vals[i];
  end;
  for i := 1 to 6 do
    score := score + SAME[count[i]];
  if one_suit then
    score := score + FLUSH[n];
  if distinct and (hi - lo <= 4) then
    score := score + STRAIGHT[n];
  if one_suit and distinct and (hi - lo <= 4) and (n = 5) then
    score := score + STRAIGHT_FLUSH_BONUS;          { straight flush: 8, not 7 }
  promise := score;
end;

function choose(v, c: integer): integer;
var
  col, best, lowest: integer;
  gain, best_gain: double;
begin
  best := 0; lowest := 5; best_gain := NONE;
  for col := 0 to 3 do
    if heights[col] < lowest then lowest := heights[col];
  for col := 0 to 3 do
    if heights[col] = lowest then                   { balance rule }
    begin
      gain := promise(col, v, c) - promise(col, 0, 0);
      if gain > best_gain then
      begin
        best_gain := gain;
        best := col;
      end;
    end;
  values[best, heights[best]] := v;
  colors[best, heights[best]] := c;
  heights[best] := heights[best] + 1;
  choose := best + 1;
end;

begin
  for i := 0 to 3 do heights[i] := 0;
  p_startgame;
  for i := 1 to 20 do
  begin
    p_look(v, c);
    t := choose(v, c);
    p_place(t);
  end;
end.
