//! The `format` field of a unit's files: what this version writes and the
//! earlier formats it still reads. (A module of its own: the errors name
//! the formats, and the unit file reads its errors.)

/// `format` of a finished unit's result file.
pub const UNIT_FORMAT: &str = "poker-camicia-unit/2";
/// `format` of a checkpoint.
pub const CHECKPOINT_FORMAT: &str = "poker-camicia-checkpoint/2";
/// The formats before extension, still read.
pub(super) const UNIT_FORMAT_1: &str = "poker-camicia-unit/1";
pub(super) const CHECKPOINT_FORMAT_1: &str = "poker-camicia-checkpoint/1";
