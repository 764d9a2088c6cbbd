//! Cutting an index range into work units: slice `I` of `N` disjoint
//! slices, so a job array needs only its task index.

use std::fmt;
use std::str::FromStr;

/// Slice `index` (0-based) of `count` disjoint slices of a range, written
/// `I/N` on the command line.
///
/// Slice `I` of `START..END` (`len = END - START`) is
/// `START + ⌊I·len/N⌋ .. START + ⌊(I+1)·len/N⌋`: the slices cover the range
/// exactly once, in order, their lengths differ by at most one, and some
/// are empty when `N > len`.
///
/// ```
/// use poker_core::camicia::search::Shard;
///
/// let shard: Shard = "2/3".parse()?;
/// assert_eq!(shard.slice(0, 10), (6, 10));
/// assert_eq!(Shard { index: 0, count: 3 }.slice(0, 10), (0, 3));
/// # Ok::<(), poker_core::camicia::search::ShardError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// Which slice, `0 <= index < count`.
    pub index: u64,
    /// How many slices.
    pub count: u64,
}

/// Why `I/N` is not a shard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardError(String);

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ShardError {}

impl FromStr for Shard {
    type Err = ShardError;

    /// `I/N`: decimal, `N >= 1`, `0 <= I < N`.
    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let err = |why: &str| ShardError(format!("shard `{text}`: {why}"));
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| err("write I/N, slice I (0-based) of N, e.g. 3/100"))?;
        let index: u64 = i
            .trim()
            .parse()
            .map_err(|_| err("I is a decimal number from 0"))?;
        let count: u64 = n
            .trim()
            .parse()
            .map_err(|_| err("N is a decimal number from 1"))?;
        if count == 0 {
            return Err(err("N must be at least 1"));
        }
        if index >= count {
            return Err(err("I must be less than N (slices are numbered from 0)"));
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Where slice `i` of `count` starts, relative to the range's start:
    /// `⌊i·len/count⌋` for `i <= count`, computed without overflow as
    /// `i·q + ⌊i·r/count⌋` with `len = q·count + r` (`i·r < count² <= 2^128`).
    fn offset(i: u64, count: u64, len: u128) -> u128 {
        let (i, n) = (u128::from(i), u128::from(count));
        let (q, r) = (len / n, len % n);
        i * q + i * r / n
    }

    /// The slice `(start, end)` (end exclusive) of the range
    /// `start..end`; an empty range gives empty slices.
    pub fn slice(&self, start: u128, end: u128) -> (u128, u128) {
        let len = end.saturating_sub(start);
        (
            start + Shard::offset(self.index, self.count, len),
            start + Shard::offset(self.index + 1, self.count, len),
        )
    }
}
