//! The tests that need more than Rust and a C compiler, in tiers, each
//! named after what it needs (bubblewrap and root, Free Pascal, Chromium,
//! ...). A test starts with `needs!(tier::PASCAL)`: where the tier's tools
//! are missing it does not run; under `CI=true` that fails the test
//! (`.ci/run` installs every tool), elsewhere the test returns at once and,
//! when the test binary ends, one summary names each tier that did not
//! run, what it lacks and how to install it. So `cargo test --release`
//! passes on a machine with only Rust and a C compiler, and says what it
//! left out.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, Once};

/// What the tests of one tier need.
pub struct Tier {
    /// The tier's name in messages.
    pub name: &'static str,
    /// Commands that must run, each with an argument it answers (such as
    /// `--version`), or `""` for a command that must only be there (Slurm's
    /// clients answer nothing without a cluster). Looked up in the Python
    /// tools' virtual environments, then on `PATH`, then in /usr/sbin and
    /// /sbin.
    pub commands: &'static [(&'static str, &'static str)],
    /// Files that must exist, such as a font.
    pub files: &'static [&'static str],
    /// Whether the tests must run as root.
    pub root: bool,
    /// Something built beforehand that must be there.
    pub built: Option<Built>,
    /// How to install what it needs (Debian).
    pub install: &'static str,
}

/// Something a tier needs built beforehand.
pub struct Built {
    /// What, in messages.
    pub what: &'static str,
    /// Whether it is there.
    pub there: fn() -> bool,
}

/// The bubblewrap sandbox: its jails, limits and attacks. As root, since
/// each game runs as a uid leased for it, in cgroups of its own.
pub const SANDBOX: Tier = Tier {
    name: "sandbox",
    commands: &[("bwrap", "--version")],
    files: &[],
    root: true,
    built: None,
    install: "apt-get install bubblewrap",
};

/// Free Pascal: the Pascal unit, examples and contestants.
pub const PASCAL: Tier = Tier {
    name: "Pascal",
    commands: &[("fpc", "-iV")],
    files: &[],
    root: false,
    built: None,
    install: "apt-get install fp-compiler",
};

/// Python 3: the Python module, examples and contestants.
pub const PYTHON: Tier = Tier {
    name: "Python",
    commands: &[("python3", "--version")],
    files: &[],
    root: false,
    built: None,
    install: "apt-get install python3 python3-venv",
};

/// A C++ compiler: the header as C++, the C++ judge client.
pub const CPP: Tier = Tier {
    name: "C++",
    commands: &[("g++", "--version"), ("c++", "--version")],
    files: &[],
    root: false,
    built: None,
    install: "apt-get install g++",
};

/// strace: the census of the system calls the shipped contestants make
/// in the sandbox.
pub const STRACE: Tier = Tier {
    name: "strace",
    commands: &[("strace", "-V")],
    files: &[],
    root: false,
    built: None,
    install: "apt-get install strace",
};

/// Go with cgo: the Go example of libpoker.
pub const GO: Tier = Tier {
    name: "Go",
    commands: &[("go", "version"), ("gofmt", "-l")],
    files: &[],
    root: false,
    built: None,
    install: "apt-get install golang-go",
};

/// A Java JDK and Debian's JNA: the Java example of libpoker.
pub const JAVA: Tier = Tier {
    name: "Java",
    commands: &[("javac", "-version"), ("java", "-version")],
    files: &["/usr/share/java/jna.jar"],
    root: false,
    built: None,
    install: "apt-get install default-jdk-headless libjna-java",
};

/// Mono's C# compiler and runtime: the C# example of libpoker.
pub const MONO: Tier = Tier {
    name: "C#",
    commands: &[("mcs", "--version"), ("mono", "--version")],
    files: &[],
    root: false,
    built: None,
    install: "apt-get install mono-mcs mono-runtime",
};

/// Node.js with koffi as the example's lock file pins it: the JavaScript
/// example of libpoker.
pub const NODE: Tier = Tier {
    name: "JavaScript",
    commands: &[("node", "--version")],
    files: &[],
    root: false,
    built: Some(Built {
        what: "koffi in examples/ffi/javascript/node_modules",
        there: has_koffi,
    }),
    install: "apt-get install nodejs npm; then (cd examples/ffi/javascript && npm ci --ignore-scripts)",
};

fn has_koffi() -> bool {
    super::root()
        .join("examples/ffi/javascript/node_modules/koffi/package.json")
        .is_file()
}

/// Ruby (Fiddle is its standard library): the Ruby example of libpoker.
pub const RUBY: Tier = Tier {
    name: "Ruby",
    commands: &[("ruby", "--version")],
    files: &[],
    root: false,
    built: None,
    install: "apt-get install ruby",
};

/// LuaJIT and its ffi: the Lua example of libpoker.
pub const LUAJIT: Tier = Tier {
    name: "Lua",
    commands: &[("luajit", "-v")],
    files: &[],
    root: false,
    built: None,
    install: "apt-get install luajit",
};

/// valgrind's memcheck over the C tests and contestants.
pub const VALGRIND: Tier = Tier {
    name: "valgrind",
    commands: &[("valgrind", "--version")],
    files: &[],
    root: false,
    built: None,
    install: "apt-get install valgrind",
};

/// `nm` and `readelf`: the exported symbols and the SONAME.
pub const BINUTILS: Tier = Tier {
    name: "binutils",
    commands: &[("nm", "--version"), ("readelf", "--version")],
    files: &[],
    root: false,
    built: None,
    install: "apt-get install binutils",
};

/// `make install` and a program built through pkg-config.
pub const INSTALL: Tier = Tier {
    name: "make install",
    commands: &[
        ("make", "--version"),
        ("pkg-config", "--version"),
        ("patchelf", "--version"),
        ("readelf", "--version"),
    ],
    files: &[],
    root: false,
    built: None,
    install: "apt-get install make pkg-config patchelf binutils",
};

/// Headless Chromium, and a font with the suit symbols: the HTML pages.
pub const BROWSER: Tier = Tier {
    name: "browser",
    commands: &[("chromium", "--version")],
    files: &["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"],
    root: false,
    built: None,
    install: "apt-get install chromium fonts-dejavu-core",
};

/// Kattis problemtools: the judge package checked by `verifyproblem`.
pub const PROBLEMTOOLS: Tier = Tier {
    name: "problemtools",
    commands: &[
        ("verifyproblem", "--version"),
        ("pypy3", "--version"),
        ("pdflatex", "--version"),
        ("tidy", "--version"),
        ("dvisvgm", "--version"),
    ],
    files: &[],
    root: false,
    built: None,
    install: "apt-get install --no-install-recommends pypy3 python3-venv texlive-binaries \
              texlive-latex-recommended texlive-fonts-recommended texlive-latex-extra \
              texlive-luatex texlive-plain-generic lmodern tidy dvisvgm, then \
              python3 -m venv venv && venv/bin/pip install problemtools==1.20260907",
};

/// A single-node Slurm the test starts itself, as root (slurmd starts the
/// jobs).
pub const SLURM: Tier = Tier {
    name: "Slurm",
    commands: &[
        ("munged", ""),
        ("slurmctld", ""),
        ("slurmd", ""),
        ("sbatch", ""),
        ("scontrol", ""),
        ("scancel", ""),
        ("squeue", ""),
        ("sinfo", ""),
        ("bash", "--version"),
    ],
    files: &[],
    root: true,
    built: None,
    install: "apt-get install --no-install-recommends slurmctld slurmd slurm-client munge",
};

/// The Python wheel, built by `pip wheel` into target/wheels (as `.ci/run`
/// does), installed by its test into a fresh virtual environment.
pub const WHEEL: Tier = Tier {
    name: "wheel",
    commands: &[("python3", "--version")],
    files: &[],
    root: false,
    built: Some(Built {
        what: "a wheel in target/wheels",
        there: has_wheel,
    }),
    install: "apt-get install python3-venv; after `cargo build --release`: python3 -m venv venv && \
              venv/bin/pip install setuptools==80.9.0 setuptools-rust==1.13.0 wheel==0.48.0 && \
              venv/bin/pip wheel --no-build-isolation --no-deps -w target/wheels .",
};

fn has_wheel() -> bool {
    std::fs::read_dir(super::root().join("target/wheels"))
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .any(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            name.starts_with("libpoker-") && name.ends_with(".whl")
        })
}

/// Where `command` is: the Python tools' virtual environments
/// (`target/ci-venv`, `venv`), `PATH`, then /usr/sbin and /sbin (daemons,
/// outside a user's `PATH`).
pub fn locate(command: &str) -> Option<PathBuf> {
    let venvs = ["target/ci-venv/bin", "venv/bin"].map(|dir| super::root().join(dir));
    let path = std::env::var_os("PATH").unwrap_or_default();
    venvs
        .into_iter()
        .chain(std::env::split_paths(&path))
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/sbin")])
        .map(|dir| dir.join(command))
        .find(|candidate| candidate.is_file())
}

/// What `tier` lacks here: each missing command, file, and root.
fn lacking(tier: &Tier) -> Vec<String> {
    static SEEN: Mutex<BTreeMap<&str, Vec<String>>> = Mutex::new(BTreeMap::new());
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    seen.entry(tier.name)
        .or_insert_with(|| {
            let commands = tier.commands.iter().filter(|(command, arg)| {
                !locate(command).is_some_and(|path| {
                    arg.is_empty()
                        || Command::new(path)
                            .arg(arg)
                            .output()
                            .is_ok_and(|o| o.status.success())
                })
            });
            let files = tier.files.iter().filter(|file| !Path::new(file).exists());
            let root = (tier.root && !rustix::process::geteuid().is_root()).then_some("root");
            let built = tier.built.as_ref().filter(|b| !(b.there)()).map(|b| b.what);
            commands
                .map(|(command, _)| format!("`{command}`"))
                .chain(files.map(|file| file.to_string()))
                .chain(built.map(str::to_string))
                .chain(root.map(str::to_string))
                .collect()
        })
        .clone()
}

/// The tiers that did not run, each with the tests that needed it.
static SKIPPED: Mutex<BTreeMap<&str, (&Tier, Vec<String>)>> = Mutex::new(BTreeMap::new());

/// Whether the calling test can run: every one of `tiers` has what it
/// needs. Under `CI=true` a missing tool fails the test here; elsewhere
/// the test is recorded for the binary's closing summary, and false.
pub fn ready(tiers: &[&'static Tier]) -> bool {
    let test = std::thread::current()
        .name()
        .unwrap_or("this test")
        .to_string();
    let missing: Vec<(&'static Tier, Vec<String>)> = tiers
        .iter()
        .map(|tier| (*tier, lacking(tier)))
        .filter(|(_, lacks)| !lacks.is_empty())
        .collect();
    if missing.is_empty() {
        return true;
    }
    let why: Vec<String> = missing
        .iter()
        .map(|(tier, lacks)| {
            format!(
                "the {} tier lacks {} (install: {})",
                tier.name,
                lacks.join(", "),
                tier.install
            )
        })
        .collect();
    assert!(
        !super::in_ci(),
        "{test} cannot run: {} (docs/development.md's Prerequisites list every tool the tests use; \
         .ci/run installs them)",
        why.join("; ")
    );
    eprintln!("not run: {test}: {}", why.join("; "));
    static SUMMARY: Once = Once::new();
    // SAFETY: `summary` is an `extern "C" fn()` that neither unwinds (it
    // only formats and writes) nor calls `exit`.
    SUMMARY.call_once(|| unsafe {
        libc::atexit(summary);
    });
    let mut skipped = SKIPPED.lock().unwrap_or_else(|e| e.into_inner());
    for (tier, _) in missing {
        skipped
            .entry(tier.name)
            .or_insert((tier, Vec::new()))
            .1
            .push(test.clone());
    }
    false
}

/// Returns from the calling test when a tier it needs cannot run here
/// (see [`ready`]): `needs!(tier::SANDBOX, tier::PASCAL)`.
// Not every test binary has a test that needs a tier.
#[allow(unused_macros)]
macro_rules! needs {
    ($($tier:expr),+ $(,)?) => {
        if !$crate::common::tier::ready(&[$(&$tier),+]) {
            return;
        }
    };
}
#[allow(unused_imports)]
pub(crate) use needs;

/// Printed when the test binary exits: each tier that did not run, what
/// it lacks, how many tests it holds, and how to run them.
extern "C" fn summary() {
    use std::io::Write;
    let skipped = SKIPPED.lock().unwrap_or_else(|e| e.into_inner());
    let binary = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.file_stem()?.to_string_lossy().into_owned()))
        .map(|stem| stem.split('-').next().unwrap_or_default().to_string())
        .unwrap_or_default();
    let mut text = format!(
        "\n{binary}: tests not run here, for want of what they need (each returned at once \
         and counts as passed; under CI=true they fail):\n"
    );
    for (tier, tests) in skipped.values() {
        let count = match tests.len() {
            1 => "1 test".to_string(),
            n => format!("{n} tests"),
        };
        text += &format!(
            "  {} ({count}): lacks {}; install: {}\n",
            tier.name,
            lacking(tier).join(", "),
            tier.install,
        );
    }
    text += "  then `cargo test --release` runs them; as root on Debian, `bash .ci/run` \
             installs every tool and runs every test.\n";
    let _ = std::io::stderr().write_all(text.as_bytes());
}
