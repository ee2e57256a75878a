//! Where received bytes land: the flow and the NIC's queues with their
//! rings, kernel memory (the header buffer and the page pool's pages), the
//! bound buffers with each one's owner and references, the application;
//! then the costs so far and what the NIC must support.

mod lesson;

use crate::control::Control;
use crate::draw::text::{lines_of, small_chars_in, wrap_words};
use crate::knob::bounded;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Ui, View};
use crate::scene::{Cell, Figure, Scene, Shape, Size, Table};
use demos::host::zero_copy::{
    needs, Buf, Fate, Met, Mode, Owner, Provider, Ring, Store, ZeroCopy, ZeroCopyAction,
    BOUND_QUEUE, BUFFERS, FLOW_DST, HEADER_BYTES, HOLD, PAGE_BYTES, PAYLOAD, QUEUES, RING_SLOTS,
};
use demos::text::{grouped, plural};

const PAD: f32 = 10.0;
/// A buffer's box, and the step from one to the next.
const BOX_W: f32 = 46.0;
const BOX_H: f32 = 60.0;
const PITCH: f32 = 48.0;
const TITLE_H: f32 = 34.0;
const LINE: f32 = 18.0;
/// A ring descriptor's box inside its queue.
const SLOT_W: f32 = 34.0;

fn width(layout: Layout) -> f32 {
    layout.pick(760.0, NARROW_WIDTH)
}

/// Buffers a row holds.
fn per_row(layout: Layout) -> usize {
    layout.pick(12, 8)
}

fn owner_class(owner: Owner) -> &'static str {
    match owner {
        Owner::Pool => "idle",
        Owner::Nic => "nic",
        Owner::Kernel => "driver",
        Owner::App => "accent",
    }
}

fn big(n: u64) -> String {
    grouped(n.min(i64::MAX as u64) as i64)
}

/// A titled panel `h` high at `y`, holding `children` (drawn from its top).
fn panel(key: &str, y: f32, w: f32, h: f32, title: &str, children: Vec<Shape>) -> Shape {
    let mut shapes = vec![
        Shape::rect("frame", PAD, 0.0, w - 2.0 * PAD, h)
            .rounded(10.0)
            .class("panel"),
        Shape::text("title", 2.0 * PAD, 24.0, title)
            .start()
            .size(Size::Title),
    ];
    shapes.extend(children);
    Shape::group(key, shapes).at(0.0, y)
}

/// One buffer's box: its number, owner and references.
fn buffer_box(key: String, name: String, b: &Buf, (x, y): (f32, f32)) -> Shape {
    let what = if b.packet > 0 && b.owner != Owner::Pool && b.owner != Owner::Nic {
        format!(", packet {}", b.packet)
    } else {
        String::new()
    };
    Shape::group(
        key.clone(),
        vec![
            Shape::rect("r", x, y, BOX_W, BOX_H).rounded(4.0),
            Shape::text("n", x + BOX_W / 2.0, y + 17.0, name)
                .mono()
                .size(Size::Small),
            Shape::text("o", x + BOX_W / 2.0, y + 35.0, b.owner.word()).size(Size::Small),
            Shape::text("refs", x + BOX_W / 2.0, y + 52.0, format!("ref {}", b.refs))
                .size(Size::Small),
        ],
    )
    .class(owner_class(b.owner))
    .state(b.owner.word())
    .focus(key.clone())
    .label(format!(
        "{key}: {}, {} reference{}{what}",
        b.owner.word(),
        b.refs,
        plural(usize::from(b.refs))
    ))
}

/// Rows of buffer boxes from (x, y); returns them and the height used.
fn buffer_rows(
    prefix: &str,
    short: &str,
    bufs: &[Buf],
    (x, y): (f32, f32),
    cols: usize,
) -> (Vec<Shape>, f32) {
    let shapes = bufs
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let (row, col) = (i / cols, i % cols);
            buffer_box(
                format!("{prefix}-{i}"),
                format!("{short}{i}"),
                b,
                (x + col as f32 * PITCH, y + row as f32 * (BOX_H + 8.0)),
            )
        })
        .collect();
    let rows = bufs.len().div_ceil(cols).max(1);
    (shapes, rows as f32 * (BOX_H + 8.0))
}

/// The ring a queue has in this run, with the letter its buffers go by.
fn ring_of(m: &ZeroCopy, queue: u16) -> Option<(&Ring, &'static str)> {
    m.area_ring
        .as_ref()
        .filter(|r| r.queue == queue)
        .map(|r| (r, "b"))
        .or_else(|| {
            m.page_ring
                .as_ref()
                .filter(|r| r.queue == queue)
                .map(|r| (r, "p"))
        })
}

/// The NIC's queues, each with its role and, where the run uses it, its
/// ring's descriptors; the flow's arrow to the queue it lands on.
fn nic_part(m: &ZeroCopy, layout: Layout, y0: f32) -> (Vec<Shape>, f32) {
    let w = width(layout);
    let cols: usize = layout.pick(4, 2);
    let gap = 8.0;
    let inner = w - 4.0 * PAD;
    let qw = (inner - gap * (cols - 1) as f32) / cols as f32;
    let qh = 86.0;
    let top = TITLE_H + 8.0;
    let flow_q = m.flow_queue();
    let dropped = m.last.is_some_and(|l| l.fate == Fate::Dropped);
    let mut queues = Vec::new();
    let mut target = (0.0, 0.0);
    for q in 0..QUEUES {
        let (row, col) = (usize::from(q) / cols, usize::from(q) % cols);
        let x = 2.0 * PAD + col as f32 * (qw + gap);
        let y = top + row as f32 * (qh + gap);
        if q == flow_q {
            target = (x + qw / 2.0, y0 + y);
        }
        let role = match (q == BOUND_QUEUE && m.bound(), q == flow_q) {
            (true, true) => "bound, flow",
            (true, false) => "bound",
            (false, true) => "flow",
            (false, false) => "other flows",
        };
        let class = if q == flow_q && dropped {
            "fault"
        } else if q == flow_q {
            "accent"
        } else if role == "bound" {
            "nic"
        } else {
            "idle"
        };
        let mut parts = vec![
            Shape::rect("q", x, y, qw, qh).rounded(6.0),
            Shape::text("name", x + 8.0, y + 20.0, format!("queue {q}")).start(),
            Shape::text("role", x + qw - 8.0, y + 20.0, role)
                .end()
                .size(Size::Small),
        ];
        match ring_of(m, q) {
            Some((ring, letter)) => {
                for (k, slot) in ring.slots.iter().enumerate() {
                    let sx = x + 8.0 + k as f32 * (SLOT_W + 4.0);
                    let text = slot.map_or("—".to_string(), |b| format!("{letter}{b}"));
                    let head = if k == ring.head { " next" } else { "" };
                    parts.push(
                        Shape::group(
                            format!("slot-{k}"),
                            vec![
                                Shape::rect("d", sx, y + 34.0, SLOT_W, 26.0),
                                Shape::text("t", sx + SLOT_W / 2.0, y + 52.0, text)
                                    .mono()
                                    .size(Size::Small),
                            ],
                        )
                        .class(if slot.is_some() { "nic" } else { "idle dashed" })
                        .state(if slot.is_some() { "posted" } else { "empty" })
                        .label(format!(
                            "queue {q} descriptor {k}{head}: {}",
                            slot.map_or("no buffer".to_string(), |b| format!("buffer {letter}{b}"))
                        )),
                    );
                }
                parts.push(
                    Shape::text(
                        "posted",
                        x + 8.0,
                        y + 78.0,
                        format!("{} of {RING_SLOTS} posted", ring.posted()),
                    )
                    .start()
                    .size(Size::Small),
                );
            }
            None => parts.push(
                Shape::text("ring", x + 8.0, y + 52.0, "not this flow's queue")
                    .start()
                    .size(Size::Small),
            ),
        }
        queues.push(
            Shape::group(format!("q-{q}"), parts)
                .class(class)
                .state(role)
                .focus(format!("q-{q}"))
                .label(format!("queue {q}: {role}")),
        );
    }
    let rows = usize::from(QUEUES).div_ceil(cols);
    let h = top + rows as f32 * (qh + gap) + 4.0;
    let label_end = w - PAD;
    let mut shapes = vec![Shape::text(
        "flow-name",
        label_end,
        18.0,
        format!("TCP flow to port {}", FLOW_DST.1),
    )
    .end()
    .mono()];
    let steered = m.steering;
    shapes.push(
        Shape::arrow(
            "flow",
            (label_end - 100.0, 24.0),
            (target.0, target.1 - 2.0),
        )
        .class(if steered { "accent" } else { "warn" })
        .state(if steered { "rule" } else { "rss" })
        .label(format!(
            "the flow goes to queue {flow_q} by {}",
            if steered { "a steering rule" } else { "RSS" }
        )),
    );
    shapes.push(panel("nic", 30.0, w, h, "NIC receive queues", queues).focus("nic"));
    (shapes, 30.0 + h)
}

/// Kernel memory: the header buffer and the page pool's payload pages.
fn kernel_part(m: &ZeroCopy, layout: Layout, y: f32) -> (Shape, f32) {
    let w = width(layout);
    let header = match m.last {
        None => "headers: none yet".to_string(),
        Some(l) if l.fate == Fate::Dropped => format!("packet {}: dropped", l.packet),
        Some(l) if l.fate == Fate::HeldBack => format!("packet {}: not sent", l.packet),
        Some(l) if l.split => format!("headers of packet {}: {HEADER_BYTES} B", l.packet),
        Some(l) => format!("packet {}: headers in its page", l.packet),
    };
    let hdr_w = layout.pick(220.0, w - 4.0 * PAD);
    let mut children = vec![Shape::group(
        "hdr",
        vec![
            Shape::rect("r", 2.0 * PAD, TITLE_H + 4.0, hdr_w, 30.0).rounded(4.0),
            Shape::text("t", 3.0 * PAD, TITLE_H + 24.0, header.clone())
                .start()
                .size(Size::Small),
        ],
    )
    .class(if m.split() { "driver" } else { "idle" })
    .state(if m.split() { "split" } else { "whole" })
    .focus("hdr")
    .label(header)];
    let (px, py) = layout.pick(
        (2.0 * PAD + hdr_w + 16.0, TITLE_H + 4.0),
        (2.0 * PAD, TITLE_H + 44.0),
    );
    let (pages, used) = if m.pages.is_empty() {
        (
            vec![Shape::text(
                "none",
                px,
                py + 22.0,
                "no payload pages: payloads go to the bound buffers",
            )
            .start()
            .size(Size::Small)],
            30.0,
        )
    } else {
        buffer_rows("page", "p", &m.pages, (px, py), per_row(layout))
    };
    children.push(
        Shape::group("pages", pages)
            .focus("pages")
            .state(format!("{} pages", m.pages.len()))
            .label(format!(
                "the page pool's {} page{}",
                m.pages.len(),
                plural(m.pages.len())
            )),
    );
    let h = py + used.max(30.0) + 8.0;
    (
        panel("kernel", y, w, h, "Kernel memory (host)", children),
        h,
    )
}

/// The bound buffers, or why there are none.
fn area_part(m: &ZeroCopy, layout: Layout, y: f32) -> (Shape, f32) {
    let w = width(layout);
    let title = if m.bound() {
        let memory = match m.provider {
            Provider::Devmem => "device memory",
            Provider::Zcrx => "user memory",
        };
        format!("Bound to queue {BOUND_QUEUE}: {memory}")
    } else {
        "Bound buffers".to_string()
    };
    let (shapes, used) = if m.bound() {
        buffer_rows(
            "buf",
            "b",
            &m.area,
            (2.0 * PAD, TITLE_H + 4.0),
            per_row(layout),
        )
    } else {
        let why = if m.bind_refused() {
            "none: the bind was refused, tcp-data-split is disabled"
        } else {
            "none: this receive path binds no memory"
        };
        let lines = wrap_words(why, small_chars_in(w - 6.0 * PAD));
        let n = lines.len() as f32;
        (
            lines_of("none", (3.0 * PAD, TITLE_H + 18.0), LINE, lines)
                .into_iter()
                .map(|s| s.start().size(Size::Small))
                .collect(),
            n * LINE + 8.0,
        )
    };
    let area = Shape::group("area", shapes)
        .focus("area")
        .state(if m.bound() { "bound" } else { "unbound" })
        .label(format!(
            "{} bound buffer{}, {} free",
            m.area.len(),
            plural(m.area.len()),
            m.area_count(Owner::Pool)
        ));
    let h = TITLE_H + 4.0 + used + 8.0;
    (panel("bound", y, w, h, &title, vec![area]), h)
}

/// What the application holds and how it reads.
fn app_part(m: &ZeroCopy, layout: Layout, y: f32) -> (Shape, f32) {
    let w = width(layout);
    let reads = if m.flow_bound() || m.zcrx_fallback() {
        match m.provider {
            Provider::Devmem => {
                "Reads with recvmsg(MSG_SOCK_DEVMEM): a cmsg per fragment, with a token."
            }
            Provider::Zcrx => {
                "Reads io_uring completions: an offset into the area and a length each."
            }
        }
    } else {
        "Reads with recv(): each payload is copied into its own buffer."
    };
    let held: Vec<String> = m
        .area
        .iter()
        .enumerate()
        .filter(|(_, b)| b.owner == Owner::App)
        .map(|(i, _)| format!("b{i} at offset {}", big(i as u64 * u64::from(PAGE_BYTES))))
        .collect();
    let holds = if held.is_empty() {
        "Holds no bound buffer.".to_string()
    } else {
        format!("Holds {}.", held.join(", "))
    };
    let back = if m.bound() {
        format!(
            "Gives each back after {} packet time{}, by {}.",
            m.hold,
            plural(m.hold as usize),
            m.provider.give_back()
        )
    } else {
        format!("Copied so far: {} bytes.", big(m.counts.bytes_copied))
    };
    let max = small_chars_in(w - 6.0 * PAD);
    let mut lines = Vec::new();
    for text in [reads.to_string(), holds, back] {
        lines.extend(wrap_words(&text, max));
    }
    let n = lines.len() as f32;
    let texts: Vec<Shape> = lines_of("line", (3.0 * PAD, TITLE_H + 16.0), LINE, lines)
        .into_iter()
        .map(|s| s.start().size(Size::Small))
        .collect();
    let h = TITLE_H + 16.0 + n * LINE;
    let app = Shape::group("app", texts)
        .focus("app")
        .state(format!("{} held", held.len()))
        .label(format!(
            "the application holds {} bound buffers",
            held.len()
        ));
    (panel("application", y, w, h, "Application", vec![app]), h)
}

fn picture(m: &ZeroCopy, layout: Layout) -> Figure {
    let w = width(layout);
    let gap = 12.0;
    let (mut shapes, mut y) = nic_part(m, layout, 30.0);
    for part in [kernel_part, area_part, app_part] {
        let (shape, h) = part(m, layout, y + gap);
        shapes.push(shape);
        y += gap + h;
    }
    let landing = match m.last {
        None => "no packet yet".to_string(),
        Some(l) => match l.fate {
            Fate::Landed(Store::Area(i)) => format!("packet {} in bound buffer {i}", l.packet),
            Fate::Landed(Store::Page(p)) => format!("packet {} in kernel page {p}", l.packet),
            Fate::Dropped => format!("packet {} dropped", l.packet),
            Fate::HeldBack => format!("packet {} held back by the sender", l.packet),
        },
    };
    let mut f = Figure::new(
        "zero-copy",
        format!(
            "{} receive, {}: {landing}; {} bytes copied so far",
            capital(m.mode.name()),
            if m.steering {
                format!("flow steered to queue {BOUND_QUEUE}")
            } else {
                format!("flow sent by RSS to queue {}", m.flow_queue())
            },
            big(m.counts.bytes_copied)
        ),
        w,
        y + PAD,
    )
    .legend("idle", "free in the pool")
    .legend("nic", "posted on the NIC's ring")
    .legend("driver", "held by the kernel (an skb)")
    .legend("accent", "held by the application")
    .legend("fault", "a packet dropped");
    f.extend(shapes);
    f
}

fn capital(s: &str) -> String {
    demos::text::capitalised(s)
}

/// What each way of receiving has cost so far, and what one more packet
/// costs on this path.
fn costs(m: &ZeroCopy) -> Table {
    let c = &m.counts;
    let each = m.per_packet();
    let mut t = Table::new(
        "costs",
        format!(
            "Costs so far: {} packet{} read, {} dropped",
            c.delivered,
            plural(c.delivered as usize),
            c.dropped
        ),
        &["", "so far", "each packet"],
    );
    let rows: [(&str, &str, String, String, bool); 8] = [
        (
            "cost-copied",
            "payload bytes copied",
            big(c.bytes_copied),
            big(each.copied),
            c.bytes_copied > 0,
        ),
        (
            "cost-kernel",
            "bytes into kernel memory",
            big(c.kernel_bytes),
            big(each.kernel),
            false,
        ),
        (
            "cost-bound",
            "bytes into bound buffers",
            big(c.bound_bytes),
            big(each.bound),
            false,
        ),
        (
            "cost-mapped",
            "pages DMA-mapped",
            format!("{} kernel + {} bound", c.pages_mapped, m.area_mapped()),
            "—".to_string(),
            false,
        ),
        (
            "cost-recycled",
            "kernel pages recycled",
            big(c.recycled),
            big(each.recycled),
            false,
        ),
        (
            "cost-returned",
            "buffers given back",
            format!("{} of {} handed out", big(c.returned), big(c.fragments)),
            big(each.given_back),
            false,
        ),
        (
            "cost-dropped",
            "packets dropped",
            big(c.dropped),
            "—".to_string(),
            c.dropped > 0,
        ),
        (
            "cost-stalled",
            "failed reads / sender waits",
            format!("{} / {}", big(c.enomem), big(c.held_back)),
            "—".to_string(),
            c.enomem > 0,
        ),
    ];
    for (key, what, total, one, bad) in rows {
        t.row(
            key,
            vec![Cell::text(what), Cell::mono(total), Cell::mono(one)],
        )
        .class(if bad { "warn" } else { "" })
        .focus("costs");
    }
    t
}

/// What the NIC and driver must support, and whether this run has it.
fn needs_table(m: &ZeroCopy) -> Table {
    let mut t = Table::new(
        "needs",
        "What zero-copy needs from the NIC and its driver",
        &["needs", "set by", "now", "why"],
    );
    for n in needs(m) {
        let (class, state) = match n.met {
            Met::Yes => ("done", "met"),
            Met::No => ("fault", "missing"),
            Met::Unused => ("idle", "unused"),
        };
        t.row(
            n.key,
            vec![
                Cell::text(n.feature),
                Cell::mono(n.command),
                Cell::text(n.status),
                Cell::text(n.why),
            ],
        )
        .class(class)
        .state(state)
        .focus("needs");
    }
    t
}

impl View for ZeroCopy {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let layout = ui.layout();
        Scene::new(
            "Zero-copy receive",
            format!(
                "{} {} packets read, {} dropped; {} payload bytes copied; {} bound buffers free of {}.",
                self.setup(),
                self.counts.delivered,
                self.counts.dropped,
                big(self.counts.bytes_copied),
                self.area_count(Owner::Pool),
                self.area.len()
            ),
        )
        .figure(picture(self, layout))
        .table(costs(self))
        .table(needs_table(self))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let modes = [
            (Mode::Copy, "copy", "Copy"),
            (Mode::Split, "split", "Header split"),
            (Mode::ZeroCopy, "zero-copy", "Zero-copy"),
        ];
        let mode = modes
            .iter()
            .position(|(m, ..)| *m == self.mode)
            .unwrap_or(0);
        let modes = modes
            .iter()
            .map(|&(m, id, label)| (id, label.to_string(), ui.act(ZeroCopyAction::SetMode(m))))
            .collect();
        let providers = [
            (Provider::Devmem, "devmem", "devmem TCP (device memory)"),
            (Provider::Zcrx, "zcrx", "io_uring zcrx (user memory)"),
        ];
        let provider = providers
            .iter()
            .position(|(p, ..)| *p == self.provider)
            .unwrap_or(0);
        let providers = providers
            .iter()
            .map(|&(p, id, label)| {
                (
                    id,
                    label.to_string(),
                    ui.act(ZeroCopyAction::SetProvider(p)),
                )
            })
            .collect();
        vec![
            Control::button(
                "send-batch",
                "Send 10 packets",
                ui.act(ZeroCopyAction::Batch),
            ),
            Control::choice("mode", "Receive path", mode, modes),
            Control::choice("provider", "Bound memory", provider, providers),
            bounded(
                ui,
                "buffers",
                "Bound buffers",
                &BUFFERS,
                self.buffers,
                false,
                ZeroCopyAction::SetBuffers,
            ),
            bounded(
                ui,
                "payload",
                "Payload per packet",
                &PAYLOAD,
                self.payload,
                true,
                ZeroCopyAction::SetPayload,
            ),
            Control::note(
                "Step brings the next packet, then lets the application run. Every setting starts again.",
            ),
            Control::danger_group(
                "Break it",
                vec![
                    bounded(
                        ui,
                        "hold",
                        "Application keeps each buffer",
                        &HOLD,
                        self.hold,
                        false,
                        ZeroCopyAction::SetHold,
                    )
                    .danger(),
                    Control::toggle(
                        "steering",
                        format!("Steering rule to queue {BOUND_QUEUE}"),
                        self.steering,
                        ui.act(ZeroCopyAction::SetSteering(!self.steering)),
                    ),
                    Control::toggle(
                        "nic-split",
                        "NIC can split headers",
                        self.nic_split,
                        ui.act(ZeroCopyAction::SetNicSplit(!self.nic_split)),
                    ),
                ],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::host::zero_copy::ZeroCopyConfig;
    use demos::Model;

    #[test]
    fn every_bound_buffer_is_drawn_with_its_owner() {
        let mut m = ZeroCopy::new(&ZeroCopyConfig::default());
        m.apply(&ZeroCopyAction::Step).unwrap();
        let scene = crate::build(&m, &()).0;
        for i in 0..8 {
            assert!(scene.find(&format!("buf-{i}")).is_some(), "buf-{i}");
        }
        let first = scene.find("buf-0").unwrap();
        assert_eq!(first.state.as_deref(), Some("kernel"));
        m.apply(&ZeroCopyAction::Step).unwrap();
        let scene = crate::build(&m, &()).0;
        assert_eq!(scene.find("buf-0").unwrap().state.as_deref(), Some("app"));
        assert_eq!(
            scene.find("q-3").unwrap().state.as_deref(),
            Some("bound, flow")
        );
    }

    #[test]
    fn copy_mode_draws_pages_and_no_bound_buffers() {
        let m = ZeroCopy::new(&ZeroCopyConfig {
            mode: Mode::Copy,
            ..ZeroCopyConfig::default()
        });
        let scene = crate::build(&m, &()).0;
        assert!(scene.find("page-3").is_some());
        assert!(scene.find("buf-0").is_none());
        let needs = scene.table_named("needs").unwrap();
        assert!(needs
            .rows
            .iter()
            .all(|r| r.state.as_deref() == Some("unused")));
    }
}
