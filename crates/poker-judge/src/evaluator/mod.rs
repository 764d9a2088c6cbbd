//! The reference evaluator: runs contestant programs over the contest's
//! fixed test decks, scores every game itself, and ranks the contestants
//! ("Limits and evaluation").
//!
//! Each game runs the contestant as a separate process, in its own session,
//! with the deck held here: the library linked into the contestant asks for
//! each card over a private channel ([`poker_protocol`]), and [`manager`]
//! applies the rules with the same [`poker_core::contest::Game`] as practice mode.
//! Nothing the contestant prints or exits with changes its score.
//!
//! With [`RunConfig::fork_server`] (`poker bench`'s default, `poker eval
//! --fork-server`), each contestant starts once and its library forks a
//! child per game ([`fork_server`]); each game keeps its own channel,
//! limits and result, judged by the same rules.

pub mod config;
pub mod contestant;
pub mod decks;
mod error;
pub mod fork_server;
mod one_game;
pub mod results;
mod source;
pub mod verdict;

// The process machinery lives in poker-sandbox; these keep its paths.
pub(crate) use poker_sandbox::load;
pub use poker_sandbox::{affinity, launcher, process};
use poker_sandbox::{cpu_watch, private_root};

use config::GameSettings;
pub use config::RunConfig;
pub use contestant::{Contestant, Toolchain, default_lib_dir};
pub use error::{DeckFileError, LaunchError, NotRun};
pub use launcher::{Launcher, Program, SandboxMode};
pub use one_game::play;
pub use process::{Supervisor, become_supervisor};
pub use results::{
    ContestantResult, CpuLimitHolder, Evaluation, GameProcess, GameResult, GameStatus, STDERR_KEPT,
    load_warning, rank, scale,
};
pub use verdict::{RunVerdict, classify};

use poker_core::contest::ContestDeck;
use poker_core::optimum::deck_optimum;
use poker_protocol::manager;
use std::time::Duration;

/// The contest's limit per game: CPU time.
pub const DEFAULT_CPU_LIMIT: Duration = Duration::from_secs(5);

/// Plays `program` once on each of `count` decks (deck `i`, 1-based, is
/// `deck_of(i)`), `config.jobs` games at a time, calling `on_game` after
/// each (from any thread, in any order; nothing is kept here, so memory
/// stays flat however many games). With `config.fork_server`, each job
/// runs one fork server of the program ([`fork_server`]); otherwise each
/// game is a fresh process. Each job's thread, and so the programs it
/// starts, runs on a CPU of its own (the evaluator and the program take
/// turns on it, so each card's round trip is a direct switch): those of
/// `config.cpus`, else the allowed CPUs with the least load. Used to
/// measure a contestant on many random decks (`poker bench`). Returns where
/// the games were played.
///
/// Any program that speaks the protocol (docs/protocol.md) on its channel
/// plays; here a shell script placing round robin, unconfined, on the
/// ordered deck (one suit per column, 9 to K: four straight flushes, 32):
///
/// ```
/// use poker_core::contest::ContestDeck;
/// use poker_judge::evaluator::{Program, RunConfig, GameStatus, become_supervisor, play_many};
/// use std::sync::Mutex;
/// use std::time::Duration;
///
/// // The evaluator's end of the channel is descriptor 3 of the program.
/// let script = r#"
///     ask() { printf '%s\n' "$1" >&3; read -r reply <&3; }
///     ask S
///     i=0
///     while [ $i -lt 20 ]; do ask L; ask "P $((i % 4 + 1))"; i=$((i + 1)); done
/// "#;
/// let program = Program {
///     path: "/bin/sh".into(),
///     args: vec!["-c".into(), script.into()],
///     files: vec!["/bin/sh".into()],
///     ..Program::default()
/// };
/// let supervisor = become_supervisor()?;
/// let config = RunConfig::unconfined(Duration::from_secs(5));
/// let games = Mutex::new(Vec::new());
/// play_many(&supervisor, &program, 2, |_| ContestDeck::ordered(), &config, |game| {
///     games.lock().unwrap().push(game)
/// })?;
/// let games = games.into_inner().unwrap();
/// assert_eq!(games.len(), 2);
/// for game in games {
///     assert_eq!(game.status, GameStatus::Ok, "{:?}", game.reason);
///     assert_eq!(game.score, 32);
/// }
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn play_many(
    supervisor: &Supervisor,
    program: &Program,
    count: usize,
    deck_of: impl Fn(usize) -> ContestDeck + Sync,
    config: &RunConfig,
    on_game: impl Fn(GameResult) + Sync,
) -> std::io::Result<fork_server::Processes> {
    let jobs = config.jobs.max(1).min(count.max(1));
    let next = std::sync::atomic::AtomicUsize::new(1);
    let take = || {
        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        (i <= count).then(|| (i, deck_of(i)))
    };
    let cpus = affinity::choose(config.cpus.as_deref(), jobs);
    let settings = config.game_settings();
    let worker = |job: usize| {
        let _pinned = match cpus.is_empty() {
            true => None,
            false => affinity::Pinned::to_cpu(cpus[job % cpus.len()]),
        };
        let mut games = game_source(supervisor, program, config.fork_server, &settings);
        while let Some((i, deck)) = take() {
            on_game(games.play(&deck, i));
        }
        games.finish()
    };
    let mut processes = fork_server::Processes::default();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..jobs)
            .map(|job| scope.spawn(move || worker(job)))
            .collect();
        for handle in handles {
            match handle.join() {
                Ok(part) => processes.add(part),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    Ok(processes)
}

/// Where `program`'s games are played under `settings`: a fork server
/// with `fork_server`, else a fresh process per game.
fn game_source<'a>(
    supervisor: &'a Supervisor,
    program: &'a Program,
    fork_server: bool,
    settings: &'a GameSettings,
) -> Box<dyn source::GameSource + 'a> {
    match fork_server {
        true => Box::new(fork_server::ForkServer::new(supervisor, program, settings)),
        false => Box::new(source::FreshProcesses::new(supervisor, program, settings)),
    }
}

/// The order [`evaluate`] plays its games in: every `(contestant, deck)`
/// pair (0-based), shuffled by a ChaCha8 generator seeded with `seed`
/// (rand 0.9 `SliceRandom::shuffle`). A spy's game is followed by any
/// contestant's, so the moment it ends tells no chosen friend anything.
pub fn game_order(contestants: usize, decks: usize, seed: u64) -> Vec<(usize, usize)> {
    use rand::SeedableRng;
    use rand::seq::SliceRandom;
    let mut order: Vec<(usize, usize)> = (0..contestants)
        .flat_map(|c| (0..decks).map(move |d| (c, d)))
        .collect();
    order.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
    order
}

/// Runs every contestant over every deck, one game at a time (so timing is
/// fair), in the shuffled order of [`game_order`] with `config.order_seed`,
/// calling `on_game` after each game, and ranks the results (each
/// contestant's games in deck order): the evaluation, with how its
/// programs ran. Each game also carries its deck's
/// hindsight optimum (the best possible score). The games run on one CPU
/// (shared by the evaluator and the program, as in [`play_many`]): the
/// quietest of `config.cpus`, or of the allowed CPUs; the calling thread's
/// CPU set is restored after.
pub fn evaluate(
    supervisor: &Supervisor,
    contestants: &[Contestant],
    decks: &[ContestDeck],
    config: &RunConfig,
    mut on_game: impl FnMut(&Contestant, &GameResult),
) -> std::io::Result<Evaluation> {
    let best: Vec<u8> = decks.iter().map(|d| deck_optimum(d).total).collect();
    let mut games: Vec<Vec<Option<GameResult>>> = vec![vec![None; decks.len()]; contestants.len()];
    let order = game_order(contestants.len(), decks.len(), config.order_seed);
    let settings = config.game_settings();
    let _pinned = affinity::choose(config.cpus.as_deref(), 1)
        .first()
        .and_then(|&cpu| affinity::Pinned::to_cpu(cpu));
    let mut record = |c: usize, game: GameResult| {
        let i = game.deck - 1;
        let game = GameResult {
            best_possible: Some(best[i]),
            ..game
        };
        on_game(&contestants[c], &game);
        games[c][i] = Some(game);
    };
    // Where each contestant's games were played.
    let mut servers: Vec<fork_server::Processes> = vec![Default::default(); contestants.len()];
    if config.fork_server {
        // One server per contestant plays all of its games, so the shuffle
        // orders the contestants (by their first game in `order`) and, for
        // each, its decks.
        let mut seen = vec![false; contestants.len()];
        for &(c, _) in &order {
            if std::mem::replace(&mut seen[c], true) {
                continue;
            }
            let mine = order.iter().filter(|&&(o, _)| o == c).map(|&(_, i)| i);
            match &contestants[c].program {
                Ok(program) => {
                    let mut games = game_source(supervisor, program, true, &settings);
                    for i in mine {
                        record(c, games.play(&decks[i], i + 1));
                    }
                    servers[c] = games.finish();
                }
                Err(why) => {
                    mine.for_each(|i| record(c, GameResult::not_run(i + 1, why.to_string())))
                }
            }
        }
    } else {
        for (c, i) in order {
            let game = match &contestants[c].program {
                Ok(program) => {
                    one_game::play_with(supervisor, program, &decks[i], i + 1, &settings)
                }
                Err(why) => GameResult::not_run(i + 1, why.to_string()),
            };
            record(c, game);
        }
    }
    let mut results = Vec::new();
    for ((contestant, tests), server) in contestants.iter().zip(games).zip(servers) {
        let tests: Vec<GameResult> = tests.into_iter().flatten().collect();
        results.push(ContestantResult {
            name: contestant.name.clone(),
            path: contestant.source.display().to_string(),
            not_run: contestant.program.as_ref().err().map(NotRun::to_string),
            fork_server_fallback: server.fallback,
            fork_server_startup_cpu_seconds: server.startup_cpu.map(|t| t.as_secs_f64()),
            total: tests.iter().map(|t| u32::from(t.score)).sum(),
            rank: 0,
            best_possible: best.iter().map(|&b| u32::from(b)).sum(),
            scaled: 0,
            tests,
        });
    }
    rank(&mut results);
    Ok(Evaluation::new(results, config))
}

#[cfg(test)]
mod tests {
    use super::game_order;

    #[test]
    fn the_game_order_is_a_seeded_permutation_of_every_game() {
        let order = game_order(3, 4, 7);
        let mut sorted = order.clone();
        sorted.sort();
        let all: Vec<(usize, usize)> = (0..3).flat_map(|c| (0..4).map(move |d| (c, d))).collect();
        assert_eq!(sorted, all);
        assert_eq!(game_order(3, 4, 7), order);
        // Not contestant after contestant, and another seed, another order
        // (for these seeds; a coincidence would have odds of 1 in 12!).
        assert_ne!(order, all);
        assert_ne!(game_order(3, 4, 8), order);
    }
}
