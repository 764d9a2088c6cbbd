//! Files a command writes once its work is done (a report page, a work
//! unit's result): checked before the work starts, so that a mistyped path
//! costs a message, not a finished evaluation or search.

use anyhow::{Context, bail};
use std::fs::OpenOptions;
use std::io::ErrorKind;
use std::path::Path;

/// Checks that `path` can be written later: an existing file must open
/// for writing (it is neither changed nor truncated here); a new one's
/// folder must accept a file (a temporary file is made there and removed).
///
/// Errors: `cannot write PATH: why` (`no folder F`, `permission denied`,
/// that it is a folder, ...).
pub fn check_writable(path: &Path) -> anyhow::Result<()> {
    let shown = path.display();
    if path.is_dir() {
        bail!("cannot write {shown}: it is a folder");
    }
    if path.exists() {
        OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("cannot write {shown}"))?;
        return Ok(());
    }
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    match tempfile::Builder::new()
        .prefix(".poker-write-check-")
        .tempfile_in(folder)
    {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == ErrorKind::NotFound => {
            bail!("cannot write {shown}: no folder {}", folder.display())
        }
        // The error names the temporary file: say only why.
        Err(e) => bail!("cannot write {shown}: {}", std::io::Error::from(e.kind())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_folder_or_a_folder_is_refused_with_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no-such-folder/report.html");
        let error = format!("{:#}", check_writable(&missing).unwrap_err());
        let folder = dir.path().join("no-such-folder");
        assert_eq!(
            error,
            format!(
                "cannot write {}: no folder {}",
                missing.display(),
                folder.display()
            )
        );
        let error = format!("{:#}", check_writable(dir.path()).unwrap_err());
        assert!(error.ends_with("it is a folder"), "{error}");
    }

    #[test]
    fn a_writable_path_is_left_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let new = dir.path().join("report.html");
        check_writable(&new).unwrap();
        // Nothing is left behind: no file, no temporary file.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        let old = dir.path().join("old.html");
        std::fs::write(&old, "kept").unwrap();
        check_writable(&old).unwrap();
        assert_eq!(std::fs::read_to_string(&old).unwrap(), "kept");
    }
}
