//! Private scratch folders.

use std::fs::{self, Permissions};
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// Creates a new folder, mode 0700, under the system's temporary folder
/// with a name starting with `prefix` followed by random characters.
///
/// Never an existing path: the name is new, made with `mkdir`, which fails
/// on anything already there (symlinks included). Removed with its contents
/// when the returned [`tempfile::TempDir`] is dropped.
///
/// Errors: those of creating the folder or setting its mode.
pub fn private_dir(prefix: &str) -> io::Result<tempfile::TempDir> {
    private_dir_in(&std::env::temp_dir(), prefix)
}

/// As [`private_dir`], in the folder `base`.
pub fn private_dir_in(base: &Path, prefix: &str) -> io::Result<tempfile::TempDir> {
    let dir = tempfile::Builder::new()
        .prefix(prefix)
        .permissions(Permissions::from_mode(0o700))
        .tempdir_in(base)?;
    // The mode of mkdir is masked by umask, which can only remove bits.
    fs::set_permissions(dir.path(), Permissions::from_mode(0o700))?;
    Ok(dir)
}
