{ units.pas: a Pascal contestant that uses the units and run-time calls a
  contestant plausibly reaches for (SysUtils, Classes, Math, DateUtils:
  Randomize, the clock, strings, a string list, an exception, text output
  to stderr), so that the seccomp filter's census sees the calls the Free
  Pascal run-time makes for them. Then plays round robin (card i to column
  1, 2, 3, 4, 1, ...). }
program units;

{$mode objfpc}

uses SysUtils, Classes, Math, DateUtils, Poker;

var
  i, v, c: integer;
  list: TStringList;
  started: TDateTime;
  ticks: QWord;

begin
  started := Now;
  ticks := GetTickCount64;
  Randomize;
  list := TStringList.Create;
  try
    for i := 1 to 5 do
      list.Add(IntToStr(RandomRange(0, 52)));
    list.Sort;
    try
      raise Exception.Create('census');
    except
      on E: Exception do
        WriteLn(StdErr, 'units ok ', list.Count, ' ', E.Message, ' ',
          FormatFloat('0.00', Power(2.0, 0.5)), ' ',
          MilliSecondsBetween(Now, started) >= 0, ' ', GetTickCount64 >= ticks);
    end;
  finally
    list.Free;
  end;
  p_startgame;
  for i := 1 to 20 do
  begin
    p_look(v, c);
    p_place((i - 1) mod 4 + 1);
  end;
end.
