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

mod compile;
mod lib_dir;
mod practice;

pub use compile::DIAGNOSTIC_LINES;
pub use lib_dir::default_lib_dir;

use super::config::RunConfig;
use super::error::NotRun;
use super::launcher::Program;
use super::process::Supervisor;
use crate::sandbox::{private_dir_in, reachable_by_others};
use std::fs::{self, Permissions};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The header contestants include, embedded so compiling works from any
/// folder.
const HEADER: &str = include_str!("../../../../include/poker.h");
/// The Pascal unit (`uses Poker;`), embedded likewise.
const PASCAL_UNIT: &str = include_str!("../../../../bindings/pascal/poker.pas");
/// The Python binding (`import libpoker`), embedded likewise.
const PYTHON_MODULE: &str = include_str!("../../../../bindings/python/libpoker.py");

/// The extensions of C++ sources (gcc's, `.C` included).
pub const CPP_EXTENSIONS: &[&str] = &["cpp", "cc", "cxx", "C"];

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
