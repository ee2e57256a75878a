//! "You are the scheduler": each thread as a box (its next instruction and
//! its registers; click it to run that instruction), its store buffer under
//! it under TSO (click it to drain the oldest store), and memory below.

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
    let width = (n as f32 * 240.0).max(560.0);
    let col = width / n as f32;
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
    let mem_y = if tso { BUF_Y + buf_h + 44.0 } else { 170.0 };
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
        mem_y + 74.0,
    )
    .legend("driver", "can run")
    .legend("warn", "waits for its buffer")
    .legend("done", "finished");
    let chars = ((col - 40.0) / 9.8) as usize;
    for t in 0..n {
        let x = t as f32 * col + 10.0;
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
        let regs: Vec<String> = (0..test.regs.len())
            .filter(|&g| test.reg_thread(g as u8) == t)
            .map(|g| {
                let v = m.regs[g].map_or("?".to_string(), |v| v.to_string());
                format!("{}={v}", test.regs[g])
            })
            .collect();
        f.push(
            Shape::group(
                format!("thread-{t}"),
                vec![
                    Shape::rect("box", x, 10.0, w, BOX_H).class("panel"),
                    Shape::text("name", x + 14.0, 38.0, format!("T{t}"))
                        .start()
                        .size(Size::Title),
                    Shape::text("state", x + w - 14.0, 38.0, state.clone())
                        .end()
                        .class("tone"),
                    Shape::text("next", x + 14.0, 70.0, fit(next, chars))
                        .start()
                        .mono(),
                    Shape::text("regs", x + 14.0, 98.0, regs.join("  "))
                        .start()
                        .mono()
                        .class("muted"),
                ],
            )
            .class(class)
            .state(state)
            .focus(format!("thread-{t}"))
            .label(format!("Run T{t}'s next instruction"))
            .on_click(ui.act(ReorderingAction::Run(t as u8))),
        );
        let from = if tso { BUF_Y + buf_h } else { 10.0 + BOX_H };
        f.push(
            Shape::arrow(format!("to-mem-{t}"), (cx, from + 2.0), (cx, mem_y - 4.0)).class("idle"),
        );
        if !tso {
            continue;
        }
        let buffer = &m.buffers[t];
        let mut shapes = vec![
            Shape::rect("box", x + 20.0, BUF_Y, w - 40.0, buf_h),
            Shape::text("name", cx, BUF_Y + 24.0, format!("T{t} store buffer")).class("muted"),
        ];
        // Oldest at the bottom, next to memory: it drains first.
        for (i, e) in buffer.entries.iter().enumerate() {
            let Entry::Store { loc, value, .. } = *e else {
                continue;
            };
            let y = BUF_Y + buf_h - 6.0 - ENTRY * (i as f32 + 1.0);
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
                .push(Shape::text("empty", cx, BUF_Y + buf_h / 2.0 + 18.0, "empty").class("muted"));
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
    f.push(Shape::rect("memory", 10.0, mem_y, width - 20.0, 64.0).class("panel"));
    f.push(
        Shape::text("memory-name", 28.0, mem_y + 40.0, "Memory")
            .start()
            .size(Size::Title),
    );
    for (l, name) in test.locs.iter().enumerate() {
        let x = 150.0 + l as f32 * 170.0;
        let value = m.memory[l];
        f.push(
            Shape::group(
                format!("mem-{name}"),
                vec![
                    Shape::rect("cell", x, mem_y + 10.0, 150.0, 44.0),
                    Shape::text("v", x + 75.0, mem_y + 40.0, format!("{name} = {value}"))
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
