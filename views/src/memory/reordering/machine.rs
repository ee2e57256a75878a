//! "You are the scheduler": each thread as a box (its next instruction and
//! its registers; click it to run that instruction), its store buffer under
//! it under TSO (click it to drain the oldest store), and memory below.

use crate::draw::text::{line_key, pack};
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::Ui;
use crate::scene::{Figure, Shape, Size};
use demos::memory::litmus::ast::Op;
use demos::memory::litmus::syntax::render;
use demos::memory::litmus::MemModel;
use demos::memory::reordering::{Blocked, Reordering, ReorderingAction};
use demos::memory::store_buffer::Entry;

const BOX_H: f32 = 104.0;
const BUF_Y: f32 = 150.0;
const ENTRY: f32 = 34.0;
/// Between a thread's box and its buffer; between a buffer and memory;
/// between a thread's box and memory when there are no buffers.
const BOX_TO_BUF: f32 = BUF_Y - 10.0 - BOX_H;
const BUF_TO_MEM: f32 = 44.0;
const BOX_TO_MEM: f32 = 56.0;
/// On a phone, threads two abreast: the first two above memory, the rest
/// below it, mirrored (buffer, then box), so every buffer still drains
/// straight into memory.
const NARROW_PER_ROW: usize = 2;

/// Memory's panel: its height, and where its location cells sit.
struct Memory {
    height: f32,
    /// The "Memory" title's baseline, below the panel's top.
    title_y: f32,
    /// The cells' top below the panel's top; the first's x; pitch; width.
    cells_y: f32,
    cell_x: f32,
    pitch: f32,
    cell_w: f32,
}

impl Memory {
    /// Wide: the title left of the cells on one line. Narrow: the title
    /// over the cells, which share the width.
    fn new(layout: Layout, width: f32, locs: usize) -> Self {
        match layout {
            Layout::Wide => {
                // 170 apart, closer when a test has three locations, so
                // the last cell ends inside the figure.
                let cell_x = 150.0;
                let pitch = 170.0_f32.min((width - cell_x - 20.0) / locs.max(1) as f32);
                Memory {
                    height: 64.0,
                    title_y: 40.0,
                    cells_y: 10.0,
                    cell_x,
                    pitch,
                    cell_w: pitch - 20.0,
                }
            }
            Layout::Narrow => {
                let pitch = (width - 40.0) / locs.max(1) as f32;
                Memory {
                    height: 100.0,
                    title_y: 30.0,
                    cells_y: 44.0,
                    cell_x: 20.0,
                    pitch,
                    cell_w: pitch - 10.0,
                }
            }
        }
    }
}

/// A line of registers under another, on a phone.
const LEADING: f32 = 22.0;

/// A thread's registers, `r0=1  r1=?`: on one line (wide), or packed into
/// lines of at most `max` characters (narrow), so none is cut.
fn reg_lines(regs: &[String], wrap: bool, max: usize) -> Vec<String> {
    if !wrap {
        return vec![regs.join("  ")];
    }
    let mut lines = pack(regs.iter().map(String::as_str), "  ", max);
    if lines.is_empty() {
        lines.push(String::new());
    }
    lines
}

/// Cuts `text` to `max` characters, marking the cut.
fn fit(text: String, max: usize) -> String {
    if text.chars().count() <= max {
        return text;
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

pub fn machine(r: &Reordering, ui: &mut Ui<Reordering>) -> Figure {
    let test = &r.analysis.test;
    let m = &r.machine;
    let tso = r.model == MemModel::Tso;
    let n = test.threads.len();
    let layout = ui.layout();
    let (width, per_row) = match layout {
        Layout::Wide => ((n as f32 * 240.0).max(560.0), n),
        Layout::Narrow => (NARROW_WIDTH, n.min(NARROW_PER_ROW)),
    };
    let col = width / per_row as f32;
    // Room for the most stores any thread can have buffered at once.
    let slots = test
        .threads
        .iter()
        .map(|ops| {
            ops.iter()
                .filter(|op| matches!(op, Op::Write { .. }))
                .count()
        })
        .max()
        .unwrap_or(1)
        .max(1) as f32;
    let buf_h = 44.0 + slots * ENTRY;
    let chars = ((col - 40.0) / 9.8) as usize;
    let regs = |t: usize| -> Vec<String> {
        let regs: Vec<String> = (0..test.regs.len())
            .filter(|&g| test.reg_thread(g as u8) == t)
            .map(|g| {
                let v = m.regs[g].map_or("?".to_string(), |v| v.to_string());
                format!("{}={v}", test.regs[g])
            })
            .collect();
        reg_lines(&regs, layout.is_narrow(), chars)
    };
    // Every box as tall as the one with the most lines of registers.
    let reg_rows = (0..n).map(|t| regs(t).len()).max().unwrap_or(1).max(1);
    let box_h = BOX_H + LEADING * (reg_rows - 1) as f32;
    let first_buf_y = 10.0 + box_h + BOX_TO_BUF;
    let mem_y = if tso {
        first_buf_y + buf_h + BUF_TO_MEM
    } else {
        10.0 + box_h + BOX_TO_MEM
    };
    let memory = Memory::new(layout, width, test.locs.len());
    let mem_bottom = mem_y + memory.height;
    // A thread's box and buffer tops, and whether they sit above memory.
    let block = if tso {
        box_h + BOX_TO_BUF + buf_h
    } else {
        box_h
    };
    let place = |t: usize| {
        let row = t / per_row;
        if row == 0 {
            (10.0, first_buf_y, true)
        } else {
            let top = mem_bottom + (row - 1) as f32 * (block + BOX_TO_MEM);
            if tso {
                (
                    top + BUF_TO_MEM + buf_h + BOX_TO_BUF,
                    top + BUF_TO_MEM,
                    false,
                )
            } else {
                (top + BOX_TO_MEM, 0.0, false)
            }
        }
    };
    let height = (0..n)
        .map(|t| place(t).0 + box_h)
        .fold(mem_bottom, f32::max)
        + 10.0;
    let mut f = Figure::new(
        "machine",
        format!(
            "The {} machine: {} thread{}{}, and memory",
            r.model.label(),
            n,
            demos::text::plural(n),
            if tso { " with their store buffers" } else { "" }
        ),
        width,
        height,
    )
    .legend("driver", "can run")
    .legend("warn", "waits for its buffer")
    .legend("done", "finished");
    for t in 0..n {
        let x = (t % per_row) as f32 * col + 10.0;
        let (box_y, buf_y, above) = place(t);
        let w = col - 20.0;
        let cx = x + w / 2.0;
        let blocked = m.blocked(test, t, r.model);
        let pc = m.pc[t] as usize;
        let (class, state, next) = match (blocked, m.next_op(test, t)) {
            (Some(Blocked::Finished), _) | (_, None) => {
                let ran = test.threads[t].len();
                ("done", "finished".to_string(), format!("✓ ran all {ran}"))
            }
            (b, Some(op)) => (
                if b.is_some() { "warn" } else { "driver" },
                format!(
                    "{} {}/{}",
                    if b.is_some() { "waits" } else { "next" },
                    pc + 1,
                    test.threads[t].len()
                ),
                format!("▶ {}", render(test, op, pc, r.syntax())),
            ),
        };
        let mut shapes = vec![
            Shape::rect("box", x, box_y, w, box_h).class("panel"),
            Shape::text("name", x + 14.0, box_y + 28.0, format!("T{t}"))
                .start()
                .size(Size::Title),
            Shape::text("state", x + w - 14.0, box_y + 28.0, state.clone())
                .end()
                .class("tone"),
            Shape::text("next", x + 14.0, box_y + 60.0, fit(next, chars))
                .start()
                .mono(),
        ];
        for (i, line) in regs(t).into_iter().enumerate() {
            // The first line keeps the wide layout's key.
            let key = line_key("regs", i);
            shapes.push(
                Shape::text(key, x + 14.0, box_y + 88.0 + LEADING * i as f32, line)
                    .start()
                    .mono()
                    .class("muted"),
            );
        }
        f.push(
            Shape::group(format!("thread-{t}"), shapes)
                .class(class)
                .state(state)
                .focus(format!("thread-{t}"))
                .label(format!("Run T{t}'s next instruction"))
                .on_click(ui.act(ReorderingAction::Run(t as u8))),
        );
        // From the buffer (or the box) to memory, whichever side it is on.
        let (from, to) = match (above, tso) {
            (true, true) => (buf_y + buf_h + 2.0, mem_y - 4.0),
            (true, false) => (box_y + box_h + 2.0, mem_y - 4.0),
            (false, true) => (buf_y - 2.0, mem_bottom + 4.0),
            (false, false) => (box_y - 2.0, mem_bottom + 4.0),
        };
        f.push(Shape::arrow(format!("to-mem-{t}"), (cx, from), (cx, to)).class("idle"));
        if !tso {
            continue;
        }
        let buffer = &m.buffers[t];
        let mut shapes = vec![
            Shape::rect("box", x + 20.0, buf_y, w - 40.0, buf_h),
            Shape::text("name", cx, buf_y + 24.0, format!("T{t} store buffer")).class("muted"),
        ];
        // Oldest next to memory: it drains first. Above memory that is the
        // bottom; below it, the top.
        for (i, e) in buffer.entries.iter().enumerate() {
            let Entry::Store { loc, value, .. } = *e else {
                continue;
            };
            let y = if above {
                buf_y + buf_h - 6.0 - ENTRY * (i as f32 + 1.0)
            } else {
                buf_y + 38.0 + ENTRY * i as f32
            };
            let name = &test.locs[loc as usize];
            let oldest = if i == 0 { "  ← oldest" } else { "" };
            shapes.push(
                Shape::rect(format!("e{i}"), x + 32.0, y, w - 64.0, ENTRY - 6.0).class("nic"),
            );
            shapes.push(
                Shape::text(
                    format!("t{i}"),
                    cx,
                    y + 20.0,
                    format!("{name}={value}{oldest}"),
                )
                .mono(),
            );
        }
        if buffer.is_empty() {
            shapes
                .push(Shape::text("empty", cx, buf_y + buf_h / 2.0 + 18.0, "empty").class("muted"));
        }
        let pending = buffer.stores();
        f.push(
            Shape::group(format!("buffer-{t}"), shapes)
                .class(if pending > 0 { "nic" } else { "idle" })
                .state(format!("{pending} pending"))
                .focus(format!("buffer-{t}"))
                .label(format!("Drain T{t}'s oldest buffered store"))
                .on_click(ui.act(ReorderingAction::Drain(t as u8))),
        );
    }
    f.push(Shape::rect("memory", 10.0, mem_y, width - 20.0, memory.height).class("panel"));
    f.push(
        Shape::text("memory-name", 28.0, mem_y + memory.title_y, "Memory")
            .start()
            .size(Size::Title),
    );
    for (l, name) in test.locs.iter().enumerate() {
        let x = memory.cell_x + l as f32 * memory.pitch;
        let y = mem_y + memory.cells_y;
        let value = m.memory[l];
        f.push(
            Shape::group(
                format!("mem-{name}"),
                vec![
                    Shape::rect("cell", x, y, memory.cell_w, 44.0),
                    Shape::text(
                        "v",
                        x + memory.cell_w / 2.0,
                        y + 30.0,
                        format!("{name} = {value}"),
                    )
                    .mono()
                    .size(Size::Large),
                ],
            )
            .class("accent")
            .state(value.to_string())
            .focus(format!("mem-{name}")),
        );
    }
    f
}
