//! Contestants: an executable, or a source file that the evaluator first
//! compiles against libpoker (`.c` with `cc`, `.pas` with `fpc`), or a
//! Python script (`.py`, run by `python3` with the ctypes binding).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The header contestants include, embedded so compiling works from any
/// folder.
const HEADER: &str = include_str!("../../include/poker.h");
/// The Pascal unit (`uses Poker;`), embedded likewise.
const PASCAL_UNIT: &str = include_str!("../../bindings/pascal/poker.pas");
/// The Python binding (`import libpoker`), embedded likewise.
const PYTHON_MODULE: &str = include_str!("../../bindings/python/libpoker.py");

/// A contestant ready to run, or why it cannot be.
#[derive(Clone, Debug)]
pub struct Contestant {
    /// Display name: the file name without its extension.
    pub name: String,
    /// The path as given.
    pub source: PathBuf,
    /// The program to run, or the reason it cannot run.
    pub program: Result<PathBuf, String>,
}

/// Where compiled contestants go and what they link against.
#[derive(Debug)]
pub struct Toolchain {
    /// Folder holding `libpoker.so`.
    pub lib_dir: PathBuf,
    /// Scratch folder for the header and compiled programs: a fresh private
    /// folder (mode 0700) of this toolchain alone, removed when it is dropped.
    pub work_dir: PathBuf,
    _scratch: tempfile::TempDir,
}

impl Toolchain {
    /// A toolchain linking against `lib_dir` (which must hold
    /// `libpoker.so`), compiling into a fresh folder under the system's
    /// temporary directory, removed when the toolchain is dropped.
    pub fn new(lib_dir: PathBuf) -> std::io::Result<Toolchain> {
        if !lib_dir.join("libpoker.so").is_file() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("no libpoker.so in {}", lib_dir.display()),
            ));
        }
        // A new folder with an unguessable name, never an existing path.
        let scratch = tempfile::Builder::new().prefix("poker-eval-").tempdir()?;
        let work_dir = scratch.path().to_path_buf();
        std::fs::create_dir_all(work_dir.join("include"))?;
        std::fs::write(work_dir.join("include/poker.h"), HEADER)?;
        std::fs::create_dir_all(work_dir.join("pascal"))?;
        std::fs::write(work_dir.join("pascal/poker.pas"), PASCAL_UNIT)?;
        std::fs::create_dir_all(work_dir.join("python"))?;
        std::fs::write(work_dir.join("python/libpoker.py"), PYTHON_MODULE)?;
        Ok(Toolchain {
            lib_dir,
            work_dir,
            _scratch: scratch,
        })
    }

    /// Resolves one contestant path: compiles a `.c` or `.pas` file, wraps a
    /// `.py` file in a launcher, accepts an executable file as it is.
    pub fn prepare(&self, path: &Path) -> Contestant {
        let name = path.file_stem().map_or_else(
            || path.display().to_string(),
            |s| s.to_string_lossy().into_owned(),
        );
        // Compilers get an absolute path: a name like `-x.c` is no option.
        let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let program = match path.extension().and_then(|e| e.to_str()) {
            _ if !path.exists() => Err(format!("{} does not exist", path.display())),
            Some("c") => self.compile_c(&absolute, &name),
            Some("pas" | "pp") => self.compile_pascal(&absolute, &name),
            Some("py") => self.python_launcher(&absolute, &name),
            _ => executable(path),
        };
        Contestant {
            name,
            source: path.to_path_buf(),
            program,
        }
    }

    fn compile_c(&self, source: &Path, name: &str) -> Result<PathBuf, String> {
        let output_path = self.work_dir.join(format!("{name}-{}", unique()));
        let lib = &self.lib_dir;
        let result = Command::new(std::env::var_os("CC").unwrap_or_else(|| "cc".into()))
            .arg("-O2")
            .arg("-o")
            .arg(&output_path)
            .arg(source)
            .arg(format!("-I{}", self.work_dir.join("include").display()))
            .arg(format!("-L{}", lib.display()))
            .arg("-lpoker")
            // DT_RPATH (not RUNPATH) wins over LD_LIBRARY_PATH, which `cargo test`
            // points at target/<profile>, where a stale libpoker.so may lie.
            .arg("-Wl,--disable-new-dtags")
            .arg(format!("-Wl,-rpath,{}", lib.display()))
            .arg("-lm")
            .output()
            .map_err(|e| format!("cannot run the C compiler `cc`: {e}"))?;
        if !result.status.success() {
            let errors = String::from_utf8_lossy(&result.stderr);
            let first: Vec<&str> = errors.lines().take(5).collect();
            return Err(format!(
                "{} does not compile: {}",
                source.display(),
                first.join(" | ")
            ));
        }
        Ok(output_path)
    }
}

impl Toolchain {
    /// Compiles a Free Pascal contestant against the embedded `Poker` unit:
    /// `fpc -Fu<unit> -Fl<lib> -k-rpath=<lib>`, into a folder of its own
    /// (the unit's compiled files included).
    fn compile_pascal(&self, source: &Path, name: &str) -> Result<PathBuf, String> {
        let build = self.work_dir.join(format!("pas-{name}-{}", unique()));
        std::fs::create_dir_all(&build).map_err(|e| format!("{}: {e}", build.display()))?;
        let output_path = build.join(name);
        let lib = &self.lib_dir;
        let result = Command::new(std::env::var_os("FPC").unwrap_or_else(|| "fpc".into()))
            .arg("-O2")
            .arg("-v0")
            .arg(format!("-Fu{}", self.work_dir.join("pascal").display()))
            .arg(format!("-FU{}", build.display()))
            .arg(format!("-Fl{}", lib.display()))
            .arg(format!("-k-rpath={}", lib.display()))
            .arg("-k--disable-new-dtags")
            .arg(format!("-o{}", output_path.display()))
            .arg(source)
            .output()
            .map_err(|e| {
                format!("cannot run the Free Pascal compiler `fpc` (Debian: fp-compiler): {e}")
            })?;
        if !result.status.success() {
            let text = String::from_utf8_lossy(&result.stdout);
            let errors: Vec<&str> = text
                .lines()
                .filter(|l| l.contains("Error") || l.contains("Fatal"))
                .take(5)
                .collect();
            return Err(format!(
                "{} does not compile: {}",
                source.display(),
                errors.join(" | ")
            ));
        }
        Ok(output_path)
    }

    /// A launcher script running a Python contestant with `python3`, the
    /// embedded `libpoker` module on its path and `LIBPOKER` naming the
    /// library to load.
    fn python_launcher(&self, source: &Path, name: &str) -> Result<PathBuf, String> {
        use std::os::unix::fs::PermissionsExt;
        let source =
            std::fs::canonicalize(source).map_err(|e| format!("{}: {e}", source.display()))?;
        let launcher = self.work_dir.join(format!("{name}-{}.sh", unique()));
        let script = format!(
            "#!/bin/sh\nLIBPOKER={} PYTHONPATH={} exec python3 {}\n",
            shell_quote(&self.lib_dir.join("libpoker.so")),
            shell_quote(&self.work_dir.join("python")),
            shell_quote(&source)
        );
        std::fs::write(&launcher, script)
            .and_then(|()| {
                std::fs::set_permissions(&launcher, std::fs::Permissions::from_mode(0o755))
            })
            .map_err(|e| format!("{}: {e}", launcher.display()))?;
        Ok(launcher)
    }
}

/// `path` as one single-quoted shell word.
fn shell_quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', "'\\''"))
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

fn executable(path: &Path) -> Result<PathBuf, String> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !meta.is_file() || meta.permissions().mode() & 0o111 == 0 {
        return Err(format!(
            "{} is not an executable file (nor a .c, .pas or .py source)",
            path.display()
        ));
    }
    // Run it by an explicit path, never through $PATH.
    Ok(if path.is_absolute() || path.components().count() > 1 {
        path.to_path_buf()
    } else {
        Path::new(".").join(path)
    })
}

/// The folder with the freshest `libpoker.so` near the running executable:
/// `<exe dir>`, `<exe dir>/deps` (cargo keeps the newest build there when
/// testing) or `<exe dir>/../lib` (an installed `poker`), whichever holds
/// the newest file.
pub fn default_lib_dir() -> Option<PathBuf> {
    let exe_dir = std::env::current_exe().ok()?.parent()?.to_path_buf();
    let installed = exe_dir.parent().map(|prefix| prefix.join("lib"));
    [Some(exe_dir.clone()), Some(exe_dir.join("deps")), installed]
        .into_iter()
        .flatten()
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
