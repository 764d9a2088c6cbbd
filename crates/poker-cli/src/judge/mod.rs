//! Running the contest on a judge system: `poker package` (a Kattis problem
//! package), `poker interact` and `poker validate-deck` (its validators),
//! `poker rank` (the contest's ranking from the judge's scores).

mod files;
mod glibc_floor;
pub mod interact;
pub mod kattis;
pub mod package;
pub mod rank;
