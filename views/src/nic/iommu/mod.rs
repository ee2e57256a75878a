//! IOMMU / IOVA: the device's IOVA pages beside host physical memory, the
//! IOMMU's entries between them, the latest DMA and its fate; the page table
//! and the kernel's fault log.

mod lesson;

use crate::control::{Control, Field};
use crate::draw::geometry::PathData;
use crate::layout::Layout;
use crate::live::{Command, Ui, View};
use crate::scene::{Cell, Figure, Item, List, Scene, Shape, Size, Table};
use demos::nic::iommu::{
    hex, region_at, Access, Iommu, IommuAction, Owner, Verdict, PAGE, PAGES, REGIONS,
};

/// Size of the latest DMA's pill, whose two lines say what and what became of it.
const PILL_W: f32 = 206.0;
const PILL_H: f32 = 50.0;

/// Where the two address spaces and the IOMMU between them go. On a phone
/// the columns are narrower and the rows taller: a one-page region's note
/// goes under its name, a taller one's range and owner on two lines, and
/// the IOMMU between the columns is a strip with the latest DMA's pill on
/// top of it and its mode under it.
#[derive(Clone, Copy)]
struct Dims {
    layout: Layout,
    /// The first IOVA row's top.
    top: f32,
    row: f32,
    iova_x: f32,
    iova_w: f32,
    pa_x: f32,
    pa_w: f32,
    width: f32,
    /// The IOMMU band: left, top, width; it ends under the last row.
    band: (f32, f32, f32),
    /// Top-left of the latest DMA's pill.
    pill: (f32, f32),
    /// Where the IOMMU's mode is written: x, and y from the rows' bottom.
    mode: (f32, f32),
    /// How far under a one-page region's name its note goes (0: beside it).
    note_drop: f32,
}

impl Dims {
    fn new(layout: Layout) -> Self {
        match layout {
            Layout::Wide => Dims {
                layout,
                top: 64.0,
                row: 32.0,
                iova_x: 64.0,
                iova_w: 130.0,
                pa_x: 430.0,
                pa_w: 300.0,
                width: 736.0,
                band: (206.0, 60.0, 214.0),
                pill: (210.0, 68.0),
                mode: (313.0, -10.0),
                note_drop: 0.0,
            },
            // The physical column is as wide as "another process's memory"
            // needs, the IOVA column as "0x1000" and "R W"; the latest
            // DMA's arrow and its words fit left of it, and the links cross
            // the 26 units between the columns. The pill sits above the rows.
            Layout::Narrow => Dims {
                layout,
                top: 124.0,
                row: 40.0,
                iova_x: 40.0,
                iova_w: 100.0,
                pa_x: 166.0,
                pa_w: 250.0,
                width: 420.0,
                band: (141.0, 56.0, 24.0),
                pill: (107.0, 62.0),
                mode: (153.0, 24.0),
                note_drop: 16.0,
            },
        }
    }

    /// Below the last row.
    fn bottom(self) -> f32 {
        self.top + self.row * PAGES as f32
    }
}

const PRESETS: &[(&str, &str)] = &[
    ("0x1000", "RX buffer"),
    ("0x1234", "inside RX page"),
    ("0x2000", "TX buffer"),
    ("0x5000", "unmapped"),
    ("0x0100", "stray, low"),
    ("0xf000", "stray, high"),
];

fn row_y(d: Dims, addr: u64) -> f32 {
    d.top + (addr as f32 / PAGE as f32) * d.row
}

/// The middle of the row holding page `addr`.
fn row_mid(d: Dims, addr: u64) -> f32 {
    row_y(d, addr & !(PAGE - 1)) + d.row / 2.0
}

/// A curve from an IOVA page's right edge to a physical page's left edge.
fn link(d: Dims, iova: u64, pa: u64) -> PathData {
    let (y0, y1) = (row_mid(d, iova), row_mid(d, pa));
    let (x0, x1) = (d.iova_x + d.iova_w, d.pa_x);
    let mid = (x0 + x1) / 2.0;
    PathData::new()
        .move_to(x0, y0)
        .curve_to((mid, y0), (mid, y1), (x1, y1))
}

fn iova_pages(m: &Iommu, d: Dims) -> Vec<Shape> {
    // The address's baseline, a little under the row's middle.
    let text_dy = d.row / 2.0 + 5.0;
    (0..PAGES)
        .map(|p| {
            let addr = p * PAGE;
            let y = row_y(d, addr);
            let entry = m.mapping(addr);
            let hit = m
                .last
                .is_some_and(|r| r.iova < 0x1_0000 && r.iova & !(PAGE - 1) == addr);
            let perm = entry.map_or("—", |e| match (e.read, e.write) {
                (true, true) => "R W",
                (true, false) => "R",
                _ => "W",
            });
            Shape::group(
                format!("iova-{addr:#x}"),
                vec![
                    Shape::rect("r", d.iova_x, y + 1.0, d.iova_w, d.row - 2.0).rounded(3.0),
                    Shape::text("a", d.iova_x + 8.0, y + text_dy, hex(addr))
                        .start()
                        .mono(),
                    Shape::text("p", d.iova_x + d.iova_w - 8.0, y + text_dy, perm)
                        .end()
                        .mono()
                        .size(Size::Small),
                ],
            )
            .class(if entry.is_some() { "driver" } else { "idle" })
            .class_if(hit, "thick")
            .state(if entry.is_some() {
                "mapped"
            } else {
                "no entry"
            })
        })
        .collect()
}

fn regions(m: &Iommu, d: Dims) -> Vec<Shape> {
    let (x, w, row) = (d.pa_x, d.pa_w, d.row);
    REGIONS
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let y = row_y(d, r.start);
            let h = (r.end - r.start) as f32 / PAGE as f32 * row;
            let t = m.touched[i];
            let harmed = r.owner != Owner::App && (t.written > 0 || t.read > 0);
            let note = if r.owner == Owner::App {
                match t.written + t.read {
                    0 => String::new(),
                    n => format!("device I/O {n} B"),
                }
            } else if t.written > 0 {
                format!("OVERWRITTEN {} B", t.written)
            } else if t.read > 0 {
                format!("LEAKED {} B", t.read)
            } else {
                String::new()
            };
            // One-page regions carry their state beside the name (under
            // it on a phone); taller ones on their last row.
            let note_y = if h > row {
                y + h - 10.0
            } else {
                y + 20.0 + d.note_drop
            };
            let note = if note.is_empty() && h <= row {
                hex(r.start)
            } else {
                note
            };
            let class = match (harmed, r.owner) {
                (true, _) => "fault thick",
                (false, Owner::App) => "done",
                (false, Owner::Kernel) => "idle",
                (false, Owner::OtherProcess) => "idle dashed",
            };
            let mut shapes = vec![
                Shape::rect("r", x, y + 1.0, w, h - 2.0),
                Shape::text("name", x + 8.0, y + 20.0, r.name)
                    .start()
                    .class("strong"),
                Shape::text("note", x + w - 8.0, note_y, note)
                    .end()
                    .mono()
                    .size(Size::Small)
                    .class("tone"),
            ];
            if h > row {
                let range = format!("{}–{:#06x}", hex(r.start), r.end - 1);
                let range_text = |key: &str, dy: f32, text: String| {
                    Shape::text(key, x + 8.0, y + 20.0 + row + dy, text)
                        .start()
                        .mono()
                        .size(Size::Small)
                };
                // A phone's column is too narrow for range and owner on one line.
                match d.layout {
                    Layout::Wide => shapes.push(range_text(
                        "range",
                        0.0,
                        format!("{range} · {}", r.owner.label()),
                    )),
                    Layout::Narrow => {
                        shapes.push(range_text("range", 0.0, range));
                        shapes.push(range_text("owner", 18.0, r.owner.label().to_string()));
                    }
                }
            }
            Shape::group(format!("region-{}", r.key), shapes)
                .class(class)
                .state(if harmed { "harmed" } else { "intact" })
                .focus(format!("region-{}", r.key))
        })
        .collect()
}

/// What became of a DMA: its state word, class, outcome and where it landed.
fn fate(verdict: Verdict) -> (&'static str, &'static str, String, Option<u64>) {
    match verdict {
        Verdict::Allowed { pa } => (
            "allowed",
            "done",
            format!("ALLOWED → {}", hex(pa)),
            Some(pa),
        ),
        Verdict::Blocked(reason) => (
            "blocked",
            "fault",
            format!("BLOCKED · fault {:#04x}", reason.code()),
            None,
        ),
        Verdict::Unchecked { pa } => (
            "unchecked",
            "fault",
            format!("UNCHECKED → {}", hex(pa)),
            Some(pa),
        ),
        Verdict::NoMemory => ("blocked", "fault", "NO MEMORY THERE".to_string(), None),
    }
}

/// The latest DMA: an arrow into its IOVA row, and what became of it.
fn last_dma(m: &Iommu, d: Dims) -> Option<Shape> {
    let r = m.last?;
    let y = if r.iova < 0x1_0000 {
        row_mid(d, r.iova)
    } else {
        d.bottom() + 16.0
    };
    let (state, class, outcome, to) = fate(r.verdict);
    let access = |key: &str, y: f32, text: &str| {
        Shape::text(key, 2.0, y, text)
            .start()
            .size(Size::Small)
            .class("tone")
    };
    let mut shapes = vec![Shape::arrow("in", (6.0, y), (d.iova_x - 4.0, y))];
    // On a phone the arrow is short: its words go one above the other.
    match (d.layout, r.access.label().split_once(' ')) {
        (Layout::Narrow, Some((first, rest))) => {
            shapes.push(access("access", y - 22.0, first));
            shapes.push(access("access-2", y - 7.0, rest));
        }
        _ => shapes.push(access("access", y - 7.0, r.access.label())),
    }
    if let Some(pa) = to {
        let path = if m.translating {
            link(d, r.iova, pa)
        } else {
            PathData::new()
                .move_to(d.iova_x + d.iova_w, y)
                .line_to(d.pa_x, row_mid(d, pa))
        };
        shapes.push(
            Shape::path("path", path)
                .class("line")
                .arrowhead(crate::scene::Arrow::End),
        );
    }
    let (px, py) = d.pill;
    let pill_mid = px + PILL_W / 2.0;
    shapes.push(Shape::rect("pill", px, py, PILL_W, PILL_H).rounded(12.0));
    shapes.push(
        Shape::text(
            "what",
            pill_mid,
            py + 21.0,
            format!("{} {}", r.access.label(), hex(r.iova)),
        )
        .mono()
        .size(Size::Small)
        .class("strong"),
    );
    shapes.push(
        Shape::text("outcome", pill_mid, py + 41.0, outcome)
            .mono()
            .size(Size::Small)
            .class("strong"),
    );
    Some(Shape::group("last-dma", shapes).class(class).state(state))
}

fn spaces(m: &Iommu, layout: Layout) -> Figure {
    let d = Dims::new(layout);
    // A phone writes the IOMMU's mode under the rows, above the footnote.
    let height = d.bottom() + layout.pick(34.0, 58.0);
    let mut f = Figure::new(
        "iommu-spaces",
        format!(
            "Device IOVA space and host physical memory; {} mapping(s); IOMMU {}",
            m.mappings.len(),
            if m.translating {
                "translating"
            } else {
                "in passthrough"
            }
        ),
        d.width,
        height,
    )
    .legend("driver", "mapped IOVA page")
    .legend("done", "device owner's memory")
    .legend("idle", "kernel / other process")
    .legend("fault", "harmed by stray DMA");
    let (iova_mid, pa_mid) = (d.iova_x + d.iova_w / 2.0, d.pa_x + d.pa_w / 2.0);
    let (band_x, band_y, band_w) = d.band;
    f.push(Shape::text("col-iova", iova_mid, 28.0, "Device's IOVA space").class("strong"));
    f.push(Shape::text("col-iova-sub", iova_mid, 48.0, "what the NIC addresses").size(Size::Small));
    f.push(Shape::text("col-pa", pa_mid, 28.0, "Host physical memory").class("strong"));
    f.push(Shape::text("col-pa-sub", pa_mid, 48.0, "what really gets touched").size(Size::Small));
    f.push(
        Shape::group(
            "iommu-mode",
            vec![
                Shape::rect("band", band_x, band_y, band_w, d.bottom() + 4.0 - band_y)
                    .rounded(10.0),
                Shape::text(
                    "mode",
                    d.mode.0,
                    d.bottom() + d.mode.1,
                    if m.translating {
                        "IOMMU · TRANSLATING"
                    } else {
                        "IOMMU · PASSTHROUGH"
                    },
                )
                .mono()
                .size(Size::Small)
                .class("tone"),
            ],
        )
        .class(if m.translating {
            "driver ghost"
        } else {
            "fault ghost"
        })
        .state(if m.translating {
            "translating"
        } else {
            "passthrough"
        })
        .focus("iommu"),
    );
    f.extend(iova_pages(m, d));
    f.extend(regions(m, d));
    let hot_page = m.last.and_then(|r| match r.verdict {
        Verdict::Allowed { .. } => Some(r.iova & !(PAGE - 1)),
        _ => None,
    });
    f.push(Shape::group(
        "links",
        m.mappings
            .iter()
            .map(|e| {
                Shape::path(format!("pte-link-{:x}", e.iova), link(d, e.iova, e.pa))
                    .class("line")
                    .class(if m.translating {
                        "driver"
                    } else {
                        "idle dashed"
                    })
                    .class_if(hot_page == Some(e.iova), "thick")
            })
            .collect(),
    ));
    f.extend(last_dma(m, d));
    f.push(
        Shape::text(
            "outside",
            d.iova_x,
            height - 8.0,
            "≥ 0x10000: not drawn, no entry",
        )
        .start()
        .size(Size::Small),
    );
    f
}

fn page_table(m: &Iommu) -> Table {
    let mut t = Table::new(
        "page-table",
        "Page table of device 03:00.0 (any other IOVA: no entry, so the DMA faults)",
        &["IOVA page", "from vaddr", "PA page", "holds", "perm"],
    );
    for e in &m.mappings {
        let region = region_at(e.pa).map_or("", |(_, r)| r.name);
        t.row(
            format!("pte-{:#x}", e.iova),
            vec![
                Cell::mono(hex(e.iova)),
                Cell::mono(format!("{:#x}", e.vaddr)),
                Cell::mono(format!("→ {}", hex(e.pa))),
                Cell::text(region),
                Cell::mono(e.perms()),
            ],
        )
        .class("driver")
        .focus(format!("pte-{:x}", e.iova));
    }
    t
}

fn fault_log(m: &Iommu) -> List {
    m.faults.iter().rev().enumerate().fold(
        List::new("fault-log", "Kernel log (dmesg)", "no faults").focus("fault-log"),
        |list, (i, r)| {
            list.item(
                Item::new(format!("dmesg-{i}"), r.dmar_line().unwrap_or_default())
                    .class("fault")
                    .mono(),
            )
        },
    )
}

fn damage(m: &Iommu) -> List {
    m.harmed().enumerate().fold(
        List::new(
            "damage",
            "Damage",
            "none: every DMA stayed where it belonged",
        ),
        |list, (i, (r, t))| {
            let what = if t.written > 0 {
                format!("{} overwritten ({} B): {}.", r.name, t.written, r.harm)
            } else {
                format!(
                    "{} read by the device ({} B): its contents leaked.",
                    r.name, t.read
                )
            };
            list.item(
                Item::new(format!("harm-{i}"), what)
                    .class("fault")
                    .tag("Damage:"),
            )
        },
    )
}

impl View for Iommu {
    /// Whether the presets and the address form make the device read or write.
    type Look = Access;

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &Access, ui: &mut Ui<Self>) -> Scene {
        let last = self.last.map_or("No DMA yet.".to_string(), |r| {
            format!(
                "The latest DMA, a {} to {}: {}.",
                r.access.label(),
                hex(r.iova),
                fate(r.verdict).2
            )
        });
        Scene::new(
            "IOMMU / IOVA",
            format!(
                "The IOMMU is {}; the device's page table has {} entries. {last}",
                if self.translating {
                    "translating"
                } else {
                    "in passthrough"
                },
                self.mappings.len()
            ),
        )
        .figure(spaces(self, ui.layout()))
        .table(page_table(self))
        .list(fault_log(self))
        .list(damage(self))
    }

    fn controls(&self, access: &Access, ui: &mut Ui<Self>) -> Vec<Control> {
        let access = *access;
        let dma = move |addr: &str| IommuAction::Dma {
            access,
            addr: addr.into(),
        };
        let access_options = vec![
            ("write", "DMA Write".to_string(), ui.look(Access::Write)),
            ("read", "DMA Read".to_string(), ui.look(Access::Read)),
        ];
        let presets = PRESETS
            .iter()
            .map(|(addr, note)| {
                Control::button(
                    &format!("preset-{addr}"),
                    format!("{addr} · {note}"),
                    ui.act(dma(addr)),
                )
            })
            .collect();
        let unmaps = self
            .mappings
            .iter()
            .map(|e| {
                Control::button(
                    &format!("unmap-{:#x}", e.iova),
                    format!("Unmap {}", hex(e.iova)),
                    ui.act(IommuAction::Unmap { iova: e.iova }),
                )
            })
            .collect();
        vec![
            Control::choice(
                "access",
                "The device makes a",
                usize::from(access == Access::Read),
                access_options,
            ),
            Control::group("DMA to", presets),
            Control::form(
                "dma-go",
                "Any address",
                vec![Field::text("dma-addr", "Address (hex)", "0x3000")
                    .help("0x-prefixed or bare hex; underscores allowed.")],
                "DMA",
                ui.form(move |v| Ok(Command::Do(dma(v.first().map_or("", |s| s.as_str()))))),
            ),
            Control::form(
                "map-go",
                "VFIO_IOMMU_MAP_DMA",
                vec![
                    Field::text("map-iova", "IOVA page", "0x3000"),
                    Field::text("map-vaddr", "vaddr", "0x7fa0_2000")
                        .help("The process's pages: 0x7fa0_0000 to 0x7fa0_4fff."),
                    Field::check("map-read", "READ", true),
                    Field::check("map-write", "WRITE", true),
                ],
                "Map page",
                ui.form(|v| {
                    let field = |i: usize| v.get(i).cloned().unwrap_or_default();
                    Ok(Command::Do(IommuAction::Map {
                        iova: field(0),
                        vaddr: field(1),
                        read: field(2) == "true",
                        write: field(3) == "true",
                    }))
                }),
            ),
            Control::group("VFIO_IOMMU_UNMAP_DMA", unmaps),
            Control::note("Step makes ordinary traffic: RX writes, TX reads."),
            Control::danger_group(
                "Break it",
                vec![Control::toggle(
                    "passthrough",
                    "IOMMU off (passthrough)",
                    !self.translating,
                    ui.act(IommuAction::SetTranslation(!self.translating)),
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

    fn dma(m: &mut Iommu, access: Access, addr: &str) {
        m.apply(&IommuAction::Dma {
            access,
            addr: addr.into(),
        })
        .unwrap();
    }

    #[test]
    fn a_stray_write_in_passthrough_harms_the_page_tables() {
        let mut m = Iommu::new(&Default::default());
        m.apply(&IommuAction::SetTranslation(false)).unwrap();
        dma(&mut m, Access::Write, "0xf000");
        let scene = crate::build(&m, &Access::Write).0;
        assert_eq!(
            scene.find("last-dma").unwrap().state.as_deref(),
            Some("unchecked")
        );
        let ptables = scene.find("region-ptables").unwrap();
        assert_eq!(ptables.state.as_deref(), Some("harmed"));
        assert!(ptables
            .children()
            .iter()
            .any(|c| c.text_content() == Some("OVERWRITTEN 64 B")));
    }

    #[test]
    fn the_presets_send_the_access_being_looked_at() {
        let m = Iommu::new(&Default::default());
        let (_, controls, ui) = crate::build(&m, &Access::Read);
        let Some(Control::Button(b)) = Control::find(&controls, "preset-0x1000") else {
            panic!("preset");
        };
        let command = ui.resolve(b.send, &crate::Input::Press).unwrap();
        assert_eq!(
            command,
            Command::Do(IommuAction::Dma {
                access: Access::Read,
                addr: "0x1000".into()
            })
        );
    }
}
