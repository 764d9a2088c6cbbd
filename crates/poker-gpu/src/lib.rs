//! The Camicia record hunt on a GPU: `poker camicia search --engine gpu`.
//!
//! A compute kernel in WGSL, run through wgpu on Vulkan (Linux, Windows,
//! any vendor; Mesa's lavapipe on a CPU for the tests) or Metal (macOS),
//! makes the deals itself (random deals from the same ChaCha8 streams as
//! the CPU search, index ranges unranked in 128-bit arithmetic), plays
//! them and sums the histogram and checksum of the short games. The CPU
//! plays again every game the GPU claims (long enough to rank or to be
//! extended, or a possible loop) before counting it, and one deal a block
//! chosen by a hash, and compares: a wrong kernel is refused, naming the
//! deal. The reports, and so the unit files, are the CPU engines'.
//!
//! ```no_run
//! use poker_gpu::{Adapters, Checks, Gpu, run_from};
//! use poker_core::camicia::search::{Partial, Report, Search, Work};
//! use std::num::NonZeroUsize;
//!
//! let gpu = Gpu::open(Adapters::Any)?;
//! let search = Search {
//!     work: Work::Random { seed: 7, count: 1_000_000 },
//!     top: 10,
//!     threads: NonZeroUsize::MIN,
//!     extend: None,
//! };
//! let from = Partial { blocks: 0, report: Report::new(10) };
//! let mut checks = Checks::default();
//! let done = run_from(&gpu, &search, from, |_| {}, |_| {}, |_| std::ops::ControlFlow::Continue(()), &mut checks)?;
//! println!("{} deals on {}", done.report.deals, gpu.describe());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod device;
mod search;
mod tables;

pub use device::{
    ADAPTER_VARIABLE, Adapters, Gpu, JACK_PAYS_VARIABLE, KERNEL_VARIABLE, Kernel, Unavailable,
};
pub use search::{Checks, GpuError, run_from};
