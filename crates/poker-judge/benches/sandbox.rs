//! What the jail costs per game, part by part: starting `/bin/true` under
//! bubblewrap (uid change, cgroup join, namespaces, mounts) against a plain
//! spawn, leasing a uid, and creating plus removing a cgroup.
//!
//! Spawns are timed by the wall clock (the work is in child processes); the
//! lease and the cgroup by this thread's CPU clock, which is where their
//! work is (system calls of this thread).

#[path = "../../../benches/common/mod.rs"]
mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use poker_judge::sandbox::{DEFAULT_UID_RANGE, GameCgroup, Jail, Limits, Mounts, UidLease, probe};

fn spawns(c: &mut Criterion) {
    let bwrap = probe().unwrap_or_else(|e| panic!("{e}"));
    let limits = Limits::default();
    let mut group = c.benchmark_group("spawn");
    group.sample_size(20);
    group.bench_function("plain /bin/true", |b| {
        b.iter(|| {
            let status = Command::new("/bin/true").status().unwrap();
            assert!(status.success());
        })
    });
    group.bench_function("jail: new + /bin/true + drop", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                let jail =
                    Jail::new(&bwrap, &limits, &Mounts::default(), DEFAULT_UID_RANGE).unwrap();
                let out = jail
                    .command(Path::new("/bin/true"), &[], &[])
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .output()
                    .unwrap();
                assert!(out.status.success());
            }
            start.elapsed()
        })
    });
    group.finish();
}

fn thread_cpu(iters: u64, mut f: impl FnMut()) -> Duration {
    let start = common::thread_cpu_time();
    for _ in 0..iters {
        f();
    }
    common::thread_cpu_time() - start
}

fn parts(c: &mut Criterion) {
    let mut group = c.benchmark_group("parts");
    group.sample_size(20);
    group.bench_function("uid lease acquire + release", |b| {
        b.iter_custom(|iters| thread_cpu(iters, || drop(UidLease::acquire(DEFAULT_UID_RANGE))))
    });
    let limits = Limits::default();
    group.bench_function("cgroup create + drop", |b| {
        b.iter_custom(|iters| thread_cpu(iters, || drop(GameCgroup::create(&limits).unwrap())))
    });
    group.finish();
}

/// One whole game of c_examples/roundrobin.c through `evaluator::play`,
/// unconfined and in the sandbox: spawn, 20 placements, teardown.
fn games(c: &mut Criterion) {
    use poker_core::contest::ContestDeck;
    use poker_judge::evaluator::{self, RunConfig, SandboxMode, Toolchain};
    let supervisor = evaluator::become_supervisor().unwrap();
    let lib_dir = evaluator::default_lib_dir().expect("libpoker.so next to the benchmark");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../c_examples/roundrobin.c");
    let deck = ContestDeck::shuffled(1);
    let mut group = c.benchmark_group("game");
    group.sample_size(30);
    for (name, mode) in [
        ("sandbox off", SandboxMode::Off),
        ("sandbox on", SandboxMode::On),
    ] {
        let config = RunConfig::new(
            mode,
            Limits::default(),
            poker_judge::evaluator::config::default_compile_limits(),
        )
        .unwrap();
        let toolchain = Toolchain::new(lib_dir.clone(), &config).unwrap();
        let program = toolchain.prepare(&supervisor, &source).program.unwrap();
        group.bench_function(name, |b| {
            b.iter(|| {
                let game = evaluator::play(&supervisor, &program, &deck, 1, &config);
                assert_eq!(game.status, evaluator::GameStatus::Ok, "{game:?}");
            })
        });
        if mode == SandboxMode::On {
            // As games ran before private images: the host's /usr and the
            // loader's files of /etc bound, the program and libpoker copied
            // in per game.
            let mut host_usr = program.clone();
            host_usr.image = None;
            host_usr.files = vec![host_usr.path.clone(), toolchain.lib_dir.join("libpoker.so")];
            group.bench_function("sandbox on, host /usr (before)", |b| {
                b.iter(|| {
                    let game = evaluator::play(&supervisor, &host_usr, &deck, 1, &config);
                    assert_eq!(game.status, evaluator::GameStatus::Ok, "{game:?}");
                })
            });
        }
    }
    group.finish();
}

/// What a contestant's private image costs once per contestant: preparing
/// a Python contestant (no compilation: the difference is the image of the
/// interpreter and its standard library) in the sandbox and unconfined.
fn images(c: &mut Criterion) {
    use poker_judge::evaluator::{self, RunConfig, SandboxMode, Toolchain};
    let supervisor = evaluator::become_supervisor().unwrap();
    let lib_dir = evaluator::default_lib_dir().expect("libpoker.so next to the benchmark");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python_examples/roundrobin.py");
    let mut group = c.benchmark_group("contestant");
    group.sample_size(10);
    for (name, mode) in [
        ("python prepare, sandbox off", SandboxMode::Off),
        (
            "python prepare + drop, sandbox on (private image)",
            SandboxMode::On,
        ),
    ] {
        let config = RunConfig::new(
            mode,
            Limits::default(),
            poker_judge::evaluator::config::default_compile_limits(),
        )
        .unwrap();
        let toolchain = Toolchain::new(lib_dir.clone(), &config).unwrap();
        group.bench_function(name, |b| {
            b.iter(|| {
                let program = toolchain.prepare(&supervisor, &script).program.unwrap();
                drop(program);
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    targets = spawns, parts, games, images
}
criterion_main!(benches);
