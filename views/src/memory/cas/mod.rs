//! CAS retry loop: the shared counter above the threads, each thread with its
//! registers (click one to run it: you are the scheduler); under them the
//! interleaving so far, one lane per thread, and the updates it lost.

mod lesson;

use super::kit::{chip, mono, panel, panel_height, text, Line};
use crate::control::Control;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Command, Ui, View};
use crate::scene::{Arrow, Figure, Item, List, Scene, Shape, Size};
use demos::memory::cas::{
    update_name, Cas, CasAction, CasConfig, Method, MoveKind, Phase, Thread, INCREMENTS, THREADS,
};
use demos::text::plural;
use demos::Quantity;

const W: f32 = 960.0;
const THREAD_Y: f32 = 170.0;
/// Interleaving: where lanes start, column pitch, columns shown.
const LANE_X: f32 = 96.0;
const COL: f32 = 72.0;
const COLS: usize = 12;
/// On a phone the interleaving wraps: this many columns a row, the rows one
/// under another, so every one of the [`COLS`] steps keeps its chip's width.
const NARROW_COLS_PER_ROW: usize = 4;
/// On a phone, threads two abreast.
const NARROW_THREADS_PER_ROW: usize = 2;

/// Where the machine figure puts the counter and each thread's panel.
struct Machine {
    width: f32,
    height: f32,
    /// The counter's box: x, y, width, height.
    counter: (f32, f32, f32, f32),
    /// Each thread's panel: x, y, width.
    threads: Vec<(f32, f32, f32)>,
    thread_height: f32,
}

impl Machine {
    /// Wide: the code on the left, the counter in the middle, the threads
    /// in a row under them. Narrow: the code, then the threads two abreast,
    /// with the counter between the first row and the second (when there is
    /// one) so that every wire reaches it without crossing a panel.
    fn new(layout: Layout, n: usize, lines: usize) -> Self {
        let thread_height = panel_height(lines);
        match layout {
            Layout::Wide => {
                let gap = 20.0;
                let w = (W - 32.0 - gap * (n - 1) as f32) / n as f32;
                Machine {
                    width: W,
                    height: THREAD_Y + thread_height + 16.0,
                    counter: (380.0, 16.0, 200.0, 96.0),
                    threads: (0..n)
                        .map(|i| (16.0 + i as f32 * (w + gap), THREAD_Y, w))
                        .collect(),
                    thread_height,
                }
            }
            Layout::Narrow => {
                let (margin, gap) = (12.0, 12.0);
                let per_row = NARROW_THREADS_PER_ROW;
                let w = (NARROW_WIDTH - 2.0 * margin - gap * (per_row - 1) as f32) / per_row as f32;
                // Under the three lines of code.
                let top = 112.0;
                let counter_h = 96.0;
                let rows_above = usize::from(n > per_row);
                let counter_y = top + rows_above as f32 * (thread_height + 2.0 * gap);
                let row_y = |r: usize| {
                    if r < rows_above {
                        top
                    } else {
                        counter_y
                            + counter_h
                            + 2.0 * gap
                            + (r - rows_above) as f32 * (thread_height + gap)
                    }
                };
                let rows = n.div_ceil(per_row);
                Machine {
                    width: NARROW_WIDTH,
                    height: row_y(rows - 1) + thread_height + 16.0,
                    counter: (70.0, counter_y, 160.0, counter_h),
                    threads: (0..n)
                        .map(|i| {
                            let x = margin + (i % per_row) as f32 * (w + gap);
                            (x, row_y(i / per_row), w)
                        })
                        .collect(),
                    thread_height,
                }
            }
        }
    }

    /// The two ends of thread `i`'s wire: on its panel, on the counter.
    fn wire(&self, i: usize) -> ((f32, f32), (f32, f32)) {
        let (x, y, w) = self.threads[i];
        let (cx, cy, cw, ch) = self.counter;
        if y > cy {
            ((x + w / 2.0, y - 4.0), (cx + cw / 2.0, cy + ch + 2.0))
        } else {
            (
                (x + w / 2.0, y + self.thread_height + 4.0),
                (cx + cw / 2.0, cy - 2.0),
            )
        }
    }
}

fn code(method: Method) -> &'static [&'static str] {
    match method {
        Method::Plain => &["r = counter;", "r = r + 1;", "counter = r;"],
        Method::CasLoop => &[
            "e = counter.load();",
            "do d = e + 1;",
            "while (!counter.cas(e, d));",
        ],
        Method::FetchAdd => &[
            "counter.fetch_add(1);",
            "// x86 LOCK XADD, Armv8.1 LDADD;",
            "// Armv8.0, POWER: an LL/SC loop",
        ],
    }
}

fn reg(r: Option<u32>) -> String {
    r.map_or("—".into(), |v| v.to_string())
}

fn next_word(phase: Phase) -> &'static str {
    match phase {
        Phase::Load => "load",
        Phase::Add => "add 1",
        Phase::Store => "store",
        Phase::Compute => "compute",
        Phase::Cas => "CAS",
        Phase::FetchAdd => "fetch_add",
        Phase::Done => "done",
    }
}

fn thread_lines(m: &Cas, t: &Thread) -> Vec<Line> {
    let mut lines = vec![text(["next: ", next_word(t.phase)].concat())];
    match m.method {
        Method::Plain => lines.push(mono(["r = ", &reg(t.desired.or(t.loaded))].concat())),
        Method::CasLoop => {
            lines.push(mono(["e = ", &reg(t.loaded)].concat()));
            lines.push(mono(["d = ", &reg(t.desired)].concat()));
        }
        Method::FetchAdd => {}
    }
    lines.push(text(format!(
        "done {}/{} · retries {}",
        t.done, m.increments, t.retries
    )));
    lines
}

fn machine(m: &Cas, ui: &mut Ui<Cas>) -> Figure {
    let n = m.threads.len();
    let lines = thread_lines(m, &m.threads[0]).len();
    let at = Machine::new(ui.layout(), n, lines);
    let lost = m.lost().count_ones();
    let mut f = Figure::new(
        "cas-machine",
        format!(
            "Shared counter {} and {n} threads, method {}",
            m.value,
            m.method.label()
        ),
        at.width,
        at.height,
    )
    .legend("accent", "the counter")
    .legend("driver", "thread still running")
    .legend("done", "thread finished")
    .legend("warn", "its last CAS failed");
    for (i, line) in code(m.method).iter().enumerate() {
        f.push(
            Shape::text(format!("code-{i}"), 16.0, 40.0 + 26.0 * i as f32, *line)
                .start()
                .mono(),
        );
    }
    let last = m.log.last();
    for (i, t) in m.threads.iter().enumerate() {
        let (x, y, w) = at.threads[i];
        let failed = last.is_some_and(|e| e.thread == Some(i as u8) && e.kind == MoveKind::CasFail);
        let (class, word) = match t.phase {
            Phase::Done => ("done", "done"),
            _ if failed => ("warn", "retry"),
            _ => ("driver", "ready"),
        };
        let step = ui.act(CasAction::Step(i));
        let mover = last.is_some_and(|e| e.thread == Some(i as u8));
        // The wire to the counter; the last mover's shows which way data went.
        let kind = last.filter(|_| mover).map(|e| e.kind);
        let (thread_end, counter_end) = at.wire(i);
        let (from, to) = if kind == Some(MoveKind::Load) {
            (counter_end, thread_end)
        } else {
            (thread_end, counter_end)
        };
        let touched = kind.is_some_and(|k| k != MoveKind::Add);
        f.push(
            Shape::line(format!("wire-{i}"), from, to)
                .arrowhead(if touched { Arrow::End } else { Arrow::None })
                .class(if touched { "accent thick" } else { "grid" }),
        );
        f.push(
            panel(
                format!("thread-{i}"),
                (x, y, w),
                &format!("T{}", i + 1),
                word,
                &thread_lines(m, t),
            )
            .class(class)
            .state(word)
            .label(t.summary(m.increments))
            .focus(format!("thread-{i}"))
            .on_click(step),
        );
    }
    let (cx, cy, cw, ch) = at.counter;
    f.push(
        Shape::group(
            "counter",
            vec![
                Shape::rect("box", cx, cy, cw, ch).class("panel"),
                Shape::text("title", cx + cw / 2.0, cy + 28.0, "counter").size(Size::Title),
                Shape::text("value", cx + cw / 2.0, cy + 76.0, m.value.to_string())
                    .mono()
                    .size(Size::Large),
            ],
        )
        .class("accent")
        .state(m.value.to_string())
        .label(format!("Shared counter: {}", m.value))
        .focus("counter"),
    );
    let (tail, class) = match m.method {
        Method::Plain => (
            format!("lost {lost}"),
            if lost > 0 { "fault" } else { "idle" },
        ),
        _ => (format!("retries {}", m.retries()), "warn"),
    };
    f.push(
        Shape::text(
            "expected",
            cx + cw + 20.0,
            cy + 36.0,
            format!("expected {}", m.expected()),
        )
        .start()
        .mono(),
    );
    f.push(
        Shape::group(
            "tally",
            vec![Shape::text("t", cx + cw + 20.0, cy + 64.0, tail)
                .start()
                .mono()],
        )
        .class(class)
        .class("tone"),
    );
    f
}

/// A chip's two lines for one entry of the interleaving.
fn chip_text(kind: MoveKind, value: u32) -> (&'static str, String) {
    let v = value.to_string();
    match kind {
        MoveKind::Load => ("load", v),
        MoveKind::Add => ("+1 →", v),
        MoveKind::Store => ("store", v),
        MoveKind::CasOk => ("CAS ✓", v),
        MoveKind::CasFail => ("CAS ✗ saw", v),
        MoveKind::FetchAdd => ("fetch_add", v),
        MoveKind::Inject => ("outside", v),
    }
}

/// The interleaving: one lane per thread (and one for outside writes), the
/// latest [`COLS`] steps as chips; on a phone, in rows of
/// [`NARROW_COLS_PER_ROW`], each row with its own lanes.
fn interleaving(m: &Cas, layout: Layout) -> Figure {
    let n = m.threads.len();
    let lanes = n + usize::from(m.injected > 0);
    let lane_y = |l: usize| 40.0 + 52.0 * l as f32;
    let (width, per_row) = layout.pick((W, COLS), (NARROW_WIDTH, NARROW_COLS_PER_ROW));
    let first = m.log.len().saturating_sub(COLS);
    let rows = (m.log.len() - first).div_ceil(per_row).max(1);
    let row_height = lane_y(lanes) + 8.0;
    let mut f = Figure::new(
        "cas-steps",
        format!(
            "The interleaving: {} step{} so far",
            m.log.len(),
            plural(m.log.len())
        ),
        width,
        row_height * rows as f32,
    )
    .legend("driver", "load or compute")
    .legend("done", "store or successful CAS")
    .legend("warn", "failed CAS, outside write")
    .legend("fault", "a store that erased an update");
    for row in 0..rows {
        let dy = row as f32 * row_height;
        // The first row's keys are the wide layout's.
        let suffix = if row == 0 {
            String::new()
        } else {
            format!("-r{row}")
        };
        for l in 0..lanes {
            let name = if l < n {
                format!("T{}", l + 1)
            } else {
                "outside".into()
            };
            f.push(
                Shape::text(
                    format!("lane-{l}{suffix}"),
                    16.0,
                    dy + lane_y(l) + 28.0,
                    name,
                )
                .start()
                .class("strong"),
            );
            f.push(
                Shape::line(
                    format!("track-{l}{suffix}"),
                    (LANE_X, dy + lane_y(l) + 22.0),
                    (width - 8.0, dy + lane_y(l) + 22.0),
                )
                .class("grid"),
            );
        }
    }
    if m.log.is_empty() {
        f.push(
            Shape::text(
                "none",
                // On a phone the sentence needs the lane names' margin too.
                layout.pick(LANE_X, 16.0),
                24.0,
                "No steps yet: click a thread to run it.",
            )
            .start()
            .class("muted"),
        );
    }
    for (c, (k, e)) in m.log.iter().enumerate().skip(first).enumerate() {
        let x = LANE_X + (c % per_row) as f32 * COL;
        let dy = (c / per_row) as f32 * row_height;
        let lane = e.thread.map_or(n, usize::from);
        let (top, value) = chip_text(e.kind, e.value);
        let class = match e.kind {
            MoveKind::Store if e.erased != 0 => "fault",
            MoveKind::Store | MoveKind::CasOk | MoveKind::FetchAdd => "done",
            MoveKind::CasFail | MoveKind::Inject => "warn",
            _ => "driver",
        };
        let number = format!("#{}", k + 1);
        let label = [&number, " ", top, " ", &value].concat();
        f.push(
            Shape::text(format!("n-{k}"), x + COL / 2.0 - 2.0, dy + 24.0, number).size(Size::Small),
        );
        f.push(
            chip(
                format!("step-{k}"),
                (x, dy + lane_y(lane), COL - 4.0),
                top,
                &value,
            )
            .class(class)
            .state(if e.erased != 0 { "erased" } else { top })
            .label(label),
        );
    }
    f
}

/// Each lost update, and the store that erased it last.
fn lost_list(m: &Cas) -> List {
    let mut list = List::new(
        "cas-lost",
        "Lost updates",
        match m.method {
            Method::Plain => "None lost yet: run two loads before either store.",
            _ => "None: an update is only ever stored over the value it was computed from.",
        },
    )
    .focus("counter");
    for id in (0..32).filter(|b| m.lost() >> b & 1 == 1) {
        let by = m
            .log
            .iter()
            .enumerate()
            .rev()
            .find(|(_, e)| e.erased >> id & 1 == 1);
        let text = match by {
            Some((k, e)) => format!(
                "{}: erased by T{}'s store of {} at #{}",
                update_name(id),
                e.thread.map_or(0, |t| t + 1),
                e.value,
                k + 1
            ),
            None => update_name(id),
        };
        list = list.item(
            Item::new(format!("lost-{id}"), text)
                .class("fault")
                .tag("Lost:"),
        );
    }
    list
}

impl View for Cas {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let lost = self.lost().count_ones();
        Scene::new(
            "CAS retry loop",
            format!(
                "{} threads increment a shared counter with {}. The counter reads {}, expected {}; {lost} update{} lost, {} retr{}.",
                self.threads.len(),
                self.method.label(),
                self.value,
                self.expected(),
                plural(lost as usize),
                self.retries(),
                if self.retries() == 1 { "y" } else { "ies" }
            ),
        )
        .figure(machine(self, ui))
        .figure(interleaving(self, ui.layout()))
        .list(lost_list(self))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let mut run: Vec<Control> = (0..self.threads.len())
            .map(|t| {
                Control::button(
                    &format!("run-t{}", t + 1),
                    format!("Run T{}", t + 1),
                    ui.act(CasAction::Step(t)),
                )
                .primary()
            })
            .collect();
        run.push(Control::button(
            "inject",
            "Outside write (+1)",
            ui.act(CasAction::Inject),
        ));
        let methods = [Method::CasLoop, Method::FetchAdd];
        let options = methods
            .iter()
            .map(|&m| {
                let value = if m == Method::CasLoop {
                    "cas"
                } else {
                    "fetch-add"
                };
                (
                    value,
                    m.label().to_string(),
                    ui.act(CasAction::SetMethod(m)),
                )
            })
            .collect();
        // Plain selects neither correct method.
        let selected = methods
            .iter()
            .position(|&m| m == self.method)
            .unwrap_or(usize::MAX);
        let plain = self.method == Method::Plain;
        let config = CasConfig {
            threads: self.threads.len(),
            increments: self.increments,
            method: self.method,
            initial: self.initial,
        };
        let (c1, c2) = (config.clone(), config);
        vec![
            Control::group("You are the scheduler", run),
            Control::choice("method", "Method (starts over)", selected, options),
            Control::slider(
                "threads",
                "Threads (restarts)",
                THREADS.control_range(self.threads.len()),
                THREADS.unit,
                ui.number(move |v| {
                    Ok(Command::Restart(CasConfig {
                        threads: Quantity::from_i64(v),
                        ..c1.clone()
                    }))
                }),
            ),
            Control::slider(
                "increments",
                "Increments per thread (restarts)",
                INCREMENTS.control_range(self.increments),
                INCREMENTS.unit,
                ui.number(move |v| {
                    Ok(Command::Restart(CasConfig {
                        increments: Quantity::from_i64(v),
                        ..c2.clone()
                    }))
                }),
            ),
            Control::danger_group(
                "Break it",
                vec![Control::toggle(
                    "plain",
                    "Plain load; add; store",
                    plain,
                    ui.act(CasAction::SetMethod(if plain {
                        Method::CasLoop
                    } else {
                        Method::Plain
                    })),
                )
                .danger()],
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::Model;

    fn run(method: Method, order: &[usize]) -> Cas {
        let mut m = Cas::new(&CasConfig {
            method,
            ..CasConfig::default()
        });
        for &t in order {
            m.apply(&CasAction::Step(t)).unwrap();
        }
        m
    }

    #[test]
    fn two_loads_before_the_stores_name_the_lost_update_and_the_erasing_store() {
        let m = run(Method::Plain, &[0, 1, 0, 1, 0, 1]);
        let scene = crate::build(&m, &()).0;
        assert_eq!(scene.find("counter").unwrap().state.as_deref(), Some("1"));
        let lost = scene.list_named("cas-lost").unwrap();
        assert_eq!(lost.items.len(), 1);
        assert_eq!(
            lost.items[0].text,
            "T1's increment 1: erased by T2's store of 1 at #6"
        );
        let erasing = scene.find("step-5").unwrap();
        assert!(erasing.has_class("fault"));
        assert_eq!(erasing.state.as_deref(), Some("erased"));
        assert!(scene.find("step-4").unwrap().has_class("done"));
    }

    /// Issue 30: fetch_add's code says where it is one instruction and
    /// where an LL/SC loop.
    #[test]
    fn fetch_add_code_names_its_instructions() {
        let m = run(Method::FetchAdd, &[]);
        let scene = crate::build(&m, &()).0;
        let line = |i: usize| {
            scene
                .find(&format!("code-{i}"))
                .unwrap()
                .text_content()
                .unwrap()
                .to_string()
        };
        assert_eq!(line(1), "// x86 LOCK XADD, Armv8.1 LDADD;");
        assert_eq!(line(2), "// Armv8.0, POWER: an LL/SC loop");
    }

    #[test]
    fn a_failed_cas_marks_the_thread_for_a_retry() {
        let m = run(Method::CasLoop, &[0, 0, 1, 1, 1, 0]);
        let scene = crate::build(&m, &()).0;
        let t1 = scene.find("thread-0").unwrap();
        assert_eq!(t1.state.as_deref(), Some("retry"));
        assert!(t1.has_class("warn"));
        let texts: Vec<&str> = t1
            .children()
            .iter()
            .filter_map(|s| s.text_content())
            .collect();
        assert!(
            texts.contains(&"e = 1"),
            "expected now holds what the CAS saw: {texts:?}"
        );
        assert_eq!(
            scene.find("step-5").unwrap().state.as_deref(),
            Some("CAS ✗ saw")
        );
    }

    #[test]
    fn clicking_a_thread_runs_it_and_only_the_last_steps_are_drawn() {
        let m = Cas::new(&CasConfig {
            threads: 4,
            increments: 5,
            method: Method::Plain,
            initial: 0,
        });
        let (scene, _, ui) = crate::build(&m, &());
        let slot = scene.find("thread-2").unwrap().on_click.unwrap();
        assert_eq!(
            ui.resolve(slot, &crate::Input::Press).unwrap(),
            Command::Do(CasAction::Step(2))
        );
        let mut m = Cas::new(&CasConfig {
            increments: 3,
            method: Method::Plain,
            ..CasConfig::default()
        });
        for t in [0; 9].into_iter().chain([1; 9]) {
            m.apply(&CasAction::Step(t)).unwrap();
        }
        let scene = crate::build(&m, &()).0;
        // 18 steps: the first 6 scrolled away.
        assert!(scene.find("step-5").is_none() && scene.find("step-6").is_some());
        assert!(scene.find("step-17").is_some());
        assert!(
            scene.find("lane-2").is_none(),
            "no outside lane without outside writes"
        );
    }

    #[test]
    fn the_plain_switch_is_the_break_it_and_leaves_no_method_selected() {
        let m = run(Method::Plain, &[]);
        let (_, controls, ui) = crate::build(&m, &());
        let Some(Control::Choice(c)) = Control::find(&controls, "method") else {
            panic!("method choice");
        };
        assert!(c.selected >= c.options.len());
        let Some(Control::Toggle(t)) = Control::find(&controls, "plain") else {
            panic!("plain toggle");
        };
        assert!(t.on);
        assert_eq!(
            ui.resolve(t.send, &crate::Input::Press).unwrap(),
            Command::Do(CasAction::SetMethod(Method::CasLoop))
        );
    }
}
