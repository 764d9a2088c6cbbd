//! The hunt for long Camicia games, as a library: a search run as a work
//! unit that resumes from its checkpoint, the unit's result file, the merge
//! of many units (every index covered once, every claimed game replayed),
//! and the odds of beating a record.
//!
//! The engines and the search itself are `poker_core::camicia`'s (no I/O);
//! this crate adds the files and the checks around them. The `poker camicia`
//! command parses the flags and renders what it returns.

pub mod checkpoint;
pub mod hunt;
pub mod merge;
pub mod odds;
pub mod progress;
pub mod proof;
pub mod unit;

#[cfg(test)]
mod testing;
