//! libpoker: a contest kit for card-game programming contests.
//!
//! - [`contest`]: the "Poker American" contest module: deck, game,
//!   rules and scoring; its C face is POKER.H's `p_startgame`, `p_look`,
//!   `p_place` (see [`ffi`]).
//! - [`evaluator`]: runs contestant programs over fixed decks and ranks them.
//! - [`cards`], [`hand`]: cards, tokens and five-card hand categories;
//!   [`card_list`]: the one validator of card lists.
//! - [`judge`]: the input validator and interactor of a judge system.
//! - [`freecell`]: Microsoft FreeCell deals by number.
//! - [`shuffle`]: the textbook shuffle-and-deal of a 52-card deck.
//! - [`size`]: sizes as options take them and reports print them.
//! - [`camicia`]: the Camicia (Beggar-My-Neighbour) simulator and search.
//! - [`sandbox`]: the jail contestant programs run in (bubblewrap, a uid
//!   of their own, cgroups, rlimits).
#![deny(missing_docs)]

pub mod camicia;
pub mod card_list;
pub mod cards;
pub mod contest;
pub mod evaluator;
pub mod ffi;
pub mod freecell;
pub mod hand;
pub mod judge;
pub mod optimum;
mod plain_path;
pub mod protocol;
pub mod sandbox;
pub mod shuffle;
pub mod size;
