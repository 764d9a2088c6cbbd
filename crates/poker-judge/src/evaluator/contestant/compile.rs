//! Compiling a contestant's source: alone in a fresh build folder, through
//! the launcher (so in the sandbox when it is on), under the compile
//! limits; the program kept where no contestant can write, or the
//! compiler's own words on why not.

use super::{CPP_EXTENSIONS, Toolchain, resolve};
use crate::evaluator::error::NotRun;
use crate::evaluator::launcher::Program;
use crate::evaluator::process::Supervisor;
use crate::evaluator::verdict::{RunVerdict, classify, failed_to_start};
use crate::sandbox::{Fds, Outcome, Runner};
use std::ffi::OsString;
use std::fs::{self, Permissions};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The largest compiled program accepted, in bytes.
const MAX_PROGRAM: u64 = 64 << 20;
/// How far past [`MAX_PROGRAM`] a compiler's file may grow
/// (`RLIMIT_FSIZE`) before the kernel stops it with SIGXFSZ: a little, so
/// that a program just over the cap is refused by size, not by signal.
const COMPILER_FILE_SLACK: u64 = 1 << 20;

/// How gcc's driver, collect2 and fpc describe a child killed by SIGXFSZ
/// (glibc's `strsignal`).
const SIGXFSZ_TEXT: &str = "File size limit exceeded";

/// The most lines of compiler diagnostics kept for a contestant that does
/// not compile.
pub const DIAGNOSTIC_LINES: usize = 20;

impl Toolchain {
    /// Compiles `source` (`kind` its extension: "c", a C++ one, "pas" or
    /// "pp") alone in a fresh
    /// build folder, through the launcher, and keeps the program where no
    /// contestant can write. `record` gets the compile command.
    pub(super) fn compile(
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
        let running = Runner::new(&self.config.launcher)
            .start(&program, limits, Fds::Stdio)
            .map_err(|e| NotRun::Setup(format!("cannot start the compiler for {shown}: {e}")))?;
        let _ = supervisor;
        let exited = running.wait_until(Instant::now() + limits.wall);
        let rlimit_holds = running.cpu_watch == super::super::cpu_watch::Watch::Absent;
        let Outcome {
            ended,
            usage,
            stdout,
            stderr,
        } = running.finish();
        let ending = ended.as_ref().map(|o| &o.ending);
        let mut verdict = classify(ending, &usage, !exited, rlimit_holds, limits);
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
