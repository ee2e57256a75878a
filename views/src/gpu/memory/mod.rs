//! A warp's memory access: the 32 threads and the sectors their load
//! touches, shared memory's 32 banks under one warp's access, and every
//! pattern's cost side by side.

mod lesson;

use crate::control::Control;
use crate::draw::chart::{decades, Plot};
use crate::knob::bounded;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Ui, View};
use crate::scene::{Cell, Figure, Scene, Shape, Size, Table};
use demos::gpu::memory::banks::{self, BANKS};
use demos::gpu::memory::coalescing::{Access, Pattern, ELEMENT_SIZES, SECTOR_BYTES, WARP};
use demos::gpu::memory::occupancy::{Budget, Capability};
use demos::gpu::memory::{
    GpuMemory, GpuMemoryAction, FIELDS, FLOPS, OFFSET, REGISTERS, SHARED_KB, SMEM_STRIDE, STRIDE,
    THREADS,
};
use demos::text::{decimal, grouped};

/// Threads drawn per row, and sectors per row.
fn per_row(layout: Layout) -> (usize, usize) {
    (layout.pick(16, 8), layout.pick(8, 4))
}

/// A short word for a pattern, for option values and row keys.
fn slug(p: Pattern) -> &'static str {
    match p {
        Pattern::Consecutive => "consecutive",
        Pattern::Strided => "strided",
        Pattern::Offset => "offset",
        Pattern::ArrayOfStructs => "aos",
        Pattern::StructOfArrays => "soa",
    }
}

fn warp_figure(m: &GpuMemory, layout: Layout) -> Figure {
    let a = m.access();
    let width = layout.pick(720.0, NARROW_WIDTH);
    let (threads_per_row, sectors_per_row) = per_row(layout);
    let margin = 10.0;
    let cell_w = (width - 2.0 * margin) / threads_per_row as f32;
    let thread_rows = WARP.div_ceil(threads_per_row);
    let sectors = a.sectors();
    let fetched = a.sectors_of(m.placed);
    let box_w = (width - 2.0 * margin) / sectors_per_row as f32;
    let box_h = 48.0;
    let sectors_top = 34.0 + thread_rows as f32 * 34.0 + 30.0;
    let sector_rows = sectors.len().div_ceil(sectors_per_row);
    let height = sectors_top + sector_rows as f32 * (box_h + 8.0) + 6.0;
    let mut f = Figure::new(
        "warp",
        format!(
            "The warp's 32 threads, {} placed, and the {} sectors of 32 bytes their {}-byte elements lie in",
            m.placed,
            sectors.len(),
            a.elem
        ),
        width,
        height,
    )
    .legend("done", "placed thread; sector fetched, every byte used")
    .legend("warn", "sector fetched, some bytes unused")
    .legend("idle", "not yet");
    f.push(
        Shape::text(
            "threads-head",
            margin,
            20.0,
            "threads (number, byte address)",
        )
        .start()
        .size(Size::Small),
    );
    for t in 0..WARP {
        let (row, col) = (t / threads_per_row, t % threads_per_row);
        let x = margin + col as f32 * cell_w;
        let y = 30.0 + row as f32 * 34.0;
        let placed = t < m.placed;
        f.push(
            Shape::group(
                format!("thread-{t}"),
                vec![
                    Shape::rect("cell", x + 1.0, y, cell_w - 2.0, 30.0).class(if placed {
                        "done"
                    } else {
                        "idle"
                    }),
                    Shape::text("number", x + cell_w / 2.0, y + 20.0, t.to_string()).mono(),
                ],
            )
            .state(if placed { "placed" } else { "waiting" })
            .focus(format!("thread-{t}"))
            .label(format!(
                "Thread {t} reads bytes {} to {}, in sector {}{}",
                a.address(t),
                a.last_byte(t),
                a.sector_of(t),
                if placed {
                    ", placed"
                } else {
                    ", not placed yet"
                }
            )),
        );
    }
    f.push(
        Shape::text(
            "sectors-head",
            margin,
            sectors_top - 10.0,
            "sectors touched (number, bytes used of 32)",
        )
        .start()
        .size(Size::Small),
    );
    for (i, &s) in sectors.iter().enumerate() {
        let (row, col) = (i / sectors_per_row, i % sectors_per_row);
        let x = margin + col as f32 * box_w;
        let y = sectors_top + row as f32 * (box_h + 8.0);
        let used = a.used_bytes_in(s);
        let is_fetched = fetched.contains(&s);
        let class = match (is_fetched, used == SECTOR_BYTES) {
            (false, _) => "idle",
            (true, true) => "done",
            (true, false) => "warn",
        };
        let inner = (box_w - 10.0) * used as f32 / SECTOR_BYTES as f32;
        f.push(
            Shape::group(
                format!("sector-{i}"),
                vec![
                    Shape::rect("box", x + 2.0, y, box_w - 4.0, box_h).class(class),
                    Shape::rect("used", x + 5.0, y + box_h - 10.0, inner.max(1.0), 6.0)
                        .class("accent"),
                    Shape::text("id", x + box_w / 2.0, y + 17.0, format!("#{s}")).mono(),
                    Shape::text("bytes", x + box_w / 2.0, y + 33.0, format!("{used}/32"))
                        .mono()
                        .size(Size::Small),
                ],
            )
            .state(if is_fetched { "fetched" } else { "waiting" })
            .focus("sectors")
            .label(format!(
                "Sector {s} (bytes {} to {}, line {}): {used} of its 32 bytes asked for{}",
                s * SECTOR_BYTES,
                (s + 1) * SECTOR_BYTES - 1,
                Access::line_of_sector(s),
                if is_fetched {
                    ", fetched"
                } else {
                    ", not fetched yet"
                }
            )),
        );
    }
    f
}

fn bank_figure(m: &GpuMemory, layout: Layout) -> Figure {
    let width = layout.pick(720.0, NARROW_WIDTH);
    let margin = 10.0;
    let per_row = 16usize;
    let cell_w = (width - 2.0 * margin) / per_row as f32;
    let stride = m.smem_stride();
    let counts = banks::words_per_bank(stride);
    let broadcast = banks::broadcast(stride);
    let mut f = Figure::new(
        "banks",
        format!(
            "Shared memory's {BANKS} banks: how many distinct words one warp's access reads in each, threads {stride} words apart; a {}-way conflict",
            m.conflict()
        ),
        width,
        40.0 + 2.0 * 58.0,
    )
    .legend("done", "one word: no conflict")
    .legend("fault", "several words: the access is split")
    .legend("idle", "unused bank");
    f.push(
        Shape::text(
            "banks-head",
            margin,
            18.0,
            "bank number, then distinct words the warp reads in it",
        )
        .start()
        .size(Size::Small),
    );
    for (b, &n) in counts.iter().enumerate() {
        let (row, col) = (b / per_row, b % per_row);
        let x = margin + col as f32 * cell_w;
        let y = 28.0 + row as f32 * 58.0;
        let class = match n {
            0 => "idle",
            1 => "done",
            _ => "fault",
        };
        let state = match n {
            0 => "unused",
            1 if broadcast => "broadcast",
            1 => "single",
            _ => "conflict",
        };
        f.push(
            Shape::group(
                format!("bank-{b}"),
                vec![
                    Shape::text("index", x + cell_w / 2.0, y + 12.0, b.to_string())
                        .size(Size::Small),
                    Shape::rect("slot", x + 1.0, y + 18.0, cell_w - 2.0, 30.0).class(class),
                    Shape::text("words", x + cell_w / 2.0, y + 38.0, n.to_string()).mono(),
                ],
            )
            .state(state)
            .focus("banks")
            .label(format!(
                "Bank {b}: {n} distinct word{} read{}",
                if n == 1 { "" } else { "s" },
                if broadcast && n == 1 {
                    ", broadcast to every thread"
                } else {
                    ""
                }
            )),
        );
    }
    f
}

/// Warp slots drawn per row.
const SLOTS_PER_ROW: usize = 16;

/// One SM: its warp slots, filled by the resident blocks' warps, and the
/// blocks each of its four budgets lets in.
fn occupancy_figure(m: &GpuMemory, layout: Layout) -> Figure {
    let width = layout.pick(720.0, NARROW_WIDTH);
    let margin = 10.0;
    let c = &m.config;
    let limits = c.cap.limits();
    let o = m.occupancy();
    let max_warps = limits.warps() as usize;
    let active = o.map_or(0, |o| o.active_warps()) as usize;
    let cell_w = (width - 2.0 * margin) / SLOTS_PER_ROW as f32;
    let slot_rows = max_warps.div_ceil(SLOTS_PER_ROW);
    let bars_top = 34.0 + slot_rows as f32 * 26.0 + 30.0;
    let bar_h = 34.0;
    let height = bars_top + Budget::ALL.len() as f32 * (bar_h + 8.0) + 6.0;
    let mut f = Figure::new(
        "occupancy-figure",
        format!(
            "One SM of compute capability {}: {active} of its {max_warps} warp slots hold the resident blocks' warps, and the blocks each budget allows",
            c.cap.number()
        ),
        width,
        height,
    )
    .legend("done", "a resident block's warp")
    .legend("idle", "free warp slot")
    .legend("warn", "the budget that sets the limit");
    f.push(
        Shape::text(
            "slots-head",
            margin,
            20.0,
            format!("one SM's {max_warps} warp slots"),
        )
        .start()
        .size(Size::Small),
    );
    for i in 0..max_warps {
        let (row, col) = (i / SLOTS_PER_ROW, i % SLOTS_PER_ROW);
        let x = margin + col as f32 * cell_w;
        let y = 30.0 + row as f32 * 26.0;
        let used = i < active;
        let class = if used { "done" } else { "idle" };
        f.push(
            Shape::rect(format!("slot-{i}"), x + 1.0, y, cell_w - 2.0, 22.0)
                .class(class)
                .state(if used { "active" } else { "free" })
                .focus("occupancy"),
        );
    }
    f.push(
        Shape::text(
            "budgets-head",
            margin,
            bars_top - 10.0,
            "blocks that fit, by budget",
        )
        .start()
        .size(Size::Small),
    );
    let name_w = layout.pick(150.0, 118.0);
    let span = width - 2.0 * margin - name_w - 60.0;
    // Bars are drawn against the SM's block slots; a budget that allows
    // more is drawn full and says its number.
    let full = limits.blocks as f32;
    let limiting = o.map(|o| o.limiting()).unwrap_or_default();
    for (i, budget) in Budget::ALL.iter().enumerate() {
        let y = bars_top + i as f32 * (bar_h + 8.0);
        let blocks = o.and_then(|o| o.limit(*budget));
        let sets = limiting.contains(budget);
        let w = blocks.map_or(span, |n| span * (n as f32 / full).min(1.0));
        f.push(
            Shape::group(
                format!("budget-{}", budget_slug(*budget)),
                vec![
                    Shape::text("name", margin, y + 22.0, budget.name())
                        .start()
                        .size(Size::Small),
                    Shape::rect("track", margin + name_w, y + 4.0, span, bar_h - 8.0).class("idle"),
                    Shape::rect("bar", margin + name_w, y + 4.0, w.max(1.0), bar_h - 8.0)
                        .class(if sets { "warn" } else { "done" }),
                    Shape::text(
                        "blocks",
                        margin + name_w + span + 8.0,
                        y + 22.0,
                        blocks.map_or("any".into(), |n| n.to_string()),
                    )
                    .start()
                    .mono(),
                ],
            )
            .state(if sets { "limiting" } else { "room" })
            .focus("occupancy")
            .label(format!(
                "{}: {} block{} of this kernel fit{}",
                budget.name(),
                blocks.map_or("any number of".into(), |n| n.to_string()),
                if blocks == Some(1) { "" } else { "s" },
                if sets { ", the limit" } else { "" }
            )),
        );
    }
    f
}

fn budget_slug(b: Budget) -> &'static str {
    match b {
        Budget::Warps => "warps",
        Budget::Blocks => "blocks",
        Budget::Registers => "registers",
        Budget::Shared => "shared",
    }
}

/// Intensities on the roofline's x axis: 1/32 to 512 FLOP per byte.
const AI_RANGE: (f64, f64) = (1.0 / 32.0, 512.0);
/// TFLOP/s on its y axis.
const RATE_RANGE: (f64, f64) = (0.01, 100.0);

/// The x axis's ticks, every factor of 4, labelled as fractions below 1.
fn intensity_ticks() -> Vec<(f64, String)> {
    (-4i32..=8)
        .step_by(2)
        .map(|k| {
            let label = if k < 0 {
                format!("1/{}", 1u32 << -k)
            } else {
                (1u32 << k).to_string()
            };
            (2f64.powi(k), label)
        })
        .collect()
}

/// The GPU's roofline on log–log axes, with the kernel as loaded now and
/// the same kernel with every moved byte used.
fn roofline_figure(m: &GpuMemory, layout: Layout) -> Figure {
    let width = layout.pick(720.0, NARROW_WIDTH);
    let height = 300.0;
    let gpu = m.config.cap.gpu();
    let plot = Plot::new(
        (layout.pick(56.0, 48.0), 30.0, width - 14.0, height - 50.0),
        (AI_RANGE.0, AI_RANGE.1, true),
        (RATE_RANGE.0, RATE_RANGE.1, true),
    );
    let ai = m.intensity();
    let ideal = m.ideal_intensity();
    let mut f = Figure::new(
        "roofline",
        format!(
            "The {} roofline: attainable TFLOP/s against FLOP per byte moved, the ridge at {} FLOP/byte; the kernel at {} FLOP/byte reaches {}",
            gpu.name,
            decimal(gpu.ridge(), 1),
            decimal(ai, 2),
            m.attainable_text()
        ),
        width,
        height,
    )
    .legend("accent", "the roof: bandwidth, then peak")
    .legend("warn", "the kernel as loaded")
    .legend("done", "the same kernel, every moved byte used");
    let y_ticks = decades(RATE_RANGE.0, RATE_RANGE.1, |v| {
        if v < 1.0 {
            format!("0.{}1", "0".repeat((-v.log10()).round() as usize - 1))
        } else {
            grouped(v.round() as i64)
        }
    });
    f.push(plot.axes(
        &intensity_ticks(),
        &y_ticks,
        "FLOP per byte moved (log)",
        "TFLOP/s (log)",
    ));
    let low = AI_RANGE.0;
    let high = AI_RANGE.1;
    f.push(plot.series(
        "roof",
        &[
            (low, gpu.attainable(low)),
            (gpu.ridge(), gpu.peak_tflops),
            (high, gpu.peak_tflops),
        ],
        "accent",
    ));
    f.push(plot.marker(
        "ridge",
        gpu.ridge(),
        format!("ridge {} FLOP/B", decimal(gpu.ridge(), 1)),
        "",
    ));
    f.push(
        plot.dot("ideal", (ideal, gpu.attainable(ideal)), "done")
            .focus("roofline")
            .label(format!(
                "Every moved byte used: {} FLOP/byte, {} TFLOP/s",
                decimal(ideal, 2),
                decimal(gpu.attainable(ideal), 2)
            )),
    );
    f.push(
        plot.dot("kernel", (ai, gpu.attainable(ai)), "warn")
            .focus("roofline")
            .state(if gpu.memory_bound(ai) {
                "memory-bound"
            } else {
                "compute-bound"
            })
            .label(format!(
                "The kernel as loaded: {} FLOP/byte, {}",
                decimal(ai, 2),
                m.attainable_text()
            )),
    );
    f
}

/// Every pattern at the current element size and settings.
fn pattern_table(m: &GpuMemory) -> Table {
    let c = &m.config;
    let mut t = Table::new(
        "patterns",
        format!(
            "Every pattern with {}-byte elements, stride {}, offset {}, {} fields",
            c.elem, c.stride, c.offset, c.fields
        ),
        &["pattern", "sectors", "lines", "efficiency"],
    );
    for p in Pattern::ALL {
        let a = Access {
            pattern: p,
            ..m.access()
        };
        let row = t
            .row(
                format!("row-{}", slug(p)),
                vec![
                    Cell::text(p.name()),
                    Cell::mono(a.sectors().len().to_string()),
                    Cell::mono(a.lines().len().to_string()),
                    Cell::mono(format!("{} %", decimal(100.0 * a.efficiency(), 1))),
                ],
            )
            .focus("patterns");
        if p == c.pattern {
            row.class("accent").state("current");
        }
    }
    t
}

impl View for GpuMemory {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let layout = ui.layout();
        let a = self.access();
        Scene::new(
            "A warp's memory access",
            format!(
                "32 threads load {}-byte elements, {}: {} bytes asked in {} sectors of 32 bytes and {} lines of 128, {} % efficient; {} placed. In shared memory, threads {} words apart: a {}-way conflict. On compute capability {}, blocks of {} threads reach occupancy {}, limited by {}; at {} FLOP per byte moved the roofline allows {}.",
                a.elem,
                self.pattern_text(),
                a.requested_bytes(),
                a.sectors().len(),
                a.lines().len(),
                decimal(100.0 * a.efficiency(), 1),
                self.placed,
                self.smem_stride(),
                self.conflict(),
                self.config.cap.number(),
                self.config.threads,
                self.occupancy_text(),
                self.limiting_text(),
                decimal(self.intensity(), 2),
                self.attainable_text()
            ),
        )
        .figure(warp_figure(self, layout))
        .table(pattern_table(self))
        .figure(bank_figure(self, layout))
        .figure(occupancy_figure(self, layout))
        .figure(roofline_figure(self, layout))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let c = &self.config;
        let patterns = Pattern::ALL
            .iter()
            .map(|&p| {
                let mut label = p.name().to_string();
                if let Some(first) = label.get_mut(0..1) {
                    first.make_ascii_uppercase();
                }
                (slug(p), label, ui.act(GpuMemoryAction::SetPattern(p)))
            })
            .collect();
        let selected = Pattern::ALL
            .iter()
            .position(|&p| p == c.pattern)
            .unwrap_or(0);
        let sizes = ELEMENT_SIZES
            .iter()
            .map(|&b| {
                let name = match b {
                    4 => "4 B (float)",
                    8 => "8 B (double)",
                    _ => "16 B (float4)",
                };
                (
                    b.to_string(),
                    name.to_string(),
                    ui.act(GpuMemoryAction::SetElem(b)),
                )
            })
            .collect();
        let size_at = ELEMENT_SIZES.iter().position(|&b| b == c.elem).unwrap_or(0);
        let caps = Capability::ALL
            .iter()
            .map(|&cap| {
                (
                    cap.number().replace('.', "-"),
                    format!("{} ({})", cap.gpu().name, cap.number()),
                    ui.act(GpuMemoryAction::SetCapability(cap)),
                )
            })
            .collect();
        let cap_at = Capability::ALL
            .iter()
            .position(|&cap| cap == c.cap)
            .unwrap_or(0);
        vec![
            Control::choice("pattern", "Access pattern", selected, patterns),
            Control::choice("elem", "Element size", size_at, sizes),
            bounded(
                ui,
                "stride",
                "Stride (strided pattern)",
                &STRIDE,
                c.stride,
                false,
                GpuMemoryAction::SetStride,
            ),
            bounded(
                ui,
                "offset",
                "Offset (shifted start)",
                &OFFSET,
                c.offset,
                false,
                GpuMemoryAction::SetOffset,
            ),
            bounded(
                ui,
                "fields",
                "Fields per struct",
                &FIELDS,
                c.fields,
                false,
                GpuMemoryAction::SetFields,
            ),
            Control::button(
                "place-all",
                "Place every thread",
                ui.act(GpuMemoryAction::PlaceAll),
            ),
            Control::note(
                "Step places the next thread into its sector; after the 32nd it moves to the next pattern.",
            ),
            Control::group(
                "Kernel launch",
                vec![
                    Control::choice("cap", "GPU (compute capability)", cap_at, caps),
                    bounded(
                        ui,
                        "threads",
                        "Threads per block",
                        &THREADS,
                        c.threads,
                        true,
                        GpuMemoryAction::SetThreads,
                    ),
                    bounded(
                        ui,
                        "registers",
                        "Registers per thread",
                        &REGISTERS,
                        c.registers,
                        true,
                        GpuMemoryAction::SetRegisters,
                    ),
                    bounded(
                        ui,
                        "shared",
                        "Shared memory per block",
                        &SHARED_KB,
                        c.shared_kb,
                        true,
                        GpuMemoryAction::SetSharedKb,
                    ),
                    bounded(
                        ui,
                        "flops",
                        "FLOPs per element loaded",
                        &FLOPS,
                        c.flops,
                        true,
                        GpuMemoryAction::SetFlops,
                    ),
                ],
            ),
            Control::danger_group(
                "Break it",
                vec![
                    Control::note(
                        "Strided pattern, stride 8 floats: every thread gets a sector of its own.",
                    ),
                    bounded(
                        ui,
                        "smem-stride",
                        "Shared-memory stride",
                        &SMEM_STRIDE,
                        c.smem_stride,
                        false,
                        GpuMemoryAction::SetSmemStride,
                    )
                    .danger(),
                    Control::toggle(
                        "pad",
                        "Pad each tile row by one word",
                        c.padded,
                        ui.act(GpuMemoryAction::SetPadded(!c.padded)),
                    ),
                    Control::note(
                        "A stride of 32 words puts every thread in bank 0: a 32-way conflict. Padding makes it 33, one bank each.",
                    ),
                    Control::note(
                        "Raise the registers per thread to 128: the register file, not the warp slots, now decides how many warps an SM holds.",
                    ),
                ],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::gpu::memory::GpuMemoryConfig;
    use demos::Model;

    #[test]
    fn a_placed_thread_and_its_sector_change_state_not_place() {
        let mut m = GpuMemory::new(&GpuMemoryConfig::default());
        let before = crate::build(&m, &()).0;
        m.apply(&GpuMemoryAction::Place).unwrap();
        let after = crate::build(&m, &()).0;
        let state = |s: &Scene, k: &str| s.find(k).unwrap().state.clone();
        assert_eq!(state(&before, "thread-0").as_deref(), Some("waiting"));
        assert_eq!(state(&after, "thread-0").as_deref(), Some("placed"));
        assert_eq!(state(&after, "sector-0").as_deref(), Some("fetched"));
        assert_eq!(state(&after, "sector-1").as_deref(), Some("waiting"));
        assert!(after.find("sector-4").is_none());
    }

    #[test]
    fn a_32_word_stride_puts_every_thread_in_bank_0() {
        let mut m = GpuMemory::new(&GpuMemoryConfig::default());
        m.apply(&GpuMemoryAction::SetSmemStride(32)).unwrap();
        let scene = crate::build(&m, &()).0;
        let bank0 = scene.find("bank-0").unwrap();
        assert_eq!(bank0.state.as_deref(), Some("conflict"));
        assert_eq!(
            scene.find("bank-1").unwrap().state.as_deref(),
            Some("unused")
        );
    }
}
