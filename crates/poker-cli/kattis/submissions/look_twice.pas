{ look_twice.pas: breaks a rule on every deck: p_look twice without
  placing the first card (wrong answer). }
program look_twice;

uses Poker;

var
  v, c: integer;

begin
  p_startgame;
  p_look(v, c);
  p_look(v, c);
  p_place(1);
end.
