//! Keeping the evaluator's descriptors out of the programs it starts.

use std::os::fd::RawFd;

/// Marks every descriptor from `first` to `last` close-on-exec, so that nothing
/// the evaluator holds (or inherited from its own parent) reaches a program
/// except what the caller passes on purpose afterwards. To run between fork
/// and exec: one system call, no allocation.
///
/// rustix has no `close_range`; the raw call's result is checked, so a
/// kernel without it (before Linux 5.11) fails the start instead of
/// silently leaking descriptors.
pub fn close_inherited_on_exec(first: RawFd, last: RawFd) -> std::io::Result<()> {
    const CLOSE_RANGE_CLOEXEC: libc::c_uint = 1 << 2;
    // SAFETY: close_range takes two descriptor numbers and flags.
    let result = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            first as libc::c_uint,
            last as libc::c_uint,
            CLOSE_RANGE_CLOEXEC,
        )
    };
    if result < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// A fresh close-on-exec memory file holding `bytes`, at descriptor
/// `first_fd` or above, positioned at its end: for bubblewrap options that
/// read a descriptor to its end (`--ro-bind-data`, `--seccomp`), which the
/// jail rewinds before each start.
pub(crate) fn memory_file(
    name: &str,
    bytes: &[u8],
    first_fd: RawFd,
) -> std::io::Result<std::os::fd::OwnedFd> {
    use std::io::Write;
    let memfd = rustix::fs::memfd_create(name, rustix::fs::MemfdFlags::CLOEXEC)?;
    let mut file = std::fs::File::from(rustix::io::fcntl_dupfd_cloexec(&memfd, first_fd)?);
    file.write_all(bytes)?;
    Ok(file.into())
}
