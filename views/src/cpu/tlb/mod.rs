//! TLB and page walk: the virtual address cut into its four 9-bit indices
//! and the offset, in binary; the walk CR3 → PML4 → PDPT → PD → PT with the
//! entry read at each level and the paging-structure caches beside it; the
//! TLB's sets and ways.

mod lesson;

use super::kit::{part, rect, text, END, LARGE, MONO, SMALL, START, STRONG, TONE};
use super::sets::{caption, grid_in, shown_sets, Arrangement, Mark};
use crate::control::{Control, Field};
use crate::draw::text::{line_key, pieces_as_lines};
use crate::knob::bounded;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Command, Ui, View};
use crate::scene::{Figure, Scene, Shape};
use demos::cpu::cachesim::parse::parse_number;
use demos::cpu::tlb::paging::read;
use demos::cpu::tlb::{
    Table, Tlb, TlbAction, Translation, CR3, ENTRIES, LOOP_BASE, LOOP_PAGES, READ_CYCLES,
};
use demos::text::plural;

/// Width of one bit drawn in large monospace.
const BIT: f32 = 13.0;
/// On a laptop the TLB's figures are narrower than the widest, so they are
/// drawn larger.
const WIDE_W: f32 = 780.0;
/// From one line of a caption to the next.
const LINE_H: f32 = 22.0;

/// Where the address figure draws its fields: in one row on a laptop; on a
/// phone the caption takes two lines and the fields wrap (PML4, PDPT and
/// PD fill a row, 399 units).
struct AddressDims {
    width: f32,
    /// Fields wrap at this x; `None`: one row.
    right: Option<f32>,
    /// From one row of fields to the next.
    row: f32,
}

impl AddressDims {
    fn for_layout(layout: Layout) -> Self {
        match layout {
            Layout::Wide => AddressDims {
                width: 730.0,
                right: None,
                row: 0.0,
            },
            Layout::Narrow => AddressDims {
                width: NARROW_WIDTH,
                right: Some(NARROW_WIDTH - 10.0),
                row: 92.0,
            },
        }
    }
}

/// The address in binary, cut into the four indices and the offset.
fn address(m: &Tlb, layout: Layout) -> Figure {
    let t: Option<&Translation> = m.last();
    let d = AddressDims::for_layout(layout);
    let mut f = Figure::new(
        "va-split",
        "The virtual address, field by field",
        d.width,
        44.0,
    )
    .legend("accent", "a table index (9 bits: 512 entries)")
    .legend("idle", "offset in the page");
    let Some(t) = t else {
        f.push(text("none", 10.0, 30.0, "No load yet.".into(), START));
        return f;
    };
    let heading = vec![
        format!("virtual address {:#x}", t.va),
        "(bits 63:48 copy bit 47)".to_string(),
    ];
    let heading = pieces_as_lines(layout.is_narrow(), heading, " ");
    // The fields start below the caption's last line.
    let mut dy = (heading.len() - 1) as f32 * LINE_H;
    for (i, line) in heading.into_iter().enumerate() {
        let key = line_key("value", i);
        f.push(text(
            &key,
            10.0,
            22.0 + i as f32 * LINE_H,
            line,
            START | MONO | STRONG,
        ));
    }
    let binary = format!("{:048b}", t.va & ((1 << 48) - 1));
    let tables = if t.huge { 3 } else { 4 };
    let (mut x, mut from) = (10.0, 0);
    for i in 0..=tables {
        let index = i < tables;
        let (name, width, hi, value) = match Table::ALL.get(i).filter(|_| index) {
            Some(tb) => (
                tb.label(),
                9,
                tb.shift() + 8,
                format!("index {}", t.indices[i]),
            ),
            None => (
                "offset",
                if t.huge { 21 } else { 12 },
                if t.huge { 20 } else { 11 },
                format!("{:#x}", t.offset),
            ),
        };
        let lo = hi + 1 - width;
        let w = width as f32 * BIT + 12.0;
        if d.right.is_some_and(|r| x + w > r) {
            (x, dy) = (10.0, dy + d.row);
        }
        let digits = binary
            .get(from..from + width as usize)
            .unwrap_or("")
            .to_string();
        from += width as usize;
        let cells = vec![
            text(
                "name",
                x + w / 2.0,
                dy + 48.0,
                format!("{name} {hi}:{lo}"),
                SMALL,
            ),
            rect("r", x, dy + 56.0, w, 40.0, ""),
            text("bits", x + w / 2.0, dy + 83.0, digits, MONO | LARGE),
            text(
                "value",
                x + w / 2.0,
                dy + 120.0,
                value.clone(),
                MONO | STRONG,
            ),
        ];
        let key = format!("va-{}", name.to_ascii_lowercase());
        let about = format!("{name}: {value}");
        f.push(
            part(
                key,
                cells,
                if index { "accent" } else { "idle" },
                value,
                false,
            )
            .label(about)
            .focus("va"),
        );
        x += w + 6.0;
    }
    f.height = dy + 140.0;
    f
}

/// What the walk did at one table: its state and the words beside it.
fn status(t: &Translation, table: Table, read_cycles: u32) -> (&'static str, &'static str, String) {
    if t.huge && table == Table::Pt {
        return (
            "not used",
            "idle",
            "not used: the PD entry maps a 2 MiB page".into(),
        );
    }
    if t.tlb_hit {
        return ("skipped", "idle", "skipped: the TLB hit".into());
    }
    if t.steps.iter().any(|s| s.table == table) {
        return (
            "read",
            "warn",
            format!("read from memory, {read_cycles} cycles"),
        );
    }
    ("from PWC", "hit", "supplied by the page-walk cache".into())
}

/// The entries a paging-structure cache holds, each by the indices that
/// select it, root first: `254/0/0`.
fn pwc_text(m: &Tlb, table: Table) -> String {
    let held: Vec<String> = m.pwc[table.depth()].levels[0]
        .sets
        .values()
        .flat_map(|s| s.ways.iter().flatten())
        .map(|b| {
            let path: Vec<String> = Table::ALL[..=table.depth()]
                .iter()
                .map(|t| ((b.base >> t.shift()) & 0x1ff).to_string())
                .collect();
            path.join("/")
        })
        .collect();
    let more = held.len().saturating_sub(4);
    let shown = if held.is_empty() {
        "empty".to_string()
    } else {
        held[..held.len() - more].join(" ")
    };
    if more > 0 {
        format!("PWC: {shown} +{more}")
    } else {
        format!("PWC: {shown}")
    }
}

/// Where the walk figure draws its rows. On a laptop each table's row is one
/// line: its name and entry on the left, what the walk did (and the
/// page-walk cache's entries) on the right. On a phone the name shares its
/// line with what the walk did, the entry (up to 38 characters) and the
/// cache's entries have lines of their own, and the physical address's
/// words go under it.
struct WalkDims {
    width: f32,
    /// A row's box: its width and height, and from one row's top to the next.
    box_w: f32,
    box_h: f32,
    pitch: f32,
    /// The right edge of the words on the right.
    right: f32,
    /// Baselines, from a row's top: the name; what the walk did; what the
    /// page-walk cache holds.
    name_y: f32,
    what_y: f32,
    cached_y: f32,
    /// Where the entry read starts, from the row's left edge and top.
    entry: (f32, f32),
    /// The physical address's box: its height and first baseline.
    pa_h: f32,
    pa_y: f32,
}

impl WalkDims {
    fn for_layout(layout: Layout, pwc: bool) -> Self {
        match layout {
            Layout::Wide => WalkDims {
                width: WIDE_W,
                box_w: WIDE_W - 20.0,
                box_h: 44.0,
                pitch: 54.0,
                right: WIDE_W - 20.0,
                name_y: 28.0,
                what_y: 18.0,
                cached_y: 37.0,
                entry: (86.0, 28.0),
                pa_h: 44.0,
                pa_y: 28.0,
            },
            Layout::Narrow => {
                // A third line for the page-walk cache, when there is one.
                let box_h = if pwc { 74.0 } else { 56.0 };
                WalkDims {
                    width: NARROW_WIDTH,
                    box_w: NARROW_WIDTH - 20.0,
                    box_h,
                    pitch: box_h + 10.0,
                    right: NARROW_WIDTH - 20.0,
                    name_y: 24.0,
                    what_y: 24.0,
                    cached_y: 64.0,
                    entry: (24.0, 45.0),
                    pa_h: 58.0,
                    pa_y: 26.0,
                }
            }
        }
    }
}

/// The CR3 box's top and height, above the walk's rows, and the first
/// row's top (room between for an arrow).
const CR3_Y: f32 = 8.0;
const CR3_H: f32 = 40.0;
const FIRST_ROW: f32 = CR3_Y + CR3_H + 14.0;

fn walk(m: &Tlb, layout: Layout) -> Figure {
    let t = m.last();
    let d = WalkDims::for_layout(layout, m.config.pwc);
    let mut f = Figure::new(
        "walk",
        "The page walk: one 8-byte entry read per level",
        d.width,
        0.0,
    )
    .legend("warn", "read from memory")
    .legend("hit", "from the page-walk cache")
    .legend("idle", "skipped or not used")
    .legend("done", "the physical address");
    let cr3 = vec![
        rect("r", 10.0, CR3_Y, 300.0, CR3_H, "panel"),
        text(
            "t",
            24.0,
            34.0,
            format!("CR3 = {CR3:#x}"),
            START | MONO | STRONG,
        ),
    ];
    f.push(Shape::group("cr3", cr3));
    // Row `i`'s top: the tables, then the physical address.
    let top = |i: usize| FIRST_ROW + d.pitch * i as f32;
    for table in Table::ALL {
        let y = top(table.depth());
        let (state, class, words) = t.map_or(("idle", "idle", String::new()), |t| {
            status(t, table, m.config.read_cycles)
        });
        let mut shapes = vec![
            rect("r", 10.0, y, d.box_w, d.box_h, ""),
            text(
                "name",
                24.0,
                y + d.name_y,
                table.label().into(),
                START | STRONG,
            ),
        ];
        if let Some(t) = t.filter(|t| !(t.huge && table == Table::Pt)) {
            let s = read(t.va, table, t.huge);
            let entry = format!("[{}] @ {:#x} = {:#x}", s.index, s.entry_addr, s.entry);
            let (x, dy) = d.entry;
            shapes.push(text("entry", x, y + dy, entry, START | MONO));
        }
        shapes.push(text(
            "what",
            d.right,
            y + d.what_y,
            words,
            END | SMALL | TONE,
        ));
        if m.config.pwc && table != Table::Pt {
            shapes.push(text(
                "cached",
                d.right,
                y + d.cached_y,
                pwc_text(m, table),
                END | MONO | SMALL,
            ));
        }
        f.push(part(table.key().into(), shapes, class, state.into(), false).focus(table.key()));
        f.push(Shape::arrow(
            format!("down-{}", table.depth()),
            (40.0, y - 10.0),
            (40.0, y - 1.0),
        ));
    }
    let y = top(4);
    let pa = t.map_or(vec!["physical address: —".to_string()], |t| {
        let what = if t.tlb_hit {
            // The lookup overlapped the L1 cache's: nothing to add.
            "TLB hit, no extra cycles".to_string()
        } else {
            format!("{} cycles of walk", t.cycles)
        };
        vec![format!("physical address {:#x}", t.pa), what]
    });
    let lines = pieces_as_lines(layout.is_narrow(), pa, " · ");
    let mut shapes = vec![rect("r", 10.0, y, d.box_w, d.pa_h, "")];
    for (i, line) in lines.into_iter().enumerate() {
        let key = line_key("t", i);
        shapes.push(text(
            &key,
            24.0,
            y + d.pa_y + i as f32 * LINE_H,
            line,
            START | MONO | STRONG,
        ));
    }
    f.push(
        Shape::group("pa", shapes)
            .class(if t.is_some() { "done" } else { "idle" })
            .focus("pa"),
    );
    f.height = y + d.pa_h + 18.0;
    f
}

/// The TLB's sets on a phone: at most three ways a line, 132 units each,
/// so a page number (`0x7f0000001`) and the one it evicted (`out: 0x7f0000001`)
/// fit; the default four ways make two lines of two.
const PHONE_GRID: Arrangement = Arrangement::narrow(3);

fn tlb(m: &Tlb, layout: Layout) -> Figure {
    let level = &m.tlb.levels[0];
    let c = &m.config;
    let t = m.last();
    let mark = t.map(|t| {
        (
            t.tlb_set,
            t.tlb_way,
            if t.tlb_hit {
                Mark::Hit
            } else {
                Mark::Filled(t.evicted)
            },
        )
    });
    let sets = shown_sets(level, t.map(|t| t.tlb_set));
    let page = c.page_bytes();
    let (entries, ways) = c.geometry();
    let n = entries / ways;
    let title = format!(
        "TLB for {} pages: {entries} entries, {n} set{} × {ways} way{}, LRU · reach {} KiB · #1 = evicted next",
        c.page_label(),
        plural(n),
        plural(ways),
        entries as u64 * page / 1024
    );
    let (heading, top) = caption(&title, layout);
    let (arrangement, width) = layout.pick((Arrangement::WIDE, WIDE_W), (PHONE_GRID, NARROW_WIDTH));
    let (cells, h, _) = grid_in(arrangement, "tlb", level, &sets, (width, top), mark, &|b| {
        format!("{:#x}", b.base / page)
    });
    let mut f = Figure::new("tlb", title.clone(), width, h + top + 6.0)
        .legend("", "a cached translation (its page number)")
        .legend("hit", "hit just now")
        .legend("accent", "filled just now (out: the line it evicted)")
        .legend("idle dashed", "empty");
    f.extend(heading);
    f.push(Shape::group("tlb-sets", cells).focus("tlb"));
    f
}

impl View for Tlb {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let c = &self.counters;
        let layout = ui.layout();
        Scene::new(
            "TLB and page walk",
            format!(
                "{} loads: {} TLB hits, {} misses, {} page-table reads, {} cycles.",
                c.accesses, c.hits, c.misses, c.reads, c.cycles
            ),
        )
        .figure(address(self, layout))
        .figure(walk(self, layout))
        .figure(tlb(self, layout))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let c = &self.config;
        let go = ui.form(|values| {
            let va = parse_number(values.first().map_or("", |v| v.trim()))
                .map_err(|e| format!("Not an address: {e}."))?;
            Ok(Command::Do(TlbAction::Access(va)))
        });
        let presets = [
            LOOP_BASE + 0x1234,
            LOOP_BASE + 0x2234,
            LOOP_BASE + 0x20_1234,
        ]
        .into_iter()
        .map(|va| {
            Control::button(
                &format!("go-{va:#x}"),
                format!("Load {va:#x}"),
                ui.act(TlbAction::Access(va)),
            )
        })
        .collect();
        // The sliders set the TLB of the page size in use.
        let (entries, ways) = c.geometry();
        let huge = c.huge_pages;
        let set = move |entries: usize, ways: usize| {
            if huge {
                TlbAction::SetHugeTlb { entries, ways }
            } else {
                TlbAction::SetTlb { entries, ways }
            }
        };
        let max_log = ENTRIES.max.trailing_zeros() as i64;
        // One page more than each set holds: every set thrashes under LRU.
        let over = (entries + entries / ways).min(LOOP_PAGES.max);
        vec![
            Control::form(
                "translate",
                "Load from a virtual address",
                vec![Field::text("va", "Virtual address", "0x7f0000001234")
                    .help("0x… hex or decimal")],
                "Load",
                go,
            ),
            Control::group("Try", presets),
            Control::note("Step runs the next load of a queued loop."),
            Control::danger_group(
                "Break it",
                vec![
                    Control::button(
                        "loop-over",
                        if huge {
                            format!("Loop over {over} 4 KiB pages: all in one 2 MiB page")
                        } else {
                            format!("Loop over {over} pages: one more than each set holds")
                        },
                        ui.act(TlbAction::Loop(over)),
                    )
                    .danger(),
                    Control::button(
                        "loop-fit",
                        format!("Loop over {entries} pages, 3 times"),
                        ui.act(TlbAction::Loop(entries)),
                    ),
                ],
            ),
            Control::group(
                if huge {
                    "The TLB for 2 MiB pages (replays the loads so far)"
                } else {
                    "The TLB for 4 KiB pages (replays the loads so far)"
                },
                vec![
                    Control::slider(
                        "entries",
                        "Entries",
                        (entries.trailing_zeros() as i64, 0, max_log),
                        "",
                        ui.number(move |v| {
                            let e = 1usize << v.clamp(0, max_log);
                            Ok(Command::Do(set(e, ways.min(e))))
                        }),
                    )
                    .shown(format!("{entries} entries")),
                    Control::slider(
                        "ways",
                        "Ways",
                        (
                            ways.trailing_zeros() as i64,
                            0,
                            entries.trailing_zeros() as i64,
                        ),
                        "",
                        ui.number(move |v| Ok(Command::Do(set(entries, 1 << v.clamp(0, max_log))))),
                    )
                    .shown(format!("{ways} of {entries}")),
                    Control::toggle(
                        "pwc",
                        "Page-walk cache",
                        c.pwc,
                        ui.act(TlbAction::SetPwc(!c.pwc)),
                    ),
                    Control::toggle(
                        "huge",
                        "2 MiB pages",
                        c.huge_pages,
                        ui.act(TlbAction::SetHugePages(!c.huge_pages)),
                    ),
                    bounded(
                        ui,
                        "read-cycles",
                        "Cycles per entry read",
                        &READ_CYCLES,
                        c.read_cycles,
                        true,
                        TlbAction::SetReadCycles,
                    ),
                ],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::Model;

    fn state(scene: &Scene, key: &str) -> String {
        scene
            .find(key)
            .and_then(|s| s.state.clone())
            .unwrap_or_default()
    }

    #[test]
    fn a_cold_load_shows_the_indices_and_four_reads() {
        let mut m = Tlb::new(&Default::default());
        // PML4 254, PDPT 0, PD 0, PT 1, offset 0x234.
        m.apply(&TlbAction::Access(0x7f00_0000_1234)).unwrap();
        let scene = crate::build(&m, &()).0;
        assert_eq!(state(&scene, "va-pml4"), "index 254");
        assert_eq!(state(&scene, "va-pt"), "index 1");
        assert_eq!(state(&scene, "va-offset"), "0x234");
        let bits = scene.find("va-pml4").unwrap().children()[2].text_content();
        assert_eq!(bits, Some("011111110"));
        for key in ["walk-pml4", "walk-pdpt", "walk-pd", "walk-pt"] {
            assert_eq!(state(&scene, key), "read", "{key}");
        }
        let entry = scene.find("walk-pml4").unwrap().children()[2].text_content();
        assert_eq!(entry, Some("[254] @ 0x17f0 = 0x1fe007"));
        assert_eq!(state(&scene, "tlb-set-1-way-0"), "valid · filled");
        m.apply(&TlbAction::Access(0x7f00_0000_1ff8)).unwrap();
        let scene = crate::build(&m, &()).0;
        assert_eq!(state(&scene, "walk-pml4"), "skipped");
        assert_eq!(state(&scene, "tlb-set-1-way-0"), "valid · hit");
    }

    #[test]
    fn the_break_it_loop_overfills_every_set() {
        let m = Tlb::new(&Default::default());
        let (_, controls, ui) = crate::build(&m, &());
        let Some(Control::Button(b)) = Control::find(&controls, "loop-over") else {
            panic!("loop button");
        };
        assert_eq!(b.label, "Loop over 10 pages: one more than each set holds");
        assert_eq!(
            ui.resolve(b.send, &crate::Input::Press),
            Ok(Command::Do(TlbAction::Loop(10)))
        );
    }

    #[test]
    fn huge_pages_merge_the_pt_index_into_a_21_bit_offset() {
        let mut m = Tlb::new(&Default::default());
        m.apply(&TlbAction::SetHugePages(true)).unwrap();
        m.apply(&TlbAction::Access(0x7f00_0000_1234)).unwrap();
        let scene = crate::build(&m, &()).0;
        assert!(scene.find("va-pt").is_none());
        assert_eq!(state(&scene, "va-offset"), "0x1234");
        assert_eq!(state(&scene, "walk-pt"), "not used");
        assert_eq!(state(&scene, "walk-pd"), "read");
    }

    #[test]
    fn the_page_walk_cache_supplies_the_upper_levels_of_a_neighbour() {
        let mut m = Tlb::new(&Default::default());
        m.apply(&TlbAction::SetPwc(true)).unwrap();
        m.apply(&TlbAction::Access(0x7f00_0000_1234)).unwrap();
        m.apply(&TlbAction::Access(0x7f00_0000_5234)).unwrap();
        let scene = crate::build(&m, &()).0;
        assert_eq!(state(&scene, "walk-pd"), "from PWC");
        assert_eq!(state(&scene, "walk-pt"), "read");
    }

    #[test]
    fn with_huge_pages_the_picture_and_sliders_are_the_smaller_2_mib_tlb() {
        let mut m = Tlb::new(&Default::default());
        m.apply(&TlbAction::SetHugePages(true)).unwrap();
        let (scene, controls, _) = crate::build(&m, &());
        let title = scene
            .find("title")
            .and_then(|t| t.text_content())
            .unwrap_or_default()
            .to_string();
        assert!(
            title.starts_with("TLB for 2 MiB pages: 4 entries, 1 set × 4 ways"),
            "{title}"
        );
        let Some(Control::Number(n)) = Control::find(&controls, "entries") else {
            panic!("entries");
        };
        assert_eq!(n.shown.as_deref(), Some("4 entries"));
        let Some(Control::Number(r)) = Control::find(&controls, "read-cycles") else {
            panic!("read-cycles");
        };
        assert_eq!((r.value, r.min, r.max), READ_CYCLES.control_range(25));
    }

    #[test]
    fn the_physical_address_box_says_a_hit_adds_nothing() {
        let mut m = Tlb::new(&Default::default());
        m.apply(&TlbAction::Access(0x7f00_0000_1234)).unwrap();
        let text = |m: &Tlb| {
            let scene = crate::build(m, &()).0;
            let pa = scene.find("pa").unwrap().children()[1].text_content();
            pa.unwrap_or_default().to_string()
        };
        assert_eq!(
            text(&m),
            "physical address 0x17f0000001234 · 100 cycles of walk"
        );
        m.apply(&TlbAction::Access(0x7f00_0000_1ff8)).unwrap();
        assert_eq!(
            text(&m),
            "physical address 0x17f0000001ff8 · TLB hit, no extra cycles"
        );
    }
}
