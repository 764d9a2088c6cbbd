//! Result codes of the `poker_` family (the game API, the hand scorer, the
//! hindsight optimum): 0 or more is success, each failure has its own
//! negative code, and `poker_last_error` gives the message of the last
//! failure on the calling thread.

use std::os::raw::c_int;

/// Success.
pub const POKER_OK: c_int = 0;
/// `poker_game_place`: that placement was the 20th; the game is over and
/// `poker_game_score` gives its points.
pub const POKER_FINISHED: c_int = 1;
/// A required pointer (the game handle, a card array, the deck text) is NULL.
pub const POKER_ERR_NULL: c_int = -1;
/// An argument is out of range: a card value outside 1..6 or color outside
/// 1..4, a card twice, a deck that is not the 24 contest cards once each.
pub const POKER_ERR_ARGUMENT: c_int = -2;
/// Rule: a call before `p_startgame` (not returned by `poker_game_*`: a new
/// game is already started).
pub const POKER_ERR_NOT_STARTED: c_int = -3;
/// Rule: `p_startgame` a second time (not returned by `poker_game_*`).
pub const POKER_ERR_STARTED_TWICE: c_int = -4;
/// Rule: a look twice without a placement between.
pub const POKER_ERR_LOOKED_TWICE: c_int = -5;
/// Rule: a placement without a look before it.
pub const POKER_ERR_PLACE_WITHOUT_LOOK: c_int = -6;
/// Rule: a column outside 1..4.
pub const POKER_ERR_COLUMN_OUT_OF_RANGE: c_int = -7;
/// Rule: the placement would make the longest and shortest columns differ
/// by more than 1.
pub const POKER_ERR_UNBALANCED: c_int = -8;
/// Rule: a look given a NULL `value` or `color` pointer.
pub const POKER_ERR_LOOK_NULL: c_int = -9;
/// Rule: a call after the game ended (20 placements or a broken rule).
pub const POKER_ERR_GAME_OVER: c_int = -10;
/// `poker_game_score` while the game is still going.
pub const POKER_ERR_IN_PROGRESS: c_int = -11;
/// libpoker itself failed (a bug: please report it).
pub const POKER_ERR_INTERNAL: c_int = -12;
/// A card value outside 1..6 or a color outside 1..4 (`poker_optimum`).
pub const POKER_ERR_CARD: c_int = -13;
/// The same card given twice (`poker_optimum`).
pub const POKER_ERR_DUPLICATE: c_int = -14;
