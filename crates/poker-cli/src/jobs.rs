//! `--jobs N`, the same in every command that runs work in parallel: one
//! per core by default, from 1 to 4 per core.

use anyhow::bail;

/// The jobs to run at once: `asked`, or one per core (rayon's count,
/// which `RAYON_NUM_THREADS` sets); an error for 0 or
/// more than 4 per core (more only thrash the machine).
pub fn bounded(asked: Option<usize>) -> anyhow::Result<usize> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = asked.unwrap_or_else(rayon::current_num_threads);
    if jobs == 0 || jobs > 4 * cores {
        bail!(
            "--jobs must be from 1 to {} (4 per core on this machine), not {jobs}",
            4 * cores
        );
    }
    Ok(jobs)
}
