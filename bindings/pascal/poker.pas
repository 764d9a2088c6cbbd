{ poker.pas: the contest module POKER.H ("Poker American") as a Free Pascal
  unit over libpoker, so that a contestant written as in the contest text

      uses Poker;
      var v, c: integer;
      ...
      p_startgame;
      p_look(v, c);
      p_place(t);

  compiles and plays in the default (fpc), tp, objfpc and delphi modes.

  Why it looks like this (see libpoker's docs/bindings.md):
  - `integer` is 2 bytes in the fpc and tp modes and 4 in objfpc and delphi,
    while the C functions take `int *`. So p_look has a smallint and a
    longint overload, and the C functions are imported privately with
    ctypes' cint and called through cint temporaries.
  - Under an evaluator's fork server, p_startgame forks one child per game
    inside the library: it flushes Output and ErrOutput first, so text
    written before it is not repeated by every game.
  - The 20th p_place ends the program from inside the library (C exit()),
    which never flushes Free Pascal's own output buffers: p_place flushes
    Output and ErrOutput first, so nothing written with Write/WriteLn is lost
    when stdout is a pipe or a file.

  Build: fpc -Fu<folder of this file> -Fl<folder of libpoker.so>
             -k-rpath=<folder of libpoker.so> prog.pas }
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
  program (after flushing Output and ErrOutput). }
procedure p_place(column: longint);

implementation

uses ctypes;

procedure c_startgame; cdecl; external 'poker' name 'p_startgame';
procedure c_look(value, color: pcint); cdecl; external 'poker' name 'p_look';
procedure c_place(column: cint); cdecl; external 'poker' name 'p_place';

procedure p_startgame;
begin
  { Under a fork server the library forks one child per game inside this
    call: flushed here, what was written before is not repeated by every
    game. }
  Flush(Output);
  Flush(ErrOutput);
  c_startgame;
end;

procedure p_look(var value, color: smallint);
var
  v, c: cint;
begin
  c_look(@v, @c);
  value := v;
  color := c;
end;

procedure p_look(var value, color: longint);
var
  v, c: cint;
begin
  c_look(@v, @c);
  value := v;
  color := c;
end;

procedure p_place(column: longint);
begin
  Flush(Output);
  Flush(ErrOutput);
  c_place(column);
end;

end.
