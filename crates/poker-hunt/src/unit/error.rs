//! What can be wrong with a unit file: the file itself (it cannot be read
//! or written, it is not JSON of a unit), or what it says (a
//! [`RecordError`]: a count, a histogram or a claimed game that cannot be).

use crate::chain::Chain;
use poker_core::camicia::search::LENGTH_BIN;
use poker_core::camicia::{DEAL_COUNT, Deal};
use std::fmt;
use std::num::ParseIntError;
use std::path::PathBuf;

use super::{CHECKPOINT_FORMAT, UNIT_FORMAT};

/// Why a unit file (a result file or a checkpoint) could not be read or
/// written. Each names the file.
#[derive(Debug)]
#[non_exhaustive]
pub enum UnitError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not the JSON of a unit file (cut short, or another file).
    NotAUnitFile {
        /// The file.
        path: PathBuf,
        /// Where the JSON went wrong.
        source: serde_json::Error,
    },
    /// The file is a unit file of a format this version does not read.
    Format {
        /// The file.
        path: PathBuf,
        /// Its `format`.
        format: String,
    },
    /// The path to write has no file name (`/`, `..`).
    NotAFileName {
        /// The path.
        path: PathBuf,
    },
    /// The file could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitError::Read { path, source } => {
                write!(f, "cannot read {}: {}", path.display(), Chain(source))
            }
            UnitError::NotAUnitFile { path, source } => write!(
                f,
                "{} is not a Camicia unit file (damaged?): {}",
                path.display(),
                Chain(source)
            ),
            UnitError::Format { path, format } => write!(
                f,
                "{}: format `{format}` is not {UNIT_FORMAT} or {CHECKPOINT_FORMAT} (or their \
                 format 1)",
                path.display()
            ),
            UnitError::NotAFileName { path } => {
                write!(f, "{} is not a file name", path.display())
            }
            UnitError::Write { path, source } => {
                write!(f, "cannot write {}: {}", path.display(), Chain(source))
            }
        }
    }
}

impl std::error::Error for UnitError {}

/// A list of games in a unit file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum List {
    /// `best`: the longest finished games.
    Best,
    /// `loops`: every loop.
    Loops,
    /// `extended`: the deals found by backward extension.
    Extended,
}

impl List {
    /// One game of the list, as messages name it.
    fn one(self) -> &'static str {
        match self {
            List::Best => "best game",
            List::Loops => "loop",
            List::Extended => "extended deal",
        }
    }
}

/// What a unit file says that cannot be: a field that is not what it must
/// be, counts, histograms and lists that contradict each other or the
/// indices covered, or a game whose record contradicts its index. The
/// messages name the field or the game, not the file: the caller knows
/// which file it read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecordError {
    /// An index field (`start`, `end`, `next`, `from`, ...) that is not a
    /// decimal number.
    NotAnIndex {
        /// The field.
        field: String,
        /// Its text.
        text: String,
        /// Why it is not a number.
        source: ParseIntError,
    },
    /// An index field past the last deal's index.
    PastLastIndex {
        /// The field.
        field: String,
        /// Its value.
        value: u128,
    },
    /// `start` after `end`.
    StartAfterEnd {
        /// `start`.
        start: u128,
        /// `end`.
        end: u128,
    },
    /// A checkpoint's `next` outside `start..=end`.
    NextOutside {
        /// `next`.
        next: u128,
        /// `start`.
        start: u128,
        /// `end`.
        end: u128,
    },
    /// The deals counted are not the number of indices covered,
    /// `start..next`.
    DealCount {
        /// Deals counted.
        deals: u64,
        /// The first index.
        start: u128,
        /// One past the last index covered.
        next: u128,
    },
    /// Finished games and loops do not add up to the deals.
    CountsDoNotAdd {
        /// Finished games counted.
        finished: u64,
        /// Loops counted.
        loops: u64,
        /// Deals counted.
        deals: u64,
    },
    /// The length histogram's bins are not [`LENGTH_BIN`] cards wide.
    LengthBin {
        /// The width written.
        bin_cards: u64,
    },
    /// The length histogram does not hold exactly the finished games (or
    /// ends in an empty bin).
    Histogram {
        /// Finished games counted.
        finished: u64,
    },
    /// The loops counted are not the loops listed.
    LoopCount {
        /// Loops counted.
        counted: u64,
        /// Loops listed.
        listed: usize,
    },
    /// Not `top` best games listed (or every finished game, if fewer).
    BestCount {
        /// Best games listed.
        listed: usize,
        /// How many there must be.
        expected: usize,
        /// `top`.
        top: usize,
        /// Finished games counted.
        finished: u64,
    },
    /// The checksum is not 16 hex digits.
    Checksum {
        /// The checksum written.
        text: String,
    },
    /// A game of a list whose record is wrong in itself.
    Claim {
        /// Its list.
        list: List,
        /// What is wrong.
        error: Box<RecordError>,
    },
    /// A best game or a loop outside the indices covered, `start..next`.
    OutsideRange {
        /// Its list.
        list: List,
        /// Its index.
        index: u128,
        /// The first index covered.
        start: u128,
        /// One past the last index covered.
        next: u128,
    },
    /// A game with the wrong status for its list (a loop among the best
    /// games, a finished game among the loops, a loop extended).
    WrongStatus {
        /// Its list.
        list: List,
        /// Its index.
        index: u128,
        /// The status written.
        status: String,
    },
    /// A list out of its order.
    OutOfOrder(List),
    /// Extended deals, or their histogram, in a unit without an extension
    /// setting.
    ExtendedWithoutSetting,
    /// An extending unit without its histogram after extension.
    NoExtendedHistogram,
    /// The histogram after extension does not hold exactly the finished
    /// games.
    ExtendedHistogram {
        /// Finished games counted.
        finished: u64,
    },
    /// The histogram of cards gained holds more games than were extended.
    GainsHistogram {
        /// Games extended.
        games: u64,
    },
    /// More extended deals listed than `top`.
    TooManyExtended {
        /// Extended deals listed.
        listed: usize,
        /// `top`.
        top: usize,
    },
    /// An extended deal from an index outside those covered, `start..next`.
    ExtendedFromOutside {
        /// The extended deal's index.
        index: u128,
        /// The index it was extended from.
        from: u128,
        /// The first index covered.
        start: u128,
        /// One past the last index covered.
        next: u128,
    },
    /// An extended deal listed twice.
    ListedTwice {
        /// Its index.
        index: u128,
    },
    /// A game's index is not a decimal number.
    GameIndex {
        /// The index written.
        text: String,
        /// Why it is not a number.
        source: ParseIntError,
    },
    /// A game's index past the last deal.
    PastLastDeal {
        /// The index.
        index: u128,
    },
    /// A game whose cards written are not its index's deal.
    NotTheDeal {
        /// The index.
        index: u128,
        /// A's cards written.
        a: String,
        /// B's cards written.
        b: String,
        /// The deal of the index (boxed: it is the largest field and the
        /// rarest error).
        deal: Box<Deal>,
    },
    /// A game whose status is neither `finished` nor `loop`.
    UnknownStatus {
        /// The index.
        index: u128,
        /// The status written.
        status: String,
    },
    /// An extension depth that is neither `exact` nor `first N tricks`.
    Depth {
        /// The depth written.
        text: String,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::NotAnIndex {
                field,
                text,
                source,
            } => write!(
                f,
                "`{field}` is `{text}`, not a decimal index: {}",
                Chain(source)
            ),
            RecordError::PastLastIndex { field, value } => {
                write!(f, "`{field}` is {value}, past the last index {DEAL_COUNT}")
            }
            RecordError::StartAfterEnd { start, end } => {
                write!(f, "`start` {start} is after `end` {end}")
            }
            RecordError::NextOutside { next, start, end } => {
                write!(f, "`next` {next} is outside {start}..{end}")
            }
            RecordError::DealCount { deals, start, next } => write!(
                f,
                "counts {deals} deals, but {start}..{next} holds {}",
                next - start
            ),
            RecordError::CountsDoNotAdd {
                finished,
                loops,
                deals,
            } => write!(
                f,
                "{finished} finished and {loops} loops do not add up to {deals} deals"
            ),
            RecordError::LengthBin { bin_cards } => {
                write!(f, "length bins of {bin_cards} cards, not {LENGTH_BIN}")
            }
            RecordError::Histogram { finished } => write!(
                f,
                "the length histogram does not hold the {finished} finished games"
            ),
            RecordError::LoopCount { counted, listed } => {
                write!(f, "counts {counted} loops but lists {listed}")
            }
            RecordError::BestCount {
                listed,
                expected,
                top,
                finished,
            } => write!(
                f,
                "lists {listed} best games, not {expected} (top {top} of {finished} finished)"
            ),
            RecordError::Checksum { text } => {
                write!(f, "checksum `{text}` is not 16 hex digits")
            }
            RecordError::Claim { list, error } => {
                let article = if *list == List::Extended { "an" } else { "a" };
                write!(f, "{article} {}: {error}", list.one())
            }
            RecordError::OutsideRange {
                list,
                index,
                start,
                next,
            } => write!(
                f,
                "{} {index} is outside the indices covered, {start}..{next}",
                list.one()
            ),
            RecordError::WrongStatus {
                list,
                index,
                status,
            } => write!(f, "{} {index} has status {status}", list.one()),
            RecordError::OutOfOrder(list) => f.write_str(match list {
                List::Best => "the best games are not in order (most cards first)",
                List::Loops => "the loops are not in index order",
                List::Extended => "the extended deals are not in order (most cards first)",
            }),
            RecordError::ExtendedWithoutSetting => {
                f.write_str("extended games listed, but no extension setting")
            }
            RecordError::NoExtendedHistogram => {
                f.write_str("an extending unit without its histogram after extension")
            }
            RecordError::ExtendedHistogram { finished } => write!(
                f,
                "the histogram after extension does not hold the {finished} finished games"
            ),
            RecordError::GainsHistogram { games } => write!(
                f,
                "the histogram of cards gained does not fit the {games} games extended"
            ),
            RecordError::TooManyExtended { listed, top } => {
                write!(f, "lists {listed} extended deals, more than top {top}")
            }
            RecordError::ExtendedFromOutside {
                index,
                from,
                start,
                next,
            } => write!(
                f,
                "extended deal {index} comes from index {from}, outside the indices covered, \
                 {start}..{next}"
            ),
            RecordError::ListedTwice { index } => {
                write!(f, "extended deal {index} is listed twice")
            }
            RecordError::GameIndex { text, source } => write!(
                f,
                "index `{text}` is not a decimal number: {}",
                Chain(source)
            ),
            RecordError::PastLastDeal { index } => {
                write!(f, "index {index} is past the last deal")
            }
            RecordError::NotTheDeal { index, a, b, deal } => write!(
                f,
                "index {index}: the deal written, {a} {b}, is not deal {index}, {deal}"
            ),
            RecordError::UnknownStatus { index, status } => {
                write!(f, "index {index}: unknown status `{status}`")
            }
            RecordError::Depth { text } => write!(
                f,
                "extension depth `{text}` is not `exact` or `first N tricks`"
            ),
        }
    }
}

impl std::error::Error for RecordError {}
