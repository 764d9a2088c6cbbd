//! The textbook shuffle-and-deal of a 52-card deck (seed 003).
