{ poker.pp: the contest module POKER.H ("Poker American") as the Free
  Pascal unit Poker, for programs judged on a contest system (Kattis,
  DOMjudge). A program written as in the contest text

      uses Poker;
      var v, c: integer;
      ...
      p_startgame;
      p_look(v, c);
      p_place(t);

  compiles and plays unchanged, in the default (fpc), tp, objfpc and
  delphi modes. The file is named poker.pp, not poker.pas, so that a judge
  never takes it for the program itself; fpc finds unit Poker in it.

  The judge's interactor holds the deck, checks every rule and scores the
  board; this unit only forwards each call to it, one line per call, over
  the program's standard input and output. At initialisation (before the
  program's first statement) it moves the channel's two descriptors out of
  the way and points descriptor 1 at standard error and descriptor 0 at
  /dev/null: Write, WriteLn and raw writes to descriptor 1 end up on
  standard error, and ReadLn sees an empty input, so the program can
  neither disturb the judge nor steal its replies.

  p_look has a smallint and a longint overload because `integer` is 2
  bytes in the fpc and tp modes and 4 in objfpc and delphi. The 20th
  p_place ends the program (Halt(0), which flushes Output); a broken rule
  prints the rule on standard error and ends it with exit status 3. }
unit Poker;

{$mode objfpc}

interface

{ Starts the game; call it once, before any other function. }
procedure p_startgame;

{ Turns the next card: value 1..6 (9, 10, J, Q, K, A), color 1..4 (spades,
  hearts, diamonds, clubs). For `integer` variables in any mode. }
procedure p_look(var value, color: smallint); overload;
procedure p_look(var value, color: longint); overload;

{ Places the card just looked at in column 1..4. The 20th call ends the
  program. }
procedure p_place(column: longint);

implementation

uses BaseUnix;

const
  EXIT_VIOLATION = 3;
  EXIT_CHANNEL = 4;

var
  channelIn, channelOut: cint;

procedure Lost(const what: string);
begin
  Flush(Output);
  WriteLn(ErrOutput, 'poker: lost the judge''s channel (', what, ')');
  Halt(EXIT_CHANNEL);
end;

{ Sends one request line; returns the one reply line, without its newline. }
function Ask(const request: string): string;
var
  sent, n: cint;
  byte: char;
begin
  if (channelIn < 0) or (channelOut < 0) then
    Lost('no standard input or output');
  sent := 0;
  while sent < Length(request) do
  begin
    n := fpWrite(channelOut, request[sent + 1], Length(request) - sent);
    if (n < 0) and (fpGetErrno = ESysEINTR) then
      continue;
    if n <= 0 then
      Lost('cannot write');
    sent := sent + n;
  end;
  Result := '';
  while true do
  begin
    n := fpRead(channelIn, byte, 1);
    if (n < 0) and (fpGetErrno = ESysEINTR) then
      continue;
    if n <= 0 then
      Lost('closed by the judge');
    if byte = #10 then
      break;
    if Length(Result) >= 255 then
      Lost('reply too long');
    Result := Result + byte;
  end;
end;

{ A broken rule: say which, wait until the judge has closed the channel (so
  its verdict comes first), and stop. }
procedure Violation(const reply: string);
var
  n: cint;
  byte: char;
begin
  Flush(Output);
  WriteLn(ErrOutput, 'poker: ', Copy(reply, 3, Length(reply)));
  repeat
    n := fpRead(channelIn, byte, 1);
  until (n = 0) or ((n < 0) and (fpGetErrno <> ESysEINTR));
  Halt(EXIT_VIOLATION);
end;

procedure ExpectOk(const reply: string);
begin
  if Copy(reply, 1, 2) = 'V ' then
    Violation(reply);
  if reply <> 'OK' then
    Lost('unexpected reply');
end;

procedure p_startgame;
begin
  ExpectOk(Ask('S'#10));
end;

procedure LookCode(out value, color: longint);
var
  reply: string;
  code: integer;
begin
  reply := Ask('L'#10);
  if Copy(reply, 1, 2) = 'V ' then
    Violation(reply);
  if (Length(reply) <> 5) or (reply[1] <> 'C') or (reply[2] <> ' ')
    or (reply[4] <> ' ') then
    Lost('unexpected reply');
  Val(reply[3], value, code);
  if code <> 0 then
    Lost('unexpected reply');
  Val(reply[5], color, code);
  if code <> 0 then
    Lost('unexpected reply');
end;

procedure p_look(var value, color: smallint);
var
  v, c: longint;
begin
  LookCode(v, c);
  value := v;
  color := c;
end;

procedure p_look(var value, color: longint);
var
  v, c: longint;
begin
  LookCode(v, c);
  value := v;
  color := c;
end;

procedure p_place(column: longint);
var
  reply, number: string;
begin
  Str(column, number);
  reply := Ask('P ' + number + #10);
  if Copy(reply, 1, 4) = 'END ' then
    Halt(0);
  ExpectOk(reply);
end;

var
  nothing: cint;

initialization
  channelIn := fpDup(0);
  channelOut := fpDup(1);
  if channelIn >= 0 then
    fpFcntl(channelIn, F_SETFD, 1 { FD_CLOEXEC });
  if channelOut >= 0 then
    fpFcntl(channelOut, F_SETFD, 1 { FD_CLOEXEC });
  nothing := fpOpen('/dev/null', O_RDONLY);
  if nothing >= 0 then
  begin
    fpDup2(nothing, 0);
    if nothing <> 0 then
      fpClose(nothing);
  end
  else
    fpClose(0);
  fpDup2(2, 1);
end.
