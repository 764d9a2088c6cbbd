//! The reference evaluator: runs contestant programs over fixed decks.
