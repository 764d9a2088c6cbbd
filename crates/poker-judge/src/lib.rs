//! The judging side of libpoker: playing and judging the games of
//! contestant programs that are hostile code, each run confined by
//! [`poker_sandbox`] (which knows nothing of games).
//!
//! - [`sandbox`]: poker-sandbox, the jail contestant programs run in
//!   (bubblewrap, a uid of their own, cgroups, rlimits), re-exported.
//! - [`evaluator`]: runs contestant programs over fixed decks and ranks
//!   them; the `poker` command reports what it finds.
//! - [`size`]: sizes as options take them and reports print them.
#![deny(missing_docs)]

pub mod doctor;
pub mod evaluator;
pub use poker_sandbox as sandbox;
pub use poker_sandbox::size;
