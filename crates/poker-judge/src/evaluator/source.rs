//! Where a contestant's games are played: a fresh process per game
//! ([`FreshProcesses`]), or the children of one fork server (falling back
//! to fresh processes, `fork_server::ForkServer`). Both play one deck at a
//! time and say at the end where the games were played ([`Processes`]).

use super::config::GameSettings;
use super::one_game::play_with;
use super::{GameResult, Program, Supervisor};
use poker_core::contest::ContestDeck;
use std::time::Duration;

/// Plays a contestant's games, one deck at a time.
pub(crate) trait GameSource {
    /// Plays deck `number` (1-based) and judges the game.
    fn play(&mut self, deck: &ContestDeck, number: usize) -> GameResult;

    /// Ends the source (a fork server is told there are no more games):
    /// where its games were played.
    fn finish(self: Box<Self>) -> Processes;
}

/// Where a contestant's games were played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Processes {
    /// Games played by children of a fork server.
    pub forked: usize,
    /// Games played in processes of their own.
    pub fresh: usize,
    /// Why the fork server was given up for the remaining games, if it was.
    pub fallback: Option<String>,
    /// The CPU time the program used before `p_startgame` in its fork
    /// server (the most of any server, with several jobs), added to every
    /// game the server forked; `None` without a server.
    pub startup_cpu: Option<Duration>,
}

impl Processes {
    /// Adds another worker's counts.
    pub fn add(&mut self, other: Processes) {
        self.forked += other.forked;
        self.fresh += other.fresh;
        if self.fallback.is_none() {
            self.fallback = other.fallback;
        }
        self.startup_cpu = self.startup_cpu.max(other.startup_cpu);
    }
}

/// A fresh process per game, as in the contest.
pub(crate) struct FreshProcesses<'a> {
    supervisor: &'a Supervisor,
    program: &'a Program,
    settings: &'a GameSettings,
    played: usize,
}

impl<'a> FreshProcesses<'a> {
    /// None played yet.
    pub(crate) fn new(
        supervisor: &'a Supervisor,
        program: &'a Program,
        settings: &'a GameSettings,
    ) -> FreshProcesses<'a> {
        FreshProcesses {
            supervisor,
            program,
            settings,
            played: 0,
        }
    }
}

impl GameSource for FreshProcesses<'_> {
    fn play(&mut self, deck: &ContestDeck, number: usize) -> GameResult {
        self.played += 1;
        play_with(self.supervisor, self.program, deck, number, self.settings)
    }

    fn finish(self: Box<Self>) -> Processes {
        Processes {
            fresh: self.played,
            ..Processes::default()
        }
    }
}
