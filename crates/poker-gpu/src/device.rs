//! The GPU itself: choosing an adapter, the kernel's pipelines and
//! buffers, and one dispatch of whole blocks with its results read back.

use crate::tables;
use std::fmt;
use wgpu::util::DeviceExt;

/// Threads per workgroup (the kernel's `@workgroup_size`).
const WORKGROUP: u32 = 256;
/// Bins of the length histogram the kernel fills (10 cards each): games
/// of 20,480 cards or more are always claims.
pub(crate) const LENGTH_BINS: u32 = 2048;
/// Blocks in one dispatch at most (4 Mi deals).
pub(crate) const DISPATCH_BLOCKS: u64 = 256;
/// Claims one dispatch can hold; a dispatch with more is played again on
/// the CPU.
const CLAIM_CAPACITY: u32 = 1 << 16;
/// Bytes of one claim (`Claim` in the kernel).
const CLAIM_BYTES: u64 = 32;
/// Workgroups along x in a dispatch (the rest go along y).
const GROUPS_X: u32 = 4096;
/// Deals a lane of the persistent kernel takes in one dispatch, on
/// average: its workgroups are the dispatch's deals over this many a lane.
/// A few are enough to keep a warp's lanes busy; more would pass
/// lavapipe's bound of 65,535 loop iterations a thread (a game takes up
/// to some thousands), which cuts a loop short without a word. For a
/// full dispatch of 4 Mi deals: 1024 workgroups of 256, about the
/// threads an H100 holds at once (132 x 2048).
const DEALS_A_LANE: u32 = 16;

/// Which kernel plays the deals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// The persistent kernel (the default): a fixed number of workgroups,
    /// each with a backlog of deals in workgroup memory, its lanes taking
    /// the next deal as their game ends.
    Persistent,
    /// One thread a deal: a warp waits for its longest game.
    PerDeal,
}

impl Kernel {
    /// The kernel [`KERNEL_VARIABLE`] names, else the persistent one.
    ///
    /// # Errors
    /// The variable's value if it names no kernel.
    pub fn from_env() -> Result<Kernel, Unavailable> {
        match std::env::var(KERNEL_VARIABLE).as_deref() {
            Err(_) | Ok("persistent") => Ok(Kernel::Persistent),
            Ok("per-deal") => Ok(Kernel::PerDeal),
            Ok(other) => Err(Unavailable::Device(format!(
                "{KERNEL_VARIABLE}={other} is not a kernel: persistent or per-deal"
            ))),
        }
    }

    /// `persistent` or `per-deal`.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Persistent => "persistent",
            Kernel::PerDeal => "per-deal",
        }
    }
}

/// Which adapters may run the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adapters {
    /// Only a real GPU (`--engine auto`): adapters that are CPUs, such as
    /// Mesa's lavapipe, are passed over.
    GpusOnly,
    /// Any Vulkan or Metal adapter, a CPU one too (`--engine gpu`; the
    /// tests on lavapipe).
    Any,
}

/// Why no GPU engine could be started.
#[derive(Clone, Debug)]
pub enum Unavailable {
    /// No Vulkan or Metal adapter at all.
    NoAdapter,
    /// Only adapters that are CPUs, named.
    OnlyCpus(Vec<String>),
    /// The adapter would not give a device or compile the kernel.
    Device(String),
}

impl fmt::Display for Unavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unavailable::NoAdapter => f.write_str("no Vulkan or Metal device found"),
            Unavailable::OnlyCpus(names) => write!(
                f,
                "the only Vulkan or Metal device is a CPU ({}); --engine gpu uses it anyway",
                names.join(", ")
            ),
            Unavailable::Device(why) => write!(f, "the GPU could not be used: {why}"),
        }
    }
}

impl std::error::Error for Unavailable {}

/// What one dispatch is asked to do.
pub(crate) struct Dispatch {
    /// 0: random deals; 1: an index range.
    pub mode: u32,
    /// Deals in the dispatch (whole blocks but perhaps the last).
    pub deals: u32,
    /// Finished games of at least this many cards are claims.
    pub claim_from: u32,
    /// Games still running after this many tricks are claims.
    pub max_tricks: u32,
    /// ChaCha8's key (random deals).
    pub key: [u32; 8],
    /// The first block's stream (random deals).
    pub first_block: u64,
    /// The first deal's index (an index range).
    pub start: u128,
    /// Each block's sample: the place in the block of the deal to report.
    pub samples: Vec<u32>,
}

/// One game the kernel reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Claim {
    /// The deal's place in the dispatch.
    pub deal: u32,
    pub cards: u32,
    pub tricks: u32,
    /// Bits: 1 a claim, 2 the block's sample, 4 still running.
    pub kind: u32,
    /// The places of the deal's payment cards, as the GPU made it.
    pub places: [u8; 16],
}

/// What one dispatch found.
pub(crate) struct Found {
    /// Per block: nonzero if the GPU left it to the CPU (a draw that
    /// the search's sampling rejects and draws again).
    pub flags: Vec<u32>,
    /// Finished games the GPU counted, by length (bins of 10 cards).
    pub lengths: Vec<u64>,
    /// The wrapping sum of their outcome hashes.
    pub checksum: u64,
    /// The reported games; `None` if there were more than the buffer
    /// holds.
    pub claims: Option<Vec<Claim>>,
}

/// The GPU engine's device, pipelines and buffers.
pub struct Gpu {
    device: wgpu::Device,
    queue: wgpu::Queue,
    info: wgpu::AdapterInfo,
    deal: wgpu::ComputePipeline,
    play: wgpu::ComputePipeline,
    kernel: Kernel,
    /// Two sets of buffers: the GPU plays one dispatch while the CPU
    /// checks the one before.
    slots: [Slot; 2],
}

/// The buffers of one dispatch in flight, sized for the largest.
struct Slot {
    params: wgpu::Buffer,
    flags: wgpu::Buffer,
    samples: wgpu::Buffer,
    lengths: wgpu::Buffer,
    sums: wgpu::Buffer,
    count: wgpu::Buffer,
    claims: wgpu::Buffer,
    readback: wgpu::Buffer,
    bind: wgpu::BindGroup,
}

/// A dispatch submitted: its slot, its submission, and how much of each
/// buffer it reads back.
pub(crate) struct Ticket {
    slot: usize,
    submission: wgpu::SubmissionIndex,
    sizes: [u64; 5],
}

/// The environment variable that picks the device when there are several:
/// its number (0-based) among the GPUs, then the CPU adapters. One GPU a
/// process: `POKER_GPU_ADAPTER=1` for the second GPU.
pub const ADAPTER_VARIABLE: &str = "POKER_GPU_ADAPTER";

/// The environment variable that picks the kernel that plays the deals:
/// `persistent` (the default) or `per-deal`, for the benchmark's
/// comparison.
pub const KERNEL_VARIABLE: &str = "POKER_GPU_KERNEL";

/// The environment variable that changes what a jack makes the opponent
/// pay inside the kernel: for the tests that prove the CPU's checks catch
/// a wrong kernel. Never set it in a real search.
pub const JACK_PAYS_VARIABLE: &str = "POKER_GPU_TEST_JACK_PAYS";

impl Gpu {
    /// Opens the first adapter that `which` allows (Vulkan, or Metal on
    /// macOS) and compiles the kernel.
    ///
    /// # Errors
    /// [`Unavailable`] with the reason: no adapter, only CPUs (for
    /// [`Adapters::GpusOnly`]), or no device.
    pub fn open(which: Adapters) -> Result<Gpu, Unavailable> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = wgpu::Backends::VULKAN | wgpu::Backends::METAL;
        let instance = wgpu::Instance::new(desc);
        let adapters = pollster::block_on(instance.enumerate_adapters(desc_backends()));
        if adapters.is_empty() {
            return Err(Unavailable::NoAdapter);
        }
        let is_cpu = |a: &wgpu::Adapter| a.get_info().device_type == wgpu::DeviceType::Cpu;
        // GPUs first, then (for `Any`) CPU adapters.
        let mut usable: Vec<&wgpu::Adapter> = adapters.iter().filter(|a| !is_cpu(a)).collect();
        if which == Adapters::Any {
            usable.extend(adapters.iter().filter(|a| is_cpu(a)));
        }
        if usable.is_empty() {
            return Err(Unavailable::OnlyCpus(
                adapters.iter().map(|a| a.get_info().name).collect(),
            ));
        }
        let nth = match std::env::var(ADAPTER_VARIABLE) {
            Err(_) => 0,
            Ok(v) => v
                .parse::<usize>()
                .ok()
                .filter(|&n| n < usable.len())
                .ok_or_else(|| {
                    Unavailable::Device(format!(
                        "{ADAPTER_VARIABLE}={v} is not a device number 0..{}: {}",
                        usable.len() - 1,
                        usable
                            .iter()
                            .map(|a| a.get_info().name)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                })?,
        };
        let adapter = usable[nth];
        let info = adapter.get_info();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("camicia"),
            required_features: wgpu::Features::empty(),
            required_limits: wgpu::Limits {
                max_storage_buffer_binding_size: adapter.limits().max_storage_buffer_binding_size,
                max_buffer_size: adapter.limits().max_buffer_size,
                max_storage_buffers_per_shader_stage: 8,
                ..wgpu::Limits::downlevel_defaults()
            },
            ..Default::default()
        }))
        .map_err(|e| Unavailable::Device(e.to_string()))?;
        Gpu::build(device, queue, info)
    }

    fn build(
        device: wgpu::Device,
        queue: wgpu::Queue,
        info: wgpu::AdapterInfo,
    ) -> Result<Gpu, Unavailable> {
        let kernel = Kernel::from_env()?;
        let jack_pays = std::env::var(JACK_PAYS_VARIABLE)
            .ok()
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(1.0);
        let errors = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("camicia kernel"),
            source: wgpu::ShaderSource::Wgsl(include_str!("kernel.wgsl").into()),
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("camicia bindings"),
            entries: &BINDINGS.map(|(binding, kind)| wgpu::BindGroupLayoutEntry {
                binding,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: kind,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("camicia"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let constants = [("JACK_PAYS", jack_pays)];
        let pipeline = |entry: &str| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(entry),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: &constants,
                    ..Default::default()
                },
                cache: None,
            })
        };
        let play = match kernel {
            Kernel::Persistent => "play_persistent",
            Kernel::PerDeal => "play",
        };
        let (deal, play) = (pipeline("deal"), pipeline(play));
        if let Some(e) = pollster::block_on(errors.pop()) {
            return Err(Unavailable::Device(format!(
                "the kernel does not compile: {e}"
            )));
        }
        let arrangements = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("arrangements"),
            contents: &tables::arrangements_bytes(),
            usage: wgpu::BufferUsages::STORAGE,
        });
        // Shared by both slots: the deals stay on the GPU.
        let deals = storage(
            &device,
            "deals",
            MAX_DEALS * 16,
            wgpu::BufferUsages::empty(),
        );
        let slots = [0, 1].map(|_| Slot::new(&device, &layout, &deals, &arrangements));
        Ok(Gpu {
            device,
            queue,
            info,
            deal,
            play,
            kernel,
            slots,
        })
    }

    /// The adapter's name, as its driver gives it.
    pub fn name(&self) -> String {
        self.info.name.clone()
    }

    /// The adapter in a few words: name, kind (a CPU adapter says so) and
    /// backend.
    pub fn describe(&self) -> String {
        let kind = match self.info.device_type {
            wgpu::DeviceType::Cpu => ", a CPU",
            wgpu::DeviceType::IntegratedGpu => ", integrated",
            _ => "",
        };
        format!("{}{kind} ({:?})", self.info.name, self.info.backend)
    }

    /// The kernel that plays the deals.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Starts one dispatch in slot `slot` (0 or 1), whose last dispatch
    /// must have been [`Gpu::finish`]ed.
    pub(crate) fn submit(&self, slot: usize, job: &Dispatch) -> Ticket {
        let s = &self.slots[slot];
        let blocks = job.samples.len() as u64;
        let groups = job.deals.div_ceil(WORKGROUP).max(1);
        let (gx, gy) = (groups.min(GROUPS_X), groups.div_ceil(GROUPS_X));
        // The play kernel's workgroups: as many as for the deals, or for
        // the persistent kernel a fixed number at most.
        let (px, py) = match self.kernel {
            Kernel::Persistent => (groups.div_ceil(DEALS_A_LANE), 1),
            Kernel::PerDeal => (gx, gy),
        };
        self.queue.write_buffer(&s.params, 0, &params_bytes(job));
        self.queue.write_buffer(&s.samples, 0, &words(&job.samples));
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        for buffer in [&s.flags, &s.lengths, &s.count] {
            encoder.clear_buffer(buffer, 0, None);
        }
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_bind_group(0, &s.bind, &[]);
            pass.set_pipeline(&self.deal);
            pass.dispatch_workgroups(gx, gy, 1);
            pass.set_pipeline(&self.play);
            pass.dispatch_workgroups(px, py, 1);
        }
        // Read back in one buffer: flags, lengths, sums, count, claims.
        let sizes = [
            blocks * 4,
            u64::from(LENGTH_BINS) * 4,
            u64::from(px * py) * 8,
            4,
            u64::from(CLAIM_CAPACITY) * CLAIM_BYTES,
        ];
        let sources = [&s.flags, &s.lengths, &s.sums, &s.count, &s.claims];
        let mut offset = 0;
        for (buffer, size) in sources.into_iter().zip(sizes) {
            if size > 0 {
                encoder.copy_buffer_to_buffer(buffer, 0, &s.readback, offset, size);
            }
            offset += size.next_multiple_of(8);
        }
        let submission = self.queue.submit([encoder.finish()]);
        Ticket {
            slot,
            submission,
            sizes,
        }
    }

    /// Waits for a dispatch and reads back what it found.
    pub(crate) fn finish(&self, ticket: Ticket) -> Result<Found, String> {
        let readback = &self.slots[ticket.slot].readback;
        let total: u64 = ticket.sizes.iter().map(|n| n.next_multiple_of(8)).sum();
        let slice = readback.slice(..total);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: Some(ticket.submission),
                timeout: None,
            })
            .map_err(|e| e.to_string())?;
        rx.recv()
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
        let bytes = slice.get_mapped_range().map_err(|e| e.to_string())?;
        let found = parse(&bytes, &ticket.sizes);
        drop(bytes);
        readback.unmap();
        Ok(found)
    }
}

/// Deals in the largest dispatch.
const MAX_DEALS: u64 = DISPATCH_BLOCKS * poker_core::camicia::search::BLOCK;

fn storage(
    device: &wgpu::Device,
    label: &str,
    size: u64,
    extra: wgpu::BufferUsages,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: size.max(16),
        usage: wgpu::BufferUsages::STORAGE | extra,
        mapped_at_creation: false,
    })
}

impl Slot {
    fn new(
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
        deals: &wgpu::Buffer,
        arrangements: &wgpu::Buffer,
    ) -> Slot {
        let read = wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
        let groups = MAX_DEALS.div_ceil(u64::from(WORKGROUP));
        let claims = u64::from(CLAIM_CAPACITY) * CLAIM_BYTES;
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("params"),
            size: PARAMS_BYTES,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let flags = storage(device, "flags", DISPATCH_BLOCKS * 4, read);
        let samples = storage(device, "samples", DISPATCH_BLOCKS * 4, read);
        let lengths = storage(device, "lengths", u64::from(LENGTH_BINS) * 4, read);
        let sums = storage(device, "sums", groups * 8, read);
        let count = storage(device, "claim count", 4, read);
        let claims_buffer = storage(device, "claims", claims, read);
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: DISPATCH_BLOCKS * 4 + u64::from(LENGTH_BINS) * 4 + groups * 8 + 8 + claims,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("camicia"),
            layout,
            entries: &[
                &params,
                deals,
                &flags,
                &samples,
                arrangements,
                &lengths,
                &sums,
                &count,
                &claims_buffer,
            ]
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect::<Vec<_>>(),
        });
        Slot {
            params,
            flags,
            samples,
            lengths,
            sums,
            count,
            claims: claims_buffer,
            readback,
            bind,
        }
    }
}

fn desc_backends() -> wgpu::Backends {
    wgpu::Backends::VULKAN | wgpu::Backends::METAL
}

/// The kernel's bindings, in order, and whether each is read only.
const BINDINGS: [(u32, wgpu::BufferBindingType); 9] = {
    use wgpu::BufferBindingType::{Storage, Uniform};
    [
        (0, Uniform),
        (1, Storage { read_only: false }),
        (2, Storage { read_only: false }),
        (3, Storage { read_only: true }),
        (4, Storage { read_only: true }),
        (5, Storage { read_only: false }),
        (6, Storage { read_only: false }),
        (7, Storage { read_only: false }),
        (8, Storage { read_only: false }),
    ]
};

/// Bytes of the kernel's `Params`.
const PARAMS_BYTES: u64 = 80;

fn words(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn params_bytes(job: &Dispatch) -> Vec<u8> {
    let start = job.start.to_le_bytes();
    let mut w = vec![job.mode, job.deals, job.claim_from, job.max_tricks];
    w.extend(job.key);
    w.extend([
        job.first_block as u32,
        (job.first_block >> 32) as u32,
        CLAIM_CAPACITY,
        poker_core::camicia::search::BLOCK as u32,
    ]);
    w.extend(
        start
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))),
    );
    let bytes = words(&w);
    debug_assert_eq!(bytes.len() as u64, PARAMS_BYTES);
    bytes
}

fn parse(bytes: &[u8], sizes: &[u64; 5]) -> Found {
    let mut at = 0usize;
    let mut part = |i: usize| {
        let n = sizes[i] as usize;
        let p = &bytes[at..at + n];
        at += n.next_multiple_of(8);
        p.chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect::<Vec<u32>>()
    };
    let flags = part(0);
    let mut lengths: Vec<u64> = part(1).into_iter().map(u64::from).collect();
    while lengths.last() == Some(&0) {
        lengths.pop();
    }
    let sums = part(2);
    let checksum = sums.chunks_exact(2).fold(0u64, |s, w| {
        s.wrapping_add(u64::from(w[0]) | u64::from(w[1]) << 32)
    });
    let count = part(3)[0];
    let raw = part(4);
    let claims = (count <= CLAIM_CAPACITY).then(|| {
        raw.chunks_exact(8)
            .take(count as usize)
            .map(|c| Claim {
                deal: c[0],
                cards: c[1],
                tricks: c[2],
                kind: c[3],
                places: words(&c[4..8]).try_into().expect("16 bytes"),
            })
            .collect()
    });
    Found {
        flags,
        lengths,
        checksum,
        claims,
    }
}
