//! `poker camicia search --engine`: the CPU's vector engine, or the GPU
//! engine where this build has it (`--features gpu`) and a device is there.

use poker_core::camicia::search::{Game, Partial, Search};
use poker_hunt::checkpoint::RunError;
use poker_hunt::unit::engine_name;
use std::ops::ControlFlow;

/// `--engine`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Choice {
    /// The GPU engine if this build has it and a GPU (not a CPU adapter
    /// such as lavapipe) is present; else the CPU engine, saying why.
    Auto,
    /// The GPU engine on any Vulkan or Metal device, a CPU one too; an
    /// error if there is none.
    Gpu,
    /// The CPU's vector engine on --jobs threads.
    Cpu,
}

/// The engine a search runs on.
pub enum Chosen {
    /// The CPU's vector engine.
    Cpu,
    /// The GPU engine.
    #[cfg(feature = "gpu")]
    Gpu(Box<gpu::GpuEngine>),
}

impl Chosen {
    /// Picks the engine for `--engine choice`; for `auto`, tells on
    /// standard error why the GPU is not used (in a build that has it).
    ///
    /// # Errors
    /// For `--engine gpu`, why it cannot run.
    pub fn pick(choice: Choice) -> anyhow::Result<Chosen> {
        match choice {
            Choice::Cpu => Ok(Chosen::Cpu),
            Choice::Gpu => Self::gpu(true),
            Choice::Auto => Ok(Self::gpu(false).unwrap_or_else(|why| {
                if cfg!(feature = "gpu") {
                    eprintln!("poker: searching with the CPU engine: {why:#}");
                }
                Chosen::Cpu
            })),
        }
    }

    #[cfg(feature = "gpu")]
    fn gpu(any_adapter: bool) -> anyhow::Result<Chosen> {
        let which = if any_adapter {
            poker_gpu::Adapters::Any
        } else {
            poker_gpu::Adapters::GpusOnly
        };
        let device =
            poker_gpu::Gpu::open(which).map_err(|e| anyhow::anyhow!("no GPU engine: {e}"))?;
        Ok(Chosen::Gpu(Box::new(gpu::GpuEngine::new(device))))
    }

    #[cfg(not(feature = "gpu"))]
    fn gpu(_any_adapter: bool) -> anyhow::Result<Chosen> {
        anyhow::bail!(
            "this poker was built without the GPU engine \
             (build it with: cargo build --release -p poker-cli --features gpu)"
        )
    }

    /// The name unit files record.
    pub fn name(&self) -> String {
        match self {
            Chosen::Cpu => engine_name().into(),
            #[cfg(feature = "gpu")]
            Chosen::Gpu(_) => poker_hunt::unit::GPU_ENGINE.into(),
        }
    }

    /// The GPU and what the CPU checked of its work, for the summary.
    pub fn gpu_summary(&self) -> Option<serde_json::Value> {
        match self {
            Chosen::Cpu => None,
            #[cfg(feature = "gpu")]
            Chosen::Gpu(g) => Some(g.summary()),
        }
    }
}

impl poker_hunt::hunt::Engine for Chosen {
    fn run_from(
        &self,
        search: &Search,
        from: Partial,
        progress: &(dyn Fn(u64) + Sync),
        on_loop: &mut dyn FnMut(&Game),
        after_batch: &mut dyn FnMut(&Partial) -> ControlFlow<()>,
    ) -> Result<Partial, RunError> {
        match self {
            Chosen::Cpu => {
                poker_hunt::hunt::Cpu.run_from(search, from, progress, on_loop, after_batch)
            }
            #[cfg(feature = "gpu")]
            Chosen::Gpu(g) => g.run_from(search, from, progress, on_loop, after_batch),
        }
    }
}

#[cfg(feature = "gpu")]
mod gpu {
    use super::*;
    use poker_gpu::{Checks, Gpu};
    use serde_json::json;
    use std::sync::Mutex;

    /// The GPU engine, with what the CPU checked so far.
    pub struct GpuEngine {
        device: Gpu,
        checks: Mutex<Checks>,
    }

    impl GpuEngine {
        pub fn new(device: Gpu) -> GpuEngine {
            GpuEngine {
                device,
                checks: Mutex::new(Checks::default()),
            }
        }

        pub fn summary(&self) -> serde_json::Value {
            let c = *self.checks.lock().expect("not poisoned");
            json!({
                "device": self.device.describe(),
                "kernel": self.device.kernel().name(),
                "dispatches": c.dispatches,
                "claims_replayed": c.claims,
                "samples_compared": c.samples,
                "blocks_on_cpu": c.cpu_blocks,
            })
        }

        pub fn run_from(
            &self,
            search: &Search,
            from: Partial,
            progress: &(dyn Fn(u64) + Sync),
            on_loop: &mut dyn FnMut(&Game),
            after_batch: &mut dyn FnMut(&Partial) -> ControlFlow<()>,
        ) -> Result<Partial, RunError> {
            let mut checks = self.checks.lock().expect("not poisoned");
            poker_gpu::run_from(
                &self.device,
                search,
                from,
                progress,
                on_loop,
                after_batch,
                &mut checks,
            )
            .map_err(|e| RunError::Engine(e.to_string()))
        }
    }
}
