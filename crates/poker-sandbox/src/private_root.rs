//! What a sandboxed contestant's games see: exactly the files its program
//! needs, copied into a private image ([`crate::Image`]) once per
//! contestant. For a program: the system loader, its shared libraries and
//! libpoker's (resolved from ELF headers, [`crate::closure`]), the
//! program and libpoker. For a Python script: also the interpreter, its
//! standard library without tests, and the libraries its `lib-dynload`
//! modules need. The host's `dist-packages` (numpy and such) are not
//! copied: a Python contestant has the standard library only.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::launcher::Program;
use crate::closure::{Copy, inside_path, needed_files};
use crate::{Image, PROGRAM_PATH, PYTHON_SCRIPT_PATH};

/// Folders of the standard library left out: its own tests.
const SKIPPED_DIRS: &[&str] = &["test", "tests", "idle_test", "__phello__"];

/// Gives `program` a private image under `images_dir` (reachable by
/// others) holding every file it needs, and no host file to bind.
///
/// `lib_dirs`: the folders (`--lib-dir` and its aliases) where libraries
/// besides the system's may be found. `python`: the program is the
/// interpreter and its first argument the script.
///
/// Errors (a "not run" reason): see [`needed_files`], or the copies could
/// not be made.
pub fn privatize(
    program: &mut Program,
    python: bool,
    lib_dirs: &[PathBuf],
    images_dir: &Path,
) -> Result<(), String> {
    let mut files: BTreeMap<PathBuf, Copy> = BTreeMap::new();
    let add_elf = |files: &mut BTreeMap<PathBuf, Copy>, path: &Path, is_program| {
        needed_files(path, is_program, lib_dirs).map(|found| files.extend(found))
    };
    add_elf(&mut files, &program.path, true)?;
    // The program (a Python contestant's script) runs from a fixed path,
    // so its argv[0] (sys.argv[0]) names neither the host's scratch folder
    // nor the contestant's index or source folder.
    let script = python
        .then(|| program.args.first().map(PathBuf::from))
        .flatten();
    for file in &program.files {
        let inside = if script.as_ref() == Some(file) {
            PathBuf::from(PYTHON_SCRIPT_PATH)
        } else if *file == program.path && !python {
            PathBuf::from(PROGRAM_PATH)
        } else if *file == program.path {
            inside_path(file)?
        } else {
            file.clone()
        };
        files.insert(
            inside.clone(),
            Copy {
                host: file.clone(),
                inside,
            },
        );
        if file.extension().is_some_and(|e| e == "so") {
            add_elf(&mut files, file, false)?;
        }
    }
    if python {
        python_library(&program.path, lib_dirs, &mut files)?;
    }
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let dir = images_dir.join(NEXT.fetch_add(1, Ordering::Relaxed).to_string());
    let copies: Vec<Copy> = files.into_values().collect();
    let image =
        Image::build(&dir, &copies).map_err(|e| format!("cannot copy its files in: {e}"))?;
    if python {
        program.path = inside_path(&program.path)?;
        if let Some(first) = program.args.first_mut() {
            *first = PYTHON_SCRIPT_PATH.into();
        }
    } else {
        program.path = PROGRAM_PATH.into();
    }
    program.files.clear();
    program.image = Some(Arc::new(image));
    Ok(())
}

/// The interpreter's standard library (`<prefix>/lib/python3.X`, without
/// tests) and the libraries of its `lib-dynload` modules. A module whose
/// libraries cannot all be had is left out (importing it fails).
fn python_library(
    interpreter: &Path,
    lib_dirs: &[PathBuf],
    files: &mut BTreeMap<PathBuf, Copy>,
) -> Result<(), String> {
    let real =
        fs::canonicalize(interpreter).map_err(|e| format!("{}: {e}", interpreter.display()))?;
    let version = real
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| n.starts_with("python3."))
        .ok_or_else(|| format!("{}: not a python3.X interpreter", real.display()))?;
    let prefix = real
        .parent()
        .and_then(Path::parent)
        .ok_or("the interpreter has no prefix")?;
    let library = prefix.join("lib").join(&version);
    let mut pending = vec![library.clone()];
    while let Some(dir) = pending.pop() {
        let entries = fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                let skipped = SKIPPED_DIRS.iter().any(|s| name == *s);
                let packages = dir == library && name.to_string_lossy().ends_with("-packages");
                if !skipped && !packages {
                    pending.push(path);
                }
                continue;
            }
            // Files, and links to files (a link to a folder is skipped).
            if !fs::metadata(&path).is_ok_and(|m| m.is_file()) {
                continue;
            }
            let dynload = dir.file_name().is_some_and(|n| n == "lib-dynload");
            if dynload && name.to_string_lossy().ends_with(".so") {
                match needed_files(&path, false, lib_dirs) {
                    Ok(found) => files.extend(found),
                    Err(_) => continue,
                }
            }
            files.insert(
                path.clone(),
                Copy {
                    host: path.clone(),
                    inside: path,
                },
            );
        }
    }
    Ok(())
}
