//! Contestants: an executable, or a source file that the evaluator first
//! compiles against libpoker (`.c` with `cc`, `.cpp`/`.cc`/`.cxx`/`.C` with
//! `c++`, `.pas` with `fpc`), or a Python script (`.py`, run by `python3`
//! with the ctypes binding).
//!
//! A source is copied alone into a fresh folder and compiled there, through
//! the same launcher as the games (so in the sandbox when it is on: the
//! compiler sees that folder, the header or unit, libpoker and the system,
//! never the folder the source came from), under the compile limits. The
//! compiled program is then copied to a folder of the evaluator's that no
//! contestant can write.

use super::config::RunConfig;
use super::error::NotRun;
use super::launcher::Program;
use super::process::{self, Supervisor};
use super::verdict::{RunVerdict, classify, failed_to_start};
use crate::sandbox::{private_dir_in, reachable_by_others};
use std::ffi::OsString;
use std::fs::{self, Permissions};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The header contestants include, embedded so compiling works from any
/// folder.
const HEADER: &str = include_str!("../../../../include/poker.h");
/// The Pascal unit (`uses Poker;`), embedded likewise.
const PASCAL_UNIT: &str = include_str!("../../../../bindings/pascal/poker.pas");
/// The Python binding (`import libpoker`), embedded likewise.
const PYTHON_MODULE: &str = include_str!("../../../../bindings/python/libpoker.py");

/// The largest compiled program accepted, in bytes.
const MAX_PROGRAM: u64 = 64 << 20;
/// How far past [`MAX_PROGRAM`] a compiler's file may grow
/// (`RLIMIT_FSIZE`) before the kernel stops it with SIGXFSZ: a little, so
/// that a program just over the cap is refused by size, not by signal.
const COMPILER_FILE_SLACK: u64 = 1 << 20;
/// The extensions of C++ sources (gcc's, `.C` included).
pub const CPP_EXTENSIONS: &[&str] = &["cpp", "cc", "cxx", "C"];

/// How gcc's driver, collect2 and fpc describe a child killed by SIGXFSZ
/// (glibc's `strsignal`).
const SIGXFSZ_TEXT: &str = "File size limit exceeded";

/// A contestant ready to run, or why it cannot be.
#[derive(Clone, Debug)]
pub struct Contestant {
    /// Display name: the file name without its extension.
    pub name: String,
    /// The path as given.
    pub source: PathBuf,
    /// The program to run, or the reason it cannot run.
    pub program: Result<Program, NotRun>,
    /// The command that compiled it, for the record (empty when it needed
    /// no compiling).
    pub compile_command: Vec<String>,
    /// How to build it by hand for practice mode, from its own source
    /// (empty when it needs no building): the same compiler and flags, with
    /// the header and library of this installation.
    pub practice_build: Vec<String>,
    /// How to run it by hand in practice mode (with `POKER_DECK` and
    /// [`Contestant::practice_env`] set).
    pub practice_run: Vec<String>,
    /// The environment [`Contestant::practice_run`] needs besides
    /// `POKER_DECK`, as (name, value).
    pub practice_env: Vec<(String, String)>,
}

/// The most lines of compiler diagnostics kept for a contestant that does
/// not compile.
pub const DIAGNOSTIC_LINES: usize = 20;

/// Where compiled contestants go and what they link against.
#[derive(Debug)]
pub struct Toolchain {
    /// Folder holding `libpoker.so`.
    pub lib_dir: PathBuf,
    /// Scratch folder for the header, unit, module and compiled programs: a
    /// fresh folder of this toolchain alone (mode 0711: others may pass
    /// through to the unguessable build folders, not list it), removed
    /// when it is dropped.
    pub work_dir: PathBuf,
    config: RunConfig,
    _scratch: tempfile::TempDir,
}

impl Toolchain {
    /// A toolchain linking against `lib_dir` (which must hold
    /// `libpoker.so`), compiling through `config`'s launcher under its
    /// compile limits, into a fresh private folder under the system's
    /// temporary directory.
    pub fn new(lib_dir: PathBuf, config: &RunConfig) -> std::io::Result<Toolchain> {
        if !lib_dir.join("libpoker.so").is_file() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("no libpoker.so in {}", lib_dir.display()),
            ));
        }
        let lib_dir = fs::canonicalize(&lib_dir)?;
        // Sandboxed compilers (a uid of their own) write into build folders
        // bound from here: the base must be one they can pass through. A
        // temporary folder under a 0700 one (a TMPDIR in /root, a mktemp -d
        // checkout) is not; /tmp always is.
        let base = std::env::temp_dir();
        let base = match config.launcher {
            super::Launcher::Bubblewrap { .. } if !reachable_by_others(&base) => {
                PathBuf::from("/tmp")
            }
            _ => base,
        };
        crate::sandbox::clean_stale(&base, "poker-eval-");
        let scratch = private_dir_in(&base, "poker-eval-")?;
        let work_dir = scratch.path().to_path_buf();
        for (folder, file, text) in [
            ("include", "poker.h", HEADER),
            ("pascal", "poker.pas", PASCAL_UNIT),
            ("python", "libpoker.py", PYTHON_MODULE),
        ] {
            fs::create_dir(work_dir.join(folder))?;
            fs::write(work_dir.join(folder).join(file), text)?;
        }
        // Compiled programs: only the evaluator writes here.
        fs::create_dir(work_dir.join("programs"))?;
        fs::set_permissions(work_dir.join("programs"), Permissions::from_mode(0o700))?;
        // Contestants' private images (folders of 0755 copies, tmpfs
        // mounts when root): the games' uids must reach them.
        fs::create_dir(work_dir.join("images"))?;
        fs::set_permissions(work_dir.join("images"), Permissions::from_mode(0o711))?;
        fs::write(work_dir.join("pid"), std::process::id().to_string())?;
        fs::set_permissions(&work_dir, Permissions::from_mode(0o711))?;
        Ok(Toolchain {
            lib_dir,
            work_dir,
            config: config.clone(),
            _scratch: scratch,
        })
    }

    /// Fills in `contestant`'s practice-mode commands: its compile command
    /// with its own source, an output named after it in the current folder,
    /// and the header of this installation; or how to run it.
    fn practice(&self, contestant: &mut Contestant) {
        let source = as_argument(&contestant.source);
        let output = format!("./{}", contestant.name);
        let scratch = self.work_dir.display().to_string();
        let header = self.installed("include", "poker.h");
        let unit = self.installed("bindings/pascal", "poker.pas");
        let module = self.installed("bindings/python", "libpoker.py");
        if let Some((compiler, args)) = contestant.compile_command.split_first() {
            let name = Path::new(compiler)
                .file_name()
                .map_or(compiler.clone(), |n| n.to_string_lossy().into_owned());
            let mut build = vec![name];
            for arg in args {
                let arg = if arg.starts_with(&scratch) && arg.ends_with("/contestant") {
                    output.clone()
                } else if arg
                    .strip_prefix("-o")
                    .is_some_and(|r| r.starts_with(&scratch))
                {
                    format!("-o{output}")
                } else if arg.starts_with(&scratch) && arg.contains("/contestant.") {
                    source.clone()
                } else if arg == &format!("-I{scratch}/include") {
                    format!("-I{header}")
                } else if arg == &format!("-Fu{scratch}/pascal") {
                    format!("-Fu{unit}")
                } else if arg.starts_with(&format!("-FU{scratch}")) {
                    // The unit's compiled files go beside the program, not
                    // into the (perhaps installed) unit's folder.
                    "-FU.".to_string()
                } else {
                    arg.clone()
                };
                build.push(arg);
            }
            contestant.practice_build = build;
            contestant.practice_run = vec![output];
        } else if source.ends_with(".py") {
            contestant.practice_env = vec![
                ("LIBPOKER".into(), self.libpoker().display().to_string()),
                ("PYTHONPATH".into(), module),
            ];
            contestant.practice_run = vec!["python3".into(), source];
        } else {
            contestant.practice_run = vec![source];
        }
    }

    /// The folder of this installation's copy of `file` (the source tree's
    /// `tree_dir` or the installed prefix), found from the library folder;
    /// `tree_dir` itself when neither holds it.
    fn installed(&self, tree_dir: &str, file: &str) -> String {
        let installed = match tree_dir {
            "include" => "include",
            "bindings/pascal" => "share/libpoker/pascal",
            _ => "share/libpoker/python",
        };
        // Inside the Python wheel's package, beside libpoker.so:
        // include/poker.h, pascal/poker.pas, and the package itself, which is
        // the module (its folder's parent goes on PYTHONPATH).
        let in_wheel = match tree_dir {
            "include" => "include",
            "bindings/pascal" => "pascal",
            _ => "..",
        };
        let file = match tree_dir {
            "bindings/python" if self.lib_dir.join("__init__.py").is_file() => {
                "libpoker/__init__.py"
            }
            _ => file,
        };
        let lib = &self.lib_dir;
        [
            lib.join("../..").join(tree_dir),
            lib.join("../../..").join(tree_dir),
            lib.join("..").join(installed),
            lib.join(in_wheel),
        ]
        .into_iter()
        .find(|dir| dir.join(file).is_file())
        .and_then(|dir| fs::canonicalize(dir).ok())
        .map_or(tree_dir.to_string(), |dir| dir.display().to_string())
    }

    fn libpoker(&self) -> PathBuf {
        self.lib_dir.join("libpoker.so")
    }

    /// Resolves one contestant path: compiles a C, C++ or Pascal source,
    /// runs a `.py` file with `python3`, accepts an executable file as it is.
    pub fn prepare(&self, supervisor: &Supervisor, path: &Path) -> Contestant {
        let name = path.file_stem().map_or_else(
            || path.display().to_string(),
            |s| s.to_string_lossy().into_owned(),
        );
        let mut contestant = Contestant {
            name,
            source: path.to_path_buf(),
            program: Err(NotRun::Setup(String::new())),
            compile_command: Vec::new(),
            practice_build: Vec::new(),
            practice_run: Vec::new(),
            practice_env: Vec::new(),
        };
        contestant.program = match path.extension().and_then(|e| e.to_str()) {
            _ if !path.exists() => Err(NotRun::Missing(path.to_path_buf())),
            Some(kind @ ("c" | "pas" | "pp")) => {
                self.compile(supervisor, path, kind, &mut contestant.compile_command)
            }
            Some(kind) if CPP_EXTENSIONS.contains(&kind) => {
                self.compile(supervisor, path, kind, &mut contestant.compile_command)
            }
            Some("py") => self.python(path),
            _ => self.executable(path),
        };
        let python = path.extension().is_some_and(|e| e == "py");
        if let (Ok(program), super::Launcher::Bubblewrap { .. }) =
            (&mut contestant.program, &self.config.launcher)
        {
            let mut lib_dirs = vec![self.lib_dir.clone()];
            lib_dirs.extend(
                self.libpoker_aliases()
                    .iter()
                    .filter_map(|p| p.parent().map(Path::to_path_buf)),
            );
            let images = self.work_dir.join("images");
            if let Err(why) = super::private_root::privatize(program, python, &lib_dirs, &images) {
                contestant.program = Err(NotRun::Setup(why));
            }
        }
        self.practice(&mut contestant);
        contestant
    }

    /// Compiles `source` (`kind` its extension: "c", a C++ one, "pas" or
    /// "pp") alone in a fresh
    /// build folder, through the launcher, and keeps the program where no
    /// contestant can write. `record` gets the compile command.
    fn compile(
        &self,
        supervisor: &Supervisor,
        source: &Path,
        kind: &str,
        record: &mut Vec<String>,
    ) -> Result<Program, NotRun> {
        let shown = source.display();
        let build = tempfile::Builder::new()
            .prefix("build-")
            .tempdir_in(&self.work_dir)
            .map_err(|e| NotRun::Setup(format!("cannot make a build folder: {e}")))?;
        let dir = build.path();
        // Mode 0700 (tempfile's): no other user can read or fill it. In the
        // sandbox the jail hands it to the compiler's leased uid for the
        // compilation.
        let copy = dir.join(format!("contestant.{kind}"));
        fs::copy(source, &copy).map_err(|e| NotRun::Setup(format!("cannot read {shown}: {e}")))?;
        let output = dir.join("contestant");
        // gcc's driver reports on stderr, fpc on stdout.
        let gcc = kind == "c" || CPP_EXTENSIONS.contains(&kind);
        let mut program = if kind == "c" {
            self.c_compiler(&copy, &output, C)?
        } else if gcc {
            self.c_compiler(&copy, &output, CPP)?
        } else {
            self.pascal_compiler(&copy, &output, dir)?
        };
        program.output_dir = Some(dir.to_path_buf());
        program.file_size_limit = Some(MAX_PROGRAM + COMPILER_FILE_SLACK);
        *record = std::iter::once(&program.path)
            .map(|p| p.display().to_string())
            .chain(
                program
                    .args
                    .iter()
                    .map(|a| a.to_string_lossy().into_owned()),
            )
            .collect();
        let limits = &self.config.compile_limits;
        let launch = self
            .config
            .launcher
            .prepare(&program, limits)
            .map_err(|e| NotRun::Setup(format!("cannot start the compiler for {shown}: {e}")))?;
        let running = process::spawn(launch, false)
            .map_err(|e| NotRun::Setup(format!("cannot start the compiler for {shown}: {e}")))?;
        let _ = supervisor;
        let exited = running.wait_until(Instant::now() + limits.wall);
        let (outcome, stdout, stderr) = running.finish(Duration::ZERO);
        let mut verdict = classify(outcome.as_ref(), !exited, limits);
        // The limit usually stops one of the driver's children (`as`, `ld`),
        // and the driver reports it by the signal's description.
        let said = |text: &[u8]| String::from_utf8_lossy(text).contains(SIGXFSZ_TEXT);
        if matches!(verdict, RunVerdict::Exited(code) if code != 0)
            && (said(&stderr) || said(&stdout))
        {
            verdict = RunVerdict::FileSize;
        }
        if let Some(limit) = verdict.limit(limits) {
            return Err(NotRun::CompileLimit(format!(
                "compilation exceeded the {limit}"
            )));
        }
        match verdict {
            RunVerdict::Exited(0) => {}
            RunVerdict::FileSize => {
                return Err(NotRun::CompileLimit(format!(
                    "the compiler's output exceeds {} MiB",
                    MAX_PROGRAM >> 20
                )));
            }
            RunVerdict::FailedToStart(why) => {
                return Err(NotRun::Setup(failed_to_start("compiler", &why)));
            }
            _ => {
                let text = String::from_utf8_lossy(if gcc { &stderr } else { &stdout })
                    // The compiler saw a copy: name the contestant's file
                    // (cc gives the copy's path, fpc its file name).
                    .replace(&copy.display().to_string(), &shown.to_string())
                    .replace(&format!("contestant.{kind}("), &format!("{shown}("));
                let errors: Vec<&str> = text
                    .lines()
                    .filter(|l| gcc || l.contains("Error") || l.contains("Fatal"))
                    .collect();
                let mut why = format!("{shown} does not compile:");
                for line in errors.iter().take(DIAGNOSTIC_LINES) {
                    why.push('\n');
                    why.push_str(line);
                }
                if errors.len() > DIAGNOSTIC_LINES {
                    let more = errors.len() - DIAGNOSTIC_LINES;
                    why.push_str(&format!("\n... and {more} more lines"));
                }
                return Err(NotRun::DoesNotCompile(why));
            }
        }
        let kept = self.keep(&output)?;
        Ok(Program {
            path: kept.clone(),
            files: vec![kept, self.libpoker()],
            ..Program::default()
        })
    }

    /// `cc -O2 -o OUTPUT SOURCE -I<header> -L<lib> -lpoker -rpath <lib> -lm`
    /// (C), or the same with `c++ -O2 -std=c++17` (C++).
    fn c_compiler(
        &self,
        source: &Path,
        output: &Path,
        language: Language,
    ) -> Result<Program, NotRun> {
        let cc = std::env::var_os(language.variable).unwrap_or_else(|| language.default.into());
        let compiler = resolve(&cc).ok_or_else(|| {
            NotRun::Setup(format!(
                "cannot find the {} compiler `{}` (set {} or install {})",
                language.name,
                Path::new(&cc).display(),
                language.variable,
                language.package,
            ))
        })?;
        let lib = &self.lib_dir;
        let header = self.work_dir.join("include/poker.h");
        let args: Vec<OsString> = std::iter::once("-O2")
            .chain(language.flags.iter().copied())
            .map(OsString::from)
            .chain([
                "-o".into(),
                output.into(),
                source.into(),
                format!("-I{}", self.work_dir.join("include").display()).into(),
                format!("-L{}", lib.display()).into(),
                "-lpoker".into(),
                // DT_RPATH (not RUNPATH) wins over LD_LIBRARY_PATH, which `cargo
                // test` points at target/<profile>, where a stale libpoker.so may lie.
                "-Wl,--disable-new-dtags".into(),
                format!("-Wl,-rpath,{}", lib.display()).into(),
                "-lm".into(),
            ])
            .collect();
        Ok(Program {
            files: vec![
                compiler.clone(),
                source.to_path_buf(),
                header,
                self.libpoker(),
            ],
            path: compiler,
            args,
            ..Program::default()
        })
    }

    /// `fpc -O2 -Fu<unit> -FU<build> -Fl<lib> -k-rpath=<lib> -oOUTPUT SOURCE`.
    fn pascal_compiler(&self, source: &Path, output: &Path, dir: &Path) -> Result<Program, NotRun> {
        let fpc = std::env::var_os("FPC").unwrap_or_else(|| "fpc".into());
        let compiler = resolve(&fpc).ok_or_else(|| {
            NotRun::Setup(format!(
                "cannot find the Free Pascal compiler `{}` (Debian: fp-compiler)",
                Path::new(&fpc).display()
            ))
        })?;
        let lib = &self.lib_dir;
        let args: Vec<OsString> = vec![
            "-O2".into(),
            "-v0".into(),
            format!("-Fu{}", self.work_dir.join("pascal").display()).into(),
            format!("-FU{}", dir.display()).into(),
            format!("-Fl{}", lib.display()).into(),
            format!("-k-rpath={}", lib.display()).into(),
            "-k--disable-new-dtags".into(),
            format!("-o{}", output.display()).into(),
            source.into(),
        ];
        Ok(Program {
            files: vec![
                compiler.clone(),
                source.to_path_buf(),
                self.work_dir.join("pascal/poker.pas"),
                self.libpoker(),
            ],
            path: compiler,
            args,
            ..Program::default()
        })
    }

    /// Copies a compiled program out of its build folder (a regular file,
    /// never through a link the compiler may have left) into the folder only
    /// the evaluator writes.
    fn keep(&self, output: &Path) -> Result<PathBuf, NotRun> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let meta = fs::symlink_metadata(output)
            .map_err(|e| NotRun::NotAProgram(format!("the compiler wrote no program: {e}")))?;
        if !meta.is_file() || meta.len() > MAX_PROGRAM {
            return Err(NotRun::NotAProgram(
                "the compiler's output is not a program of at most 64 MiB".into(),
            ));
        }
        let kept = self
            .work_dir
            .join("programs")
            .join(NEXT.fetch_add(1, Ordering::Relaxed).to_string());
        fs::copy(output, &kept)
            .and_then(|_| fs::set_permissions(&kept, Permissions::from_mode(0o755)))
            .map_err(|e| NotRun::Setup(format!("cannot keep the compiled program: {e}")))?;
        Ok(kept)
    }

    /// A Python contestant: `python3 SCRIPT` with the embedded `libpoker`
    /// module on its path and `LIBPOKER` naming the library to load.
    fn python(&self, source: &Path) -> Result<Program, NotRun> {
        let script = fs::canonicalize(source)
            .map_err(|e| NotRun::NotAProgram(format!("{}: {e}", source.display())))?;
        // The sandbox shows the system's /usr only: its python3.
        let python = match self.config.launcher {
            super::Launcher::Plain => resolve("python3".as_ref()),
            super::Launcher::Bubblewrap { .. } => {
                Some(PathBuf::from("/usr/bin/python3")).filter(|p| p.exists())
            }
        }
        .ok_or_else(|| NotRun::Setup("cannot find python3 (Debian: python3)".into()))?;
        let module_dir = self.work_dir.join("python");
        Ok(Program {
            files: vec![
                python.clone(),
                script.clone(),
                module_dir.join("libpoker.py"),
                self.libpoker(),
            ],
            path: python,
            args: vec![script.into()],
            env: vec![
                ("LIBPOKER".into(), self.libpoker().into()),
                ("PYTHONPATH".into(), module_dir.into()),
            ],
            ..Program::default()
        })
    }

    /// An executable given as it is: run by its absolute path, with the
    /// libpoker it was built against (`--lib-dir`) at the same path.
    fn executable(&self, path: &Path) -> Result<Program, NotRun> {
        let unusable = |e: std::io::Error| NotRun::NotAProgram(format!("{}: {e}", path.display()));
        let meta = fs::metadata(path).map_err(unusable)?;
        if !meta.is_file() || meta.permissions().mode() & 0o111 == 0 {
            return Err(NotRun::NotAProgram(format!(
                "{} is not an executable file (nor a .c, .cpp, .pas or .py source)",
                path.display()
            )));
        }
        let program = fs::canonicalize(path).map_err(unusable)?;
        let mut files = vec![program.clone(), self.libpoker()];
        files.extend(self.libpoker_aliases());
        Ok(Program {
            files,
            path: program,
            ..Program::default()
        })
    }

    /// Other paths of the very same `libpoker.so` file next to the library
    /// folder: cargo hard-links one build into `target/<profile>` and
    /// `target/<profile>/deps`, and a program built against either must find
    /// it there, also inside the sandbox, which shows it only the files
    /// bound.
    fn libpoker_aliases(&self) -> Vec<PathBuf> {
        let chosen = self.libpoker();
        let Ok(id) = fs::metadata(&chosen).map(|m| (m.dev(), m.ino())) else {
            return Vec::new();
        };
        [self.lib_dir.join("deps"), self.lib_dir.join("..")]
            .into_iter()
            .filter_map(|dir| fs::canonicalize(dir.join("libpoker.so")).ok())
            .filter(|path| *path != chosen)
            .filter(|path| fs::metadata(path).is_ok_and(|m| (m.dev(), m.ino()) == id))
            .collect()
    }
}

/// A language compiled by gcc's driver.
#[derive(Clone, Copy)]
struct Language {
    /// As messages name it.
    name: &'static str,
    /// The environment variable naming the compiler.
    variable: &'static str,
    /// The compiler when that variable is not set.
    default: &'static str,
    /// The Debian package that brings it.
    package: &'static str,
    /// Flags after `-O2`.
    flags: &'static [&'static str],
}

const C: Language = Language {
    name: "C",
    variable: "CC",
    default: "cc",
    package: "gcc",
    flags: &[],
};

const CPP: Language = Language {
    name: "C++",
    variable: "CXX",
    default: "c++",
    package: "g++",
    flags: &["-std=c++17"],
};

/// `path` as a command or argument that names that file: `./` before a
/// relative path that would otherwise be looked up on `PATH` (no `/`) or
/// read as an option (a leading `-`).
fn as_argument(path: &Path) -> String {
    let shown = path.display().to_string();
    if path.is_relative() && (!shown.contains('/') || shown.starts_with('-')) {
        format!("./{shown}")
    } else {
        shown
    }
}

/// `command` as an absolute path without links: itself when it names a
/// file, else the first match on `PATH`.
fn resolve(command: &std::ffi::OsStr) -> Option<PathBuf> {
    let name = Path::new(command);
    let found = if name.components().count() > 1 {
        Some(name.to_path_buf())
    } else {
        std::env::split_paths(&std::env::var_os("PATH")?)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    };
    fs::canonicalize(found?).ok()
}

/// The folder with the freshest `libpoker.so` near the running executable:
/// `<exe dir>`, `<exe dir>/deps` (cargo keeps the newest build there when
/// testing), `<exe dir>/../lib` (an installed `poker`) or the `libpoker`
/// package of the Python wheel that installed this `poker` into
/// `<prefix>/bin` (`<prefix>/lib/python3.X/site-packages/libpoker`),
/// whichever holds the newest file (the first of these when equally new).
pub fn default_lib_dir() -> Option<PathBuf> {
    let exe_dir = std::env::current_exe().ok()?.parent()?.to_path_buf();
    let installed = exe_dir.parent().map(|prefix| prefix.join("lib"));
    let wheel = installed.as_deref().map(wheel_packages).unwrap_or_default();
    // Reversed so that, of equally new files, the first place wins:
    // `cargo build` hard-links one build into target/release and its deps/,
    // and the README names target/release.
    let places: Vec<PathBuf> = [Some(exe_dir.clone()), Some(exe_dir.join("deps")), installed]
        .into_iter()
        .flatten()
        .chain(wheel)
        .collect();
    places
        .into_iter()
        .rev()
        .filter_map(|dir| {
            let modified = std::fs::metadata(dir.join("libpoker.so"))
                .ok()?
                .modified()
                .ok()?;
            Some((modified, dir))
        })
        .max_by_key(|(modified, _)| *modified)
        .map(|(_, dir)| dir)
}

/// The `libpoker` package folders of the Python wheel under a prefix's
/// `lib`: `python3.X/site-packages/libpoker` (a virtual environment, `pip
/// install --user`) or `python3.X/dist-packages/libpoker` (Debian's system
/// Python).
fn wheel_packages(lib: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(lib) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("python3"))
        .flat_map(|e| {
            ["site-packages", "dist-packages"]
                .map(|packages| e.path().join(packages).join("libpoker"))
        })
        .collect()
}
