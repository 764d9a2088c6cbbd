//! Finding the libpoker a contestant links against when the organiser
//! names none: the freshest near the running `poker`.

use std::fs;
use std::path::{Path, PathBuf};

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
