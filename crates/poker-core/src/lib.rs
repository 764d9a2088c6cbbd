//! The card games of libpoker, with no I/O: what every face of the project
//! (the C library, the evaluator, the judge, the `poker` command) plays by.
//!
//! - [`contest`]: the "Poker American" contest module: deck, game, rules
//!   and scoring (the one rule checker).
//! - [`cards`], [`hand`]: cards, tokens and five-card hand categories;
//!   [`card_list`]: the one validator of card lists.
//! - [`optimum`]: the hindsight optimum of a deck.
//! - [`shuffle`]: the textbook shuffle-and-deal of a 52-card deck.
//! - [`freecell`]: Microsoft FreeCell deals by number.
//! - [`camicia`]: the Camicia (Beggar-My-Neighbour) simulator and search.
//! - [`numbers`]: counts and rates as the kit's text reports print them.
//!
//! `unsafe` appears only in the SIMD paths of [`freecell`] and [`camicia`].
#![deny(missing_docs)]

pub mod camicia;
pub mod card_list;
pub mod cards;
pub mod contest;
pub mod freecell;
pub mod hand;
pub mod numbers;
pub mod optimum;
mod plain_path;
pub mod shuffle;
