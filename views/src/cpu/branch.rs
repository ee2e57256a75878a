//! Branch prediction: the predictor's state machine with the consulted
//! entry's state lit, the pattern history table (and gshare's history and
//! index), the last 64 predictions against their outcomes, and every
//! predictor's accuracy on the same data side by side.

use crate::control::{Control, Field};
use crate::draw::chart::Plot;
use crate::knob::{bounded, knob};
use crate::live::{Command, Ui, View};
use crate::scene::{Figure, Scene, Shape, Size};
use demos::cpu::branch::{
    counter_label, Branch, BranchAction as A, BranchRecord, Data, Pattern, PredictorKind as K,
    BASE, BRANCH_PC, INDEX_BITS, LENGTH, PATTERN_LEN, PENALTY, PREDICTABILITY, RECENT_KEPT,
};
use demos::text::{fixed, share_tenths, tenths};

const W: f32 = 960.0;

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
/// along the bottom; the latest branch's transition is drawn in accent.
fn machine(m: &Branch, top: f32) -> Vec<Shape> {
    let kind = m.config.predictor;
    let last = m.last().filter(|r| r.slot.is_some());
    let list = states(kind);
    if list.is_empty() {
        return vec![Shape::group(
            "state-static",
            vec![
                Shape::rect("box", 330.0, top, 300.0, 70.0).class("panel"),
                Shape::text("t", 480.0, top + 30.0, "always predict taken").class("strong"),
                Shape::text("s", 480.0, top + 54.0, "no state, no table").class("muted"),
            ],
        )
        .class("accent")
        .state("static")];
    }
    let (bw, gap) = (180.0, 56.0);
    let n = list.len() as f32;
    let x0 = (W - n * bw - (n - 1.0) * gap) / 2.0;
    let x = |c: u8| x0 + f32::from(c) * (bw + gap);
    let mut out = Vec::new();
    for &(c, name) in &list {
        let now = last.is_some_and(|r| r.after == c);
        let predicts = if kind == K::OneBit { c == 1 } else { c >= 2 };
        out.push(
            Shape::group(
                format!("state-{c}"),
                vec![
                    Shape::rect("box", x(c), top, bw, 76.0).class("panel"),
                    Shape::text("v", x(c) + bw / 2.0, top + 28.0, format!("{c}"))
                        .mono()
                        .size(Size::Large),
                    Shape::text("n", x(c) + bw / 2.0, top + 50.0, name),
                    Shape::text(
                        "p",
                        x(c) + bw / 2.0,
                        top + 69.0,
                        format!("predict {}", letter(predicts)),
                    )
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
        let (a, b) = (x(c) + bw, x(c + 1));
        for (key, from, to, y, label_y, t) in [
            ("up", c, c + 1, top + 20.0, top + 12.0, true),
            ("down", c + 1, c, top + 56.0, top + 76.0, false),
        ] {
            let (x1, x2) = if t {
                (a + 4.0, b - 4.0)
            } else {
                (b - 4.0, a + 4.0)
            };
            out.push(
                Shape::group(
                    format!("edge-{key}-{c}"),
                    vec![
                        Shape::arrow("a", (x1, y), (x2, y)),
                        Shape::text("l", (a + b) / 2.0, label_y, letter(t)).mono(),
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
    for (key, c, t, tx) in [
        ("stay-top", top_c, true, x(top_c) + bw + 8.0),
        ("stay-bottom", 0, false, x(0) - 8.0),
    ] {
        let text = Shape::text("l", tx, top + 44.0, format!("{} ↺", letter(t))).mono();
        out.push(
            Shape::group(key, vec![if t { text.start() } else { text.end() }])
                .class(if used(c, c) { "accent tone" } else { "muted" }),
        );
    }
    out
}

/// The pattern history table as a grid, with gshare's history register and
/// index computation above it.
fn table(m: &Branch, top: f32) -> (Vec<Shape>, f32) {
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
        out.push(
            Shape::text(
                "index",
                W - 20.0,
                y + 22.0,
                format!(
                    "next: PC {} ⊕ history {} = entry {index}",
                    bin(pc, bits),
                    bin(usize::from(p.ghr), bits)
                ),
            )
            .end()
            .mono()
            .label("next index: branch address bits XOR history"),
        );
        y += 48.0;
    }
    let entries = p.pht.len();
    let cols = entries.min(32);
    let cw = (880.0 / cols as f32).min(56.0);
    out.push(
        Shape::text(
            "pht-title",
            20.0,
            y + 18.0,
            format!(
                "pattern history table, {entries} entries{}",
                slot.map_or(String::new(), |s| format!(" · last used: entry {s}"))
            ),
        )
        .start()
        .class("strong"),
    );
    y += 30.0;
    let one_bit = p.kind == K::OneBit;
    for (i, &v) in p.pht.iter().enumerate() {
        let (col, row) = (i % cols, i / cols);
        let x = 60.0 + col as f32 * cw;
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

fn predictor(m: &Branch) -> Figure {
    let c = &m.config;
    let mut shapes = vec![Shape::text(
        "code",
        20.0,
        28.0,
        format!(
            "for (i = 0; i < {}; i++) if (a[i] >= 128) sum += a[i];",
            m.values.len()
        ),
    )
    .start()
    .mono()];
    let current = match m.last() {
        Some(r) => Shape::text(
            "current",
            20.0,
            60.0,
            format!(
                "a[{}] = {}: {}, predicted {} — {}",
                r.index,
                r.value,
                if r.actual { "taken" } else { "not taken" },
                if r.predicted { "taken" } else { "not taken" },
                if r.hit() {
                    "hit".to_string()
                } else {
                    format!("mispredict, +{} cycles", c.penalty)
                }
            ),
        )
        .class(hit_class(r))
        .class("tone")
        .state(hit_class(r)),
        None => Shape::text("current", 20.0, 60.0, "no branch yet: Step runs a[0]")
            .class("muted")
            .state("none"),
    };
    shapes.push(current.start().size(Size::Large));
    shapes.push(
        Shape::text(
            "kind",
            W - 20.0,
            28.0,
            format!("predictor: {}", c.predictor.label()),
        )
        .end()
        .class("strong"),
    );
    shapes.extend(machine(m, 86.0));
    if c.predictor.counts() {
        // Which 2-bit machine this is: textbooks draw a different one.
        shapes.push(
            Shape::text(
                "machine-note",
                W / 2.0,
                182.0,
                "Smith's saturating counter: every outcome moves one step. The hysteresis diagram in Patterson and Hennessy jumps to the far strong state on a miss in a weak one.",
            )
            .size(Size::Small)
            .class("muted"),
        );
    }
    let mut height = 192.0;
    if c.predictor.has_table() {
        let (cells, bottom) = table(m, 196.0);
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
        W,
        height,
    )
    .legend("accent", "the entry and state the last branch used");
    f.extend(shapes);
    f
}

/// Predicted over actual for the last branches, two bands of 32.
fn strip(m: &Branch) -> Figure {
    const COLS: usize = 32;
    const CW: f32 = 26.0;
    let x0 = 100.0;
    let missed = m.recent.iter().filter(|r| !r.hit()).count();
    let mut f = Figure::new(
        "branch-strip",
        format!(
            "The last {} branches: {missed} mispredicted",
            m.recent.len()
        ),
        W,
        46.0 + 2.0 * 96.0,
    )
    .legend("hit", "predicted right")
    .legend("miss", "mispredicted");
    f.push(
        Shape::text(
            "strip-count",
            20.0,
            22.0,
            format!(
                "the last {} branches (at most {RECENT_KEPT} shown): {missed} mispredicted",
                m.recent.len()
            ),
        )
        .start()
        .class("strong"),
    );
    for band in 0..2 {
        let y = 44.0 + band as f32 * 96.0;
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
        for (k, r) in m.recent.iter().skip(band * COLS).take(COLS).enumerate() {
            let x = x0 + k as f32 * CW;
            let mut col = vec![
                Shape::rect("r", x, y + 18.0, CW - 3.0, 56.0).rounded(3.0),
                Shape::text("p", x + CW / 2.0 - 1.5, y + 38.0, letter(r.predicted)).mono(),
                Shape::text("a", x + CW / 2.0 - 1.5, y + 64.0, letter(r.actual)).mono(),
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
fn compare(m: &Branch) -> Figure {
    let n = m.values.len() as i64;
    let plot = Plot::new(
        (220.0, 50.0, 660.0, 210.0),
        (0.0, 100.0, false),
        (0.0, 4.0, false),
    );
    let ticks: Vec<(f64, String)> = (0..=4)
        .map(|i| (i as f64 * 25.0, format!("{} %", i * 25)))
        .collect();
    let mut f = Figure::new(
        "branch-compare",
        format!("Accuracy of each predictor over all {n} elements from cold"),
        W,
        270.0,
    )
    .legend("hit", "predicted right")
    .legend("miss", "mispredicted");
    f.push(
        Shape::text(
            "compare-title",
            20.0,
            22.0,
            format!("every predictor on this data, all {n} branches from cold"),
        )
        .start()
        .class("strong"),
    );
    f.push(plot.axes(&ticks, &[], "branches predicted right", ""));
    for (row, (kind, missed)) in m.compare().into_iter().enumerate() {
        let y = plot.top + row as f32 * 40.0 + 6.0;
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
                    Shape::text("n", plot.left - 10.0, y + 20.0, name.clone())
                        .end()
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
                        plot.right + 12.0,
                        y + 20.0,
                        format!(
                            "{missed} missed · {}{}",
                            tenths(right),
                            if used { " ◀ in use" } else { "" }
                        ),
                    )
                    .start()
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

    fn scene(&self, _: &(), _: &mut Ui<Self>) -> Scene {
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
        .figure(predictor(self))
        .figure(strip(self))
        .figure(compare(self))
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
