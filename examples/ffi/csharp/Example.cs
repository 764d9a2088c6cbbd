// libpoker from C# through P/Invoke ([DllImport]): plays the contest text's
// worked example with the embeddable game API, deals FreeCell game 617,
// simulates a record Camicia deal, scores a hand and shows how an error
// reads.
//
// Build and run under Mono against a checkout (after `cargo build
// --release` at ROOT; Debian: mono-mcs, mono-runtime):
//   mcs -out:Example.exe Example.cs
//   LD_LIBRARY_PATH=$ROOT/target/release mono Example.exe

using System;
using System.Linq;
using System.Runtime.InteropServices;
using System.Text;
using Microsoft.Win32.SafeHandles;

/// <summary>A game handle, freed with poker_game_free when disposed.</summary>
sealed class PokerGame : SafeHandleZeroOrMinusOneIsInvalid
{
    PokerGame() : base(true) { }

    protected override bool ReleaseHandle()
    {
        Native.poker_game_free(handle);
        return true;
    }
}

/// <summary>poker.h's CamiciaResult.</summary>
[StructLayout(LayoutKind.Sequential)]
struct CamiciaResult
{
    public int Status;
    public ulong Cards;
    public ulong Tricks;
}

/// <summary>The functions and codes of poker.h used here.</summary>
static class Native
{
    const string Lib = "poker"; // libpoker.so

    public const int POKER_OK = 0;
    public const int POKER_FINISHED = 1;
    public const int CAMICIA_FINISHED = 0;

    [DllImport(Lib)]
    public static extern PokerGame poker_game_new_text([MarshalAs(UnmanagedType.LPUTF8Str)] string deck);
    [DllImport(Lib)]
    public static extern int poker_game_look(PokerGame game, out int value, out int color);
    [DllImport(Lib)]
    public static extern int poker_game_place(PokerGame game, int column);
    [DllImport(Lib)]
    public static extern int poker_game_score(PokerGame game, [Out] int[] columnsOut);
    [DllImport(Lib)]
    public static extern void poker_game_free(IntPtr game);
    [DllImport(Lib)]
    public static extern int poker_hand_score(int[] values, int[] colors);
    [DllImport(Lib)]
    public static extern int freecell_deal(long dealNumber, [Out] byte[] cards);
    [DllImport(Lib)]
    public static extern int camicia_simulate([MarshalAs(UnmanagedType.LPUTF8Str)] string playerA,
        [MarshalAs(UnmanagedType.LPUTF8Str)] string playerB, out CamiciaResult result);
    [DllImport(Lib)]
    public static extern int poker_last_error([Out] byte[] buf, int len);
    [DllImport(Lib)]
    public static extern int poker_last_error_code();
}

/// <summary>A failed libpoker call, with the calling thread's last error.</summary>
sealed class PokerException : Exception
{
    PokerException(string message) : base(message) { }

    /// P/Invoke calls run on the caller's thread, whose last error this is.
    public static PokerException Last()
    {
        var buf = new byte[Native.poker_last_error(null, 0) + 1];
        int length = Native.poker_last_error(buf, buf.Length);
        return new PokerException(
            $"error {Native.poker_last_error_code()}: {Encoding.UTF8.GetString(buf, 0, length)}");
    }
}

static class Example
{
    // The worked example's board row by row, then the 4 cards never dealt.
    const string WorkedDeck = "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH";
    // The record Beggar-My-Neighbour deal of 2022 (Reed Nessler).
    const string CamiciaA = "---AJ--Q---------QAKQJJ-QK";
    const string CamiciaB = "-----A----KJ-K--------A---";

    static string ContestCard(int value, int color) => $"{"9TJQKA"[value - 1]}{"SHDC"[color - 1]}";

    static string FreecellCard(int index) => $"{"A23456789TJQK"[index / 4]}{"CDHS"[index % 4]}";

    static int Check(int rc, string call) => rc >= 0 ? rc : throw new InvalidOperationException($"{call}: {rc}");

    static PokerGame NewGame(string deck)
    {
        var game = Native.poker_game_new_text(deck);
        if (game.IsInvalid)
            throw PokerException.Last();
        return game;
    }

    static void Main()
    {
        var board = WorkedDeck.Split(' ').Take(20).ToList();
        var columns = new int[4];
        int total;
        using (var game = NewGame(WorkedDeck))
        {
            int rc;
            do
            {
                Check(Native.poker_game_look(game, out int value, out int color), "poker_game_look");
                int at = board.IndexOf(ContestCard(value, color));
                rc = Check(Native.poker_game_place(game, at % 4 + 1), "poker_game_place");
            } while (rc != Native.POKER_FINISHED);
            total = Native.poker_game_score(game, columns);
        }
        Console.WriteLine($"worked example: {total} points, columns {string.Join(" ", columns)}");

        var cards = new byte[52];
        Check(Native.freecell_deal(617, cards), "freecell_deal");
        Console.WriteLine($"freecell 617: {string.Join(" ", cards.Take(8).Select(c => FreecellCard(c)))}");

        Check(Native.camicia_simulate(CamiciaA, CamiciaB, out var result), "camicia_simulate");
        var status = result.Status == Native.CAMICIA_FINISHED ? "finished" : "loop";
        Console.WriteLine($"camicia record: {status}, {result.Cards} cards, {result.Tricks} tricks");

        int[] values = { 2, 2, 2, 6, 6 };
        int[] colors = { 2, 3, 4, 4, 3 };
        int points = Check(Native.poker_hand_score(values, colors), "poker_hand_score");
        var hand = string.Join(" ", values.Zip(colors, ContestCard));
        Console.WriteLine($"hand {hand}: {points} points");

        try
        {
            NewGame("9S TH XX").Dispose();
            throw new InvalidOperationException("the deck \"9S TH XX\" was accepted");
        }
        catch (PokerException e)
        {
            Console.WriteLine(e.Message);
        }
    }
}
