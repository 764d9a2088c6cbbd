//! The one dispatch of a contest call to the game: the manager answers the
//! stub with it, practice mode plays the contestant's own game with it, and
//! the fuzzers check the protocol against it.

use crate::Reply;
use crate::Request;
use poker_core::contest::{Game, Progress, RuleError};

/// Applies one request to `game` (the one rule checker) and gives the reply
/// the manager sends: `Reply::Ok` for a start or a placement, `Reply::Card`
/// with the turned card's code for a look, `Reply::End` with the total once
/// the 20th placement is accepted. A broken rule is the error (the game then
/// ends); `Ok` never holds `Reply::Violation`.
pub fn apply(game: &mut Game, request: Request) -> Result<Reply, RuleError> {
    match request {
        Request::StartGame => game.start().map(|()| Reply::Ok),
        Request::Look => game
            .look_code()
            .map(|(value, color)| Reply::Card(value, color)),
        Request::LookNull => Err(game.look_with_null_pointer()),
        Request::Place(column) => game.place(column).map(|progress| match progress {
            Progress::Continue => Reply::Ok,
            Progress::Finished(score) => Reply::End(score.total),
        }),
    }
}
