// libpoker from Java through JNA: plays the contest text's worked example
// with the embeddable game API, deals FreeCell game 617, simulates a record
// Camicia deal, scores a hand and shows how an error reads.
//
// Build and run against a checkout (after `cargo build --release` at ROOT;
// Debian: default-jdk-headless, libjna-java):
//   javac -cp /usr/share/java/jna.jar -d classes Example.java
//   java -cp /usr/share/java/jna.jar:classes -Djna.library.path=$ROOT/target/release Example

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.PointerType;
import com.sun.jna.Structure;
import com.sun.jna.ptr.IntByReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public final class Example {
    /** A game handle (poker.h's opaque PokerGame *). */
    public static final class PokerGame extends PointerType {}

    /** poker.h's CamiciaResult. */
    @Structure.FieldOrder({"status", "cards", "tricks"})
    public static final class CamiciaResult extends Structure {
        public int status;
        public long cards;
        public long tricks;
    }

    /** The functions and codes of poker.h used here. */
    public interface Poker extends Library {
        Poker LIB = Native.load("poker", Poker.class);

        int POKER_OK = 0;
        int POKER_FINISHED = 1;
        int CAMICIA_FINISHED = 0;

        PokerGame poker_game_new_text(String deck);
        int poker_game_look(PokerGame game, IntByReference value, IntByReference color);
        int poker_game_place(PokerGame game, int column);
        int poker_game_score(PokerGame game, int[] columnsOut);
        void poker_game_free(PokerGame game);
        int poker_hand_score(int[] values, int[] colors);
        int freecell_deal(long dealNumber, byte[] cards);
        int camicia_simulate(String playerA, String playerB, CamiciaResult out);
        int poker_last_error(byte[] buf, int len);
        int poker_last_error_code();
    }

    /** The worked example's board row by row, then the 4 cards never dealt. */
    static final String WORKED_DECK =
        "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH";
    /** The record Beggar-My-Neighbour deal of 2022 (Reed Nessler). */
    static final String CAMICIA_A = "---AJ--Q---------QAKQJJ-QK";
    static final String CAMICIA_B = "-----A----KJ-K--------A---";

    static final Poker POKER = Poker.LIB;

    /** Thrown with the calling thread's last libpoker error. */
    static final class PokerException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PokerException() {
            super(lastError());
        }
    }

    /** "error CODE: MESSAGE" for this thread's last error (JNA calls on the caller's thread). */
    static String lastError() {
        byte[] buf = new byte[POKER.poker_last_error(null, 0) + 1];
        POKER.poker_last_error(buf, buf.length);
        return "error " + POKER.poker_last_error_code() + ": " + Native.toString(buf, "UTF-8");
    }

    static void check(int rc, String call) {
        if (rc < 0) {
            throw new IllegalStateException(call + ": " + rc);
        }
    }

    static String contestCard(int value, int color) {
        return "" + "9TJQKA".charAt(value - 1) + "SHDC".charAt(color - 1);
    }

    static String freecellCard(int index) {
        return "" + "A23456789TJQK".charAt(index / 4) + "CDHS".charAt(index % 4);
    }

    static PokerGame newGame(String deck) {
        PokerGame game = POKER.poker_game_new_text(deck);
        if (game == null) {
            throw new PokerException();
        }
        return game;
    }

    public static void main(String[] args) {
        List<String> board = Arrays.asList(WORKED_DECK.split(" ")).subList(0, 20);
        PokerGame game = newGame(WORKED_DECK);
        int[] columns = new int[4];
        int total;
        try {
            IntByReference value = new IntByReference();
            IntByReference color = new IntByReference();
            int rc;
            do {
                check(POKER.poker_game_look(game, value, color), "poker_game_look");
                int at = board.indexOf(contestCard(value.getValue(), color.getValue()));
                rc = POKER.poker_game_place(game, at % 4 + 1);
                check(rc, "poker_game_place");
            } while (rc != Poker.POKER_FINISHED);
            total = POKER.poker_game_score(game, columns);
        } finally {
            POKER.poker_game_free(game);
        }
        System.out.printf("worked example: %d points, columns %d %d %d %d%n",
            total, columns[0], columns[1], columns[2], columns[3]);

        byte[] cards = new byte[52];
        check(POKER.freecell_deal(617, cards), "freecell_deal");
        List<String> row = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            row.add(freecellCard(cards[i]));
        }
        System.out.println("freecell 617: " + String.join(" ", row));

        CamiciaResult result = new CamiciaResult();
        check(POKER.camicia_simulate(CAMICIA_A, CAMICIA_B, result), "camicia_simulate");
        System.out.printf("camicia record: %s, %d cards, %d tricks%n",
            result.status == Poker.CAMICIA_FINISHED ? "finished" : "loop",
            result.cards, result.tricks);

        int[] values = {2, 2, 2, 6, 6};
        int[] colors = {2, 3, 4, 4, 3};
        List<String> hand = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            hand.add(contestCard(values[i], colors[i]));
        }
        int points = POKER.poker_hand_score(values, colors);
        check(points, "poker_hand_score");
        System.out.printf("hand %s: %d points%n", String.join(" ", hand), points);

        try {
            POKER.poker_game_free(newGame("9S TH XX"));
            throw new IllegalStateException("the deck \"9S TH XX\" was accepted");
        } catch (PokerException e) {
            System.out.println(e.getMessage());
        }
    }
}
