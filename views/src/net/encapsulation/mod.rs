//! TCP encapsulation: the layers a `send()` goes through, the headers as
//! RFC-style layout grids with every field at its offset, and the hex dump
//! growing layer by layer. Pick a field to see its bits; on the wire, click a
//! bit to flip it.

mod lesson;

use crate::control::{Control, Field as Input};
use crate::draw::text::{line_key, wrap_caption};
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Command, Ui, View};
use crate::scene::{Anchor, Cell, Figure, Scene, Shape, Size, Table};
use demos::net::encapsulation::{
    EncapAction, EncapConfig, Encapsulation, Stage, Verdict, MSS, MTU, PAYLOAD_LEN, TTL,
};
use demos::net::wire::ethernet::mac_text;
use demos::net::wire::ipv4::addr_text;
use demos::net::wire::layout::Field;
use demos::net::wire::parse::{endpoint, mac, number};
use demos::net::wire::receive::Check;
use demos::net::wire::tcp::{parse_flags, FLAGS};
use demos::Model;

/// What the learner is looking at: which frame (of several fragments) and
/// which field (its key).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Pick {
    pub frame: usize,
    pub field: Option<String>,
}

const ROW_H: f32 = 48.0;
const HEX_H: f32 = 32.0;

/// Where the layers' boxes go: in a row on a wide screen; on a phone one
/// under the other, as a protocol stack is drawn, each box one line high,
/// and the receiver further down, the middlebox beside the way to it.
struct StackDims {
    width: f32,
    /// The first box's corner, and the step from one box to the next.
    origin: (f32, f32),
    step: (f32, f32),
    box_w: f32,
    box_h: f32,
    /// The layer's name and its line, from the box's corner.
    title: (f32, f32, Anchor),
    line: (f32, f32, Anchor),
    /// The arrow to the next box, from the box's corner.
    arrow: ((f32, f32), (f32, f32)),
    /// Added to the step from the wire to the receiver: room for the
    /// middlebox on the way.
    to_receiver: f32,
    /// The middlebox between the wire and the receiver: corner and width.
    middlebox: (f32, f32, f32),
    /// The figure's height without and with the middlebox.
    height: (f32, f32),
}

const WIDE_STACK: StackDims = StackDims {
    width: 960.0,
    origin: (6.0, 10.0),
    step: (160.0, 0.0),
    box_w: 136.0,
    box_h: 76.0,
    title: (68.0, 28.0, Anchor::Middle),
    line: (68.0, 56.0, Anchor::Middle),
    arrow: ((138.0, 38.0), (158.0, 38.0)),
    to_receiver: 0.0,
    middlebox: (650.0, 100.0, 200.0),
    height: (110.0, 150.0),
};

/// The line ("caught: TCP checksum") sits right of the layer's name.
const NARROW_STACK: StackDims = StackDims {
    width: NARROW_WIDTH,
    origin: (6.0, 8.0),
    step: (0.0, 56.0),
    box_w: 408.0,
    box_h: 40.0,
    title: (10.0, 26.0, Anchor::Start),
    line: (398.0, 26.0, Anchor::End),
    arrow: ((204.0, 42.0), (204.0, 54.0)),
    to_receiver: 36.0,
    middlebox: (222.0, 278.0, 144.0),
    height: (372.0, 372.0),
};

/// The header grid. Wide, the RFCs' 32-bit rows with the headings to their
/// left. On a phone a row holds 16 bits, so a bit is about as wide as in
/// the wide grid and every field name still fits its box (a 32-bit address
/// takes two rows); the headings go above their grid, and Ethernet's 14
/// bytes take rows of 6: an address a row, so that the EtherType's box
/// holds "0x0800 IPv4".
struct GridDims {
    width: f32,
    x: f32,
    w: f32,
    bits_per_row: usize,
    eth_bytes_per_row: usize,
    /// A heading, from the left edge and the top of its block.
    heading: (f32, f32),
    /// The header's length under (wide) or beside (narrow) its heading.
    length: (f32, f32, Anchor),
    /// Height of the headings' own line above a grid (none when beside it).
    above: f32,
    /// Whether the data takes a row of its own, pad and FCS under it.
    data_alone: bool,
}

const WIDE_GRID: GridDims = GridDims {
    width: 960.0,
    x: 168.0,
    w: 768.0,
    bits_per_row: 32,
    eth_bytes_per_row: 14,
    heading: (8.0, 30.0),
    length: (8.0, 50.0, Anchor::Start),
    above: 0.0,
    data_alone: false,
};

const NARROW_GRID: GridDims = GridDims {
    width: NARROW_WIDTH,
    x: 6.0,
    w: 408.0,
    bits_per_row: 16,
    eth_bytes_per_row: 6,
    heading: (6.0, 18.0),
    length: (414.0, 18.0, Anchor::End),
    above: 24.0,
    data_alone: true,
};

/// The hex dump: 16 bytes a line as Wireshark prints them; on a phone 8,
/// so a byte's cell stays wide enough for its two digits; as many lines
/// more before the middle is elided, so as many bytes are shown.
struct DumpDims {
    width: f32,
    per_line: usize,
    x: f32,
    cell_w: f32,
    /// From the last byte to the printable characters.
    ascii_gap: f32,
    /// Lines shown before the middle is elided.
    lines: usize,
}

const WIDE_DUMP: DumpDims = DumpDims {
    width: 960.0,
    per_line: 16,
    x: 72.0,
    cell_w: 44.0,
    ascii_gap: 22.0,
    lines: 8,
};

const NARROW_DUMP: DumpDims = DumpDims {
    width: NARROW_WIDTH,
    per_line: 8,
    x: 50.0,
    cell_w: 36.0,
    ascii_gap: 10.0,
    lines: 16,
};

/// The picked field's bits: on a phone 16 to a line (two bytes), each wide
/// enough to tap, and the title wrapped.
struct BitsDims {
    width: f32,
    per_line: usize,
    /// Width the bits of one line share.
    room: f32,
    /// Longest line of the title, in characters.
    title_chars: usize,
}

const WIDE_BITS: BitsDims = BitsDims {
    width: 960.0,
    per_line: 48,
    room: 880.0,
    title_chars: usize::MAX,
};

const NARROW_BITS: BitsDims = BitsDims {
    width: NARROW_WIDTH,
    per_line: 16,
    room: 404.0,
    title_chars: 42,
};

/// The layer a field belongs to: its class and name.
fn layer(key: &str) -> (&'static str, &'static str) {
    match key {
        "eth-pad" => ("idle dashed", "Ethernet"),
        "eth-fcs" => ("nic", "Ethernet"),
        "payload" => ("idle", "data"),
        k if k.starts_with("eth") => ("nic", "Ethernet"),
        k if k.starts_with("ip") => ("driver", "IPv4"),
        _ => ("done", "TCP"),
    }
}

/// The check a field's damage is caught by, for marking it.
fn caught_here(key: &str, check: Check) -> bool {
    matches!(
        (check, key),
        (Check::Fcs, "eth-fcs")
            | (Check::IpChecksum, "ip-checksum")
            | (Check::TcpChecksum, "tcp-checksum")
    )
}

fn bytes_text(f: &Field) -> String {
    let (a, b) = f.bit_range();
    if a % 8 == 0 && b % 8 == 0 {
        format!("bytes {}–{}", a / 8, b / 8 - 1)
    } else {
        format!("bits {}–{} of byte {}", a % 8, (b - 1) % 8, a / 8)
    }
}

struct Ctx<'a> {
    m: &'a Encapsulation,
    pick: &'a Pick,
    k: usize,
    fields: Vec<Field>,
    layout: Layout,
}

impl Ctx<'_> {
    /// A field drawn as a box (`h` is a row, or two for an address on a
    /// phone): name above, value below; it marks the field picked and any
    /// field a flipped bit landed in.
    fn field_box(
        &self,
        f: &Field,
        (x, y): (f32, f32),
        (w, h): (f32, f32),
        ui: &mut Ui<Encapsulation>,
    ) -> Shape {
        let (class, _) = layer(f.key);
        let picked = self.pick.field.as_deref() == Some(f.key);
        let (lo, hi) = f.bit_range();
        let flipped = self
            .m
            .flips
            .iter()
            .any(|x| x.frame == self.k && (lo..hi).contains(&x.bit))
            && self.on_wire();
        let caught = matches!(self.m.verdict, Some(Verdict::Caught { check, .. }) if caught_here(f.key, check));
        let next = Pick {
            frame: self.k,
            field: (!picked).then(|| f.key.to_string()),
        };
        let mut parts = vec![
            Shape::rect("r", x + 1.0, y + 1.0, w - 2.0, h - 2.0).rounded(2.0),
            Shape::text("n", x + w / 2.0, y + h / 2.0 - 6.0, f.name).size(Size::Small),
        ];
        // A value too wide for its box is set smaller, then cut.
        let chars = f.value.chars().count() as f32;
        let value = if chars * 9.7 <= w - 6.0 {
            Shape::text("v", x + w / 2.0, y + h / 2.0 + 15.0, f.value.clone())
        } else {
            let keep = ((w - 16.0) / 7.9).max(1.0) as usize;
            let text = if chars as usize > keep {
                format!("{}…", f.value.chars().take(keep - 1).collect::<String>())
            } else {
                f.value.clone()
            };
            Shape::text("v", x + w / 2.0, y + h / 2.0 + 14.0, text).size(Size::Small)
        };
        parts.push(value.mono());
        Shape::group(f.key, parts)
            .class(if flipped || caught { "fault" } else { class })
            .class_if(picked, "thick")
            .state(if flipped {
                "damaged"
            } else if picked {
                "picked"
            } else {
                ""
            })
            .label(format!("{}: {} ({})", f.name, f.value, bytes_text(f)))
            .focus(f.key)
            .on_click(ui.look(next))
    }

    fn on_wire(&self) -> bool {
        matches!(self.m.stage, Stage::Wire | Stage::Received)
    }
}

/// The headers of the buffer shown, as layout grids: Ethernet by bytes,
/// IPv4 and TCP in 32-bit rows as RFC 791 and RFC 9293 draw them (16-bit
/// rows on a phone), then the data, pad and FCS.
fn layout(c: &Ctx, ui: &mut Ui<Encapsulation>) -> Figure {
    let g = c.layout.pick(&WIDE_GRID, &NARROW_GRID);
    let bit_w = g.w / g.bits_per_row as f32;
    let mut shapes = Vec::new();
    let mut y = 10.0;
    let has = |p: &str| c.fields.iter().any(|f| f.key.starts_with(p));
    let start = |p: &str| {
        c.fields
            .iter()
            .find(|f| f.key.starts_with(p))
            .map_or(0, |f| f.offset)
    };
    // A block's heading, beside its grid or on a line of its own above it
    // (then `y` moves down past that line).
    let heading = |shapes: &mut Vec<Shape>, y: &mut f32, key: &str, text: String, class: &str| {
        shapes.push(
            Shape::text(key.to_string(), g.heading.0, *y + g.heading.1, text)
                .start()
                .class("strong")
                .class(class),
        );
        *y += g.above;
    };
    if has("eth-dst") {
        heading(&mut shapes, &mut y, "h-eth", "Ethernet II".into(), "");
        let per_row = g.eth_bytes_per_row;
        for f in c
            .fields
            .iter()
            .filter(|f| ["eth-dst", "eth-src", "eth-type"].contains(&f.key))
        {
            let (row, col) = (f.offset / per_row, f.offset % per_row);
            let x = g.x + g.w * col as f32 / per_row as f32;
            let w = g.w * (f.bits / 8) as f32 / per_row as f32;
            shapes.push(c.field_box(f, (x, y + ROW_H * row as f32), (w, ROW_H), ui));
        }
        y += ROW_H * 14usize.div_ceil(per_row) as f32 + 14.0;
    }
    if has("ip-") || has("tcp-") {
        // The bit ruler, as the RFCs number it.
        for b in (0..g.bits_per_row).step_by(4) {
            shapes.push(
                Shape::text(
                    format!("bit-{b}"),
                    g.x + bit_w * (b as f32 + 0.5),
                    y + 14.0,
                    b.to_string(),
                )
                .mono()
                .size(Size::Small),
            );
        }
        y += 22.0;
    }
    // Both headers are 20 bytes: no options.
    let rows = 20 * 8 / g.bits_per_row;
    for (prefix, name) in [("ip-", "IPv4"), ("tcp-", "TCP")] {
        if !has(prefix) {
            continue;
        }
        let base = start(prefix);
        let top = y;
        heading(&mut shapes, &mut y, &format!("h-{name}"), name.into(), "");
        let (lx, ldy, anchor) = g.length;
        shapes.push(
            Shape::text(format!("h-{name}-len"), lx, top + ldy, "20 bytes")
                .anchor(anchor)
                .size(Size::Small),
        );
        for f in c.fields.iter().filter(|f| f.key.starts_with(prefix)) {
            let pos = (f.offset - base) * 8 + usize::from(f.bit);
            let (row, col) = (pos / g.bits_per_row, pos % g.bits_per_row);
            let x = g.x + bit_w * col as f32;
            // A field longer than a row starts one (the addresses, the
            // sequence numbers) and fills whole rows.
            let (w, h) = if f.bits > g.bits_per_row {
                (g.w, ROW_H * f.bits.div_ceil(g.bits_per_row) as f32)
            } else {
                (bit_w * f.bits as f32, ROW_H)
            };
            shapes.push(c.field_box(f, (x, y + ROW_H * row as f32), (w, h), ui));
        }
        y += ROW_H * rows as f32 + 14.0;
    }
    let tail: Vec<&Field> = c
        .fields
        .iter()
        .filter(|f| ["payload", "eth-pad", "eth-fcs"].contains(&f.key))
        .collect();
    if !tail.is_empty() {
        heading(&mut shapes, &mut y, "h-tail", "then".into(), "muted");
        let widths: Vec<f32> = tail
            .iter()
            .map(|f| match f.key {
                "payload" => 0.0,
                "eth-pad" => 180.0,
                _ => 220.0,
            })
            .collect();
        let fixed: f32 = widths.iter().sum();
        let data_w = if g.data_alone { g.w } else { g.w - fixed };
        let mut x = g.x;
        for (f, w) in tail.iter().zip(widths) {
            let w = if w == 0.0 { data_w } else { w };
            // What does not fit the row goes on the next.
            if x > g.x && x + w > g.x + g.w + 0.5 {
                x = g.x;
                y += ROW_H;
            }
            let mut shown = (*f).clone();
            if f.key == "payload" {
                shown.value = preview(c, f);
            }
            shapes.push(c.field_box(&shown, (x, y), (w, ROW_H), ui));
            x += w;
        }
        y += ROW_H + 8.0;
    }
    let mut fig = Figure::new(
        "layout",
        format!(
            "Header fields of the {} at their offsets",
            c.m.stage.label()
        ),
        g.width,
        y + 4.0,
    )
    .legend("nic", "Ethernet (driver and NIC)")
    .legend("driver", "IPv4")
    .legend("done", "TCP")
    .legend("idle", "data");
    fig.extend(shapes);
    fig
}

/// The data as text, as far as it is printable, for its box.
fn preview(c: &Ctx, f: &Field) -> String {
    let bytes = c.m.buffers()[c.k];
    let end = (f.offset + f.bits / 8).min(bytes.len());
    let text: String = bytes[f.offset..end]
        .iter()
        .take(48)
        .map(|&b| {
            if (0x20..0x7f).contains(&b) {
                b as char
            } else {
                '·'
            }
        })
        .collect();
    format!("{} B: {text}", f.bits / 8)
}

/// The bytes of the buffer shown, 16 to a line as Wireshark prints them
/// (8 on a phone), coloured by layer; the picked field's bytes stand out.
fn hex(c: &Ctx) -> Figure {
    let d = c.layout.pick(&WIDE_DUMP, &NARROW_DUMP);
    let (per_line, hex_x, hex_w) = (d.per_line, d.x, d.cell_w);
    let bytes = c.m.buffers()[c.k];
    let lines = bytes.len().div_ceil(per_line);
    let shown: Vec<usize> = if lines > d.lines {
        (0..d.lines - 2).chain([usize::MAX, lines - 1]).collect()
    } else {
        (0..lines).collect()
    };
    let picked = c
        .pick
        .field
        .as_deref()
        .and_then(|k| c.fields.iter().find(|f| f.key == k));
    let mut f = Figure::new(
        "hex",
        format!("{} bytes of the {}", bytes.len(), c.m.stage.label()),
        d.width,
        HEX_H * shown.len() as f32 + 16.0,
    );
    for (row, &line) in shown.iter().enumerate() {
        let y = 8.0 + HEX_H * row as f32;
        if line == usize::MAX {
            let hidden = (lines - d.lines + 1) * per_line;
            f.push(
                Shape::text(
                    "elided",
                    hex_x,
                    y + 22.0,
                    format!("… {hidden} more bytes …"),
                )
                .start()
                .class("muted"),
            );
            continue;
        }
        let at = line * per_line;
        let mut cells = vec![Shape::text("o", 8.0, y + 22.0, format!("{at:04x}"))
            .start()
            .mono()
            .class("muted")];
        let chunk = &bytes[at..(at + per_line).min(bytes.len())];
        for (i, &b) in chunk.iter().enumerate() {
            let n = at + i;
            let field = c
                .fields
                .iter()
                .find(|f| (f.bit_range().0..f.bit_range().1).contains(&(n * 8 + 7)));
            let class = field.map_or("idle", |f| layer(f.key).0);
            let hit = picked
                .is_some_and(|p| (p.bit_range().0 / 8..p.bit_range().1.div_ceil(8)).contains(&n));
            let flipped = c.on_wire() && c.m.flips.iter().any(|x| x.frame == c.k && x.bit / 8 == n);
            // Wireshark's gap between the two halves of a line of 16.
            let x = hex_x + hex_w * i as f32 + if i >= 8 { 8.0 } else { 0.0 };
            cells.push(
                Shape::group(
                    format!("byte-{n}"),
                    vec![
                        Shape::rect("r", x, y, hex_w - 3.0, HEX_H - 4.0).rounded(2.0),
                        Shape::text("t", x + (hex_w - 3.0) / 2.0, y + 20.0, format!("{b:02x}"))
                            .mono(),
                    ],
                )
                .class(if flipped { "fault" } else { class })
                .class_if(hit, "thick"),
            );
        }
        let ascii: String = chunk
            .iter()
            .map(|&b| {
                if (0x21..0x7f).contains(&b) {
                    b as char
                } else {
                    '.'
                }
            })
            .collect();
        cells.push(
            Shape::text(
                "a",
                hex_x + hex_w * per_line as f32 + d.ascii_gap,
                y + 20.0,
                ascii,
            )
            .start()
            .mono()
            .size(Size::Small),
        );
        f.push(Shape::group(format!("line-{line}"), cells));
    }
    f
}

/// The picked field's bits; on the wire each one flips when clicked.
fn bits(c: &Ctx, field: &Field, ui: &mut Ui<Encapsulation>) -> Figure {
    let d = c.layout.pick(&WIDE_BITS, &NARROW_BITS);
    let (lo, hi) = field.bit_range();
    let n = (hi - lo).min(48);
    let w = (d.room / n.min(d.per_line) as f32).min(40.0);
    let bytes = c.m.buffers()[c.k];
    let wire = c.m.stage == Stage::Wire;
    let title = if wire {
        format!(
            "{}: bits {lo}–{} of frame {} · click one to flip it on the wire",
            field.name,
            lo + n - 1,
            c.k + 1
        )
    } else {
        format!(
            "{}: bits {lo}–{} · they can be flipped once the frame is on the wire",
            field.name,
            lo + n - 1
        )
    };
    let lines = wrap_caption(&title, d.title_chars);
    // The bits start under the title, a line of them every 46 units.
    let top = 36.0 + 20.0 * (lines.len() - 1) as f32;
    let rows = n.div_ceil(d.per_line);
    let mut f = Figure::new(
        "bits",
        title.clone(),
        d.width,
        top + 46.0 * rows as f32 + 14.0,
    );
    for (i, line) in lines.into_iter().enumerate() {
        let key = line_key("title", i);
        f.push(
            Shape::text(key, 8.0, 22.0 + 20.0 * i as f32, line)
                .start()
                .class("strong"),
        );
    }
    for i in 0..n {
        let bit = lo + i;
        let one = bytes[bit / 8] & (0x80 >> (bit % 8)) != 0;
        let x = 8.0 + w * (i % d.per_line) as f32;
        let y = top + 46.0 * (i / d.per_line) as f32;
        let mut cell = Shape::group(
            format!("bit-cell-{i}"),
            vec![
                Shape::rect("r", x, y, w - 3.0, 40.0).rounded(2.0),
                Shape::text(
                    "t",
                    x + (w - 3.0) / 2.0,
                    y + 26.0,
                    if one { "1" } else { "0" },
                )
                .mono(),
            ],
        )
        .class(if one { layer(field.key).0 } else { "idle" })
        .state(if one { "1" } else { "0" });
        if wire {
            cell = cell
                .label(format!("bit {bit} of frame {}: flip it", c.k + 1))
                .on_click(ui.act(EncapAction::FlipBit { frame: c.k, bit }));
        }
        f.push(cell);
    }
    f
}

/// The layers from the socket to the receiver, the current one marked.
fn stack(m: &Encapsulation, layout: Layout) -> Figure {
    let d = layout.pick(&WIDE_STACK, &NARROW_STACK);
    let at = match m.stage {
        Stage::SocketBuffer => 0,
        Stage::Tcp => 1,
        Stage::Ip | Stage::Refused => 2,
        Stage::Ethernet => 3,
        Stage::Wire => 4,
        Stage::Received | Stage::Done => 5,
    };
    let total = |v: &Vec<Vec<u8>>| v.iter().map(Vec::len).sum::<usize>();
    let ip_line = match (m.stage, m.packets.len()) {
        (Stage::Refused, _) => "dropped: DF".to_string(),
        (_, 0) => "—".into(),
        (_, 1) => format!("{} B", total(&m.packets)),
        (_, k) => format!("{k} fragments"),
    };
    let verdict = match m.verdict {
        None => "—".to_string(),
        Some(Verdict::Delivered { damaged: false }) => "delivered".into(),
        Some(Verdict::Delivered { damaged: true }) => "delivered damaged".into(),
        Some(Verdict::Caught { check, .. }) => format!("caught: {}", check.label()),
    };
    let boxes = [
        (
            "layer-app",
            "send()",
            format!("{} B queued", m.payload.len()),
        ),
        (
            "layer-tcp",
            "TCP",
            if m.tcp.is_empty() {
                "—".into()
            } else {
                format!("{} B segment", m.tcp.len())
            },
        ),
        ("layer-ip", "IPv4", ip_line),
        (
            "layer-eth",
            "Ethernet",
            if m.frames.is_empty() {
                "—".into()
            } else {
                format!("{} B + FCS", total(&m.frames) - 4 * m.frames.len())
            },
        ),
        (
            "wire",
            "wire",
            if m.wire.is_empty() {
                "—".into()
            } else {
                format!("{} bits", 8 * total(&m.wire))
            },
        ),
        ("rx", "receiver", verdict),
    ];
    let mut f = Figure::new(
        "stack",
        format!("The segment is at: {}", m.stage.label()),
        d.width,
        if m.middlebox { d.height.1 } else { d.height.0 },
    );
    for (i, (key, title, line)) in boxes.into_iter().enumerate() {
        let receiver = if i == 5 { d.to_receiver } else { 0.0 };
        let x = d.origin.0 + d.step.0 * i as f32;
        let y = d.origin.1 + d.step.1 * i as f32 + receiver;
        let class = match (i.cmp(&at), m.stage, m.verdict) {
            (std::cmp::Ordering::Equal, Stage::Refused, _) => "fault thick",
            (std::cmp::Ordering::Equal, _, Some(Verdict::Caught { .. })) if i == 5 => "fault thick",
            (std::cmp::Ordering::Equal, _, _) => "accent thick",
            (std::cmp::Ordering::Less, _, _) => "done",
            _ => "idle",
        };
        let mut g = Shape::group(
            key,
            vec![
                Shape::rect("r", x, y, d.box_w, d.box_h),
                Shape::text("t", x + d.title.0, y + d.title.1, title)
                    .anchor(d.title.2)
                    .class("strong"),
                Shape::text("l", x + d.line.0, y + d.line.1, line)
                    .anchor(d.line.2)
                    .mono()
                    .size(Size::Small),
            ],
        )
        .class(class)
        .focus(key);
        if i == 5 {
            g = g.focus(match m.verdict {
                Some(Verdict::Caught { check, .. }) => check.key(),
                _ => "rx-tcp",
            });
        }
        f.push(g);
        if i < 5 {
            let ((x0, y0), (x1, y1)) = d.arrow;
            let longer = if i == 4 { d.to_receiver } else { 0.0 };
            f.push(Shape::arrow(
                format!("a{i}"),
                (x + x0, y + y0),
                (x + x1, y + y1 + longer),
            ));
        }
    }
    if m.middlebox {
        let (mx, my, mw) = d.middlebox;
        f.push(
            Shape::group(
                "middlebox",
                vec![
                    Shape::rect("r", mx, my, mw, 40.0).rounded(20.0),
                    Shape::text("t", mx + mw / 2.0, my + 26.0, "middlebox: new FCS")
                        .size(Size::Small),
                ],
            )
            .class("warn")
            .focus("middlebox"),
        );
    }
    f
}

fn history(m: &Encapsulation) -> Table {
    let mut t = Table::new(
        "history",
        "Transmissions",
        &["segment", "SEQ", "bytes", "frames", "fate"],
    );
    for (i, s) in m.history.iter().enumerate() {
        let fate = match s.verdict {
            None => "dropped by IP (DF)".to_string(),
            Some(Verdict::Delivered { damaged: false }) => "delivered".into(),
            Some(Verdict::Delivered { damaged: true }) => "delivered, damaged".into(),
            Some(Verdict::Caught { check, .. }) => format!("thrown away: {}", check.label()),
        };
        let again = if s.segment.attempt > 0 {
            " (again)"
        } else {
            ""
        };
        t.row(
            format!("sent-{i}"),
            vec![
                Cell::text(format!("{}{again}", s.segment.number)),
                Cell::mono(s.segment.seq.to_string()),
                Cell::mono(s.segment.len.to_string()),
                Cell::mono(s.frames.to_string()),
                Cell::text(fate),
            ],
        )
        .class(match s.verdict {
            Some(Verdict::Delivered { damaged: false }) => "done",
            _ => "fault",
        });
    }
    t
}

fn flags_text(flags: u8) -> String {
    FLAGS
        .iter()
        .filter(|f| flags & f.0 != 0)
        .map(|f| f.1)
        .collect()
}

/// The payload as one line: CR, LF and backslash written as escapes.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('\r', "\\r")
        .replace('\n', "\\n")
}

/// Reads escapes back: `\r`, `\n` and `\\`; any other backslash stays.
fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('r') => out.push('\r'),
            Some('n') => out.push('\n'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// The settings form: every header value the learner may choose.
fn settings(m: &Encapsulation, ui: &mut Ui<Encapsulation>) -> Control {
    let c = &m.config;
    let fields = vec![
        Input::text(
            "src",
            "Source IP:port",
            format!("{}:{}", addr_text(&c.src_ip), c.src_port),
        ),
        Input::text(
            "dst",
            "Destination IP:port",
            format!("{}:{}", addr_text(&c.dst_ip), c.dst_port),
        ),
        Input::text("src-mac", "Source MAC", mac_text(&c.src_mac)),
        Input::text("dst-mac", "Destination MAC", mac_text(&c.dst_mac)),
        Input::text("seq", "Sequence number", c.seq.to_string()),
        Input::text("ack", "Acknowledgment number", c.ack.to_string()),
        Input::text("flags", "Flags (FSRPAUEC)", flags_text(c.flags)),
        Input::number("window", "Window", i64::from(c.window), 0, 65_535),
        Input::number(
            "ttl",
            "TTL",
            i64::from(c.ttl),
            i64::from(TTL.min),
            i64::from(TTL.max),
        ),
        Input::number("id", "Identification", i64::from(c.id), 0, 65_535),
        Input::text("payload", "Payload text", escape(&c.payload))
            .help("Write \\r and \\n for CR and LF."),
        Input::number(
            "mss",
            "MSS",
            i64::from(c.mss),
            i64::from(MSS.min),
            i64::from(MSS.max),
        ),
        Input::number(
            "mtu",
            "MTU",
            i64::from(c.mtu),
            i64::from(MTU.min),
            i64::from(MTU.max),
        ),
        Input::check("df", "DF: do not fragment", c.df),
    ];
    Control::form(
        "headers",
        "Headers and sizes (restarts)",
        fields,
        "Send this",
        ui.form(move |v| {
            let get = |i: usize| v.get(i).map_or("", |s| s.trim());
            let (src_ip, src_port) = endpoint(get(0))?;
            let (dst_ip, dst_port) = endpoint(get(1))?;
            let num = |i: usize, what: &str, max: u64| number(get(i), what, max);
            let payload = unescape(v.get(10).map_or("", String::as_str));
            PAYLOAD_LEN.check(payload.len())?;
            let next = EncapConfig {
                src_mac: mac(get(2))?,
                dst_mac: mac(get(3))?,
                src_ip,
                dst_ip,
                src_port,
                dst_port,
                seq: num(4, "sequence number", u32::MAX.into())? as u32,
                ack: num(5, "acknowledgment number", u32::MAX.into())? as u32,
                flags: parse_flags(get(6))?,
                window: num(7, "window", u16::MAX.into())? as u16,
                ttl: num(8, "TTL", TTL.max.into())? as u8,
                id: num(9, "identification", u16::MAX.into())? as u16,
                payload,
                mss: num(11, "MSS", u64::from(MSS.max))? as u16,
                mtu: num(12, "MTU", u64::from(MTU.max))? as u16,
                df: get(13) == "true",
            };
            Encapsulation::validate(&next).map_err(|e| format!("Not sent. {e}"))?;
            Ok(Command::Restart(next))
        }),
    )
}

/// Said while bits can be flipped: what Step does with a damaged frame.
const FLIP_NOTE: &str =
    "Step delivers a flipped frame; if the receiver drops it, TCP sends it again.";

/// A bit inside field `key` of frame 0 on the wire (`at` bits in), if that
/// field is there now.
fn bit_in(m: &Encapsulation, key: &str, at: usize) -> usize {
    if m.stage != Stage::Wire {
        return 0;
    }
    m.fields(0)
        .iter()
        .find(|f| f.key == key)
        .map_or(0, |f| f.bit_range().0 + at)
}

/// The payload that overflows a 576-byte MTU: 1,000 digits.
pub(crate) fn long_payload() -> String {
    "0123456789".repeat(100)
}

impl View for Encapsulation {
    type Look = Pick;

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, pick: &Pick, ui: &mut Ui<Self>) -> Scene {
        let k = pick.frame.min(self.buffers().len().saturating_sub(1));
        let c = Ctx {
            m: self,
            pick,
            k,
            fields: self.fields(k),
            layout: ui.layout(),
        };
        let mut scene = Scene::new(
            "TCP encapsulation",
            format!(
                "The segment is at the {} stage; {} bytes shown; {} of {} payload bytes delivered.",
                self.stage.label(),
                self.buffers().get(k).map_or(0, |b| b.len()),
                self.delivered,
                self.payload.len()
            ),
        )
        .figure(stack(self, ui.layout()))
        .figure(layout(&c, ui))
        .figure(hex(&c));
        if let Some(field) = pick
            .field
            .as_deref()
            .and_then(|key| c.fields.iter().find(|f| f.key == key))
        {
            scene = scene.figure(bits(&c, field, ui));
        }
        scene.table(history(self))
    }

    fn controls(&self, pick: &Pick, ui: &mut Ui<Self>) -> Vec<Control> {
        let mut out = Vec::new();
        let frames = self.buffers().len();
        if frames > 1 {
            let options = (0..frames)
                .map(|i| {
                    (
                        (i + 1).to_string(),
                        format!("fragment {}", i + 1),
                        ui.look(Pick {
                            frame: i,
                            field: None,
                        }),
                    )
                })
                .collect();
            out.push(Control::choice(
                "frame",
                "Show",
                pick.frame.min(frames - 1),
                options,
            ));
        }
        out.push(Control::note(
            "Step moves the segment down one layer. Pick a field in the grid to see its bits.",
        ));
        out.push(settings(self, ui));
        let mut over = self.config.clone();
        over.payload = long_payload();
        over.mss = 1460;
        over.mtu = 576;
        over.df = true;
        let mut frag = over.clone();
        frag.df = false;
        out.push(Control::danger_group(
            "Break it",
            vec![
                Control::button(
                    "flip-data",
                    "Flip a bit of the TCP data",
                    ui.act(EncapAction::FlipBit {
                        frame: 0,
                        bit: bit_in(self, "payload", 1),
                    }),
                )
                .danger(),
                Control::button(
                    "flip-ttl",
                    "Flip a bit of the TTL",
                    ui.act(EncapAction::FlipBit {
                        frame: 0,
                        bit: bit_in(self, "ip-ttl", 7),
                    }),
                )
                .danger(),
                Control::button(
                    "flip-fcs",
                    "Flip a bit of the FCS",
                    ui.act(EncapAction::FlipBit {
                        frame: 0,
                        bit: bit_in(self, "eth-fcs", 0),
                    }),
                )
                .danger(),
                Control::toggle(
                    "middlebox",
                    "A middlebox recomputes the FCS",
                    self.middlebox,
                    ui.act(EncapAction::SetMiddlebox(!self.middlebox)),
                )
                .danger(),
                Control::button(
                    "df-drop",
                    "1,000 bytes, MSS 1460, MTU 576, DF set",
                    ui.restart(over),
                )
                .danger(),
                Control::button(
                    "fragment",
                    "The same with DF clear: fragments",
                    ui.restart(frag),
                )
                .danger(),
            ]
            .into_iter()
            .chain((self.stage == Stage::Wire).then(|| Control::note(FLIP_NOTE)))
            .collect(),
        ));
        out
    }

    /// A frame this stage has, and a field of that frame.
    fn admit_look(&self, pick: &Pick) -> bool {
        pick.frame < self.buffers().len()
            && pick
                .field
                .as_deref()
                .is_none_or(|key| self.fields(pick.frame).iter().any(|f| f.key == key))
    }

    /// The pick as drawn: a Back or the next segment can take away the frame
    /// or the field picked, and the picture then shows the last frame and no
    /// field.
    fn link_look(&self, pick: &Pick) -> Pick {
        let frame = pick.frame.min(self.buffers().len().saturating_sub(1));
        let field = pick
            .field
            .clone()
            .filter(|key| self.fields(frame).iter().any(|f| f.key == key));
        Pick { frame, field }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(m: &mut Encapsulation, to: Stage) {
        while m.stage != to {
            m.apply(&EncapAction::Step).unwrap();
        }
    }

    #[test]
    fn the_dump_grows_layer_by_layer() {
        let mut m = Encapsulation::new(&EncapConfig::default());
        let count = |m: &Encapsulation| {
            let scene = crate::build(m, &Pick::default()).0;
            let hex = scene.figures().find(|f| f.key == "hex").unwrap().clone();
            hex.walk()
                .iter()
                .filter(|s| s.key.starts_with("byte-"))
                .count()
        };
        assert_eq!(count(&m), 34, "the payload alone");
        m.apply(&EncapAction::Step).unwrap();
        assert_eq!(count(&m), 54);
        m.apply(&EncapAction::Step).unwrap();
        assert_eq!(count(&m), 74);
        m.apply(&EncapAction::Step).unwrap();
        // 14 + 74 + the FCS; the hex dump elides nothing at 92 bytes (6 lines).
        assert_eq!(count(&m), 92);
    }

    #[test]
    fn fields_sit_at_their_rfc_offsets_and_a_pick_shows_their_bits() {
        let mut m = Encapsulation::new(&EncapConfig::default());
        walk(&mut m, Stage::Ethernet);
        let pick = Pick {
            frame: 0,
            field: Some("ip-ttl".to_string()),
        };
        let (scene, _, ui) = crate::build(&m, &pick);
        let ttl = scene.find("ip-ttl").unwrap();
        assert_eq!(ttl.state.as_deref(), Some("picked"));
        assert_eq!(ttl.label.as_deref(), Some("Time to Live: 64 (bytes 22–22)"));
        // Byte 22 is marked in the dump; 64 = 01000000.
        assert!(scene.find("byte-22").unwrap().has_class("thick"));
        let bits = scene.figures().find(|f| f.key == "bits").unwrap();
        let states: String = bits.walk().iter().filter_map(|s| s.state.clone()).collect();
        assert_eq!(states, "01000000");
        // Not on the wire yet: bits are not clickable.
        assert!(bits.walk().iter().all(|s| s.on_click.is_none()));
        // Clicking the TTL again lets go of it.
        match ui
            .resolve(ttl.on_click.unwrap(), &crate::Input::Press)
            .unwrap()
        {
            Command::Look(p) => assert_eq!(p.field, None),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_flipped_ttl_bit_is_caught_by_the_fcs_or_behind_a_middlebox_by_the_ip_checksum() {
        for (middlebox, field, verdict) in [
            (false, "eth-fcs", "caught: FCS"),
            (true, "ip-checksum", "caught: IP checksum"),
        ] {
            let mut m = Encapsulation::new(&EncapConfig::default());
            if middlebox {
                m.apply(&EncapAction::SetMiddlebox(true)).unwrap();
            }
            walk(&mut m, Stage::Wire);
            let (_, controls, ui) = crate::build(&m, &Pick::default());
            let Some(Control::Button(b)) = Control::find(&controls, "flip-ttl") else {
                panic!("button");
            };
            let Command::Do(flip) = ui.resolve(b.send, &crate::Input::Press).unwrap() else {
                panic!("an action");
            };
            assert_eq!(
                flip,
                EncapAction::FlipBit {
                    frame: 0,
                    bit: 22 * 8 + 7
                }
            );
            m.apply(&flip).unwrap();
            let scene = crate::build(&m, &Pick::default()).0;
            assert_eq!(
                scene.find("ip-ttl").unwrap().state.as_deref(),
                Some("damaged")
            );
            m.apply(&EncapAction::Step).unwrap();
            let scene = crate::build(&m, &Pick::default()).0;
            assert!(scene.find(field).unwrap().has_class("fault"), "{field}");
            let rx = scene.find("rx").unwrap();
            assert_eq!(rx.children()[2].text_content(), Some(verdict));
        }
    }

    #[test]
    fn the_form_refuses_a_bad_address_and_restarts_with_good_values() {
        let m = Encapsulation::new(&EncapConfig::default());
        let (_, controls, ui) = crate::build(&m, &Pick::default());
        let Some(Control::Form(form)) = Control::find(&controls, "headers") else {
            panic!("form");
        };
        let mut values: Vec<String> = form.fields.iter().map(|f| f.initial.clone()).collect();
        match ui
            .resolve(form.send, &crate::Input::Fields(values.clone()))
            .unwrap()
        {
            Command::Restart(c) => assert_eq!(c, EncapConfig::default()),
            other => panic!("{other:?}"),
        }
        assert_eq!(values[10], "GET / HTTP/1.1\\r\\nHost: 10.0.0.2\\r\\n\\r\\n");
        assert_eq!(unescape(&escape("a\\b\r\n")), "a\\b\r\n");
        values[0] = "10.0.0.300:1".into();
        assert!(ui
            .resolve(form.send, &crate::Input::Fields(values))
            .is_err());
    }

    #[test]
    fn break_it_says_a_dropped_frame_is_sent_again_while_bits_can_flip() {
        let has_note = |m: &Encapsulation| {
            let (_, controls, _) = crate::build(m, &Pick::default());
            let zone = Control::danger_zone(&controls).expect("a Break it zone");
            zone.controls
                .iter()
                .any(|c| matches!(c, Control::Note(n) if n == FLIP_NOTE))
        };
        for middlebox in [false, true] {
            for key in ["payload", "ip-ttl", "eth-fcs"] {
                let mut m = Encapsulation::new(&EncapConfig::default());
                if middlebox {
                    m.apply(&EncapAction::SetMiddlebox(true)).unwrap();
                }
                while m.stage != Stage::Wire {
                    assert!(!has_note(&m), "{:?}", m.stage);
                    m.apply(&EncapAction::Step).unwrap();
                }
                assert!(has_note(&m));
                let bit = bit_in(&m, key, 0);
                m.apply(&EncapAction::FlipBit { frame: 0, bit }).unwrap();
                let caught = |m: &Encapsulation| {
                    let c = &m.counters;
                    c.caught_fcs + c.caught_ip + c.caught_tcp + c.caught_other
                };
                m.apply(&EncapAction::Step).unwrap();
                assert!(!has_note(&m));
                let label = format!("{key}, middlebox {middlebox}");
                assert!(middlebox || caught(&m) > 0, "{label}");
                if caught(&m) > 0 {
                    // The note is true: the next Step sends the segment again.
                    m.apply(&EncapAction::Step).unwrap();
                    assert_eq!(m.counters.retransmissions, 1, "{label}");
                } else {
                    while m.next_auto().is_ok() {
                        m.apply(&EncapAction::Step).unwrap();
                    }
                    assert_eq!(m.counters.retransmissions, 0, "{label}");
                }
            }
        }
    }
}
