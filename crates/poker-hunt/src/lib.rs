//! The hunt for long Camicia games, as a library: a search run as a work
//! unit that resumes from its checkpoint, the unit's result file, the merge
//! of many units (every index covered once, every claimed game replayed),
//! and the odds of beating a record.
//!
//! The engines and the search itself are `poker_core::camicia`'s (no I/O);
//! this crate adds the files and the checks around them. The `poker camicia`
//! command parses the flags and renders what it returns.
//!
//! Errors are typed, one per concern: [`unit::UnitError`] (a unit file
//! that cannot be read or written) and [`unit::RecordError`] (what a file
//! says that cannot be), [`checkpoint::RunError`] (a unit's run),
//! [`merge::MergeError`] (with every [`merge::Problem`] a merge found),
//! [`progress::ProgressError`] and [`proof::ProofError`]. Each one's
//! `Display` is the whole message a user reads, its causes included, so
//! none of them returns a `source()`.

mod chain;
pub mod checkpoint;
pub mod cost;
pub mod hunt;
pub mod merge;
pub mod odds;
pub mod progress;
pub mod proof;
pub mod unit;

#[cfg(test)]
mod testing;
