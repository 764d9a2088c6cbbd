{ noisy.pas: round robin that prints in every way it can while it plays,
  and reads its standard input. With the judge's unit Poker, none of it may
  reach the judge: WriteLn, a partial line with Write, raw fpWrite calls to
  descriptor 1 that look like requests, before the game and between calls.
  And standard input must read as empty: if anything comes from it (a
  stolen reply), the program breaks a rule on purpose. }
program noisy;

uses Poker, BaseUnix;

var
  i, v, c: integer;
  stolen: boolean;
  line: string;

procedure Raw(const text: string);
var
  buf: string;
begin
  buf := text;
  if fpWrite(1, buf[1], Length(buf)) <> Length(buf) then
    WriteLn(ErrOutput, 'a raw write failed');
end;

begin
  WriteLn('before the game');
  Write('a partial line');
  Flush(Output);
  Raw('raw write'#10);
  WriteLn('L');
  stolen := not Eof(Input);
  p_startgame;
  for i := 1 to 20 do
  begin
    WriteLn('call ', i);
    Raw('L'#10);
    p_look(v, c);
    Write(' partial');
    Raw('P 9');
    if (i = 10) and not Eof(Input) then
    begin
      ReadLn(line);
      stolen := true;
    end;
    if stolen then
      p_place(9)
    else
      p_place((i - 1) mod 4 + 1);
  end;
end.
