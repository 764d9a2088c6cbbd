//! One evaluation's hold on the machine, or on CPUs of its own, across
//! every evaluator process of the machine: two contestants' jails alive at
//! once share what no namespace holds (the CPU they run on, caches, the
//! kernel's machine-wide pools), so evaluations take turns unless each
//! has CPUs of its own.
//!
//! The same mechanism as the uid leases ([`super::UidLease`]): lock files
//! under `/run/poker-sandbox/lease/` (see `lock_dir` in `uid.rs` for the
//! fallbacks), held with `flock` for the lease's life; the kernel releases
//! them when the lease is dropped or its process dies. `machine.lock` is
//! held exclusively by a lease of the whole machine and shared by a lease
//! of CPUs, which also holds `cpu-N.lock` of each of its CPUs exclusively.
//! Locks are always taken in that order (the machine, then the CPUs in
//! increasing order), so two waiting evaluations cannot deadlock.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use rustix::fs::{FlockOperation, flock};

use super::uid::lock_dir;

/// The machine, or a set of its CPUs, held by one evaluation until
/// dropped.
#[derive(Debug)]
pub struct MachineLease {
    cpus: Option<Vec<usize>>,
    /// The lock files held, the exclusively held ones with our pid in them.
    locks: Vec<(File, bool)>,
}

/// One lock file and how it is held.
struct Wanted {
    path: PathBuf,
    exclusive: bool,
    /// What it stands for, for the waiting message.
    what: String,
}

impl MachineLease {
    /// Takes the whole machine (`cpus` is `None`) or each CPU of `cpus`
    /// exclusively, waiting as long as it takes. When it must wait, first
    /// calls `waiting` once with what it waits for, e.g. "another
    /// evaluation holds the machine (pid 4242)".
    ///
    /// A lease of the machine waits for every other lease; leases of CPU
    /// sets wait only for those sharing a CPU with them (and for a lease of
    /// the machine). Errors: an empty CPU set (`InvalidInput`), the lock
    /// folder unusable, I/O errors of the lock files.
    pub fn acquire(cpus: Option<&[usize]>, waiting: impl FnOnce(&str)) -> io::Result<MachineLease> {
        Self::acquire_in(&lock_dir("lease")?, cpus, waiting)
    }

    /// [`MachineLease::acquire`] with the lock files in `dir`.
    fn acquire_in(
        dir: &Path,
        cpus: Option<&[usize]>,
        waiting: impl FnOnce(&str),
    ) -> io::Result<MachineLease> {
        let (cpus, wanted) = plan(dir, cpus)?;
        match take(&wanted, false)? {
            Ok(locks) => Ok(MachineLease { cpus, locks }),
            Err(busy) => {
                waiting(&busy);
                let locks = take(&wanted, true)?.expect("a blocking take waits");
                Ok(MachineLease { cpus, locks })
            }
        }
    }

    /// [`MachineLease::acquire`] without waiting: `Ok(None)` when another
    /// lease holds what this one needs.
    pub fn try_acquire(cpus: Option<&[usize]>) -> io::Result<Option<MachineLease>> {
        Self::try_acquire_in(&lock_dir("lease")?, cpus)
    }

    /// [`MachineLease::try_acquire`] with the lock files in `dir`.
    fn try_acquire_in(dir: &Path, cpus: Option<&[usize]>) -> io::Result<Option<MachineLease>> {
        let (cpus, wanted) = plan(dir, cpus)?;
        Ok(take(&wanted, false)?
            .ok()
            .map(|locks| MachineLease { cpus, locks }))
    }

    /// The CPUs held, in increasing order; `None` for the whole machine.
    pub fn cpus(&self) -> Option<&[usize]> {
        self.cpus.as_deref()
    }
}

impl Drop for MachineLease {
    fn drop(&mut self) {
        // Our pid out of the files we held alone, before the kernel
        // releases the locks as the files close.
        for (file, exclusive) in &self.locks {
            if *exclusive {
                let _ = file.set_len(0);
            }
        }
    }
}

/// The CPU set sorted without repeats, and the lock files it needs, in
/// the order they are taken.
fn plan(dir: &Path, cpus: Option<&[usize]>) -> io::Result<(Option<Vec<usize>>, Vec<Wanted>)> {
    let machine = |exclusive| Wanted {
        path: dir.join("machine.lock"),
        exclusive,
        what: "the machine".into(),
    };
    let Some(cpus) = cpus else {
        return Ok((None, vec![machine(true)]));
    };
    let mut cpus = cpus.to_vec();
    cpus.sort_unstable();
    cpus.dedup();
    if cpus.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "a lease of CPUs needs at least one CPU",
        ));
    }
    let mut wanted = vec![machine(false)];
    wanted.extend(cpus.iter().map(|cpu| Wanted {
        path: dir.join(format!("cpu-{cpu}.lock")),
        exclusive: true,
        what: format!("CPU {cpu}"),
    }));
    Ok((Some(cpus), wanted))
}

/// Takes every lock of `wanted` in order: `Ok(Ok(files))`, or, when not
/// `blocking` and one is held elsewhere, `Ok(Err(what we wait for))` with
/// none kept.
fn take(wanted: &[Wanted], blocking: bool) -> io::Result<Result<Vec<(File, bool)>, String>> {
    let mut held = Vec::new();
    for w in wanted {
        let mut file = open_lock(&w.path)?;
        let operation = match (w.exclusive, blocking) {
            (true, true) => FlockOperation::LockExclusive,
            (true, false) => FlockOperation::NonBlockingLockExclusive,
            (false, true) => FlockOperation::LockShared,
            (false, false) => FlockOperation::NonBlockingLockShared,
        };
        match flock(&file, operation) {
            Ok(()) => {}
            Err(rustix::io::Errno::WOULDBLOCK) if !blocking => {
                return Ok(Err(busy_message(w, &mut file)));
            }
            Err(e) => return Err(e.into()),
        }
        if w.exclusive {
            file.set_len(0)?;
            file.rewind()?;
            writeln!(file, "{}", std::process::id())?;
        }
        held.push((file, w.exclusive));
    }
    Ok(Ok(held))
}

/// Opens (making it if needed) the lock file at `path`, never through a
/// symbolic link.
pub(crate) fn open_lock(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
        .open(path)
}

/// "another evaluation holds WHAT (pid N)": the pid when the holder wrote
/// it (a lease of CPUs shares the machine's file and writes none there).
fn busy_message(wanted: &Wanted, file: &mut File) -> String {
    let mut text = String::new();
    let _ = file.read_to_string(&mut text);
    let holder = text.trim().parse::<u32>().ok();
    let whose = if wanted.exclusive && wanted.what == "the machine" && holder.is_none() {
        "other evaluations hold CPUs of the machine".to_string()
    } else {
        format!("another evaluation holds {}", wanted.what)
    };
    match holder {
        Some(pid) => format!("{whose} (pid {pid})"),
        None => whose,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn free(dir: &Path, cpus: Option<&[usize]>) -> bool {
        MachineLease::try_acquire_in(dir, cpus).unwrap().is_some()
    }

    // flock locks belong to open file descriptions, so two leases of one
    // process exclude each other as two processes' would.
    #[test]
    fn the_machine_excludes_every_lease_and_cpu_sets_only_overlapping_ones() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        let whole = MachineLease::try_acquire_in(dir, None).unwrap().unwrap();
        assert_eq!(whole.cpus(), None);
        assert!(!free(dir, None));
        assert!(!free(dir, Some(&[1])));
        drop(whole);

        let first = MachineLease::try_acquire_in(dir, Some(&[2, 0, 2]))
            .unwrap()
            .unwrap();
        assert_eq!(first.cpus(), Some(&[0, 2][..]));
        // Disjoint: both run; sharing CPU 2, or the whole machine: waits.
        assert!(free(dir, Some(&[1, 3])));
        assert!(!free(dir, Some(&[2, 3])));
        assert!(!free(dir, None));
        let second = MachineLease::try_acquire_in(dir, Some(&[1]))
            .unwrap()
            .unwrap();
        drop(first);
        assert!(free(dir, Some(&[0, 2])));
        assert!(!free(dir, None));
        drop(second);
        assert!(free(dir, None));
    }

    #[test]
    fn a_waiting_lease_says_what_it_waits_for_and_gets_it_when_freed() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path().to_path_buf();
        let held = MachineLease::try_acquire_in(&dir, None).unwrap().unwrap();
        let (said, heard) = std::sync::mpsc::channel();
        let waiter = {
            let dir = dir.clone();
            std::thread::spawn(move || {
                MachineLease::acquire_in(&dir, Some(&[5]), |why| said.send(why.to_owned()).unwrap())
                    .unwrap()
            })
        };
        // The event: the waiter says it waits (only then is it blocked).
        let why = heard.recv().unwrap();
        let me = std::process::id();
        assert_eq!(
            why,
            format!("another evaluation holds the machine (pid {me})")
        );
        drop(held);
        let got = waiter.join().unwrap();
        assert_eq!(got.cpus(), Some(&[5][..]));
        // A lease of the machine waits for the lease of CPU 5.
        let (said, heard) = std::sync::mpsc::channel();
        let waiter = std::thread::spawn(move || {
            MachineLease::acquire_in(&dir, None, |why| said.send(why.to_owned()).unwrap()).unwrap()
        });
        assert_eq!(
            heard.recv().unwrap(),
            "other evaluations hold CPUs of the machine"
        );
        drop(got);
        assert_eq!(waiter.join().unwrap().cpus(), None);
    }

    #[test]
    fn an_empty_cpu_set_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let err = MachineLease::try_acquire_in(dir.path(), Some(&[])).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
    }
}
