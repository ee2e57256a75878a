//! Branch prediction: the predictor's state machine with the consulted
//! entry's state lit, the pattern history table (and gshare's history and
//! index), the last 64 predictions against their outcomes, and every
//! predictor's accuracy on the same data side by side.

mod lesson;

use crate::control::{Control, Field};
use crate::draw::chart::Plot;
use crate::draw::text::{lines_of, wrap_words};
use crate::knob::{bounded, knob};
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Command, Ui, View};
use crate::scene::{Anchor, Figure, Scene, Shape, Size};
use demos::cpu::branch::{
    counter_label, Branch, BranchAction as A, BranchRecord, Data, Pattern, PredictorKind as K,
    BASE, BRANCH_PC, INDEX_BITS, LENGTH, PATTERN_LEN, PENALTY, PREDICTABILITY, RECENT_KEPT,
};
use demos::text::{fixed, share_tenths, tenths};

const W: f32 = 960.0;
/// The advance of a character of normal-size monospace text (0.6 em).
const MONO_CHAR: f32 = 9.6;

/// Where the figures put things: the wide arrangement, or a phone's, where
/// the state machine runs down the figure (T edges on the right, N edges on
/// the left), long lines of text wrap, the history table has 8 or 16
/// entries to a row, the strip four bands of 16 and the comparison's names
/// sit above their bars.
#[derive(Clone, Copy)]
struct Geometry {
    narrow: bool,
    width: f32,
    /// The state machine's boxes: width, height, the gap between them.
    state_box: (f32, f32, f32),
    /// A state box's value, name and prediction: offset and anchor.
    state_texts: [(f32, f32, Anchor); 3],
    /// Characters of small text to a line before the machine's note wraps.
    note_chars: usize,
    /// The history table: its left, and how wide its rows may be.
    table: (f32, f32),
    /// The strip: branches to a band, a column's width, the bands' left,
    /// pitch and the first band's top.
    strip: (usize, f32, f32, f32, f32),
    /// The comparison: its plot box, a row's pitch and the bar's offset in it
    /// (a phone's row: the name, the bar, its count under it).
    compare: ((f32, f32, f32, f32), f32, f32),
}

impl Geometry {
    fn of(layout: Layout) -> Self {
        layout.pick(
            Geometry {
                narrow: false,
                width: W,
                state_box: (180.0, 76.0, 56.0),
                state_texts: [
                    (90.0, 28.0, Anchor::Middle),
                    (90.0, 50.0, Anchor::Middle),
                    (90.0, 69.0, Anchor::Middle),
                ],
                // Two lines of small text under the machine, within 960.
                note_chars: 110,
                table: (60.0, 880.0),
                strip: (32, 26.0, 100.0, 96.0, 44.0),
                compare: ((220.0, 50.0, 660.0, 210.0), 40.0, 6.0),
            },
            Geometry {
                narrow: true,
                width: NARROW_WIDTH,
                state_box: (300.0, 56.0, 30.0),
                state_texts: [
                    (24.0, 36.0, Anchor::Middle),
                    (48.0, 26.0, Anchor::Start),
                    (48.0, 46.0, Anchor::Start),
                ],
                note_chars: 52,
                table: (44.0, 360.0),
                strip: (16, 20.0, 92.0, 88.0, 58.0),
                compare: ((20.0, 78.0, 396.0, 414.0), 84.0, 26.0),
            },
        )
    }

    /// `wide` in the wide figure, `narrow` on a phone.
    fn pick(&self, wide: f32, narrow: f32) -> f32 {
        if self.narrow {
            narrow
        } else {
            wide
        }
    }

    /// The history table's entries to a row: a phone shows a small table
    /// in rows of 8, a large one in rows of 16.
    fn table_cols(&self, entries: usize) -> usize {
        match self.narrow {
            false => entries.min(32),
            true if entries <= 16 => entries.min(8),
            true => 16,
        }
    }
}

fn letter(taken: bool) -> &'static str {
    if taken {
        "T"
    } else {
        "N"
    }
}

fn hit_class(r: &BranchRecord) -> &'static str {
    if r.hit() {
        "hit"
    } else {
        "miss"
    }
}

/// States of the machine: counter value, name.
fn states(kind: K) -> Vec<(u8, &'static str)> {
    match kind {
        K::AlwaysTaken => vec![],
        K::OneBit => vec![(0, "last: not taken"), (1, "last: taken")],
        _ => (0..4).map(|c| (c, counter_label(c))).collect(),
    }
}

/// The state machine: one box per state, T edges along the top, N edges
/// along the bottom (on a phone: down the figure, T edges on the right, N
/// on the left); the latest branch's transition is drawn in accent.
/// Returns the shapes and the machine's bottom.
fn machine(m: &Branch, top: f32, g: &Geometry) -> (Vec<Shape>, f32) {
    let kind = m.config.predictor;
    let last = m.last().filter(|r| r.slot.is_some());
    let list = states(kind);
    if list.is_empty() {
        let mid = g.width / 2.0;
        let shapes = vec![Shape::group(
            "state-static",
            vec![
                Shape::rect("box", mid - 150.0, top, 300.0, 70.0).class("panel"),
                Shape::text("t", mid, top + 30.0, "always predict taken").class("strong"),
                Shape::text("s", mid, top + 54.0, "no state, no table").class("muted"),
            ],
        )
        .class("accent")
        .state("static")];
        return (shapes, top + g.pick(76.0, 70.0));
    }
    let (bw, bh, gap) = g.state_box;
    let n = list.len() as f32;
    // The machine's run: across the wide figure, down a phone's.
    let run = n * if g.narrow { bh } else { bw } + (n - 1.0) * gap;
    let x0 = if g.narrow {
        (g.width - bw) / 2.0
    } else {
        (W - run) / 2.0
    };
    let at = |c: u8| {
        let k = f32::from(c) * (if g.narrow { bh } else { bw } + gap);
        if g.narrow {
            (x0, top + k)
        } else {
            (x0 + k, top)
        }
    };
    let mut out = Vec::new();
    for &(c, name) in &list {
        let now = last.is_some_and(|r| r.after == c);
        let predicts = if kind == K::OneBit { c == 1 } else { c >= 2 };
        let (bx, by) = at(c);
        let [v, nm, p] = g.state_texts;
        out.push(
            Shape::group(
                format!("state-{c}"),
                vec![
                    Shape::rect("box", bx, by, bw, bh).class("panel"),
                    Shape::text("v", bx + v.0, by + v.1, format!("{c}"))
                        .anchor(v.2)
                        .mono()
                        .size(Size::Large),
                    Shape::text("n", bx + nm.0, by + nm.1, name).anchor(nm.2),
                    Shape::text(
                        "p",
                        bx + p.0,
                        by + p.1,
                        format!("predict {}", letter(predicts)),
                    )
                    .anchor(p.2)
                    .size(Size::Small),
                ],
            )
            .class_if(now, "accent")
            .state(if now { "current" } else { "other" })
            .label(format!("state {c}, {name}")),
        );
    }
    let top_c = list.len() as u8 - 1;
    let used = |from: u8, to: u8| last.is_some_and(|r| r.before == from && r.after == to);
    for c in 0..top_c {
        // The gap between state c and c + 1 runs from a to b: along x in
        // the wide figure, along y on a phone.
        let ((ax, ay), (bx, by)) = (at(c), at(c + 1));
        let (a, b) = if g.narrow {
            (ay + bh, by)
        } else {
            (ax + bw, bx)
        };
        for (key, from, to, t) in [("up", c, c + 1, true), ("down", c + 1, c, false)] {
            let (s1, s2) = if t {
                (a + 4.0, b - 4.0)
            } else {
                (b - 4.0, a + 4.0)
            };
            let ((x1, y1), (x2, y2), label) = if g.narrow {
                // T edges down the right of the boxes, N edges up the left.
                let (x, dx) = if t {
                    (ax + bw * 0.7, 14.0)
                } else {
                    (ax + bw * 0.3, -14.0)
                };
                ((x, s1), (x, s2), (x + dx, (a + b) / 2.0 + 5.0))
            } else {
                let (y, label_y) = if t {
                    (top + 20.0, top + 12.0)
                } else {
                    (top + 56.0, top + 76.0)
                };
                ((s1, y), (s2, y), ((a + b) / 2.0, label_y))
            };
            out.push(
                Shape::group(
                    format!("edge-{key}-{c}"),
                    vec![
                        Shape::arrow("a", (x1, y1), (x2, y2)),
                        Shape::text("l", label.0, label.1, letter(t)).mono(),
                    ],
                )
                .class(if used(from, to) {
                    "accent thick"
                } else {
                    "idle"
                }),
            );
        }
    }
    // Saturation: more of the same outcome leaves the end states where they are.
    for (key, c, t) in [("stay-top", top_c, true), ("stay-bottom", 0, false)] {
        let (sx, sy) = at(c);
        // Small, and close to its state: beside the end states there is
        // little room to the figure's edge once text grows on a small
        // screen (layout::SMALL_TEXT_DRAWN_UNITS).
        let tx = if t { sx + bw + 4.0 } else { sx - 4.0 };
        let ty = sy + g.pick(44.0, 34.0);
        let text = Shape::text("l", tx, ty, format!("{} ↺", letter(t)))
            .mono()
            .size(Size::Small);
        out.push(
            Shape::group(key, vec![if t { text.start() } else { text.end() }])
                .class(if used(c, c) { "accent tone" } else { "muted" }),
        );
    }
    let (_, last_y) = at(top_c);
    (out, if g.narrow { last_y + bh } else { top + bh })
}

/// The pattern history table as a grid, with gshare's history register and
/// index computation above it.
fn table(m: &Branch, top: f32, g: &Geometry) -> (Vec<Shape>, f32) {
    let p = &m.predictor;
    let mut out = Vec::new();
    let mut y = top;
    let slot = m.last().and_then(|r| r.slot);
    let bits = usize::from(m.config.index_bits);
    let bin = |v: usize, n: usize| -> String {
        (0..n)
            .rev()
            .map(|i| if v >> i & 1 == 1 { '1' } else { '0' })
            .collect()
    };
    if p.kind == K::Gshare {
        let hb = usize::from(p.history_bits);
        let mut cells = vec![Shape::text("name", 20.0, y + 22.0, "global history")
            .start()
            .class("strong")];
        let text = p.history_text();
        for (i, ch) in text.chars().enumerate() {
            let x = 160.0 + i as f32 * 30.0;
            cells.push(Shape::rect(format!("b{i}"), x, y, 28.0, 32.0).class("panel"));
            cells.push(Shape::text(format!("t{i}"), x + 14.0, y + 22.0, ch.to_string()).mono());
        }
        if hb == 0 {
            cells.push(
                Shape::text("none", 160.0, y + 22.0, "(0 bits: plain 2-bit table)")
                    .start()
                    .class("muted"),
            );
        }
        out.push(
            Shape::group("ghr", cells)
                .state(if text.is_empty() { "-".into() } else { text })
                .focus("ghr")
                .label("global history register, oldest first"),
        );
        let pc = BRANCH_PC as usize & ((1 << bits) - 1);
        let index = pc ^ usize::from(p.ghr);
        let xor = format!(
            "next: PC {} ⊕ history {}",
            bin(pc, bits),
            bin(usize::from(p.ghr), bits)
        );
        let entry = format!("= entry {index}");
        // A phone puts the index on its own line under the history, and
        // a long one (a table of 128 or 256 entries) on two.
        let lines = if !g.narrow {
            vec![format!("{xor} {entry}")]
        } else if (xor.chars().count() + entry.chars().count()) as f32 * MONO_CHAR > g.width - 32.0
        {
            vec![xor, entry]
        } else {
            vec![format!("{xor} {entry}")]
        };
        let (ix, iy, anchor) = if g.narrow {
            (20.0, y + 56.0, Anchor::Start)
        } else {
            (W - 20.0, y + 22.0, Anchor::End)
        };
        let rows = lines.len() as f32;
        for (i, line) in lines_of("index", (ix, iy), 22.0, lines)
            .into_iter()
            .enumerate()
        {
            let line = line.anchor(anchor).mono();
            out.push(if i == 0 {
                line.label("next index: branch address bits XOR history")
            } else {
                line
            });
        }
        y += g.pick(48.0, 54.0 + 22.0 * rows);
    }
    let entries = p.pht.len();
    let cols = g.table_cols(entries);
    let cw = (g.table.1 / cols as f32).min(56.0);
    let title = format!("pattern history table, {entries} entries");
    let used = slot.map(|s| format!("last used: entry {s}"));
    // A phone gives the last entry used a line of its own.
    let lines = match used {
        Some(u) if g.narrow => vec![title, u],
        Some(u) => vec![format!("{title} · {u}")],
        None => vec![title],
    };
    out.extend(
        lines_of("pht-title", (20.0, y + 18.0), 22.0, lines)
            .into_iter()
            .map(|t| t.start().class("strong")),
    );
    y += 30.0 + if g.narrow { 22.0 } else { 0.0 };
    let one_bit = p.kind == K::OneBit;
    for (i, &v) in p.pht.iter().enumerate() {
        let (col, row) = (i % cols, i / cols);
        let x = g.table.0 + col as f32 * cw;
        let cy = y + row as f32 * 38.0;
        let predicts = if one_bit { v == 1 } else { v >= 2 };
        // Wide cells also say what the entry predicts.
        let text = if cw >= 40.0 {
            format!("{v} {}", letter(predicts))
        } else {
            format!("{v}")
        };
        let mut cell = vec![
            Shape::rect("r", x, cy, cw - 3.0, 34.0)
                .rounded(3.0)
                .class("panel"),
            Shape::text("v", x + cw / 2.0 - 1.5, cy + 23.0, text).mono(),
        ];
        if col == 0 {
            cell.push(
                Shape::text("i", x - 8.0, cy + 23.0, format!("{i}"))
                    .end()
                    .mono()
                    .size(Size::Small),
            );
        }
        let used = slot == Some(i);
        out.push(
            Shape::group(format!("pht-{i}"), cell)
                .class_if(used, "accent")
                .state(format!("{v}"))
                .focus(format!("pht-{i}"))
                .label(format!(
                    "entry {i}: {v}, predicts {}",
                    if predicts { "taken" } else { "not taken" }
                )),
        );
    }
    let rows = entries.div_ceil(cols) as f32;
    (out, y + rows * 38.0)
}

fn predictor(m: &Branch, g: &Geometry) -> Figure {
    let c = &m.config;
    let head = format!("for (i = 0; i < {}; i++)", m.values.len());
    let body = "if (a[i] >= 128) sum += a[i];";
    // A phone breaks the loop after its head, as code is indented.
    let code = if g.narrow {
        vec![head, format!("    {body}")]
    } else {
        vec![format!("{head} {body}")]
    };
    let mut shapes: Vec<Shape> =
        lines_of("code", (g.pick(20.0, 12.0), g.pick(28.0, 24.0)), 22.0, code)
            .into_iter()
            .map(|t| t.start().mono())
            .collect();
    let (cx, cy) = (g.pick(20.0, 12.0), g.pick(60.0, 100.0));
    // What the last branch did, in up to three parts: a phone shows one to a line.
    let current: Vec<String> = match m.last() {
        Some(r) => vec![
            format!(
                "a[{}] = {}: {},",
                r.index,
                r.value,
                if r.actual { "taken" } else { "not taken" }
            ),
            format!(
                "predicted {} —",
                if r.predicted { "taken" } else { "not taken" }
            ),
            if r.hit() {
                "hit".to_string()
            } else {
                format!("mispredict, +{} cycles", c.penalty)
            },
        ],
        None => vec!["no branch yet: Step runs a[0]".to_string()],
    };
    let current = if g.narrow {
        current
    } else {
        vec![current.join(" ")]
    };
    for (i, line) in lines_of("current", (cx, cy), 26.0, current)
        .into_iter()
        .enumerate()
    {
        let line = line.start().size(Size::Large);
        shapes.push(match m.last() {
            Some(r) => {
                let line = line.class(hit_class(r)).class("tone");
                if i == 0 {
                    line.state(hit_class(r))
                } else {
                    line
                }
            }
            None => line.class("muted").state("none"),
        });
    }
    shapes.push(
        Shape::text(
            "kind",
            g.pick(W - 20.0, 12.0),
            g.pick(28.0, 72.0),
            format!("predictor: {}", c.predictor.label()),
        )
        .anchor(if g.narrow { Anchor::Start } else { Anchor::End })
        .class("strong"),
    );
    // A phone keeps three lines for the last branch whatever it says, so
    // the machine does not jump between steps.
    let (cells, bottom) = machine(m, g.pick(86.0, 176.0), g);
    shapes.extend(cells);
    // Rows kept for the note under the machine: the wide figure keeps two
    // whether or not there is a note (so the table does not jump when the
    // predictor changes); a phone only the rows it wraps to.
    let mut note_rows = 2.0;
    if c.predictor.counts() {
        // Which 2-bit machine this is: textbooks draw a different one.
        let note = wrap_words(
            "Smith's saturating counter: every outcome moves one step. The hysteresis diagram in Patterson and Hennessy jumps to the far strong state on a miss in a weak one.",
            g.note_chars,
        );
        note_rows = note.len() as f32;
        shapes.extend(
            lines_of("machine-note", (g.width / 2.0, bottom + 20.0), 16.0, note)
                .into_iter()
                .map(|t| t.size(Size::Small).class("muted")),
        );
    } else if g.narrow {
        note_rows = 0.0;
    }
    let after = bottom + 14.0 + 16.0 * note_rows;
    let mut height = after;
    if c.predictor.has_table() {
        let (cells, bottom) = table(m, after + 4.0, g);
        shapes.extend(cells);
        height = bottom + 10.0;
    }
    let mut f = Figure::new(
        "branch-predictor",
        format!(
            "{} predictor after {} of {} branches",
            c.predictor.label(),
            m.next,
            m.values.len()
        ),
        g.width,
        height,
    )
    .legend("accent", "the entry and state the last branch used");
    f.extend(shapes);
    f
}

/// Predicted over actual for the last branches, two bands of 32.
fn strip(m: &Branch, g: &Geometry) -> Figure {
    let (cols, cw, x0, pitch, first) = g.strip;
    let bands = RECENT_KEPT.div_ceil(cols);
    let missed = m.recent.iter().filter(|r| !r.hit()).count();
    let mut f = Figure::new(
        "branch-strip",
        format!(
            "The last {} branches: {missed} mispredicted",
            m.recent.len()
        ),
        g.width,
        first + 2.0 + bands as f32 * pitch,
    )
    .legend("hit", "predicted right")
    .legend("miss", "mispredicted");
    let shown = format!(
        "the last {} branches (at most {RECENT_KEPT} shown):",
        m.recent.len()
    );
    let count = format!("{missed} mispredicted");
    let lines = if g.narrow {
        vec![shown, count]
    } else {
        vec![format!("{shown} {count}")]
    };
    f.extend(
        lines_of("strip-count", (20.0, 22.0), 20.0, lines)
            .into_iter()
            .map(|t| t.start().class("strong")),
    );
    for band in 0..bands {
        let y = first + band as f32 * pitch;
        f.push(
            Shape::text(format!("pl{band}"), x0 - 10.0, y + 38.0, "predicted")
                .end()
                .class("muted"),
        );
        f.push(
            Shape::text(format!("al{band}"), x0 - 10.0, y + 64.0, "actual")
                .end()
                .class("muted"),
        );
        for (k, r) in m.recent.iter().skip(band * cols).take(cols).enumerate() {
            let x = x0 + k as f32 * cw;
            let mut col = vec![
                Shape::rect("r", x, y + 18.0, cw - 3.0, 56.0).rounded(3.0),
                Shape::text("p", x + cw / 2.0 - 1.5, y + 38.0, letter(r.predicted)).mono(),
                Shape::text("a", x + cw / 2.0 - 1.5, y + 64.0, letter(r.actual)).mono(),
            ];
            if k % 8 == 0 {
                col.push(
                    Shape::text("i", x, y + 10.0, format!("a[{}]", r.index))
                        .start()
                        .mono()
                        .size(Size::Small),
                );
            }
            f.push(
                Shape::group(format!("br-{}", r.index), col)
                    .class(hit_class(r))
                    .state(hit_class(r))
                    .focus(format!("elem-{}", r.index))
                    .label(format!(
                        "a[{}] = {}: predicted {}, actual {}",
                        r.index,
                        r.value,
                        letter(r.predicted),
                        letter(r.actual)
                    )),
            );
        }
    }
    f
}

/// Every predictor over the whole array from cold: accuracy as a bar split
/// into right and wrong.
fn compare(m: &Branch, g: &Geometry) -> Figure {
    let n = m.values.len() as i64;
    let (plot_box, row_pitch, bar_dy) = g.compare;
    let plot = Plot::new(plot_box, (0.0, 100.0, false), (0.0, 4.0, false));
    let ticks: Vec<(f64, String)> = (0..=4)
        .map(|i| (i as f64 * 25.0, format!("{} %", i * 25)))
        .collect();
    let mut f = Figure::new(
        "branch-compare",
        format!("Accuracy of each predictor over all {n} elements from cold"),
        g.width,
        plot.bottom + 60.0,
    )
    .legend("hit", "predicted right")
    .legend("miss", "mispredicted");
    let what = "every predictor on this data,";
    let all = format!("all {n} branches from cold");
    let lines = if g.narrow {
        vec![what.to_string(), all]
    } else {
        vec![format!("{what} {all}")]
    };
    f.extend(
        lines_of("compare-title", (20.0, 22.0), 20.0, lines)
            .into_iter()
            .map(|t| t.start().class("strong")),
    );
    f.push(plot.axes(&ticks, &[], "branches predicted right", ""));
    for (row, (kind, missed)) in m.compare().into_iter().enumerate() {
        let y = plot.top + row as f32 * row_pitch + bar_dy;
        // A phone names the bar above it and counts under it.
        let (name_at, value_at) = if g.narrow {
            (
                (plot.left + 4.0, y - 8.0, Anchor::Start),
                (plot.left + 4.0, y + 46.0, Anchor::Start),
            )
        } else {
            (
                (plot.left - 10.0, y + 20.0, Anchor::End),
                (plot.right + 12.0, y + 20.0, Anchor::Start),
            )
        };
        let right = share_tenths(n - i64::from(missed), n);
        let split = plot.x.at(right as f64 / 10.0);
        let used = kind == m.config.predictor;
        let name = if kind == K::Gshare {
            format!("gshare, {} bits", m.config.history_bits)
        } else {
            kind.label().to_string()
        };
        f.push(
            Shape::group(
                format!("cmp-{row}"),
                vec![
                    Shape::text("n", name_at.0, name_at.1, name.clone())
                        .anchor(name_at.2)
                        .class_if(used, "strong"),
                    Shape::group(
                        "ok",
                        vec![Shape::rect("r", plot.left, y, split - plot.left, 28.0).rounded(2.0)],
                    )
                    .class("hit"),
                    Shape::group(
                        "bad",
                        vec![Shape::rect("r", split, y, plot.right - split, 28.0).rounded(2.0)],
                    )
                    .class("miss"),
                    Shape::text(
                        "v",
                        value_at.0,
                        value_at.1,
                        format!(
                            "{missed} missed · {}{}",
                            tenths(right),
                            if used { " ◀ in use" } else { "" }
                        ),
                    )
                    .anchor(value_at.2)
                    .mono()
                    .class_if(used, "strong"),
                ],
            )
            .state(format!("{missed}"))
            .label(format!(
                "{name}: {missed} mispredicts, {} right",
                tenths(right)
            )),
        );
    }
    f
}

fn data_index(d: Data) -> usize {
    match d {
        Data::Sorted => 0,
        Data::Shuffled => 1,
        Data::Predictable(_) => 2,
        Data::Pattern(_) => 3,
    }
}

impl View for Branch {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let g = Geometry::of(ui.layout());
        Scene::new(
            "Branch prediction",
            format!(
                "The {} predictor on {}: {} of {} branches mispredicted ({}), IPC {}.",
                self.config.predictor.label(),
                self.config.data.label(),
                self.mispredicts,
                self.next,
                tenths(self.mispredict_tenths()),
                fixed(self.ipc_hundredths(), 2)
            ),
        )
        .figure(predictor(self, &g))
        .figure(strip(self, &g))
        .figure(compare(self, &g))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let c = &self.config;
        let p = match c.data {
            Data::Predictable(p) => p,
            _ => 75,
        };
        let pattern = match c.data {
            Data::Pattern(p) => p,
            _ => Pattern::TTN,
        };
        let data = [
            ("sorted", "sorted", Data::Sorted),
            ("shuffled", "shuffled", Data::Shuffled),
            ("predictable", "partly random", Data::Predictable(p)),
            ("pattern", "repeating pattern", Data::Pattern(pattern)),
        ]
        .map(|(v, l, d)| (v, l.to_string(), ui.act(A::SetData(d))));
        let kinds = K::ALL.map(|k| {
            let v = match k {
                K::AlwaysTaken => "static",
                K::OneBit => "one-bit",
                K::TwoBit => "two-bit",
                K::Gshare => "gshare",
            };
            (v, k.label().to_string(), ui.act(A::SetPredictor(k)))
        });
        let selected = K::ALL.iter().position(|&k| k == c.predictor).unwrap_or(0);
        let mut out = vec![Control::choice(
            "data",
            "Data in a",
            data_index(c.data),
            data.to_vec(),
        )];
        if let Data::Predictable(p) = c.data {
            out.push(
                bounded(
                    ui,
                    "predictability",
                    "Predictability",
                    &PREDICTABILITY,
                    p,
                    false,
                    |v| A::SetData(Data::Predictable(v)),
                )
                .step(5),
            );
        }
        out.push(Control::form(
            "pattern",
            "Repeating pattern",
            vec![
                Field::text("pattern-text", "Outcomes, T or N", pattern.text()).help(format!(
                    "{} to {} letters, e.g. TTN or TTTN",
                    PATTERN_LEN.min, PATTERN_LEN.max
                )),
            ],
            "Use this pattern",
            ui.form(|values| {
                let p = Pattern::parse(values.first().map_or("", |v| v.as_str()))?;
                Ok(Command::Do(A::SetData(Data::Pattern(p))))
            }),
        ));
        out.push(Control::choice(
            "predictor",
            "Predictor",
            selected,
            kinds.to_vec(),
        ));
        if c.predictor == K::Gshare {
            out.push(knob(
                ui,
                "history",
                "Global history",
                (c.history_bits.into(), 0, c.index_bits.into()),
                "outcomes",
                true,
                |v| A::SetHistory(v.min(255) as u8),
            ));
        }
        out.push(
            bounded(
                ui,
                "table-bits",
                "Table size",
                &INDEX_BITS,
                c.index_bits,
                false,
                A::SetIndexBits,
            )
            .shown(format!("{} entries", 1 << c.index_bits)),
        );
        out.push(bounded(
            ui,
            "penalty",
            "Mispredict penalty",
            &PENALTY,
            c.penalty,
            false,
            A::SetPenalty,
        ));
        out.push(bounded(
            ui,
            "base",
            "Cycles per iteration when predicted",
            &BASE,
            c.base_cycles,
            true,
            A::SetBaseCycles,
        ));
        out.push(bounded(
            ui,
            "length",
            "Array length",
            &LENGTH,
            c.length,
            true,
            A::SetLength,
        ));
        out.push(Control::group(
            "Run the loop",
            vec![
                Control::button(
                    "run-16",
                    "Run 16 branches",
                    ui.act(A::Run(self.remaining().min(16))),
                )
                .primary(),
                Control::button("finish", "Run to the end", ui.act(A::Finish)),
            ],
        ));
        out.push(Control::danger_group(
            "Break it",
            vec![
                Control::button("break", "T T N under a 2-bit counter", ui.act(A::BreakIt))
                    .danger(),
                Control::note(format!(
                    "Then pick gshare: with {} or more bits of history it learns the pattern.",
                    Pattern::TTN.history_needed()
                )),
            ],
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::Model;

    fn after(actions: &[A]) -> Branch {
        let mut m = Branch::new(&Default::default());
        for a in actions {
            m.apply(a).unwrap();
        }
        m
    }

    #[test]
    fn a_cold_two_bit_counter_lights_its_state_and_entry() {
        let m = after(&[A::BreakIt, A::Step]);
        let scene = crate::build(&m, &()).0;
        // T meets a cold weakly-not-taken entry: mispredict, 1 → 2.
        let current = scene.find("current").unwrap();
        assert_eq!(current.state.as_deref(), Some("miss"));
        assert_eq!(
            scene.find("state-2").unwrap().state.as_deref(),
            Some("current")
        );
        assert!(scene.find("edge-up-1").unwrap().has_class("accent"));
        let slot = BRANCH_PC as usize & 15;
        let entry = scene.find(&format!("pht-{slot}")).unwrap();
        assert_eq!(entry.state.as_deref(), Some("2"));
        assert!(entry.has_class("accent"));
        assert_eq!(scene.find("br-0").unwrap().state.as_deref(), Some("miss"));
    }

    #[test]
    fn the_strip_keeps_the_last_64_and_the_comparison_counts_every_predictor() {
        let m = after(&[A::BreakIt, A::Run(100)]);
        let scene = crate::build(&m, &()).0;
        assert!(scene.find("br-35").is_none());
        assert!(scene.find("br-36").is_some() && scene.find("br-99").is_some());
        // T T N: always taken misses every N, 85 of 256.
        assert_eq!(scene.find("cmp-0").unwrap().state.as_deref(), Some("85"));
        let gshare: u32 = scene
            .find("cmp-3")
            .unwrap()
            .state
            .clone()
            .unwrap()
            .parse()
            .unwrap();
        assert!(gshare <= 8, "{gshare}");
    }

    #[test]
    fn gshare_shows_its_history_and_the_index_it_forms() {
        let m = after(&[A::BreakIt, A::SetPredictor(K::Gshare), A::Run(3)]);
        let scene = crate::build(&m, &()).0;
        assert_eq!(scene.find("ghr").unwrap().state.as_deref(), Some("NTTN"));
        let index = scene.find("index").unwrap().text_content().unwrap();
        // PC low bits 0110 XOR history 0110 = entry 0.
        assert_eq!(index, "next: PC 0110 ⊕ history 0110 = entry 0");
    }

    #[test]
    fn the_pattern_form_reads_letters_and_refuses_others() {
        let m = Branch::new(&Default::default());
        let (_, controls, ui) = crate::build(&m, &());
        let Some(Control::Form(form)) = Control::find(&controls, "pattern") else {
            panic!("pattern form");
        };
        let send = |s: &str| ui.resolve(form.send, &crate::Input::Fields(vec![s.into()]));
        assert_eq!(
            send("tttn").unwrap(),
            Command::Do(A::SetData(Data::Pattern(Pattern::loop_exit(4))))
        );
        assert!(send("TXN").unwrap_err().contains("T (taken) and N"));
    }

    #[test]
    fn the_static_predictor_has_no_table() {
        let m = after(&[A::SetPredictor(K::AlwaysTaken), A::Step]);
        let scene = crate::build(&m, &()).0;
        assert!(scene.find("state-static").is_some());
        assert!(scene.find("pht-0").is_none());
    }

    #[test]
    fn the_counter_is_named_as_smiths_not_the_textbooks_hysteresis_machine() {
        let m = after(&[]);
        let scene = crate::build(&m, &()).0;
        let note = scene
            .find("machine-note")
            .and_then(|n| n.text_content())
            .unwrap_or_default()
            .to_string();
        assert!(note.starts_with("Smith's saturating counter"), "{note}");
        assert!(note.contains("hysteresis"), "{note}");
        let m = after(&[A::SetPredictor(K::OneBit)]);
        assert!(crate::build(&m, &()).0.find("machine-note").is_none());
        let controls = crate::build(&m, &()).1;
        let text = format!("{controls:?}");
        assert!(text.contains("with 2 or more bits of history"), "{text}");
    }
}
