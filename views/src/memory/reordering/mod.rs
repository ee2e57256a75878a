//! Memory reordering, the litmus explorer: each thread's code in the chosen
//! model's notation, the `exists` verdict of all four models side by side,
//! every outcome with its status under each model (click one to draw its
//! execution), the execution graph with its forbidding cycle and why, and
//! under SC and TSO the machine the learner schedules.

mod graph;
mod lesson;
mod machine;
#[cfg(test)]
mod tests;

use crate::control::{Control, Field};
use crate::live::{Command, Ui, View};
use crate::scene::{Cell, Item, List, Scene, Table};
use demos::memory::litmus::analysis::{Row, Status};
use demos::memory::litmus::ast::{Op, Order};
use demos::memory::litmus::catalogue::CATALOGUE;
use demos::memory::litmus::explain::{event_text, letter, outcome_text, weaker_here};
use demos::memory::litmus::syntax::Syntax;
use demos::memory::litmus::{MemModel, Verdict};
use demos::memory::reordering::{Reordering, ReorderingAction};
use demos::Model;

fn status_word(s: Status) -> &'static str {
    match s {
        Status::Allowed => "allowed",
        Status::Forbidden => "forbidden",
        Status::Racy => "race",
    }
}

fn steppable(r: &Reordering) -> bool {
    Reordering::schedules(r.model)
}

/// The outcome row the graph shows: the selected one, else the one that
/// best explains the `exists` verdict.
fn shown_row(r: &Reordering) -> Option<usize> {
    let a = &r.analysis;
    r.selected.or_else(|| {
        let row = a.condition_row(r.model)?;
        a.rows.iter().position(|x| std::ptr::eq(x, row))
    })
}

fn code(r: &Reordering) -> Table {
    let test = &r.analysis.test;
    let notation = match r.syntax() {
        Syntax::Text => "the test's own notation",
        Syntax::X86 => "x86-64 instructions",
        Syntax::Arm => "AArch64 instructions",
        Syntax::C11 => "C11 atomics (load, store, fence with a memory_order)",
    };
    let mut columns = vec!["#".to_string()];
    columns.extend((0..test.threads.len()).map(|t| format!("T{t}")));
    let mut t = Table::new(
        "code",
        format!("{}: each thread's code as {notation}", test.name),
        &[],
    );
    t.columns = columns;
    let code = r.code();
    let depth = code.iter().map(Vec::len).max().unwrap_or(0);
    let run = steppable(r);
    for i in 0..depth {
        let mut cells = vec![Cell::text((i + 1).to_string())];
        for (th, lines) in code.iter().enumerate() {
            let pc = r.machine.pc[th] as usize;
            let text = lines.get(i).map_or(String::new(), |line| {
                let mark = match (run, pc.cmp(&i)) {
                    (false, _) => "",
                    (true, std::cmp::Ordering::Greater) => "✓ ",
                    (true, std::cmp::Ordering::Equal) => "▶ ",
                    (true, std::cmp::Ordering::Less) => "  ",
                };
                format!("{mark}{line}")
            });
            cells.push(Cell::mono(text).key(format!("code-{th}-{i}")));
        }
        t.row(format!("code-{i}"), cells);
    }
    t
}

fn verdicts(r: &Reordering) -> Table {
    let a = &r.analysis;
    let mut t = Table::new(
        "verdicts",
        format!(
            "exists {}: the verdict of each model",
            a.test.cond_text(&a.test.cond)
        ),
        &["Model", "exists", "allowed", "forbidding cycle"],
    );
    for m in MemModel::ALL {
        let v = a.verdict(m);
        let why = match v {
            Verdict::Allowed => "–".to_string(),
            Verdict::Undefined => {
                let (x, y) = a.race.unwrap_or((0, 0));
                let sk = &a.skeleton;
                let loc = sk.events[x as usize].loc.unwrap_or(0) as usize;
                format!(
                    "data race on {}: {} and {}",
                    a.test.locs[loc],
                    letter(sk, x as usize),
                    letter(sk, y as usize)
                )
            }
            Verdict::Forbidden => a
                .condition_row(m)
                .and_then(|row| row.cells[m.index()].violation.as_ref())
                .map_or("no execution produces it".to_string(), |v| v.cycle_name()),
        };
        let current = m == r.model;
        let label = if current {
            format!("{} (shown)", m.label())
        } else {
            m.label().to_string()
        };
        let row = t.row(
            format!("verdict-{}", m.label().to_ascii_lowercase()),
            vec![
                Cell::text(label),
                Cell::text(v.word()).class("strong"),
                Cell::text(format!("{} of {}", a.allowed(m).count(), a.rows.len())),
                Cell::mono(why),
            ],
        );
        row.class(match v {
            Verdict::Allowed => "warn",
            Verdict::Forbidden => "done",
            Verdict::Undefined => "fault",
        })
        .state(v.word());
        if current {
            row.focus("verdict");
        }
    }
    t
}

fn outcomes(r: &Reordering, ui: &mut Ui<Reordering>) -> Table {
    let a = &r.analysis;
    let shown = shown_row(r);
    let mut columns = vec!["Outcome", "exists"];
    columns.extend(MemModel::ALL.iter().map(|m| m.label()));
    if steppable(r) {
        columns.push("runs");
    }
    let mut t = Table::new(
        "outcomes",
        format!(
            "Every final state, and whether each model allows it ({} of {} under {}); pick one to draw it",
            r.allowed_count(),
            a.rows.len(),
            r.model.label()
        ),
        &columns,
    );
    for (i, row) in a.rows.iter().enumerate() {
        let status = row.cells[r.model.index()].status;
        let mark = if shown == Some(i) { "▶ " } else { "" };
        let mut cells = vec![
            Cell::mono(format!("{mark}{}", outcome_text(a, row))),
            Cell::text(if row.satisfies { "yes" } else { "" }),
        ];
        cells.extend(MemModel::ALL.iter().map(|m| {
            let cell = Cell::text(status_word(row.cells[m.index()].status));
            if *m == r.model {
                cell.class("strong")
            } else {
                cell
            }
        }));
        if steppable(r) {
            cells.push(Cell::text(if r.reached.contains(&i) {
                "reached"
            } else {
                ""
            }));
        }
        t.row(format!("outcome-{i}"), cells)
            .class(match status {
                Status::Allowed => "done",
                Status::Forbidden => "idle",
                Status::Racy => "fault",
            })
            .state(status_word(status))
            .focus(format!("row-{i}"))
            .on_click(ui.act(ReorderingAction::SelectOutcome(i)));
    }
    t
}

/// Why the shown outcome is allowed or forbidden: one sentence, then the
/// cycle edge by edge.
fn explanation(r: &Reordering, row: &Row) -> List {
    let a = &r.analysis;
    let m = r.model;
    let cell = &row.cells[m.index()];
    let outcome = outcome_text(a, row);
    let head = match (cell.status, &cell.violation) {
        (Status::Allowed, _) => format!(
            "{} allows {outcome}: the graph shows one execution that obeys all its rules.",
            m.label()
        ),
        (Status::Racy, _) => format!(
            "{} reaches {outcome} only through a data race on a non-atomic location (the red events): undefined behaviour.",
            m.label()
        ),
        (Status::Forbidden, Some(v)) => format!(
            "{} forbids {outcome}: every execution ending this way has a cycle like {}, and its rule `{}` says {}.",
            m.label(),
            v.cycle_name(),
            v.axiom.name(),
            v.axiom.demands()
        ),
        (Status::Forbidden, None) => format!(
            "{} forbids {outcome}: no execution produces these values.",
            m.label()
        ),
    };
    let tag = match cell.status {
        Status::Allowed => "Allowed:",
        Status::Forbidden => "Forbidden:",
        Status::Racy => "Undefined:",
    };
    let mut list = List::new("explain", "Why", "").focus("graph").item(
        Item::new("sentence", head)
            .class(match cell.status {
                Status::Allowed => "done",
                Status::Forbidden => "warn",
                Status::Racy => "fault",
            })
            .tag(tag),
    );
    let values = cell.witness.as_ref().map_or(&[][..], |w| &w.values[..]);
    for (i, step) in cell.violation.iter().flat_map(|v| &v.cycle).enumerate() {
        list = list.item(
            Item::new(
                format!("step-{i}"),
                format!(
                    "{} → {}: {} ({})",
                    event_text(a, step.from as usize, values),
                    event_text(a, step.to as usize, values),
                    step.edge.token(),
                    step.edge.meaning()
                ),
            )
            .class("fault")
            .mono(),
        );
    }
    list
}

/// The test with its fences, memory orders and dependencies taken out.
fn stripped(r: &Reordering) -> String {
    let mut t = r.analysis.test.clone();
    for ops in &mut t.threads {
        ops.retain(|op| !matches!(op, Op::Fence { .. }));
        for op in ops.iter_mut() {
            match op {
                Op::Write { ord, dep, .. } | Op::Read { ord, dep, .. } => {
                    *ord = Order::Rlx;
                    *dep = None;
                }
                Op::Fence { .. } => {}
            }
        }
    }
    t.name = t.name.split('+').next().unwrap_or("plain").to_string();
    t.to_text()
}

impl View for Reordering {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let a = &self.analysis;
        let mut scene = Scene::new(
            format!("{} under {}", a.test.name, self.model.label()),
            format!(
                "{} under {}: exists is {}; {} of {} outcomes allowed.",
                a.test.name,
                self.model.label(),
                a.verdict(self.model).word(),
                self.allowed_count(),
                a.rows.len()
            ),
        )
        .table(code(self));
        if steppable(self) {
            scene = scene.figure(machine::machine(self, ui));
        }
        scene = scene.table(verdicts(self)).table(outcomes(self, ui));
        if let Some(i) = shown_row(self) {
            let row = &a.rows[i];
            let status = status_word(row.cells[self.model.index()].status);
            let title = format!(
                "Execution of {} under {}: {status}",
                outcome_text(a, row),
                self.model.label()
            );
            scene = scene
                .figure(graph::graph(a, row, self.model.index(), title, ui.layout()))
                .list(explanation(self, row));
        }
        scene
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        use ReorderingAction::*;
        let mut tests: Vec<(String, String, u32)> = CATALOGUE
            .iter()
            .enumerate()
            .map(|(i, e)| {
                (
                    e.name.to_string(),
                    e.name.to_string(),
                    ui.act(ChooseTest(i)),
                )
            })
            .collect();
        let selected = self.entry.unwrap_or_else(|| {
            let name = &self.analysis.test.name;
            tests.push(("typed".into(), format!("typed: {name}"), ui.look(())));
            tests.len() - 1
        });
        let models = MemModel::ALL
            .iter()
            .map(|m| {
                (
                    m.label().to_ascii_lowercase(),
                    m.label().to_string(),
                    ui.act(ChooseModel(*m)),
                )
            })
            .collect();
        let threads = self.analysis.test.threads.len() as u8;
        let mut out = vec![
            Control::choice("test", "Litmus test", selected, tests).dropdown(),
            Control::choice("model", "Memory model", self.model.index(), models),
        ];
        if steppable(self) {
            let mut buttons: Vec<Control> = (0..threads)
                .map(|t| Control::button(&format!("run-{t}"), format!("Run T{t}"), ui.act(Run(t))))
                .collect();
            if self.model == MemModel::Tso {
                buttons.extend((0..threads).map(|t| {
                    Control::button(
                        &format!("drain-{t}"),
                        format!("Drain T{t}"),
                        ui.act(Drain(t)),
                    )
                }));
            }
            buttons.push(Control::button(
                "restart",
                "Restart the run",
                ui.act(Restart),
            ));
            out.push(Control::group("You are the scheduler", buttons));
        } else if let Err(refusal) = self.next_auto() {
            // What Step does now, in the model's own words.
            out.push(Control::note(refusal.reason));
        }
        out.push(Control::form(
            "load-test",
            "Type or paste a test",
            vec![Field::code("litmus-text", "Test", self.text.clone()).help(
                "One `thread` line each: W[.ord] loc value; R[.ord] loc reg; F[.ord], split by `;`. Then `exists r1=1 /\\ x=2`.",
            )],
            "Check this test",
            ui.form(|v| {
                Ok(Command::Do(LoadText(
                    v.first().cloned().unwrap_or_default(),
                )))
            }),
        ));
        // Offered only where ARMv8 is weaker on this very test: the models
        // are not ordered in general (see `weaker_here`).
        let mut breaks = Vec::new();
        if weaker_here(&self.analysis, MemModel::Armv8, self.model) {
            breaks.push(
                Control::button(
                    "weaken",
                    "Weaken the model to ARMv8",
                    ui.act(ChooseModel(MemModel::Armv8)),
                )
                .danger(),
            );
            // Weakening from SC or TSO also takes away the machine Step runs.
            if steppable(self) && !Reordering::schedules(MemModel::Armv8) {
                breaks.push(Control::note(format!(
                    "Weakening also stops Step: {} is judged from its axioms alone, with no machine here to run, so Step refuses until the model is SC or TSO again.",
                    MemModel::Armv8.label()
                )));
            }
        }
        let plain = stripped(self);
        if plain != self.text {
            breaks.push(
                Control::button(
                    "strip",
                    "Remove the fences and orders",
                    ui.act(LoadText(plain)),
                )
                .danger(),
            );
        }
        if !breaks.is_empty() {
            out.push(Control::danger_group("Break it", breaks));
        }
        out
    }
}
