//! The judging side of libpoker: running contestant programs that are
//! hostile code, and judging their games.
//!
//! - [`sandbox`]: the jail contestant programs run in (bubblewrap, a uid
//!   of their own, cgroups, rlimits).
//! - [`evaluator`]: runs contestant programs over fixed decks and ranks
//!   them; its reports are the model the `poker` command renders.
//! - [`judge`]: the input validator and interactor of a judge system.
//! - [`size`]: sizes as options take them and reports print them.
#![deny(missing_docs)]

pub mod doctor;
pub mod evaluator;
pub mod judge;
pub mod sandbox;
pub mod size;
