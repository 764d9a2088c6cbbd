// Command libpoker-go calls libpoker from Go through cgo: it plays the
// contest text's worked example with the embeddable game API, deals
// FreeCell game 617, simulates a record Camicia deal, scores a hand and
// shows how an error reads.
//
// Build against a checkout (after `cargo build --release` at its root):
//
//	CGO_CFLAGS=-I$ROOT/include CGO_LDFLAGS="-L$ROOT/target/release -Wl,-rpath,$ROOT/target/release" go run .
package main

/*
#cgo LDFLAGS: -lpoker
#include <stdlib.h>
#include "poker.h"
*/
import "C"

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"unsafe"
)

// The contest text's worked example: its board row by row (rows of four
// columns), then the 4 cards never dealt.
const workedDeck = "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH"

// The record Beggar-My-Neighbour deal of 2022 (Reed Nessler), top card first.
const camiciaA = "---AJ--Q---------QAKQJJ-QK"
const camiciaB = "-----A----KJ-K--------A---"

// contestCard names a card of the contest encoding: value 1..6 = 9 T J Q K
// A, color 1..4 = spades, hearts, diamonds, clubs.
func contestCard(value, color C.int) string {
	return string("9TJQKA"[value-1]) + string("SHDC"[color-1])
}

// freecellCard names a card index rank*4+suit (A..K, clubs diamonds hearts spades).
func freecellCard(index C.uchar) string {
	return string("A23456789TJQK"[index/4]) + string("CDHS"[index%4])
}

// lastError is the code and message of this OS thread's last libpoker
// error. libpoker keeps them per thread, and Go moves goroutines between
// threads: call it with the goroutine locked to its thread since the
// failed call.
func lastError() (int, string) {
	length := C.poker_last_error(nil, 0)
	buf := (*C.char)(C.malloc(C.size_t(length) + 1))
	defer C.free(unsafe.Pointer(buf))
	C.poker_last_error(buf, length+1)
	return int(C.poker_last_error_code()), C.GoString(buf)
}

// newGame starts a game over a deck written as 24 card tokens.
func newGame(deck string) (*C.PokerGame, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	text := C.CString(deck)
	defer C.free(unsafe.Pointer(text))
	game := C.poker_game_new_text(text)
	if game == nil {
		code, message := lastError()
		return nil, fmt.Errorf("error %d: %s", code, message)
	}
	return game, nil
}

// playWorkedExample places each card where the worked example's board has
// it, and returns the total and the four columns' points.
func playWorkedExample() (int, [4]C.int, error) {
	var columns [4]C.int
	game, err := newGame(workedDeck)
	if err != nil {
		return 0, columns, err
	}
	defer C.poker_game_free(game)
	board := strings.Fields(workedDeck)[:20]
	for {
		var value, color C.int
		if rc := C.poker_game_look(game, &value, &color); rc != C.POKER_OK {
			return 0, columns, fmt.Errorf("poker_game_look: %d", rc)
		}
		at := indexOf(board, contestCard(value, color))
		rc := C.poker_game_place(game, C.int(at%4+1))
		if rc == C.POKER_FINISHED {
			break
		}
		if rc != C.POKER_OK {
			return 0, columns, fmt.Errorf("poker_game_place: %d", rc)
		}
	}
	total := C.poker_game_score(game, &columns[0])
	return int(total), columns, nil
}

func indexOf(words []string, word string) int {
	for i, w := range words {
		if w == word {
			return i
		}
	}
	return -1
}

func run() error {
	total, columns, err := playWorkedExample()
	if err != nil {
		return err
	}
	fmt.Printf("worked example: %d points, columns %d %d %d %d\n",
		total, columns[0], columns[1], columns[2], columns[3])

	var cards [52]C.uchar
	if rc := C.freecell_deal(617, &cards[0]); rc != C.POKER_OK {
		return fmt.Errorf("freecell_deal: %d", rc)
	}
	row := make([]string, 8)
	for i := range row {
		row[i] = freecellCard(cards[i])
	}
	fmt.Printf("freecell 617: %s\n", strings.Join(row, " "))

	a, b := C.CString(camiciaA), C.CString(camiciaB)
	defer C.free(unsafe.Pointer(a))
	defer C.free(unsafe.Pointer(b))
	var result C.CamiciaResult
	if rc := C.camicia_simulate(a, b, &result); rc != C.POKER_OK {
		return fmt.Errorf("camicia_simulate: %d", rc)
	}
	status := map[C.int]string{C.CAMICIA_FINISHED: "finished", C.CAMICIA_LOOP: "loop"}[result.status]
	fmt.Printf("camicia record: %s, %d cards, %d tricks\n", status, result.cards, result.tricks)

	values := [5]C.int{2, 2, 2, 6, 6}
	colors := [5]C.int{2, 3, 4, 4, 3}
	hand := make([]string, 5)
	for i := range hand {
		hand[i] = contestCard(values[i], colors[i])
	}
	points := C.poker_hand_score(&values[0], &colors[0])
	fmt.Printf("hand %s: %d points\n", strings.Join(hand, " "), points)

	if _, err := newGame("9S TH XX"); err != nil {
		fmt.Println(err)
	} else {
		return fmt.Errorf("the deck \"9S TH XX\" was accepted")
	}
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "libpoker-go:", err)
		os.Exit(1)
	}
}
