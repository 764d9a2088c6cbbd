{ include_counter: Free Pascal's include directive copies any file into the
  program as it compiles it; /proc/sys/kernel/pty/nr is the machine's pty
  count, which a game of another evaluation alive at the same time can set.
  Prints "LEAK: the machine's pty count at compile time: N". In the sandbox
  a compiler has no /proc, so the source does not compile. Then plays round
  robin. }
program include_counter;

uses Poker;

const
  PtyCount = {$I /proc/sys/kernel/pty/nr};

var
  i, v, c: integer;

begin
  writeln(ErrOutput, 'LEAK: the machine''s pty count at compile time: ', PtyCount);
  p_startgame;
  for i := 1 to 20 do
  begin
    p_look(v, c);
    p_place((i - 1) mod 4 + 1);
  end;
end.
