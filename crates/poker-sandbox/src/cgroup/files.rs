//! Reading and writing a cgroup's files.

use std::fs;
use std::io;
use std::path::Path;

/// Writes `value` to the control file `path`; the error names both.
pub(super) fn write_file(path: &Path, value: &str) -> io::Result<()> {
    fs::write(path, value).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot write {value:?} to {}: {e}", path.display()),
        )
    })
}

/// The value of `key` in a flat-keyed file (`key value` lines).
pub(super) fn keyed(path: &Path, key: &str) -> Option<u64> {
    let text = fs::read_to_string(path).ok()?;
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok())?
    })
}

/// The one number a file holds.
pub(super) fn single(path: &Path) -> Option<u64> {
    fs::read_to_string(path).ok()?.trim().parse().ok()
}
