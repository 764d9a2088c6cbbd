//! `poker bench`'s statistics, kept as they stream in: constant memory
//! however many games, and the same figures whatever order games end in
//! (sums of integers, not of floating-point numbers).

use crate::report::Failure;
use poker_judge::evaluator::{GameProcess, GameResult};

/// The most distinct kinds of failure kept; further kinds are only counted.
const FAILURE_KINDS: usize = 20;
/// The decks kept per kind of failure: the lowest-numbered ones.
const FAILURE_DECKS: usize = 5;

/// Count, sum and sum of squares of integer values 0..=32, with a histogram.
#[derive(Clone, Debug, PartialEq)]
pub struct Totals {
    /// How many values.
    pub count: u64,
    sum: u64,
    sum_of_squares: u64,
    /// How many values were 0, 1, ... 32.
    pub histogram: [u32; 33],
}

impl Default for Totals {
    fn default() -> Self {
        Totals {
            count: 0,
            sum: 0,
            sum_of_squares: 0,
            histogram: [0; 33],
        }
    }
}

impl Totals {
    /// Adds one value.
    pub fn add(&mut self, value: u8) {
        self.count += 1;
        self.sum += u64::from(value);
        self.sum_of_squares += u64::from(value) * u64::from(value);
        self.histogram[usize::from(value.min(32))] += 1;
    }

    /// Adds all of `other`'s values.
    pub fn merge(&mut self, other: &Totals) {
        self.count += other.count;
        self.sum += other.sum;
        self.sum_of_squares += other.sum_of_squares;
        for (mine, theirs) in self.histogram.iter_mut().zip(other.histogram) {
            *mine += theirs;
        }
    }

    /// Mean, sample standard deviation and standard error of the mean (all
    /// 0 without values; sd 0 with one).
    pub fn stats(&self) -> (f64, f64, f64) {
        if self.count == 0 {
            return (0.0, 0.0, 0.0);
        }
        let n = self.count as f64;
        let mean = self.sum as f64 / n;
        let var = if self.count > 1 {
            // n * sum(x^2) - (sum x)^2, exactly, over n (n - 1).
            let (count, sum) = (u128::from(self.count), u128::from(self.sum));
            let numerator = count * u128::from(self.sum_of_squares) - sum * sum;
            numerator as f64 / (n * (n - 1.0))
        } else {
            0.0
        };
        (mean, var.sqrt(), (var / n).sqrt())
    }
}

/// Games that failed alike: their status, reason and stderr's last lines.
#[derive(Clone, Debug)]
pub struct FailureKind {
    /// How they failed; its `decks` are the lowest-numbered (1-based) of
    /// them, at most [`FAILURE_DECKS`].
    pub failure: Failure,
    /// How many games failed this way.
    pub count: u64,
}

/// Everything `poker bench` reports about the games played.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// The contestant's game totals.
    pub totals: Totals,
    /// The lowest total and the lowest deck reaching it.
    pub min: Option<(u8, usize)>,
    /// The highest total and the lowest deck reaching it.
    pub max: Option<(u8, usize)>,
    /// Wall-clock seconds of all games together.
    pub seconds: f64,
    /// The CPU time others took beside the games, for the load warning.
    pub load: poker_judge::evaluator::results::Load,
    /// Games that did not end ok.
    pub failed: u64,
    /// The first kinds of failure seen.
    pub failures: Vec<FailureKind>,
    /// Failed games of kinds beyond the first [`FAILURE_KINDS`].
    pub other_failures: u64,
    /// The lowest-numbered decks (1-based, at most [`FAILURE_DECKS`])
    /// played in fresh processes, when a fork server was asked for.
    pub fresh_decks: Vec<usize>,
}

impl Tally {
    /// Adds one game.
    pub fn add(&mut self, game: &GameResult) {
        self.totals.add(game.score);
        let key = (game.score, game.deck);
        if self
            .min
            .is_none_or(|(s, d)| key.0 < s || (key.0 == s && key.1 < d))
        {
            self.min = Some(key);
        }
        if self
            .max
            .is_none_or(|(s, d)| key.0 > s || (key.0 == s && key.1 < d))
        {
            self.max = Some(key);
        }
        self.seconds += game.seconds;
        self.load.add(game);
        if game.process == GameProcess::Fresh {
            keep_lowest(&mut self.fresh_decks, [game.deck]);
        }
        let Some(failure) = Failure::of(game) else {
            return;
        };
        self.failed += 1;
        let kinds = self.failures.len();
        match self
            .failures
            .iter_mut()
            .find(|k| k.failure.same_way(&failure))
        {
            Some(kind) => {
                kind.count += 1;
                keep_lowest(&mut kind.failure.decks, failure.decks);
            }
            None if kinds < FAILURE_KINDS => self.failures.push(FailureKind { failure, count: 1 }),
            None => self.other_failures += 1,
        }
    }
}

/// Adds `more` to `decks`, keeping the lowest [`FAILURE_DECKS`], in order.
fn keep_lowest(decks: &mut Vec<usize>, more: impl IntoIterator<Item = usize>) {
    decks.extend(more);
    decks.sort_unstable();
    decks.truncate(FAILURE_DECKS);
}

#[cfg(test)]
mod tests {
    use super::*;
    use poker_judge::evaluator::GameStatus;

    #[test]
    fn statistics_match_the_textbook_formulas() {
        // Hand-checked: 2, 4, 4, 4, 5, 5, 7, 9 has mean 5 and sample
        // variance 32 / 7.
        let mut totals = Totals::default();
        for v in [2, 4, 4, 4, 5, 5, 7, 9] {
            totals.add(v);
        }
        let (mean, sd, se) = totals.stats();
        assert_eq!(mean, 5.0);
        assert!((sd - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert!((se - (32.0f64 / 7.0 / 8.0).sqrt()).abs() < 1e-12);
        assert_eq!(totals.histogram[4], 3);
    }

    #[test]
    fn the_lowest_deck_names_the_min_and_max_in_any_order() {
        let game = |deck, score| GameResult {
            score,
            status: GameStatus::Ok,
            reason: None,
            ..GameResult::not_run(deck, String::new())
        };
        let mut tally = Tally::default();
        for (deck, score) in [(5, 3), (2, 9), (4, 3), (9, 9)] {
            tally.add(&game(deck, score));
        }
        assert_eq!(tally.min, Some((3, 4)));
        assert_eq!(tally.max, Some((9, 2)));
    }

    #[test]
    fn the_lowest_decks_played_fresh_are_kept_in_any_order() {
        let mut tally = Tally::default();
        for deck in (1..=9).rev() {
            let mut game = GameResult::not_run(deck, String::new());
            if deck == 1 || deck == 4 {
                game.process = GameProcess::Forked;
            }
            tally.add(&game);
        }
        assert_eq!(tally.fresh_decks, [2, 3, 5, 6, 7]);
    }

    #[test]
    fn games_failing_alike_are_one_kind_with_their_lowest_decks() {
        let failed = |deck, reason: &str| GameResult::not_run(deck, reason.to_string());
        let mut tally = Tally::default();
        // Seven games fail one way (decks 9 down to 3), one another way.
        for deck in (3..=9).rev() {
            tally.add(&failed(deck, "a"));
        }
        tally.add(&failed(1, "b"));
        assert_eq!(tally.failed, 8);
        assert_eq!(tally.failures.len(), 2);
        let a = &tally.failures[0];
        assert_eq!((a.count, a.failure.reason.as_str()), (7, "a"));
        assert_eq!(a.failure.decks, [3, 4, 5, 6, 7]);
        assert_eq!(tally.failures[1].failure.decks, [1]);
        // Beyond the kept kinds, failures are only counted.
        for kind in 0..FAILURE_KINDS {
            tally.add(&failed(100 + kind, &format!("other {kind}")));
        }
        assert_eq!(tally.failures.len(), FAILURE_KINDS);
        assert_eq!(tally.other_failures, 2);
    }
}
