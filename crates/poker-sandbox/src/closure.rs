//! The files a dynamically linked program needs to start: the system's
//! loader and the shared libraries it would load, found by reading ELF
//! headers with the `object` crate. Never by running `ldd`, which runs the
//! program's own `PT_INTERP` loader (a contestant controls that entry)
//! outside the jail.
//!
//! Only the system loader is accepted as `PT_INTERP`, and `DT_NEEDED`
//! names are looked up only in the loader's default folders and the
//! folders the caller allows (`--lib-dir`), so a contestant cannot name a
//! host file that gets copied into its jail: at most a system library.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use object::Endianness;
use object::elf::{self, FileHeader64};
use object::read::elf::{Dyn as _, FileHeader as _, ProgramHeader as _};

/// The system's dynamic loader, the only `PT_INTERP` accepted.
#[cfg(target_arch = "x86_64")]
pub const SYSTEM_LOADER: &str = "/lib64/ld-linux-x86-64.so.2";
#[cfg(target_arch = "aarch64")]
pub const SYSTEM_LOADER: &str = "/lib/ld-linux-aarch64.so.1";

#[cfg(target_arch = "x86_64")]
const MACHINE: u16 = elf::EM_X86_64;
#[cfg(target_arch = "aarch64")]
const MACHINE: u16 = elf::EM_AARCH64;

/// The loader's default folders (glibc on Debian, as `ld.so --help`
/// lists them), searched after a program's `RPATH`/`RUNPATH`. Games have
/// no `ld.so.cache`: their libraries sit in these folders.
#[cfg(target_arch = "x86_64")]
pub const DEFAULT_LIBRARY_DIRS: &[&str] = &[
    "/lib/x86_64-linux-gnu",
    "/usr/lib/x86_64-linux-gnu",
    "/lib",
    "/usr/lib",
];
#[cfg(target_arch = "aarch64")]
pub const DEFAULT_LIBRARY_DIRS: &[&str] = &[
    "/lib/aarch64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/lib",
    "/usr/lib",
];

/// What one ELF file asks of the loader.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ElfNeeds {
    /// Its `PT_INTERP`, if any.
    pub interp: Option<String>,
    /// Its `DT_NEEDED` names, in order.
    pub needed: Vec<String>,
    /// Its `DT_RPATH` and `DT_RUNPATH` entries, in order.
    pub search: Vec<String>,
    /// Whether it is a shared object (`ET_DYN`) rather than `ET_EXEC`.
    pub shared: bool,
}

/// Reads the loader's entries of a 64-bit ELF file of this machine.
///
/// Errors: not such a file, or its headers or dynamic section malformed.
pub fn read_needs(data: &[u8]) -> Result<ElfNeeds, String> {
    let bad = |e: object::read::Error| format!("malformed ELF file ({e})");
    let header =
        FileHeader64::<Endianness>::parse(data).map_err(|_| "not a 64-bit ELF file".to_string())?;
    let endian = header.endian().map_err(bad)?;
    if header.e_machine(endian) != MACHINE {
        return Err("an ELF file for another machine".into());
    }
    let kind = header.e_type(endian);
    if kind != elf::ET_EXEC && kind != elf::ET_DYN {
        return Err("an ELF file that is neither a program nor a library".into());
    }
    let mut needs = ElfNeeds {
        shared: kind == elf::ET_DYN,
        ..ElfNeeds::default()
    };
    for ph in header.program_headers(endian, data).map_err(bad)? {
        if ph.p_type(endian) == elf::PT_INTERP {
            let bytes = ph
                .data(endian, data)
                .map_err(|()| "malformed PT_INTERP".to_string())?;
            let bytes = bytes.split(|&b| b == 0).next().unwrap_or_default();
            needs.interp = Some(String::from_utf8_lossy(bytes).into_owned());
        }
    }
    let sections = header.sections(endian, data).map_err(bad)?;
    // `dynamic` gives the index of its linked string table.
    if let Some((dynamic, strings)) = sections.dynamic(endian, data).map_err(bad)? {
        let strings = sections.strings(endian, data, strings).map_err(bad)?;
        for entry in dynamic {
            let Some(tag) = entry.tag32(endian) else {
                continue;
            };
            if !matches!(tag, elf::DT_NEEDED | elf::DT_RPATH | elf::DT_RUNPATH) {
                continue;
            }
            let text = entry.string(endian, strings).map_err(bad)?;
            let text = String::from_utf8_lossy(text).into_owned();
            match tag {
                elf::DT_NEEDED => needs.needed.push(text),
                _ => needs.search.extend(text.split(':').map(str::to_owned)),
            }
        }
    }
    Ok(needs)
}

/// One file to copy into a jail: from `host`, to `inside` (an absolute
/// path whose folders are the host's without links).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Copy {
    /// Where it is read from.
    pub host: PathBuf,
    /// Where it sits in the jail.
    pub inside: PathBuf,
}

/// The loader and every shared library `object` (a program when `program`,
/// else a library loaded at run time) needs, recursively, resolved as the
/// loader would in a jail holding only these copies: `RPATH`/`RUNPATH`
/// entries (each must be one of `allowed_dirs` or a default folder), then
/// [`DEFAULT_LIBRARY_DIRS`]. Keyed by inside path.
///
/// Errors (the "not run" reason): a `PT_INTERP` other than
/// [`SYSTEM_LOADER`], a search folder elsewhere (`$ORIGIN` included), a
/// `DT_NEEDED` name with a `/`, a library found nowhere allowed, a file
/// that is not an ELF file of this machine.
pub fn needed_files(
    object: &Path,
    program: bool,
    allowed_dirs: &[PathBuf],
) -> Result<BTreeMap<PathBuf, Copy>, String> {
    let mut found = BTreeMap::new();
    let allowed: Vec<PathBuf> = allowed_dirs
        .iter()
        .chain(
            DEFAULT_LIBRARY_DIRS
                .iter()
                .map(PathBuf::from)
                .collect::<Vec<_>>()
                .iter(),
        )
        .filter_map(|d| fs::canonicalize(d).ok())
        .collect();
    let data = fs::read(object).map_err(|e| format!("{}: {e}", object.display()))?;
    let needs = read_needs(&data).map_err(|e| format!("{}: {e}", object.display()))?;
    match (&needs.interp, program) {
        (Some(interp), _) if interp != SYSTEM_LOADER => {
            return Err(format!(
                "{} asks for the loader {interp}; only the system's {SYSTEM_LOADER} is run",
                object.display()
            ));
        }
        (Some(interp), _) => {
            let inside = inside_path(Path::new(interp))?;
            found.insert(
                inside.clone(),
                Copy {
                    host: interp.into(),
                    inside,
                },
            );
        }
        (None, true) if !needs.needed.is_empty() => {
            return Err(format!(
                "{} needs shared libraries but names no loader",
                object.display()
            ));
        }
        _ => {}
    }
    let mut pending = vec![(object.to_path_buf(), needs)];
    let mut seen_names = std::collections::BTreeSet::new();
    let program_search = pending[0].1.search.clone();
    while let Some((from, needs)) = pending.pop() {
        let mut dirs = Vec::new();
        for entry in needs.search.iter().chain(&program_search) {
            let dir = fs::canonicalize(entry).ok();
            match dir {
                Some(dir) if allowed.contains(&dir) => dirs.push(dir),
                // A folder that does not exist holds nothing to load.
                None if !entry.contains('$') && Path::new(entry).is_absolute() => {}
                _ => {
                    return Err(format!(
                        "{} searches for libraries in {entry}, outside the system's \
                         library folders and the library folder (--lib-dir)",
                        from.display()
                    ));
                }
            }
        }
        dirs.extend(allowed.iter().cloned());
        for name in &needs.needed {
            if name.is_empty() || name.contains('/') || name == "." || name == ".." {
                return Err(format!(
                    "{} needs the library {name:?}: only plain names are looked up",
                    from.display()
                ));
            }
            if !seen_names.insert(name.clone()) {
                continue;
            }
            let Some(dir) = dirs.iter().find(|d| d.join(name).is_file()) else {
                return Err(format!(
                    "{} needs {name}, found neither in the system's library folders \
                     nor in the library folder (--lib-dir)",
                    from.display()
                ));
            };
            let host = dir.join(name);
            let data = fs::read(&host).map_err(|e| format!("{}: {e}", host.display()))?;
            let lib_needs = read_needs(&data).map_err(|e| format!("{}: {e}", host.display()))?;
            if !lib_needs.shared {
                return Err(format!("{} is not a shared library", host.display()));
            }
            found.insert(
                host.clone(),
                Copy {
                    host: host.clone(),
                    inside: host.clone(),
                },
            );
            pending.push((host, lib_needs));
        }
    }
    Ok(found)
}

/// `path` with its folders' links resolved (the file itself may be a link:
/// the copy is of what it points to, under its own name).
pub fn inside_path(path: &Path) -> Result<PathBuf, String> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(format!("{} names no file", path.display()));
    };
    let dir = fs::canonicalize(dir).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(dir.join(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// /bin/true of Debian's coreutils (x86-64): `readelf -l` names the
    /// interpreter /lib64/ld-linux-x86-64.so.2, `readelf -d` needs
    /// libc.so.6, whose own need is ld-linux-x86-64.so.2; on a merged /usr
    /// the folders are /usr/lib64 and /usr/lib/x86_64-linux-gnu.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn a_system_program_needs_the_loader_and_libc() {
        let files = needed_files(Path::new("/bin/true"), true, &[]).unwrap();
        let inside: Vec<&Path> = files.values().map(|c| c.inside.as_path()).collect();
        assert_eq!(
            inside,
            [
                "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
                "/usr/lib/x86_64-linux-gnu/libc.so.6",
                "/usr/lib64/ld-linux-x86-64.so.2",
            ]
            .map(Path::new)
        );
    }

    #[test]
    fn a_text_file_is_no_program() {
        let e = needed_files(Path::new("/etc/hostname"), true, &[]).unwrap_err();
        assert!(e.contains("not a 64-bit ELF file"), "{e}");
    }

    /// Builds `main(){}` with `cc` and the extra `flags` into `dir`.
    fn build(dir: &Path, flags: &[&str]) -> PathBuf {
        let source = dir.join("p.c");
        let out = dir.join("p");
        fs::write(&source, "int main(void) { return 0; }\n").unwrap();
        let status = std::process::Command::new("cc")
            .arg("-o")
            .arg(&out)
            .arg(&source)
            .args(flags)
            .status()
            .expect("cc (Debian: gcc) runs");
        assert!(status.success());
        out
    }

    /// A C++ program (g++ links libstdc++ dynamically) needs the C++
    /// runtime: `readelf -d` of such a program names libstdc++.so.6, whose
    /// own needs are libm.so.6 and libgcc_s.so.1.
    #[test]
    fn a_cpp_program_needs_the_cpp_runtime() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("p.cpp");
        let out = dir.path().join("p");
        fs::write(
            &source,
            "#include <iostream>\nint main() { std::cout << 1 << std::endl; }\n",
        )
        .unwrap();
        let status = std::process::Command::new("c++")
            .arg("-o")
            .arg(&out)
            .arg(&source)
            .status()
            .expect("c++ (Debian: g++) runs");
        assert!(status.success());
        let files = needed_files(&out, true, &[]).unwrap();
        let names: Vec<String> = files
            .keys()
            .filter_map(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .collect();
        for needed in ["libstdc++.so.6", "libgcc_s.so.1", "libm.so.6", "libc.so.6"] {
            assert!(names.iter().any(|n| n == needed), "{needed}: {names:?}");
        }
    }

    #[test]
    fn a_foreign_loader_and_a_foreign_rpath_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let odd = build(dir.path(), &["-Wl,--dynamic-linker=/tmp/evil-ld.so"]);
        let e = needed_files(&odd, true, &[]).unwrap_err();
        assert!(e.contains("asks for the loader /tmp/evil-ld.so"), "{e}");
        let lib = dir.path().join("lib");
        fs::create_dir(&lib).unwrap();
        let rpath = format!("-Wl,-rpath,{}", lib.display());
        let elsewhere = build(dir.path(), &[&rpath]);
        let e = needed_files(&elsewhere, true, &[]).unwrap_err();
        assert!(e.contains("outside the system's library folders"), "{e}");
        // The same folder, allowed as the library folder: accepted.
        assert!(needed_files(&elsewhere, true, &[lib]).is_ok());
        let origin = build(dir.path(), &["-Wl,-rpath,$ORIGIN"]);
        let e = needed_files(&origin, true, &[]).unwrap_err();
        assert!(e.contains("$ORIGIN"), "{e}");
    }
}
