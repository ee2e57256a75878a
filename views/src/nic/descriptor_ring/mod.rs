//! Descriptor ring: the driver, the ring and the NIC side by side; host
//! memory as a table; what reached the stack or the wire; the damage.

mod lesson;

use crate::control::Control;
use crate::draw::geometry::{polar, sector};
use crate::layout::Layout;
use crate::live::{Ui, View};
use crate::scene::{Cell, Figure, Item, List, Scene, Shape, Size, Table};
use demos::nic::descriptor_ring::{
    hex, DescriptorRing, Direction, Field, NicPhase, RingAction, RingConfig, SlotState, RING_SIZE,
};
use demos::text::plural;

const SLICE: f32 = 360.0 / RING_SIZE as f32;
/// A pointer whose direction has a horizontal part above this is "beside"
/// the ring: its words start (or end) at its tail instead of centring on it.
const BESIDE: f32 = 0.35;
/// A slot whose middle's direction has a horizontal part above this is on
/// the ring's flank (#1, #2, #5, #6), where a phone has no room for words
/// further out: see `Dims::flank`.
const FLANK: f32 = 0.6;
/// Line height of a pointer's words split over two lines.
const POINTER_LINE: f32 = 18.0;

/// How far out a slot's pointers put their words, and how far off the
/// slot's middle HEAD and TAIL point (either side of the NIC's TAIL).
#[derive(Clone, Copy)]
struct Reach {
    /// Radius of HEAD's and TAIL's words.
    near: f32,
    /// Radius of the NIC's TAIL's words.
    far: f32,
    /// Degrees.
    spread: f32,
}

/// The wide figure's pointers, everywhere; a phone's above and below the
/// ring (it has the height).
const REACH: Reach = Reach {
    near: 182.0,
    far: 214.0,
    spread: 12.0,
};

/// Where everything goes. Wide: driver panel, ring, NIC panel side by side.
/// On a phone they stand one under the other in the same order, the ring a
/// little smaller (still wide enough for POSTED in a slot), its pointers on
/// its flanks closer, the NIC's TAIL on two lines.
#[derive(Clone, Copy)]
struct Dims {
    layout: Layout,
    width: f32,
    height: f32,
    cx: f32,
    cy: f32,
    inner: f32,
    outer: f32,
    /// How far the pointers reach, at a slot above or below the ring and at
    /// one on its flank.
    reach: Reach,
    flank: Reach,
    /// A pointer's tip stops this far out of the ring; its tail starts this
    /// far in from its words.
    tip_gap: f32,
    tail_gap: f32,
    panel_w: f32,
    /// Height of the driver's and of the NIC's panel.
    driver_h: f32,
    nic_h: f32,
    /// The NIC panel's left edge (the driver's is at 10).
    nic_x: f32,
    /// Where each panel is moved from the top of the figure.
    driver_at: (f32, f32),
    nic_at: (f32, f32),
}

impl Dims {
    fn new(layout: Layout) -> Self {
        match layout {
            Layout::Wide => Dims {
                layout,
                width: 900.0,
                height: 480.0,
                cx: 450.0,
                cy: 240.0,
                inner: 92.0,
                outer: 158.0,
                reach: REACH,
                flank: REACH,
                tip_gap: 4.0,
                tail_gap: 10.0,
                panel_w: 230.0,
                driver_h: 420.0,
                nic_h: 420.0,
                nic_x: 660.0,
                driver_at: (0.0, 0.0),
                nic_at: (0.0, 0.0),
            },
            // The ring first, so a phone's first screen shows it: ring 8–453
            // (words included), driver panel 463–883, NIC panel 893–1223
            // (it holds at most two FIFO frames).
            Layout::Narrow => Dims {
                layout,
                width: 420.0,
                height: 1232.0,
                cx: 210.0,
                cy: 229.0,
                inner: 76.0,
                outer: 136.0,
                reach: REACH,
                // A phone's ring has too little room on its flanks for the
                // NIC's TAIL further out than HEAD and TAIL: all three share
                // one radius there, spread wider so that their words (the
                // NIC's TAIL's on two lines) stack without touching.
                flank: Reach {
                    near: 154.0,
                    far: 154.0,
                    spread: 16.0,
                },
                tip_gap: 2.0,
                tail_gap: 8.0,
                panel_w: 400.0,
                driver_h: 420.0,
                nic_h: 330.0,
                nic_x: 10.0,
                driver_at: (0.0, 433.0),
                nic_at: (0.0, 863.0),
            },
        }
    }
}

/// The colour of a slot's word: the driver's, the NIC's, or done.
fn label_class(label: &str) -> &'static str {
    match label {
        "NIC" => "nic",
        "DD" | "SENT" => "done",
        _ => "driver",
    }
}

/// A pending store as the store-buffer chip shows it.
fn store_text(direction: Direction, field: Field, value: u64) -> String {
    match (field, direction) {
        (Field::Addr, Direction::Rx) => format!("pkt_addr ← {}", hex(value)),
        (Field::Addr, Direction::Tx) => format!("buffer_addr ← {}", hex(value)),
        (Field::CmdLen, _) => format!(
            "len ← {} B{}",
            value & 0xffff,
            if value >> 16 & 1 == 1 { ", RS" } else { "" }
        ),
        (Field::Status, Direction::Rx) => "DD, PKT_LEN ← 0".into(),
        (Field::Status, Direction::Tx) => "olinfo ← DD 0".into(),
    }
}

fn direction_word(m: &DescriptorRing) -> &'static str {
    match m.config.direction {
        Direction::Rx => "RX",
        Direction::Tx => "TX",
    }
}

/// One sector of the ring: index, state, and a note when it is not what it seems.
fn descriptor(m: &DescriptorRing, d: Dims, i: usize) -> Shape {
    let from = i as f32 * SLICE + 1.5;
    let to = (i + 1) as f32 * SLICE - 1.5;
    let (tx, ty) = polar(d.cx, d.cy, (d.inner + d.outer) / 2.0, (from + to) / 2.0);
    let word = m.slot_label(i);
    let pending = m.store_buffer.iter().any(|s| s.slot == i);
    let note = if pending { "in flight" } else { "" };
    let mut label = format!("descriptor {i}: {word}");
    if pending {
        label.push_str(", stores in flight");
    }
    Shape::group(
        format!("desc-{i}"),
        vec![
            Shape::path("sector", sector(d.cx, d.cy, d.inner, d.outer, from, to)),
            Shape::text("index", tx, ty - 12.0, format!("#{i}"))
                .mono()
                .size(Size::Small),
            Shape::text("state", tx, ty + 10.0, word)
                .mono()
                .size(Size::Large),
            Shape::text("note", tx, ty + 27.0, note)
                .size(Size::Small)
                .class("fault tone"),
        ],
    )
    .class(label_class(word))
    .class_if(word == "POSTED" || word == "SENT", "dashed")
    .state(word)
    .label(label)
    .focus(format!("desc-{i}"))
}

/// Which of a slot's pointers: HEAD and TAIL point either side of the
/// NIC's TAIL, whose words are further out.
#[derive(Clone, Copy)]
enum Which {
    Head,
    Doorbell,
    Tail,
}

/// A pointer from outside the ring to the descriptor at `index`, its words
/// on one line or more.
fn pointer(
    d: Dims,
    key: &str,
    lines: Vec<String>,
    index: usize,
    which: Which,
    class: &str,
) -> Shape {
    let slot_mid = index as f32 * SLICE + SLICE / 2.0;
    let on_flank = polar(0.0, 0.0, 1.0, slot_mid).0.abs() > FLANK;
    let reach = if on_flank { d.flank } else { d.reach };
    let (offset, radius) = match which {
        Which::Head => (-reach.spread, reach.near),
        Which::Doorbell => (0.0, reach.far),
        Which::Tail => (reach.spread, reach.near),
    };
    let mid = slot_mid + offset;
    let side = polar(0.0, 0.0, 1.0, mid).0;
    let tip = polar(d.cx, d.cy, d.outer + d.tip_gap, mid);
    let tail = polar(d.cx, d.cy, radius - d.tail_gap, mid);
    let (lx, ly) = polar(d.cx, d.cy, radius, mid);
    // More than one line stacks away from the ring, clear of the arrow:
    // upwards above its middle, downwards below it.
    let above = ly < d.cy;
    let first = if above {
        ly + 6.0 - POINTER_LINE * (lines.len() - 1) as f32
    } else {
        ly + 6.0
    };
    let mut children = vec![Shape::arrow("arrow", tail, tip).class("thick")];
    children.extend(lines.into_iter().enumerate().map(|(n, line)| {
        let key = match n {
            0 => "label".to_string(),
            n => format!("label-{n}"),
        };
        let text = Shape::text(key, lx, first + POINTER_LINE * n as f32, line)
            .mono()
            .class("tone");
        match side {
            x if x > BESIDE => text.start(),
            x if x < -BESIDE => text.end(),
            _ => text,
        }
    }));
    Shape::group(key, children).class(class)
}

/// A panel: a box with a title and lines of text below it, moved to `at`.
fn panel(
    key: &str,
    (x, w, h): (f32, f32, f32),
    at: (f32, f32),
    title: &str,
    class: &str,
    lines: Vec<Shape>,
) -> Shape {
    let mut children = vec![
        Shape::rect("box", x, 30.0, w, h).class("panel"),
        Shape::text("title", x + 14.0, 60.0, title)
            .start()
            .size(Size::Title),
    ];
    children.extend(lines);
    Shape::group(key, children).class(class).at(at.0, at.1)
}

/// A register: its name and value on one line, in a panel `w` wide.
fn register(key: &str, (x, w): (f32, f32), y: f32, name: &str, value: String) -> Shape {
    Shape::group(
        key,
        vec![
            Shape::text("name", x + 14.0, y, name)
                .start()
                .class("muted"),
            Shape::text("value", x + w - 14.0, y, value)
                .end()
                .mono()
                .size(Size::Large),
        ],
    )
}

fn driver_panel(m: &DescriptorRing, d: Dims) -> Shape {
    let x = 10.0;
    let w = d.panel_w;
    let mut lines = vec![
        register("reg-tail", (x, w), 100.0, "TAIL", m.tail.to_string()),
        register(
            "reg-reap",
            (x, w),
            132.0,
            "next to reap",
            m.next_to_clean.to_string(),
        ),
        Shape::text("sb-title", x + 14.0, 176.0, "Stores in flight")
            .start()
            .class("strong"),
    ];
    if m.store_buffer.is_empty() {
        lines.push(
            Shape::text("sb-empty", x + 14.0, 202.0, "empty: all stores visible")
                .start()
                .size(Size::Small),
        );
    }
    for (n, s) in m.store_buffer.iter().enumerate().take(8) {
        let value = store_text(m.config.direction, s.field, s.value);
        let y = 192.0 + n as f32 * 30.0;
        lines.push(Shape::group(
            format!("store-{n}"),
            vec![
                Shape::rect("chip", x + 10.0, y, w - 20.0, 24.0).class("warn"),
                Shape::text("text", x + 18.0, y + 17.0, format!("#{} {value}", s.slot))
                    .start()
                    .mono()
                    .size(Size::Small),
            ],
        ));
    }
    panel(
        "driver-panel",
        (x, w, d.driver_h),
        d.driver_at,
        "Driver · CPU",
        "driver",
        lines,
    )
    .focus("store-buffer")
    .label(format!(
        "Driver: TAIL {}, next to reap {}, {} store{} in flight",
        m.tail,
        m.next_to_clean,
        m.store_buffer.len(),
        plural(m.store_buffer.len())
    ))
}

fn nic_panel(m: &DescriptorRing, d: Dims) -> Shape {
    let x = d.nic_x;
    let w = d.panel_w;
    let dma = match m.nic {
        NicPhase::Idle => vec!["idle".to_string()],
        NicPhase::Fetched { slot, seen } => vec![
            format!("holds descriptor #{slot}:"),
            match m.config.direction {
                Direction::Rx => hex(seen.addr),
                Direction::Tx => format!("{} / {} B", hex(seen.addr), seen.len),
            },
        ],
        NicPhase::Moved { slot, bytes, .. } => {
            vec![
                format!("moved {bytes} B for #{slot};"),
                "write-back next".into(),
            ]
        }
    };
    let mut lines = vec![
        register("reg-head", (x, w), 100.0, "HEAD", m.head.to_string()),
        register(
            "nic-tail",
            (x, w),
            132.0,
            "TAIL register",
            m.doorbell.to_string(),
        ),
        Shape::text("dma-title", x + 14.0, 176.0, "DMA engine")
            .start()
            .class("strong"),
    ];
    let dma_lines = dma
        .iter()
        .enumerate()
        .map(|(n, line)| {
            Shape::text(
                format!("l{n}"),
                x + 14.0,
                202.0 + n as f32 * 22.0,
                line.clone(),
            )
            .start()
            .mono()
            .size(Size::Small)
        })
        .collect();
    lines.push(Shape::group("dma", dma_lines).label(format!("DMA engine: {}", dma.join(" "))));
    if m.config.direction == Direction::Rx {
        lines.push(
            Shape::text("fifo-title", x + 14.0, 270.0, "On-chip FIFO")
                .start()
                .class("strong"),
        );
        let mut chips: Vec<Shape> = m
            .rx_fifo
            .iter()
            .enumerate()
            .map(|(n, f)| {
                let y = 282.0 + n as f32 * 30.0;
                Shape::group(
                    format!("frame-{}", f.id),
                    vec![
                        Shape::rect("chip", x + 10.0, y, w - 20.0, 24.0).class("nic"),
                        Shape::text("t", x + 18.0, y + 17.0, format!("#{} · {} B", f.id, f.len))
                            .start()
                            .mono()
                            .size(Size::Small),
                    ],
                )
            })
            .collect();
        if chips.is_empty() {
            chips.push(
                Shape::text("empty", x + 14.0, 296.0, "empty")
                    .start()
                    .size(Size::Small),
            );
        }
        lines.push(Shape::group("fifo", chips));
    }
    panel("nic-panel", (x, w, d.nic_h), d.nic_at, "NIC", "nic", lines)
        .focus("nic")
        .label(format!(
            "NIC: HEAD {}, TAIL register {}, DMA engine {}",
            m.head,
            m.doorbell,
            dma.join(" ")
        ))
}

fn ring(m: &DescriptorRing, layout: Layout) -> Figure {
    let d = Dims::new(layout);
    let mut f = Figure::new(
        "ring",
        format!("{} descriptor ring", direction_word(m)),
        d.width,
        d.height,
    )
    .legend("driver", "FREE / POSTED · driver's")
    .legend("nic", "NIC · HEAD up to the NIC's TAIL")
    .legend("done", "DD · written back, to reap");
    f.push(driver_panel(m, d));
    f.push(nic_panel(m, d));
    f.extend((0..RING_SIZE).map(|i| descriptor(m, d, i)));
    f.push(
        Shape::text(
            "ring-mode",
            d.cx,
            d.cy - 6.0,
            format!("{} ring", direction_word(m)),
        )
        .size(Size::Large),
    );
    f.push(Shape::text("ring-fill", d.cx, d.cy + 20.0, m.fill_label()).class("muted"));
    f.push(pointer(
        d,
        "ptr-head",
        vec![format!("HEAD {}", m.head)],
        m.head,
        Which::Head,
        "nic",
    ));
    f.push(pointer(
        d,
        "ptr-tail",
        vec![format!("TAIL {}", m.tail)],
        m.tail,
        Which::Tail,
        "driver",
    ));
    // On a phone "NIC" goes above "TAIL n": as narrow as HEAD's words.
    let doorbell = match d.layout {
        Layout::Wide => vec![format!("NIC TAIL {}", m.doorbell)],
        Layout::Narrow => vec!["NIC".to_string(), format!("TAIL {}", m.doorbell)],
    };
    f.push(
        pointer(
            d,
            "ptr-doorbell",
            doorbell,
            m.doorbell,
            Which::Doorbell,
            "idle",
        )
        .class("dashed")
        .focus("doorbell"),
    );
    f
}

fn memory_table(m: &DescriptorRing) -> Table {
    let tx = m.config.direction == Direction::Tx;
    let columns: &[&str] = if tx {
        &[
            "slot",
            "state",
            "buffer_addr",
            "DTALEN",
            "RS",
            "DD",
            "buffer",
        ]
    } else {
        &[
            "slot",
            "state",
            "pkt_addr / RSS hash",
            "PKT_LEN",
            "DD",
            "buffer",
        ]
    };
    let mut t = Table::new(
        "memory-table",
        "Host memory: the descriptors as the NIC would read them (no OWN bit: HEAD and TAIL say whose they are)",
        columns,
    );
    let flag = |on: bool| Cell::mono(if on { "1" } else { "0" });
    for i in 0..RING_SIZE {
        let d = m.memory[i];
        let slot = &m.slots[i];
        let word = m.slot_label(i);
        let buffer = match slot.frame {
            Some(f) => format!("#{} · {} B", f.id, f.len),
            None if slot.state == SlotState::Free => "—".into(),
            None => "empty".into(),
        };
        let mut cells = vec![
            Cell::text(format!("#{i}")),
            Cell::text(word),
            Cell::mono(hex(d.addr)),
            Cell::mono(d.len.to_string()),
        ];
        if tx {
            cells.push(flag(d.rs));
        }
        cells.push(flag(d.dd));
        cells.push(Cell::mono(buffer));
        t.row(format!("mem-{i}"), cells)
            .class(label_class(word))
            .state(word)
            .focus(format!("desc-{i}"));
    }
    t
}

impl View for DescriptorRing {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let m = self;
        let delivered = m.delivered.iter().rev().take(8).fold(
            List::new(
                "delivered",
                match m.config.direction {
                    Direction::Rx => "Handed to the stack",
                    Direction::Tx => "Sent on the wire",
                },
                "none yet",
            )
            .chips()
            .focus("wire"),
            |list, f| {
                list.item(
                    Item::new(format!("f{}", f.id), format!("#{} · {} B", f.id, f.len))
                        .class("done")
                        .mono(),
                )
            },
        );
        let damage = m.damage.iter().enumerate().fold(
            List::new("damage", "Damage", "no corrupted transfer").focus("wire"),
            |list, (n, d)| {
                list.item(
                    Item::new(format!("d{n}"), d.summary.clone())
                        .class("fault")
                        .tag("Fault:"),
                )
            },
        );
        Scene::new(
            format!("{} descriptor ring", direction_word(m)),
            format!(
                "{} descriptors: {} FREE, {} posted, {} done. HEAD {}, TAIL {}, the NIC's TAIL register {}; {} store{} in flight.",
                RING_SIZE,
                m.count(SlotState::Free),
                m.count(SlotState::Posted),
                m.count(SlotState::Done),
                m.head,
                m.tail,
                m.doorbell,
                m.store_buffer.len(),
                plural(m.store_buffer.len())
            ),
        )
        .figure(ring(m, ui.layout()))
        .table(memory_table(m))
        .list(delivered)
        .list(damage)
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let config = &self.config;
        let mut restart = |direction, rs_every| {
            ui.restart(RingConfig {
                direction,
                rs_every,
                ..config.clone()
            })
        };
        let rs = config.rs_every;
        let options = vec![
            ("rx", "RX (receive)".to_string(), restart(Direction::Rx, rs)),
            ("tx", "TX (send)".to_string(), restart(Direction::Tx, rs)),
        ];
        let tx = config.direction == Direction::Tx;
        let rs_toggle = restart(config.direction, if rs == 1 { 4 } else { 1 });
        let selected = usize::from(tx);
        let doorbell = if self.relaxed_doorbell {
            "Doorbell: writel_relaxed(TAIL)"
        } else {
            "Doorbell: writel(TAIL)"
        };
        let driver = vec![
            Control::button("post", "Post a buffer", ui.act(RingAction::Post)).primary(),
            Control::button("barrier", "wmb() barrier", ui.act(RingAction::Barrier)),
            Control::button("doorbell", doorbell, ui.act(RingAction::Doorbell)),
            Control::button("reap", "Reap completions", ui.act(RingAction::Reap)),
        ];
        let mut out = vec![
            Control::choice("mode", "Direction", selected, options),
            Control::group("Driver", driver),
        ];
        if tx {
            out.push(Control::toggle(
                "rs-every",
                "RS on every descriptor (off: every 4th, restarts)",
                rs == 1,
                rs_toggle,
            ));
        } else {
            out.push(Control::group(
                "Wire",
                vec![Control::button(
                    "arrive",
                    "A frame arrives",
                    ui.act(RingAction::FrameArrives),
                )],
            ));
        }
        out.push(Control::note("Step runs the NIC: fetch, DMA, write-back."));
        let mut breaks = vec![Control::toggle(
            "relaxed-doorbell",
            "Doorbell with no barrier: writel_relaxed() on arm64, a WC mapping on x86",
            self.relaxed_doorbell,
            ui.act(RingAction::SetRelaxedDoorbell(!self.relaxed_doorbell)),
        )
        .danger()];
        if !tx {
            breaks.push(
                Control::toggle(
                    "skip-rmb",
                    "Reap without dma_rmb()",
                    self.skip_rmb,
                    ui.act(RingAction::SetSkipRmb(!self.skip_rmb)),
                )
                .danger(),
            );
        }
        breaks.push(Control::note(
            "On x86, stores to ordinary memory and an uncached doorbell stay in order; only a write-combined doorbell mapping can race there.",
        ));
        out.push(Control::danger_group("Break it", breaks));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::Model;

    fn ring_after(actions: &[RingAction]) -> DescriptorRing {
        let mut m = DescriptorRing::new(&RingConfig::default());
        for a in actions {
            m.apply(a).expect("accepted");
        }
        m
    }

    #[test]
    fn a_round_trip_marks_descriptor_zero_done_and_moves_head() {
        use RingAction::*;
        let m = ring_after(&[Post, Doorbell, FrameArrives, NicFetch, NicDma, NicWriteBack]);
        let scene = crate::build(&m, &()).0;
        let d0 = scene.find("desc-0").expect("descriptor 0 drawn");
        assert_eq!(d0.state.as_deref(), Some("DD"));
        assert!(d0.has_class("done"));
        let head = scene.find("ptr-head").expect("HEAD arrow drawn");
        let label = head.children().iter().find_map(|c| c.text_content());
        assert_eq!(label, Some("HEAD 1"));
    }

    #[test]
    fn stores_in_flight_are_listed_and_marked_on_their_descriptor() {
        let m = ring_after(&[RingAction::Post]);
        let scene = crate::build(&m, &()).0;
        let d0 = scene.find("desc-0").unwrap();
        assert_eq!(d0.state.as_deref(), Some("POSTED"));
        assert!(d0.label.as_deref().unwrap().contains("stores in flight"));
        assert!(
            scene.find("store-1").is_some(),
            "two RX stores: the address and the cleared status"
        );
        assert!(scene.find("store-2").is_none());
    }

    #[test]
    fn the_memory_table_has_no_own_column_and_tx_shows_rs() {
        let rx = crate::build(&ring_after(&[]), &()).0;
        let columns = &rx.table_named("memory-table").unwrap().columns;
        assert!(!columns.iter().any(|c| c == "OWN"));
        assert!(!columns.iter().any(|c| c == "RS"));
        let tx = DescriptorRing::new(&RingConfig {
            direction: Direction::Tx,
            ..RingConfig::default()
        });
        let scene = crate::build(&tx, &()).0;
        assert!(scene
            .table_named("memory-table")
            .unwrap()
            .columns
            .iter()
            .any(|c| c == "RS"));
    }

    #[test]
    fn the_read_side_switch_is_offered_only_in_rx() {
        let rx = DescriptorRing::new(&RingConfig::default());
        assert!(Control::find(&crate::build(&rx, &()).1, "skip-rmb").is_some());
        let tx = DescriptorRing::new(&RingConfig {
            direction: Direction::Tx,
            ..RingConfig::default()
        });
        let controls = crate::build(&tx, &()).1;
        assert!(Control::find(&controls, "skip-rmb").is_none());
        assert!(Control::find(&controls, "rs-every").is_some());
    }

    #[test]
    fn the_wire_controls_exist_only_in_rx() {
        let rx = DescriptorRing::new(&RingConfig::default());
        assert!(Control::find(&crate::build(&rx, &()).1, "arrive").is_some());
        let tx = DescriptorRing::new(&RingConfig {
            direction: Direction::Tx,
            ..RingConfig::default()
        });
        assert!(Control::find(&crate::build(&tx, &()).1, "arrive").is_none());
    }

    #[test]
    fn the_memory_table_has_one_row_per_descriptor() {
        let scene = crate::build(&ring_after(&[]), &()).0;
        let table = scene.table_named("memory-table").unwrap();
        assert_eq!(table.rows.len(), RING_SIZE);
        assert!(table
            .rows
            .iter()
            .all(|r| r.state.as_deref() == Some("FREE")));
    }
}
