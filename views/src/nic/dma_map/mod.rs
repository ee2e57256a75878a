//! A driver behind the IOMMU: the RX ring's buffers and their mappings,
//! the IOMMU's IOTLB and flush queue, the host pages and who owns them now;
//! the page table and the fault log. Buffers are mapped per frame, or kept
//! mapped and recycled as real RX paths do.

mod lesson;

use crate::control::Control;
use crate::draw::text::{small_chars_in, wrap_words};
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Ui, View};
use crate::scene::{Cell, Figure, Item, List, Scene, Shape, Size, Table};
use demos::nic::dma_map::{
    DmaMap, DmaMapAction, DmaMapConfig, Fate, PageUse, SlotState, IOTLB_ENTRIES, POOL, RING_PA,
    SLOTS,
};
use demos::text::plural;

const ROW: f32 = 40.0;
const TOP: f32 = 78.0;
/// Rows a panel has room for in the wide layout, where the three panels
/// stand side by side and share one height.
const WIDE_ROWS: usize = 7;
/// Gap between panels stacked on a phone.
const STACK_GAP: f32 = 14.0;
/// Line height of the note when it wraps.
const NOTE_LINE: f32 = 18.0;

/// Where the three panels go: side by side on a wide screen, one under the
/// other on a phone, where each is as tall as its own rows.
#[derive(Clone, Copy)]
struct Dims {
    layout: Layout,
    panel_w: f32,
}

impl Dims {
    fn new(layout: Layout) -> Self {
        Dims {
            layout,
            panel_w: layout.pick(296.0, 400.0),
        }
    }

    fn rows_room(self, rows: usize) -> usize {
        self.layout.pick(WIDE_ROWS, rows)
    }

    fn panel_h(self, rows: usize) -> f32 {
        TOP + ROW * self.rows_room(rows) as f32 - 4.0
    }

    /// Top-left corner of panel `n` (0, 1, 2), given the rows of those
    /// above it.
    fn origin(self, n: usize, rows_above: &[usize]) -> (f32, f32) {
        match self.layout {
            Layout::Wide => (10.0 + 322.0 * n as f32, 0.0),
            Layout::Narrow => (
                10.0,
                rows_above
                    .iter()
                    .map(|&r| self.panel_h(r) + 10.0 + STACK_GAP)
                    .sum(),
            ),
        }
    }
}

fn hex(a: u64) -> String {
    format!("{a:#x}")
}

/// A titled panel with rows of (key, text, class, state).
fn panel(
    key: &str,
    dims: Dims,
    (x, y0): (f32, f32),
    title: &str,
    rows: Vec<(String, String, &str, String)>,
) -> Shape {
    let w = dims.panel_w;
    let mut shapes = vec![
        Shape::rect("frame", x, 10.0, w, dims.panel_h(rows.len()))
            .rounded(10.0)
            .class("panel"),
        Shape::text("title", x + 14.0, 42.0, title)
            .start()
            .size(Size::Title),
    ];
    for (i, (k, text, class, state)) in rows.into_iter().enumerate() {
        let y = TOP + ROW * i as f32;
        shapes.push(
            Shape::group(
                k,
                vec![
                    Shape::rect("r", x + 12.0, y, w - 24.0, ROW - 6.0).rounded(4.0),
                    Shape::text("t", x + 22.0, y + 24.0, text).start().mono(),
                ],
            )
            .class(class)
            .state(state),
        );
    }
    Shape::group(key, shapes).at(0.0, y0)
}

fn slot_rows(m: &DmaMap) -> Vec<(String, String, &'static str, String)> {
    (0..SLOTS)
        .map(|i| {
            let (text, class, state) = match m.slots[i] {
                SlotState::Free => (format!("#{i} free"), "idle dashed", "free"),
                SlotState::Mapped { iova, .. } => {
                    (format!("#{i} mapped {}", hex(iova)), "nic", "mapped")
                }
                SlotState::Written { iova, frame, .. } => (
                    format!("#{i} frame {frame} {}", hex(iova)),
                    "done",
                    "written",
                ),
            };
            (format!("slot-{i}"), text, class, state.to_string())
        })
        .collect()
}

fn iommu_rows(m: &DmaMap) -> Vec<(String, String, &'static str, String)> {
    let mut rows: Vec<(String, String, &str, String)> = (0..IOTLB_ENTRIES)
        .map(|i| match m.iotlb.get(i) {
            Some(e) => (
                format!("tlb-{i}"),
                format!(
                    "{:#x} → {:#x}{}",
                    e.iova >> 12,
                    e.pa >> 12,
                    if e.live { "" } else { " STALE" }
                ),
                if e.live { "driver" } else { "fault" },
                if e.live { "live" } else { "stale" }.to_string(),
            ),
            None => (
                format!("tlb-{i}"),
                "empty".into(),
                "idle dashed",
                "empty".into(),
            ),
        })
        .collect();
    rows.push((
        "flush-queue".into(),
        if m.strict {
            "no flush queue (strict)".into()
        } else {
            format!("flush queue: {}", m.flush_queue.len())
        },
        if m.flush_queue.is_empty() {
            "idle"
        } else {
            "warn"
        },
        m.flush_queue.len().to_string(),
    ));
    rows.push((
        "pt-count".into(),
        format!(
            "page table: {} PTE{}",
            m.page_table.len(),
            plural(m.page_table.len())
        ),
        "idle",
        m.page_table.len().to_string(),
    ));
    rows
}

fn page_rows(m: &DmaMap) -> Vec<(String, String, &'static str, String)> {
    let hit = m
        .last
        .filter(|a| a.fate == Fate::StaleHit)
        .and_then(|a| a.pa);
    let mut rows = vec![(
        "page-ring".to_string(),
        format!("{} ring", hex(RING_PA)),
        "driver",
        "ring".to_string(),
    )];
    rows.extend(POOL.iter().enumerate().map(|(i, &pa)| {
        let (owner, class) = match m.pages[i] {
            PageUse::Free => ("free".to_string(), "idle dashed"),
            PageUse::Buffer(s) => (format!("buffer #{s}"), "done"),
            PageUse::Reused if hit == Some(pa) => ("reused: HIT".into(), "fault thick"),
            PageUse::Reused => ("reused".into(), "idle"),
        };
        (
            format!("page-{i}"),
            format!("{} {owner}", hex(pa)),
            class,
            owner,
        )
    }));
    rows
}

/// How the driver treats its RX buffers, said under the panels.
fn buffers_note(m: &DmaMap) -> String {
    if m.recycle {
        format!(
            "Recycling: pages stay mapped round the ring, as page_pool and ixgbe_reuse_rx_page() keep them. {} recycled, {} unmapped.",
            m.counters.recycled, m.counters.unmaps
        )
    } else {
        "Per frame: map, receive, unmap, the DMA API's simplest use. Real RX paths keep pages mapped and recycle them.".to_string()
    }
}

fn picture(m: &DmaMap, layout: Layout) -> Figure {
    let dims = Dims::new(layout);
    let (ring, iotlb, pages) = (slot_rows(m), iommu_rows(m), page_rows(m));
    let counts = [ring.len(), iotlb.len(), pages.len()];
    let (_, last_y) = dims.origin(2, &counts[..2]);
    let bottom = last_y + TOP + ROW * dims.rows_room(counts[2]) as f32 + 16.0;
    // The note is one line under the three panels; a phone wraps it.
    let note = match layout {
        Layout::Wide => vec![buffers_note(m)],
        Layout::Narrow => wrap_words(&buffers_note(m), small_chars_in(NARROW_WIDTH - 8.0)),
    };
    let note_h = NOTE_LINE * (note.len() - 1) as f32;
    let mut f = Figure::new(
        "dma-map",
        format!(
            "{} mode, {}: {} IOTLB entries, {} stale; {} queued for the flush",
            if m.strict { "Strict" } else { "Lazy" },
            if m.recycle {
                "pages recycled"
            } else {
                "buffers mapped per frame"
            },
            m.iotlb.len(),
            m.stale_entries(),
            m.flush_queue.len()
        ),
        layout.pick(960.0, 420.0),
        bottom + 24.0 + note_h,
    )
    .legend("nic", "mapped for the NIC")
    .legend("driver", "live translation")
    .legend("fault", "stale: unmapped, still cached")
    .legend("done", "a frame or a buffer")
    .legend("idle", "reused: another task's page now");
    f.push(
        panel(
            "ring",
            dims,
            dims.origin(0, &[]),
            "Driver: RX buffers",
            ring,
        )
        .focus("ring"),
    );
    f.push(
        panel(
            "iommu",
            dims,
            dims.origin(1, &counts[..1]),
            "IOTLB (page numbers)",
            iotlb,
        )
        .focus("iotlb"),
    );
    f.push(panel(
        "pages",
        dims,
        dims.origin(2, &counts[..2]),
        "Host pages",
        pages,
    ));
    f.extend(note.into_iter().enumerate().map(|(i, line)| {
        let key = match i {
            0 => "buffers-note".to_string(),
            i => format!("buffers-note-{i}"),
        };
        Shape::text(key, 20.0, bottom + 8.0 + NOTE_LINE * i as f32, line)
            .start()
            .size(Size::Small)
    }));
    f
}

fn page_table(m: &DmaMap) -> Table {
    let mut t = Table::new(
        "page-table",
        "The IOMMU's page table for the NIC (an entry goes on every unmap)",
        &["IOVA page", "PA page", "what"],
    );
    for &(iova, pa) in &m.page_table {
        let what = if pa == RING_PA {
            "descriptor ring (mapped once)"
        } else if m.recycle {
            "RX page (mapped once, recycled)"
        } else {
            "RX buffer (mapped per frame)"
        };
        t.row(
            format!("pte-{iova:x}"),
            vec![Cell::mono(hex(iova)), Cell::mono(hex(pa)), Cell::text(what)],
        );
    }
    t
}

fn faults(m: &DmaMap) -> List {
    m.fault_log.iter().rev().enumerate().fold(
        List::new("fault-log", "Kernel log (dmesg)", "no faults").focus("fault-log"),
        |list, (i, line)| {
            list.item(
                Item::new(format!("dmesg-{i}"), line.clone())
                    .class("fault")
                    .mono(),
            )
        },
    )
}

impl View for DmaMap {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let c = &self.counters;
        Scene::new(
            "Driver DMA behind the IOMMU",
            format!(
                "{} mode, {}. {} frame{} received, {} IOTLB miss(es), {} invalidation(s); {} stale translation(s) cached; {} stray write(s) landed, {} blocked.",
                if self.strict { "Strict" } else { "Lazy" },
                if self.recycle {
                    format!("{} page(s) recycled", c.recycled)
                } else {
                    "buffers mapped per frame".to_string()
                },
                c.frames,
                plural(c.frames as usize),
                c.misses,
                c.invalidations,
                self.stale_entries(),
                c.corrupted,
                c.faults
            ),
        )
        .figure(picture(self, ui.layout()))
        .table(page_table(self))
        .list(faults(self))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let config = |strict, recycle| DmaMapConfig { strict, recycle };
        let modes = vec![
            (
                "lazy",
                "lazy (iommu.strict=0)".to_string(),
                ui.restart(config(false, self.recycle)),
            ),
            (
                "strict",
                "strict (iommu.strict=1)".to_string(),
                ui.restart(config(true, self.recycle)),
            ),
        ];
        let buffers = vec![
            (
                "per-frame",
                "map and unmap per frame".to_string(),
                ui.restart(config(self.strict, false)),
            ),
            (
                "recycle",
                "keep pages mapped, recycle them (page_pool)".to_string(),
                ui.restart(config(self.strict, true)),
            ),
        ];
        let driver = if self.recycle {
            vec![
                Control::button(
                    "map",
                    "Map a fresh page (first use)",
                    ui.act(DmaMapAction::Map),
                )
                .primary(),
                Control::button(
                    "recycle",
                    "Recycle a filled page, still mapped",
                    ui.act(DmaMapAction::Recycle),
                ),
                Control::button(
                    "unmap",
                    "Release a filled page: unmap it",
                    ui.act(DmaMapAction::Unmap),
                ),
            ]
        } else {
            vec![
                Control::button(
                    "map",
                    "dma_map_single() a buffer",
                    ui.act(DmaMapAction::Map),
                )
                .primary(),
                Control::button(
                    "unmap",
                    "dma_unmap_single() a filled one",
                    ui.act(DmaMapAction::Unmap),
                ),
            ]
        };
        vec![
            Control::choice("mode", "Boot with", usize::from(self.strict), modes),
            Control::choice("buffers", "RX buffers", usize::from(self.recycle), buffers),
            Control::group("Driver", driver),
            Control::group(
                "NIC and time",
                vec![
                    Control::button(
                        "write",
                        "The NIC receives a frame",
                        ui.act(DmaMapAction::DeviceWrite),
                    ),
                    Control::button(
                        "flush",
                        "10 ms pass: the flush timer fires",
                        ui.act(DmaMapAction::FlushTimer),
                    ),
                ],
            ),
            Control::note(if self.recycle {
                "Step runs the driver and the NIC: map each page once, then receive and recycle."
            } else {
                "Step runs the driver and the NIC: map, receive, unmap."
            }),
            Control::danger_group(
                "Break it",
                vec![Control::button(
                    "stale-dma",
                    "The device writes to the last unmapped IOVA",
                    ui.act(DmaMapAction::StaleDma),
                )
                .danger()],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::Model;

    fn after(strict: bool, n: usize) -> DmaMap {
        let mut m = DmaMap::new(&DmaMapConfig {
            strict,
            recycle: false,
        });
        for _ in 0..n {
            let a = m.next_auto().unwrap();
            m.apply(&a).unwrap();
        }
        m
    }

    #[test]
    fn a_lazy_unmap_leaves_a_stale_entry_marked_in_the_iotlb() {
        let m = after(false, SLOTS + 2);
        let scene = crate::build(&m, &()).0;
        let stale = (0..IOTLB_ENTRIES)
            .filter_map(|i| scene.find(&format!("tlb-{i}")))
            .filter(|s| s.state.as_deref() == Some("stale"))
            .count();
        assert_eq!(stale, 1);
    }

    #[test]
    fn a_stale_write_marks_the_reused_page_it_hit() {
        let mut m = after(false, SLOTS + 2);
        m.apply(&DmaMapAction::StaleDma).unwrap();
        let scene = crate::build(&m, &()).0;
        let hit = (0..POOL.len())
            .filter_map(|i| scene.find(&format!("page-{i}")))
            .filter(|s| s.has_class("fault"))
            .count();
        assert_eq!(hit, 1);
    }

    #[test]
    fn the_picture_says_rx_paths_recycle_and_shows_recycled_pages() {
        let m = after(false, 1);
        let scene = crate::build(&m, &()).0;
        let note = scene.find("buffers-note").unwrap().text_content().unwrap();
        assert!(
            note.contains("Real RX paths keep pages mapped and recycle them"),
            "{note}"
        );
        let mut r = DmaMap::new(&DmaMapConfig {
            strict: true,
            recycle: true,
        });
        for _ in 0..SLOTS + 2 {
            let a = r.next_auto().unwrap();
            r.apply(&a).unwrap();
        }
        let scene = crate::build(&r, &()).0;
        let note = scene.find("buffers-note").unwrap().text_content().unwrap();
        assert!(note.starts_with("Recycling: pages stay mapped"), "{note}");
        assert!(note.contains("1 recycled, 0 unmapped"), "{note}");
        let table = scene.table_named("page-table").unwrap();
        assert_eq!(
            table.rows[1].cells[2].text,
            "RX page (mapped once, recycled)"
        );
    }
}
