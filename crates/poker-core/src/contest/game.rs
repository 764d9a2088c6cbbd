//! The game and its rules: the call order and the column-balance rule of the
//! contest text ("Observații" 2).

use super::{Board, COLUMNS, ContestDeck, DECK_SIZE, PLACEMENTS, Score, card_code};
use crate::cards::Card;
use std::fmt;

/// The contest's three functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Call {
    /// `p_startgame`.
    StartGame,
    /// `p_look`.
    Look,
    /// `p_place`.
    Place,
}

impl Call {
    /// The C name: `p_startgame`, `p_look` or `p_place`.
    pub(crate) fn c_name(self) -> &'static str {
        match self {
            Call::StartGame => "p_startgame",
            Call::Look => "p_look",
            Call::Place => "p_place",
        }
    }
}

/// A broken rule. Any violation ends the game with a score of 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Violation {
    /// A call before `p_startgame`.
    NotStarted,
    /// `p_startgame` a second time.
    StartedTwice,
    /// `p_look` twice without a `p_place` between.
    LookedTwice,
    /// `p_place` without a `p_look` before it.
    PlaceWithoutLook,
    /// `p_place` with a column outside 1..4.
    ColumnOutOfRange(i32),
    /// `p_place(column)` would make the longest and shortest columns differ
    /// by more than 1; `heights` are the column lengths before the call.
    Unbalanced {
        /// The requested column, 1..4.
        column: i32,
        /// Column lengths before the call.
        heights: [u8; COLUMNS],
    },
    /// `p_look` was given a NULL pointer.
    NullPointer,
    /// A call after the game ended (20 placements, or an earlier violation).
    GameOver,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::NotStarted => {
                f.write_str("p_startgame must be called once, before any other function")
            }
            Violation::StartedTwice => f.write_str("p_startgame may be called only once"),
            Violation::LookedTwice => {
                f.write_str("p_look called twice in a row (calls must alternate p_look, p_place)")
            }
            Violation::PlaceWithoutLook => f.write_str(
                "p_place called without a p_look before it (calls must alternate p_look, p_place)",
            ),
            Violation::ColumnOutOfRange(c) => write!(f, "column {c} is outside 1..4"),
            Violation::Unbalanced { column, heights } => write!(
                f,
                "placing in column {column} makes the longest and shortest columns differ by more than 1 (heights before: {} {} {} {})",
                heights[0], heights[1], heights[2], heights[3]
            ),
            Violation::NullPointer => f.write_str("p_look was given a NULL pointer"),
            Violation::GameOver => f.write_str("the game is already over"),
        }
    }
}

/// A violation with where it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleError {
    /// 1-based number of the offending call among all calls of the game.
    pub call_number: u32,
    /// 1-based number of the card the call concerned: the card turned and
    /// not yet placed, else the next card to turn (21 after the game).
    pub card: usize,
    /// Which function was called.
    pub call: Call,
    /// The rule broken.
    pub violation: Violation,
}

impl fmt::Display for RuleError {
    /// One line: `rule broken at card 7 (call 14, p_place): <rule>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "rule broken at card {} (call {}, {}): {}",
            self.card,
            self.call_number,
            self.call.c_name(),
            self.violation
        )
    }
}

impl std::error::Error for RuleError {}

/// What a successful `p_place` leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// More cards to place.
    Continue,
    /// That was the 20th placement; the board is full and scored.
    Finished(Score),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    NotStarted,
    AwaitingLook,
    AwaitingPlace(Card),
    Finished,
    Disqualified(RuleError),
}

/// One game: the deck, the board, and the rule checker. Feed it the calls in
/// the order the contestant makes them; the first violation ends the game.
///
/// The contest's worked example (board rows top to bottom `JC 10H 9H QS`,
/// `9S 10D AS QD`, `KC 10C KS KD`, `KH AC 9C QH`, `JD AD JH 9D`): dealt row
/// by row and placed in columns 1, 2, 3, 4 in turn, it scores two pairs
/// (2), a full house (5), one pair (1) and three of a kind (3): 11.
///
/// ```
/// use poker_core::contest::{ContestDeck, Game, Progress};
///
/// let deck = ContestDeck::parse(
///     "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH",
/// )?;
/// let mut game = Game::new(deck);
/// game.start()?; // p_startgame
/// for i in 0..20 {
///     let card = game.look()?; // p_look
///     assert_eq!(card, deck.cards()[i]);
///     match game.place(i as i32 % 4 + 1)? { // p_place
///         Progress::Continue => assert!(i < 19),
///         Progress::Finished(score) => {
///             assert_eq!(i, 19);
///             let points = score.columns.map(|c| c.points);
///             assert_eq!(points, [2, 5, 1, 3]);
///             assert_eq!(score.total, 11);
///         }
///     }
/// }
/// // A 21st card is a broken rule, not a panic.
/// assert!(game.look().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    deck: ContestDeck,
    state: State,
    turned: usize,
    calls: u32,
    board: Board,
}

impl Game {
    /// A game over `deck`, before `p_startgame`.
    pub fn new(deck: ContestDeck) -> Game {
        Game {
            deck,
            state: State::NotStarted,
            turned: 0,
            calls: 0,
            board: Board::new(),
        }
    }

    /// `p_startgame`.
    pub fn start(&mut self) -> Result<(), RuleError> {
        self.calls += 1;
        match self.state {
            State::NotStarted => {
                self.state = State::AwaitingLook;
                Ok(())
            }
            State::AwaitingLook | State::AwaitingPlace(_) => {
                self.fail(Call::StartGame, Violation::StartedTwice)
            }
            State::Finished | State::Disqualified(_) => {
                self.fail(Call::StartGame, Violation::GameOver)
            }
        }
    }

    /// `p_look`: turns the next card.
    pub fn look(&mut self) -> Result<Card, RuleError> {
        self.calls += 1;
        match self.state {
            State::AwaitingLook => {
                // At most 20 looks succeed, so the deck (24) never runs out.
                let card = self.deck.cards()[self.turned.min(DECK_SIZE - 1)];
                self.turned += 1;
                self.state = State::AwaitingPlace(card);
                Ok(card)
            }
            State::NotStarted => self.fail(Call::Look, Violation::NotStarted),
            State::AwaitingPlace(_) => self.fail(Call::Look, Violation::LookedTwice),
            State::Finished | State::Disqualified(_) => self.fail(Call::Look, Violation::GameOver),
        }
    }

    /// `p_look` as the contest's callers see it: turns the next card and
    /// gives its `(value, color)` code (see [`card_code`]).
    pub fn look_code(&mut self) -> Result<(i32, i32), RuleError> {
        self.look().map(|card| {
            // Every card of a ContestDeck (9..A, checked when it was made)
            // has a code: a card without one is a bug here, not input.
            card_code(card).expect("a contest deck holds only cards 9..A, which have codes")
        })
    }

    /// `p_look` with a NULL pointer: a violation counted as a call (after the
    /// game has ended, the call is refused as [`Violation::GameOver`]).
    pub fn look_with_null_pointer(&mut self) -> RuleError {
        self.calls += 1;
        let violation = match self.state {
            State::Finished | State::Disqualified(_) => Violation::GameOver,
            _ => Violation::NullPointer,
        };
        match self.fail::<()>(Call::Look, violation) {
            Err(e) => e,
            Ok(()) => unreachable!("fail always returns Err"),
        }
    }

    /// `p_place(column)`, column 1..4.
    pub fn place(&mut self, column: i32) -> Result<Progress, RuleError> {
        self.calls += 1;
        let card = match self.state {
            State::AwaitingPlace(card) => card,
            State::NotStarted => return self.fail(Call::Place, Violation::NotStarted),
            State::AwaitingLook => return self.fail(Call::Place, Violation::PlaceWithoutLook),
            State::Finished | State::Disqualified(_) => {
                return self.fail(Call::Place, Violation::GameOver);
            }
        };
        if !(1..=COLUMNS as i32).contains(&column) {
            return self.fail(Call::Place, Violation::ColumnOutOfRange(column));
        }
        let index = (column - 1) as usize;
        let heights = self.board.heights();
        let lowest = heights.iter().min().copied().unwrap_or(0);
        if heights[index] > lowest {
            // Any column above the lowest is already one longer: one more
            // card there would make a difference of 2.
            return self.fail(Call::Place, Violation::Unbalanced { column, heights });
        }
        self.board.push(index, card);
        if self.turned == PLACEMENTS {
            self.state = State::Finished;
            let score = self
                .board
                .score()
                .expect("20 balanced placements fill the board");
            Ok(Progress::Finished(score))
        } else {
            self.state = State::AwaitingLook;
            Ok(Progress::Continue)
        }
    }

    fn fail<T>(&mut self, call: Call, violation: Violation) -> Result<T, RuleError> {
        let card = match self.state {
            State::AwaitingPlace(_) => self.turned,
            _ => self.turned + 1,
        };
        let error = RuleError {
            call_number: self.calls,
            card,
            call,
            violation,
        };
        // A finished game keeps its score, and a lost one its first
        // violation: a call after the end changes neither.
        if !matches!(self.state, State::Finished | State::Disqualified(_)) {
            self.state = State::Disqualified(error);
        }
        Err(error)
    }

    /// The board as placed so far.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Calls made so far (every call counts, including a violating one).
    pub fn calls(&self) -> u32 {
        self.calls
    }

    /// Cards placed so far, 0..=20.
    pub fn placements(&self) -> usize {
        self.board.heights().iter().map(|&h| usize::from(h)).sum()
    }

    /// The first violation, if the game was lost to one.
    pub fn violation(&self) -> Option<RuleError> {
        match self.state {
            State::Disqualified(e) => Some(e),
            _ => None,
        }
    }

    /// The game's final points: the board's total once 20 cards are placed,
    /// 0 after a violation, `None` while the game is still going.
    pub fn final_total(&self) -> Option<u8> {
        match self.state {
            State::Finished => self.board.score().map(|s| s.total),
            State::Disqualified(_) => Some(0),
            _ => None,
        }
    }

    /// The deck this game deals from.
    pub fn deck(&self) -> &ContestDeck {
        &self.deck
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn started() -> Game {
        let mut game = Game::new(ContestDeck::ordered());
        game.start().unwrap();
        game
    }

    #[test]
    fn look_code_gives_the_turned_cards_contest_code() {
        // The contest text's worked example deck starts JC TH; its encoding:
        // value 1..6 = 9, 10, J, Q, K, A; color 1..4 = spades, hearts,
        // diamonds, clubs.
        let deck = ContestDeck::parse(
            "JC TH 9H QS 9S TD AS QD KC TC KS KD KH AC 9C QH JD AD JH 9D TS JS QC AH",
        )
        .unwrap();
        let mut game = Game::new(deck);
        game.start().unwrap();
        assert_eq!(game.look_code(), Ok((3, 4)));
        game.place(1).unwrap();
        assert_eq!(game.look_code(), Ok((2, 2)));
        assert_eq!(
            game.look_code().map_err(|e| e.violation),
            Err(Violation::LookedTwice)
        );
    }

    #[test]
    fn round_robin_game_deals_the_first_twenty_cards() {
        let mut game = started();
        for i in 0..20 {
            let card = game.look().unwrap();
            assert_eq!(card, ContestDeck::ordered().cards()[i]);
            let progress = game.place((i % 4) as i32 + 1).unwrap();
            assert_eq!(matches!(progress, Progress::Finished(_)), i == 19);
        }
        // Ordered deck 9C 9D 9H 9S TC ... round robin: each column gets one
        // suit, 9 to K: four straight flushes.
        assert_eq!(game.final_total(), Some(32));
        assert_eq!(game.calls(), 41);
        // Calling on after the end is refused but keeps the score.
        assert_eq!(game.look().unwrap_err().violation, Violation::GameOver);
        assert_eq!(game.final_total(), Some(32));
        assert_eq!(game.violation(), None);
    }

    #[test]
    fn seed_example_of_unbalanced_placement() {
        // "p_place(1) - p_place(2) - p_place(3) - p_place(1)" with column 4 empty.
        let mut game = started();
        for column in [1, 2, 3] {
            game.look().unwrap();
            game.place(column).unwrap();
        }
        game.look().unwrap();
        let err = game.place(1).unwrap_err();
        assert_eq!(err.call_number, 9);
        assert_eq!(
            err.violation,
            Violation::Unbalanced {
                column: 1,
                heights: [1, 1, 1, 0]
            }
        );
        assert_eq!(game.final_total(), Some(0));
    }

    #[test]
    fn call_order_violations_are_named() {
        let mut game = Game::new(ContestDeck::ordered());
        assert_eq!(game.look().unwrap_err().violation, Violation::NotStarted);

        let mut game = started();
        assert_eq!(game.start().unwrap_err().violation, Violation::StartedTwice);

        let mut game = started();
        game.look().unwrap();
        let err = game.look().unwrap_err();
        assert_eq!(
            (err.call_number, err.violation),
            (3, Violation::LookedTwice)
        );

        let mut game = started();
        assert_eq!(
            game.place(1).unwrap_err().violation,
            Violation::PlaceWithoutLook
        );

        let mut game = started();
        game.look().unwrap();
        assert_eq!(
            game.place(5).unwrap_err().violation,
            Violation::ColumnOutOfRange(5)
        );
        assert_eq!(game.place(1).unwrap_err().violation, Violation::GameOver);
        // The first violation is the one remembered.
        assert_eq!(
            game.violation().unwrap().violation,
            Violation::ColumnOutOfRange(5)
        );
    }

    #[test]
    fn message_names_rule_and_call_number() {
        let mut game = started();
        game.look().unwrap();
        let text = game.place(0).unwrap_err().to_string();
        assert_eq!(
            text,
            "rule broken at card 1 (call 3, p_place): column 0 is outside 1..4"
        );
    }

    #[test]
    fn message_names_the_card_of_a_late_violation() {
        let mut game = started();
        // Cards 1..6 in columns 1, 2, 3, 4, 1, 2; card 7 into column 1 again
        // would make column 1 two cards longer than columns 3 and 4.
        for column in [1, 2, 3, 4, 1, 2] {
            game.look().unwrap();
            game.place(column).unwrap();
        }
        game.look().unwrap();
        let text = game.place(1).unwrap_err().to_string();
        assert!(
            text.starts_with("rule broken at card 7 (call 15, p_place): placing in column 1"),
            "{text}"
        );
        let mut twice = started();
        for column in [1, 2] {
            twice.look().unwrap();
            twice.place(column).unwrap();
        }
        twice.look().unwrap();
        let text = twice.look().unwrap_err().to_string();
        assert!(
            text.starts_with("rule broken at card 3 (call 7, p_look)"),
            "{text}"
        );
    }
}
