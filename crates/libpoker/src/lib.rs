//! libpoker: the C library of a contest kit for card-game programming
//! contests (`libpoker.so`, `libpoker.a`, `include/poker.h`).
//!
//! - [`ffi`]: the C face: POKER.H's `p_startgame`, `p_look`, `p_place`
//!   (practice mode, or a game served by the evaluator over its channel),
//!   and `poker_*`, `freecell_*`, `camicia_*`.
//! - The games themselves come from `poker_core` and are re-exported
//!   here, so `poker::contest`, `poker::camicia` and the others name them:
//!   [`contest`] (the "Poker American" contest module), [`cards`],
//!   [`hand`], [`card_list`], [`optimum`], [`shuffle`], [`freecell`],
//!   [`camicia`].
#![deny(missing_docs)]

pub mod ffi;

pub use poker_core::{camicia, card_list, cards, contest, freecell, hand, optimum, shuffle};
