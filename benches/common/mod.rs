//! Helpers shared by the benchmarks.

use std::time::Duration;

/// This thread's CPU time: benchmarks that time with it report per-core
/// figures even on a busy machine, where wall-clock samples include waiting
/// for a CPU.
pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid clock id and a pointer to a live timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}
