{ greedy.pas: the Pascal twin of c_examples/greedy.c, a one-card-lookahead
  contestant. Each card goes to the allowed column (one of the shortest)
  where it raises that column's "promise" the most. A column's promise
  counts what its cards can still become: pairs, trips and quads of equal
  values, a flush while all cards share a suit, a straight while all values
  are distinct and fit in 9-K or 10-A.
  Written as the contest's intended loop, with the contest's unit. }
program greedy;

uses Poker;

{ Weights as typed double constants, so the arithmetic is the C twin's
  (untyped real constants would be extended precision and break ties
  differently). }
const
  W_SAME: double = 1.2;
  W_FLUSH: double = 0.9;
  W_STRAIGHT: double = 0.5;
  W_STRAIGHT_FLUSH: double = 0.4;
  NONE: double = -1e9;

var
  values, colors: array[0..3, 0..4] of integer;
  heights: array[0..3] of integer;
  i, v, c, t: integer;

{ How promising column col is with card (v, c) added (v = 0: as it is). }
function promise(col, v, c: integer): double;
var
  vals, cols: array[0..5] of integer;
  n, i, j, same_value, lo, hi: integer;
  one_suit, distinct: boolean;
  score: double;
begin
  n := heights[col];
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
  if n = 0 then
  begin
    promise := 0;
    exit;
  end;
  same_value := 0; one_suit := true; distinct := true; lo := 7; hi := 0;
  score := 0.0;
  for i := 0 to n - 1 do
  begin
    for j := i + 1 to n - 1 do
      if vals[i] = vals[j] then
      begin
        same_value := same_value + 1;
        distinct := false;
      end;
    if cols[i] <> cols[0] then one_suit := false;
    if vals[i] < lo then lo := vals[i];
    if vals[i] > hi then hi := vals[i];
  end;
  { Equal pairs among the cards: 1 pair, 3 trips, 6 quads. }
  score := score + W_SAME * same_value;
  if one_suit then score := score + W_FLUSH * n;    { flush (7) }
  if distinct and (hi - lo <= 4) then
    score := score + W_STRAIGHT * n;                { straight (4) }
  if one_suit and distinct and (hi - lo <= 4) then
    score := score + W_STRAIGHT_FLUSH * n;          { straight flush (8) }
  promise := score;
end;

function choose(v, c: integer): integer;
var
  col, best, lowest: integer;
  gain, best_gain: double;
begin
  best := -1; lowest := 5; best_gain := NONE;
  for col := 0 to 3 do
    if heights[col] < lowest then lowest := heights[col];
  for col := 0 to 3 do
    if heights[col] = lowest then                       { balance rule }
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
