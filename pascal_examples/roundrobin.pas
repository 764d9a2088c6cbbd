{ roundrobin.pas: the Pascal twin of c_examples/roundrobin.c, the simplest
  legal contestant. Card i goes to column 1, 2, 3, 4, 1, 2, ... which always
  keeps the columns balanced. Written as the contest's intended loop, with
  the contest's unit. }
program roundrobin;

uses Poker;

var
  i, v, c, t: integer;

begin
  p_startgame;
  for i := 1 to 20 do
  begin
    p_look(v, c);
    t := (i - 1) mod 4 + 1;
    p_place(t);
  end;
end.
