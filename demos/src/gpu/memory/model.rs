//! The `/gpu/memory` demo: one warp's 32 addresses for a global load, the
//! 32-byte sectors and 128-byte lines they touch, and the share of the moved
//! bytes the threads asked for; beside it, one warp's shared-memory access
//! and its bank conflicts.
//!
//! Step places the next thread's element into its sector; once all 32 are
//! placed, Step moves to the next pattern. Changing the global load starts
//! the placing again. Break it: a stride that gives every thread a sector of
//! its own, and a shared-memory stride of 32 words (32-way conflict) with
//! the padding that removes it.

use super::banks::{self, BANKS};
use super::coalescing::{Access, Pattern, ELEMENT_SIZES, LINE_BYTES, SECTOR_BYTES, WARP};
use super::occupancy::{self, Capability, Launch, Occupancy, MAX_BLOCK_THREADS};
use super::roofline;
use crate::bound::Bound;
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::{decimal, grouped};
use serde::{Deserialize, Serialize};

/// Elements between neighbouring threads, for the strided load. 32 floats
/// apart, each thread is 128 bytes from the next: a sector each.
pub const STRIDE: Bound<u32> = Bound::new("stride", " elements", 1, 64);
/// Elements the shifted load starts late: the Best Practices Guide's
/// `offsetCopy` runs offsets 0 to 32 (§10.2.1.3).
pub const OFFSET: Bound<u32> = Bound::new("offset", " elements", 0, 32);
/// Elements in one struct of the two struct layouts.
pub const FIELDS: Bound<u32> = Bound::new("number of fields", "", 2, 16);
/// Words between neighbouring threads' shared-memory words; 0 is every
/// thread reading one word.
pub const SMEM_STRIDE: Bound<u32> = Bound::new("shared-memory stride", " words", 0, 64);
/// Threads in a block: the guide's 1 to 1,024.
pub const THREADS: Bound<u32> = Bound::new("block size", " threads", 1, MAX_BLOCK_THREADS);
/// Registers per thread, as `ptxas -v` reports them: at most 255.
pub const REGISTERS: Bound<u32> = Bound::new(
    "register count",
    " registers a thread",
    0,
    occupancy::MAX_THREAD_REGISTERS,
);
/// Shared memory per block in KB: up to Hopper's 227 KB; each compute
/// capability refuses what it cannot give (`occupancy::refusal`).
pub const SHARED_KB: Bound<u32> = Bound::new("shared memory per block", " KB", 0, 227);
/// Floating-point operations the kernel does with each element it loads.
pub const FLOPS: Bound<u32> = Bound::new("work per element", " FLOPs", 1, 1024);

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuMemoryConfig {
    pub pattern: Pattern,
    pub elem: u32,
    pub stride: u32,
    pub offset: u32,
    pub fields: u32,
    pub smem_stride: u32,
    pub padded: bool,
    /// The GPU the kernel is launched on, by compute capability.
    pub cap: Capability,
    pub threads: u32,
    pub registers: u32,
    pub shared_kb: u32,
    pub flops: u32,
}

impl Default for GpuMemoryConfig {
    /// Consecutive floats, the best case; the other patterns' settings wait
    /// at the Best Practices Guide's examples (stride 32, offset 1) and a
    /// struct of four floats. Shared memory starts conflict-free.
    fn default() -> Self {
        GpuMemoryConfig {
            pattern: Pattern::Consecutive,
            elem: 4,
            stride: 32,
            offset: 1,
            fields: 4,
            smem_stride: 1,
            padded: false,
            // An A100 and a block of 256 threads at 32 registers: a full
            // SM, the programming guide's common starting point. 8 FLOPs
            // per float: 2 FLOP/byte, well below the ridge.
            cap: Capability::Ampere,
            threads: 256,
            registers: 32,
            shared_kb: 0,
            flops: 8,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuMemory {
    pub config: GpuMemoryConfig,
    /// Threads whose element has been placed into its sector, 0 to 32.
    pub placed: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GpuMemoryAction {
    /// Place the next thread's element into its sector.
    Place,
    /// Place every thread left.
    PlaceAll,
    /// Go on to the next access pattern.
    NextPattern,
    SetPattern(Pattern),
    SetElem(u32),
    SetStride(u32),
    SetOffset(u32),
    SetFields(u32),
    SetSmemStride(u32),
    SetPadded(bool),
    SetCapability(Capability),
    SetThreads(u32),
    SetRegisters(u32),
    SetSharedKb(u32),
    SetFlops(u32),
}

impl GpuMemory {
    /// The warp's global load as the rules read it.
    pub fn access(&self) -> Access {
        let c = &self.config;
        Access {
            pattern: c.pattern,
            elem: c.elem,
            stride: c.stride,
            offset: c.offset,
            fields: c.fields,
        }
    }

    /// The kernel's launch, per block.
    pub fn launch(&self) -> Launch {
        launch_of(&self.config)
    }

    /// The launch's occupancy; `None` only for a launch the configuration
    /// check refuses, which a model never holds.
    pub fn occupancy(&self) -> Option<Occupancy> {
        occupancy::occupancy(self.config.cap, &self.launch())
    }

    /// FLOP per byte moved, as loaded now.
    pub fn intensity(&self) -> f64 {
        roofline::intensity(&self.access(), self.config.flops)
    }

    /// FLOP per byte if every moved byte were used.
    pub fn ideal_intensity(&self) -> f64 {
        roofline::ideal_intensity(&self.access(), self.config.flops)
    }

    /// Occupancy in words: "75 % (48 of 64 warps)".
    pub fn occupancy_text(&self) -> String {
        match self.occupancy() {
            Some(o) => format!(
                "{} % ({} of {} warps)",
                decimal(100.0 * o.ratio(), 1),
                o.active_warps(),
                o.max_warps
            ),
            None => "none".into(),
        }
    }

    /// The budgets that limit the blocks per SM, in words.
    pub fn limiting_text(&self) -> String {
        self.occupancy()
            .map(|o| {
                o.limiting()
                    .iter()
                    .map(|b| b.name())
                    .collect::<Vec<_>>()
                    .join(" and ")
            })
            .unwrap_or_default()
    }

    /// TFLOP/s the kernel can reach on the roofline, to one decimal.
    pub fn attainable_text(&self) -> String {
        let gpu = self.config.cap.gpu();
        format!("{} TFLOP/s", decimal(gpu.attainable(self.intensity()), 2))
    }

    fn occupancy_event(&self, change: String) -> Outcome {
        let Some(o) = self.occupancy() else {
            return Err(Refusal::new("That launch cannot run."));
        };
        let text = format!(
            "{change} {} block{} of {} warps fit on an SM, limited by {}: occupancy {}.",
            o.blocks(),
            if o.blocks() == 1 { "" } else { "s" },
            o.warps_per_block,
            self.limiting_text(),
            self.occupancy_text()
        );
        let event = if o.ratio() < 0.5 {
            Event::warn(text)
        } else {
            Event::info(text)
        };
        Ok(vec![event.at("occupancy")])
    }

    /// Changes one number of the launch, if the GPU can run the result.
    fn launch_setting(
        &mut self,
        value: u32,
        field: fn(&mut GpuMemoryConfig) -> &mut u32,
        bound: &Bound<u32>,
    ) -> Outcome {
        admit_change(*field(&mut self.config), value, bound)?;
        let mut next = self.config.clone();
        *field(&mut next) = value;
        if let Some(why) = occupancy::refusal(next.cap, &launch_of(&next)) {
            return Err(Refusal::new(why));
        }
        self.config = next;
        self.occupancy_event(format!("The {} is now {value}{}.", bound.what, bound.unit))
    }

    fn set_capability(&mut self, cap: Capability) -> Outcome {
        if cap == self.config.cap {
            return Err(Refusal::new(format!(
                "The GPU is already compute capability {}.",
                cap.number()
            )));
        }
        if let Some(why) = occupancy::refusal(cap, &self.launch()) {
            return Err(Refusal::new(format!("{why} Lower it first.")));
        }
        self.config.cap = cap;
        let gpu = cap.gpu();
        let mut events = self.occupancy_event(format!(
            "Now compute capability {} ({}).",
            cap.number(),
            gpu.name
        ))?;
        events.push(self.roofline_event());
        Ok(events)
    }

    fn roofline_event(&self) -> Event {
        let gpu = self.config.cap.gpu();
        let ai = self.intensity();
        let text = format!(
            "{} FLOP per byte moved: the {} reaches {} of its {} TFLOP/s peak; the ridge is at {} FLOP/byte, so the kernel is {}.",
            decimal(ai, 2),
            gpu.name,
            self.attainable_text(),
            decimal(gpu.peak_tflops, 1),
            decimal(gpu.ridge(), 1),
            if gpu.memory_bound(ai) {
                "memory-bound"
            } else {
                "compute-bound"
            }
        );
        Event::info(text).at("roofline")
    }

    /// Words between neighbouring threads in shared memory: padding each
    /// tile row by one word adds one (Best Practices Guide, §10.2.3.3:
    /// "the stride between threads is w+1 banks").
    pub fn smem_stride(&self) -> u32 {
        self.config
            .smem_stride
            .saturating_add(u32::from(self.config.padded))
    }

    /// The shared-memory access's n-way conflict.
    pub fn conflict(&self) -> u32 {
        banks::conflict_degree(self.smem_stride())
    }

    /// The global load's efficiency, as a percentage to one decimal.
    fn efficiency_text(&self) -> String {
        format!("{} %", decimal(100.0 * self.access().efficiency(), 1))
    }

    /// The pattern in words, with its own setting.
    pub fn pattern_text(&self) -> String {
        let c = &self.config;
        match c.pattern {
            Pattern::Consecutive => "consecutive elements".into(),
            Pattern::Strided => format!("a stride of {} elements", c.stride),
            Pattern::Offset => format!("consecutive elements shifted by {}", c.offset),
            Pattern::ArrayOfStructs => {
                format!("one field of an array of {}-field structs", c.fields)
            }
            Pattern::StructOfArrays => {
                format!("one field of {} fields, each in its own array", c.fields)
            }
        }
    }

    fn restart(&mut self, change: String) -> Outcome {
        self.placed = 0;
        let a = self.access();
        Ok(vec![Event::info(format!(
            "{change} The warp reads {}: {} bytes in {} sectors, {} efficient.",
            self.pattern_text(),
            a.requested_bytes(),
            a.sectors().len(),
            self.efficiency_text()
        ))
        .at("sectors")])
    }

    /// Changes one setting of the global load, if it stays valid.
    fn setting(
        &mut self,
        value: u32,
        field: fn(&mut GpuMemoryConfig) -> &mut u32,
        bound: &Bound<u32>,
    ) -> Outcome {
        admit_change(*field(&mut self.config), value, bound)?;
        *field(&mut self.config) = value;
        self.restart(format!("The {} is now {value}{}.", bound.what, bound.unit))
    }

    fn place(&mut self) -> Outcome {
        if self.placed >= WARP {
            return Err(self.all_placed());
        }
        let a = self.access();
        let t = self.placed;
        let sector = a.sector_of(t);
        let new = !a.sectors_of(t).contains(&sector);
        self.placed += 1;
        let first = a.address(t);
        let last = a.last_byte(t);
        let moved = a.sectors_of(self.placed).len();
        let text = if new {
            format!(
                "Thread {t} reads bytes {first}–{last}: a new sector, {sector} (line {}). The warp now moves {moved} sector{} for {} bytes asked.",
                a.line_of(t),
                if moved == 1 { "" } else { "s" },
                self.placed as u64 * u64::from(a.elem)
            )
        } else {
            format!(
                "Thread {t} reads bytes {first}–{last}, in sector {sector}, which the warp already fetches: no more bytes move."
            )
        };
        let mut events = vec![Event::info(text).at(format!("thread-{t}"))];
        if self.placed == WARP {
            events.push(self.summary());
        }
        Ok(events)
    }

    fn place_all(&mut self) -> Outcome {
        if self.placed >= WARP {
            return Err(self.all_placed());
        }
        self.placed = WARP;
        Ok(vec![self.summary()])
    }

    fn summary(&self) -> Event {
        let a = self.access();
        let sectors = a.sectors().len();
        let tone = if a.moved_bytes() == a.requested_bytes() {
            Event::done
        } else if sectors == WARP {
            Event::fault
        } else {
            Event::warn
        };
        tone(format!(
            "All 32 threads placed: {} bytes asked, {} sectors ({} bytes) moved in {} line{}. {} of the moved bytes are used.",
            a.requested_bytes(),
            sectors,
            grouped(a.moved_bytes() as i64),
            a.lines().len(),
            if a.lines().len() == 1 { "" } else { "s" },
            self.efficiency_text()
        ))
        .at("sectors")
    }

    fn all_placed(&self) -> Refusal {
        Refusal::new(
            "All 32 threads are placed. Choose another pattern or setting, or press Reset.",
        )
    }
}

impl Model for GpuMemory {
    type Config = GpuMemoryConfig;
    type Action = GpuMemoryAction;

    fn validate(c: &GpuMemoryConfig) -> Result<(), String> {
        if !ELEMENT_SIZES.contains(&c.elem) {
            return Err(format!(
                "A thread loads 4, 8 or 16 bytes; {} bytes is not one of them.",
                c.elem
            ));
        }
        STRIDE.check(c.stride)?;
        OFFSET.check(c.offset)?;
        FIELDS.check(c.fields)?;
        SMEM_STRIDE.check(c.smem_stride)?;
        THREADS.check(c.threads)?;
        REGISTERS.check(c.registers)?;
        SHARED_KB.check(c.shared_kb)?;
        FLOPS.check(c.flops)?;
        match occupancy::refusal(c.cap, &launch_of(c)) {
            Some(why) => Err(why),
            None => Ok(()),
        }
    }

    fn new(c: &GpuMemoryConfig) -> Self {
        GpuMemory {
            config: c.clone(),
            placed: 0,
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "A warp of 32 threads loads {}-byte elements: {}. Step places each thread's element into its 32-byte sector.",
            self.config.elem,
            self.pattern_text()
        ))
    }

    fn apply(&mut self, action: &GpuMemoryAction) -> Outcome {
        match *action {
            GpuMemoryAction::Place => self.place(),
            GpuMemoryAction::PlaceAll => self.place_all(),
            GpuMemoryAction::NextPattern => {
                let Some(next) = self.config.pattern.next() else {
                    return Err(Refusal::new(
                        "This is the last pattern. Choose one, or press Reset.",
                    ));
                };
                self.config.pattern = next;
                self.restart(format!("Next pattern: {}.", next.name()))
            }
            GpuMemoryAction::SetPattern(p) => {
                if p == self.config.pattern {
                    return Err(Refusal::new(format!(
                        "The pattern is already {}.",
                        p.name()
                    )));
                }
                self.config.pattern = p;
                self.restart(format!("The pattern is now {}.", p.name()))
            }
            GpuMemoryAction::SetElem(bytes) => {
                if !ELEMENT_SIZES.contains(&bytes) {
                    return Err(Refusal::new(format!(
                        "A thread loads 4, 8 or 16 bytes; {bytes} bytes is not one of them."
                    )));
                }
                if bytes == self.config.elem {
                    return Err(Refusal::new(format!(
                        "Each thread already loads {bytes} bytes."
                    )));
                }
                self.config.elem = bytes;
                self.restart(format!("Each thread now loads {bytes} bytes."))
            }
            GpuMemoryAction::SetStride(n) => self.setting(n, |c| &mut c.stride, &STRIDE),
            GpuMemoryAction::SetOffset(n) => self.setting(n, |c| &mut c.offset, &OFFSET),
            GpuMemoryAction::SetFields(n) => self.setting(n, |c| &mut c.fields, &FIELDS),
            GpuMemoryAction::SetSmemStride(n) => {
                admit_change(self.config.smem_stride, n, &SMEM_STRIDE)?;
                self.config.smem_stride = n;
                Ok(vec![self.bank_event()])
            }
            GpuMemoryAction::SetPadded(on) => {
                if on == self.config.padded {
                    return Err(Refusal::new(if on {
                        "The tile rows are already padded."
                    } else {
                        "The tile rows are already unpadded."
                    }));
                }
                self.config.padded = on;
                Ok(vec![self.bank_event()])
            }
            GpuMemoryAction::SetCapability(cap) => self.set_capability(cap),
            GpuMemoryAction::SetThreads(n) => self.launch_setting(n, |c| &mut c.threads, &THREADS),
            GpuMemoryAction::SetRegisters(n) => {
                self.launch_setting(n, |c| &mut c.registers, &REGISTERS)
            }
            GpuMemoryAction::SetSharedKb(n) => {
                self.launch_setting(n, |c| &mut c.shared_kb, &SHARED_KB)
            }
            GpuMemoryAction::SetFlops(n) => {
                admit_change(self.config.flops, n, &FLOPS)?;
                self.config.flops = n;
                Ok(vec![self.roofline_event()])
            }
        }
    }

    fn next_auto(&self) -> Result<GpuMemoryAction, Refusal> {
        if self.placed < WARP {
            Ok(GpuMemoryAction::Place)
        } else if self.config.pattern.next().is_some() {
            Ok(GpuMemoryAction::NextPattern)
        } else {
            Err(Refusal::new(
                "Every thread of the last pattern is placed. Choose a pattern, or press Reset.",
            ))
        }
    }

    fn check(&self) -> Result<(), String> {
        Self::validate(&self.config)?;
        if self.placed > WARP {
            return Err("more threads placed than a warp has".into());
        }
        let a = self.access();
        let sectors = a.sectors();
        let used: u64 = sectors.iter().map(|&s| a.used_bytes_in(s)).sum();
        if used != a.requested_bytes() {
            return Err("the sectors do not hold every requested byte once".into());
        }
        if (sectors.len() as u64) < a.fewest_sectors() || sectors.len() > WARP {
            return Err("the sector count is outside what 32 elements allow".into());
        }
        let lines = a.lines().len();
        if lines > sectors.len() || sectors.len() > lines * (LINE_BYTES / SECTOR_BYTES) as usize {
            return Err("the lines do not hold the sectors".into());
        }
        let per_bank = banks::words_per_bank(self.smem_stride());
        let distinct: u32 = per_bank.iter().sum();
        let expected = if banks::broadcast(self.smem_stride()) {
            1
        } else {
            WARP as u32
        };
        if distinct != expected {
            return Err("the banks do not hold the warp's words".into());
        }
        let Some(o) = self.occupancy() else {
            return Err("the launch cannot run".into());
        };
        if o.active_warps() > o.max_warps {
            return Err("more warps resident than the SM has slots for".into());
        }
        let gpu = self.config.cap.gpu();
        if gpu.attainable(self.intensity()) > gpu.peak_tflops
            || self.intensity() > self.ideal_intensity() * (1.0 + 1e-12)
        {
            return Err("the kernel is above its roofline".into());
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        let a = self.access();
        vec![
            Figure::new(
                "placed",
                "threads placed",
                format!("{}/{WARP}", self.placed),
            ),
            Figure::new(
                "requested",
                "bytes asked",
                format!("{} B", a.requested_bytes()),
            ),
            Figure::new("sectors", "32-byte sectors", a.sectors().len()),
            Figure::new("lines", "128-byte lines", a.lines().len()),
            Figure::new(
                "moved",
                "bytes moved",
                format!("{} B", grouped(a.moved_bytes() as i64)),
            ),
            Figure::new("efficiency", "efficiency", self.efficiency_text()),
            Figure::new(
                "conflict",
                "shared memory",
                format!("{}-way", self.conflict()),
            ),
            Figure::new("occupancy", "occupancy", self.occupancy_text()),
            Figure::new("limit", "limited by", self.limiting_text()),
            Figure::new(
                "intensity",
                "FLOP per byte moved",
                decimal(self.intensity(), 2),
            ),
            Figure::new("attainable", "roofline", self.attainable_text()),
        ]
    }

    fn why(&self) -> Vec<String> {
        let a = self.access();
        let c = &self.config;
        let sectors = a.sectors().len();
        let mut out = vec![format!(
            "A warp's load is served in whole 32-byte sectors. These 32 threads ask for {} bytes, which lie in {} sectors ({} bytes) and {} 128-byte line{}; the fewest possible is {}. So {} of the bytes moved are used.",
            a.requested_bytes(),
            sectors,
            grouped(a.moved_bytes() as i64),
            a.lines().len(),
            if a.lines().len() == 1 { "" } else { "s" },
            a.fewest_sectors(),
            self.efficiency_text()
        )];
        out.push(match c.pattern {
            Pattern::Consecutive | Pattern::StructOfArrays => format!(
                "Neighbouring threads read neighbouring {}-byte elements, so every byte of every sector is used.{}",
                c.elem,
                if c.pattern == Pattern::StructOfArrays {
                    " Keeping each field in its own array is what makes one field's reads consecutive."
                } else {
                    ""
                }
            ),
            Pattern::Strided => format!(
                "Neighbouring threads are {} bytes apart. {}",
                u64::from(c.stride) * u64::from(c.elem),
                if sectors == WARP {
                    "That is at least a sector, so every thread gets a sector of its own and uses only its own bytes of it."
                } else {
                    "Each sector holds fewer of the elements the threads want, and the unused bytes move anyway."
                }
            ),
            Pattern::Offset => format!(
                "The warp starts {} bytes into the array. {}",
                u64::from(c.offset) * u64::from(c.elem),
                if sectors as u64 > a.fewest_sectors() {
                    "Its bytes straddle a sector boundary, so one more sector moves than the bytes need."
                } else {
                    "That is a whole number of sectors, so the load stays aligned."
                }
            ),
            Pattern::ArrayOfStructs => format!(
                "Reading one field of an array of {}-field structs is a stride of {}: each thread's element sits {} bytes after the last one. Store each field in its own array and the warp reads consecutive elements.",
                c.fields,
                c.fields,
                u64::from(c.fields) * u64::from(c.elem)
            ),
        });
        let stride = self.smem_stride();
        let busy = banks::words_per_bank(stride)
            .iter()
            .filter(|&&n| n > 0)
            .count();
        out.push(if banks::broadcast(stride) {
            "In shared memory every thread reads the same 32-bit word. One request reads it and broadcasts it to all 32 threads: no conflict.".to_string()
        } else {
            format!(
                "Shared memory has {BANKS} banks; 32-bit word w is in bank w mod {BANKS}. Threads {stride} word{} apart use {busy} bank{}, so the busiest bank holds {} of their words and the access is split into {} request{}.",
                if stride == 1 { "" } else { "s" },
                if busy == 1 { "" } else { "s" },
                self.conflict(),
                self.conflict(),
                if self.conflict() == 1 { "" } else { "s" }
            )
        });
        if let Some(o) = self.occupancy() {
            let l = c.cap.limits();
            out.push(format!(
                "Occupancy on compute capability {}: a block of {} threads is {} warps. The SM has {} warp slots and {} block slots; {} registers a thread make {} a warp (rounded to 256), and the register file holds {} of those blocks; {} KB of shared memory take {} bytes a block with the reserve, room for {}. The fewest is {} block{}, set by {}: {} resident.",
                c.cap.number(),
                c.threads,
                o.warps_per_block,
                o.max_warps,
                l.blocks,
                c.registers,
                o.registers_per_warp,
                count_or_any(o.limit(occupancy::Budget::Registers)),
                c.shared_kb,
                o.shared_per_block,
                count_or_any(o.limit(occupancy::Budget::Shared)),
                o.blocks(),
                if o.blocks() == 1 { "" } else { "s" },
                self.limiting_text(),
                self.occupancy_text()
            ));
        }
        let gpu = c.cap.gpu();
        let ai = self.intensity();
        out.push(format!(
            "The roofline: {} FLOPs per element over the bytes the sectors move is {} FLOP/byte ({} if every moved byte were used). The {} moves {} GB/s and computes {} TFLOP/s, so its ridge is at {} FLOP/byte; the kernel can reach {}, {}.",
            c.flops,
            decimal(ai, 2),
            decimal(self.ideal_intensity(), 2),
            gpu.name,
            grouped(gpu.bandwidth_gbs as i64),
            decimal(gpu.peak_tflops, 1),
            decimal(gpu.ridge(), 1),
            self.attainable_text(),
            if gpu.memory_bound(ai) {
                "held down by memory bandwidth"
            } else {
                "held down by arithmetic"
            }
        ));
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: the caches (a sector a neighbouring warp fetched may hit in L1 or L2, as the Best Practices Guide's offset copy shows); how the hardware splits 8- and 16-byte loads into several requests (it counts the warp's sectors, not its requests); 64- and 128-bit shared-memory accesses (the banks show 32-bit words); stores; GPUs before compute capability 6.0, whose L1-cached loads moved whole 128-byte lines; for occupancy, the shared-memory carveout a kernel may prefer (it takes the largest), barriers and clusters; and on the roofline, every cache level, stores, the tensor cores' far higher peak and whether enough warps are resident to keep the memory busy (occupancy is shown beside it, not fed into it)."
    }
}

/// A budget's block count, or "any number" for one the kernel does not use.
fn count_or_any(n: Option<u32>) -> String {
    n.map_or("any number".into(), |n| n.to_string())
}

/// A new value for a bounded setting: in its range, and not the one it has.
fn admit_change(now: u32, value: u32, bound: &Bound<u32>) -> Result<(), Refusal> {
    bound.admit(value)?;
    if now == value {
        return Err(Refusal::new(format!(
            "The {} is already {value}{}.",
            bound.what, bound.unit
        )));
    }
    Ok(())
}

/// The launch a configuration describes.
fn launch_of(c: &GpuMemoryConfig) -> Launch {
    Launch {
        threads: c.threads,
        registers: c.registers,
        shared: c.shared_kb.saturating_mul(1024),
    }
}

impl GpuMemory {
    fn bank_event(&self) -> Event {
        let degree = self.conflict();
        let stride = self.smem_stride();
        let text = if banks::broadcast(stride) {
            "Every thread now reads the same shared-memory word: one request, broadcast to the warp.".to_string()
        } else if degree == 1 {
            format!(
                "Threads are now {stride} word{} apart in shared memory: each in a bank of its own, one request for the warp.",
                if stride == 1 { "" } else { "s" }
            )
        } else {
            format!(
                "Threads are now {stride} words apart in shared memory: a {degree}-way conflict, {degree} requests for one warp's access."
            )
        };
        let event = if degree > 1 {
            Event::fault(text)
        } else {
            Event::done(text)
        };
        event.at("banks")
    }
}
