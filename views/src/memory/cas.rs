//! CAS retry loop: the shared counter above the threads, each thread with its
//! registers (click one to run it: you are the scheduler); under them the
//! interleaving so far, one lane per thread, and the updates it lost.

use super::kit::{chip, mono, panel, panel_height, text, Line};
use crate::control::Control;
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
    let gap = 20.0;
    let w = (W - 32.0 - gap * (n - 1) as f32) / n as f32;
    let lines = thread_lines(m, &m.threads[0]).len();
    let height = THREAD_Y + panel_height(lines) + 16.0;
    let lost = m.lost().count_ones();
    let mut f = Figure::new(
        "cas-machine",
        format!(
            "Shared counter {} and {n} threads, method {}",
            m.value,
            m.method.label()
        ),
        W,
        height,
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
        let x = 16.0 + i as f32 * (w + gap);
        let failed = last.is_some_and(|e| e.thread == Some(i as u8) && e.kind == MoveKind::CasFail);
        let (class, word) = match t.phase {
            Phase::Done => ("done", "done"),
            _ if failed => ("warn", "retry"),
            _ => ("driver", "ready"),
        };
        let step = ui.act(CasAction::Step(i));
        let mover = last.is_some_and(|e| e.thread == Some(i as u8));
        let cx = x + w / 2.0;
        // The wire to the counter; the last mover's shows which way data went.
        let kind = last.filter(|_| mover).map(|e| e.kind);
        let (thread_end, counter_end) = ((cx, THREAD_Y - 4.0), (480.0, 114.0));
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
                (x, THREAD_Y, w),
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
    f.push(
        Shape::group(
            "counter",
            vec![
                Shape::rect("box", 380.0, 16.0, 200.0, 96.0).class("panel"),
                Shape::text("title", 480.0, 44.0, "counter").size(Size::Title),
                Shape::text("value", 480.0, 92.0, m.value.to_string())
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
            600.0,
            52.0,
            format!("expected {}", m.expected()),
        )
        .start()
        .mono(),
    );
    f.push(
        Shape::group(
            "tally",
            vec![Shape::text("t", 600.0, 80.0, tail).start().mono()],
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
/// latest [`COLS`] steps as chips.
fn interleaving(m: &Cas) -> Figure {
    let n = m.threads.len();
    let lanes = n + usize::from(m.injected > 0);
    let lane_y = |l: usize| 40.0 + 52.0 * l as f32;
    let mut f = Figure::new(
        "cas-steps",
        format!(
            "The interleaving: {} step{} so far",
            m.log.len(),
            plural(m.log.len())
        ),
        W,
        lane_y(lanes) + 8.0,
    )
    .legend("driver", "load or compute")
    .legend("done", "store or successful CAS")
    .legend("warn", "failed CAS, outside write")
    .legend("fault", "a store that erased an update");
    for l in 0..lanes {
        let name = if l < n {
            format!("T{}", l + 1)
        } else {
            "outside".into()
        };
        f.push(
            Shape::text(format!("lane-{l}"), 16.0, lane_y(l) + 28.0, name)
                .start()
                .class("strong"),
        );
        f.push(
            Shape::line(
                format!("track-{l}"),
                (LANE_X, lane_y(l) + 22.0),
                (W - 8.0, lane_y(l) + 22.0),
            )
            .class("grid"),
        );
    }
    if m.log.is_empty() {
        f.push(
            Shape::text(
                "none",
                LANE_X,
                24.0,
                "No steps yet: click a thread to run it.",
            )
            .start()
            .class("muted"),
        );
    }
    let first = m.log.len().saturating_sub(COLS);
    for (c, (k, e)) in m.log.iter().enumerate().skip(first).enumerate() {
        let x = LANE_X + c as f32 * COL;
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
        f.push(Shape::text(format!("n-{k}"), x + COL / 2.0 - 2.0, 24.0, number).size(Size::Small));
        f.push(
            chip(
                format!("step-{k}"),
                (x, lane_y(lane), COL - 4.0),
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
        .figure(interleaving(self))
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
