//! Host memory as each interface fills it, for the window of packets on
//! show. Both panels are drawn to one scale, a square per 64-byte line:
//! classic, a row per 2 KiB buffer; Ensō, the same 16 KiB of its pipe, filled
//! row after row. Under each, the metadata: descriptors a quarter of a line
//! each, notifications a line each, at one larger scale.

use crate::layout::{Layout, NARROW_WIDTH};
use crate::scene::{Figure, Shape, Size};
use demos::host::pcie::nic::DESCRIPTOR_BYTES;
use demos::host::streaming::enso::{padded, NOTIFICATION_BYTES};
use demos::host::streaming::layout::{lines_of, BUFFER_BYTES, LINES_PER_BUFFER, LINE_BYTES};
use demos::host::streaming::{Streaming, WINDOW};

/// A line's square, in figure units, and the gap between rows.
const CELL: f32 = 10.0;
const CELL_H: f32 = 12.0;
const ROW_GAP: f32 = 3.0;
/// A line of metadata, in figure units.
const META_LINE: f32 = 40.0;
const META_H: f32 = 20.0;
/// Where the grid starts below a panel's top.
const GRID_TOP: f32 = 46.0;

fn grid_width() -> f32 {
    LINES_PER_BUFFER as f32 * CELL
}

/// Where the packet grid ends below a panel's top.
fn grid_bottom() -> f32 {
    GRID_TOP + WINDOW as f32 * (CELL_H + ROW_GAP)
}

/// A panel's height.
fn panel_height() -> f32 {
    grid_bottom() + 16.0 + META_H + 12.0
}

/// What has become of packet `k` on one side.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fate {
    NotYet,
    /// The NIC wrote it; software has not been told.
    Written,
    /// Software knows of it (a write-back, or its batch's notification).
    Seen,
    /// Kept by the application, or pinned behind what is.
    Held,
}

impl Fate {
    fn class(self) -> &'static str {
        match self {
            Fate::NotYet => "idle ghost",
            Fate::Written => "accent",
            Fate::Seen => "done",
            Fate::Held => "warn",
        }
    }

    fn word(self) -> &'static str {
        match self {
            Fate::NotYet => "not yet",
            Fate::Written => "written, not yet notified",
            Fate::Seen => "seen by software",
            Fate::Held => "held",
        }
    }
}

fn classic_fate(m: &Streaming, k: u32) -> Fate {
    if k >= m.delivered {
        Fate::NotYet
    } else if m.config.hold && k == 0 {
        Fate::Held
    } else {
        Fate::Seen
    }
}

fn enso_fate(m: &Streaming, k: u32) -> Fate {
    if k >= m.delivered {
        return Fate::NotYet;
    }
    if m.config.hold {
        return Fate::Held;
    }
    // Told once the batch's last packet (or the run's) has landed.
    let told = (k..m.delivered).any(|i| m.closes_batch(i));
    if told {
        Fate::Seen
    } else {
        Fate::Written
    }
}

/// Pieces of a run of `len` cells from cell `start`, cut at row ends.
fn pieces(start: u64, len: u64) -> Vec<(u64, u64, u64)> {
    let mut out = Vec::new();
    let (mut at, end) = (start, start + len);
    while at < end {
        let row = at / LINES_PER_BUFFER;
        let col = at % LINES_PER_BUFFER;
        let n = (LINES_PER_BUFFER - col).min(end - at);
        out.push((row, col, n));
        at += n;
    }
    out
}

fn cell_rect(key: &str, x0: f32, (row, col, n): (u64, u64, u64)) -> Shape {
    Shape::rect(
        key,
        x0 + col as f32 * CELL,
        GRID_TOP + row as f32 * (CELL_H + ROW_GAP),
        n as f32 * CELL,
        CELL_H,
    )
    .rounded(1.0)
    .class("bar")
}

/// The empty rows: 16 KiB of memory, a row per 2 KiB.
fn tracks(x0: f32) -> Vec<Shape> {
    (0..WINDOW)
        .map(|r| {
            Shape::rect(
                format!("row-{r}"),
                x0,
                GRID_TOP + r as f32 * (CELL_H + ROW_GAP),
                grid_width(),
                CELL_H,
            )
            .rounded(1.0)
            .class("track")
        })
        .collect()
}

fn heading(title: &str, caption: String, x0: f32) -> Vec<Shape> {
    vec![
        Shape::text("title", x0, 18.0, title)
            .start()
            .class("strong"),
        Shape::text("caption", x0, 36.0, caption)
            .start()
            .size(Size::Small),
    ]
}

fn classic_panel(m: &Streaming, x0: f32) -> Shape {
    let first = m.window() * WINDOW;
    let lines = lines_of(m.dma());
    let mut shapes = heading(
        "Classic: a buffer per packet",
        format!(
            "{WINDOW} buffers of {} KiB; a square per {LINE_BYTES}-byte line",
            BUFFER_BYTES / 1024
        ),
        x0,
    );
    shapes.extend(tracks(x0));
    for s in 0..WINDOW {
        let k = first + s;
        let fate = classic_fate(m, k);
        let rect = cell_rect("pkt", x0, (u64::from(s), 0, lines)).class(fate.class());
        shapes.push(
            Shape::group(format!("classic-pkt-{s}"), vec![rect])
                .state(fate.word())
                .focus(format!("classic-pkt-{s}"))
                .label(format!(
                    "Classic packet {}: {lines} line{} at the start of buffer {}, {}",
                    k + 1,
                    if lines == 1 { "" } else { "s" },
                    k + 1,
                    fate.word()
                )),
        );
    }
    let meta_y = grid_bottom() + 16.0;
    shapes.push(
        Shape::text(
            "meta-label",
            x0,
            meta_y - 4.0,
            "descriptors, four to a line",
        )
        .start()
        .size(Size::Small),
    );
    let slot_w = META_LINE * DESCRIPTOR_BYTES as f32 / LINE_BYTES as f32;
    for s in 0..WINDOW {
        let k = first + s;
        let done = k < m.delivered;
        shapes.push(
            Shape::rect(
                format!("classic-desc-{s}"),
                x0 + s as f32 * slot_w,
                meta_y,
                slot_w,
                META_H,
            )
            .class(if done { "done" } else { "idle ghost" })
            .state(if done { "written back" } else { "empty" })
            .label(format!(
                "Descriptor {}, {}",
                k + 1,
                if done { "written back" } else { "empty" }
            )),
        );
    }
    Shape::group("classic", shapes).focus("classic")
}

fn enso_panel(m: &Streaming, x0: f32) -> Shape {
    let first = m.window() * WINDOW;
    let flits = padded(m.dma()) / LINE_BYTES;
    let mut shapes = heading(
        "Ensō: packets back to back",
        format!(
            "the same {} KiB of the pipe, filled in order",
            u64::from(WINDOW) * BUFFER_BYTES / 1024
        ),
        x0,
    );
    shapes.extend(tracks(x0));
    for s in 0..WINDOW {
        let k = first + s;
        let fate = enso_fate(m, k);
        let parts = pieces(u64::from(s) * flits, flits)
            .into_iter()
            .enumerate()
            .map(|(i, piece)| cell_rect(&format!("piece-{i}"), x0, piece).class(fate.class()))
            .collect();
        shapes.push(
            Shape::group(format!("enso-pkt-{s}"), parts)
                .state(fate.word())
                .focus(format!("enso-pkt-{s}"))
                .label(format!(
                    "Ensō packet {}: {flits} line{} right after the one before, {}",
                    k + 1,
                    if flits == 1 { "" } else { "s" },
                    fate.word()
                )),
        );
    }
    let meta_y = grid_bottom() + 16.0;
    shapes.push(
        Shape::text(
            "meta-label",
            x0,
            meta_y - 4.0,
            format!("notifications, {NOTIFICATION_BYTES} B: a line each"),
        )
        .start()
        .size(Size::Small),
    );
    // The notifications written in this window, in order.
    let written = (first..m.delivered.min(first + WINDOW))
        .filter(|&k| m.closes_batch(k))
        .count() as u32;
    for s in 0..WINDOW {
        let done = s < written;
        shapes.push(
            Shape::rect(
                format!("enso-note-{s}"),
                x0 + s as f32 * META_LINE,
                meta_y,
                META_LINE,
                META_H,
            )
            .class(if done { "done" } else { "idle ghost" })
            .state(if done { "written" } else { "empty" })
            .focus(format!("enso-note-{s}"))
            .label(format!(
                "Notification slot {} of this window, {}",
                s + 1,
                if done { "written" } else { "empty" }
            )),
        );
    }
    Shape::group("enso", shapes).focus("enso")
}

/// Both panels: side by side on a wide screen, one above the other on a
/// phone.
pub fn figure(m: &Streaming, layout: Layout) -> Figure {
    let first = m.window() * WINDOW;
    let header = 28.0;
    let (width, height, enso_at) = layout.pick(
        (760.0, header + panel_height(), (390.0, header)),
        (
            NARROW_WIDTH,
            header + 2.0 * panel_height() + 12.0,
            (0.0, header + panel_height() + 12.0),
        ),
    );
    let x0 = layout.pick(10.0, 50.0);
    let mut f = Figure::new(
        "memory",
        format!(
            "Host memory for packets {}–{} of the run: classic buffers and descriptors, Ensō's pipe and notifications",
            first + 1,
            first + WINDOW
        ),
        width,
        height,
    )
    .legend("accent", "written by the NIC, software not told yet")
    .legend("done", "software has been told")
    .legend("warn", "held by the application")
    .legend("idle", "not yet");
    f.push(
        Shape::text(
            "window",
            8.0,
            18.0,
            format!(
                "Packets {}–{} of {} ({} delivered)",
                first + 1,
                first + WINDOW,
                demos::host::streaming::RUN,
                m.delivered
            ),
        )
        .start()
        .size(Size::Small),
    );
    f.push(classic_panel(m, x0).at(0.0, header));
    f.push(enso_panel(m, x0).at(enso_at.0, enso_at.1));
    f
}
