//! RCU: the list `head → first → X → last` with old versions of X below it
//! (unlinked ones still pointing on to `last`, freed ones ghosts), each
//! reader CPU's pointer into the list, the updater; and a timeline of the
//! readers' critical sections against the grace periods.

mod lesson;

use super::kit::{mono, panel, panel_height, text, Line};
use crate::control::{Control, Group};
use crate::draw::geometry::PathData;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Command, Ui, View};
use crate::scene::{Arrow, Figure, Scene, Shape, Size};
use demos::memory::rcu::{
    node_name, reader_name, Mark, NodeState, Place, Rcu, RcuAction, RcuConfig, Updater, Waiter,
    READERS, STORY,
};
use demos::{Model, Quantity};

const W: f32 = 960.0;

fn name(n: u8) -> String {
    node_name(n).to_string()
}
const NODE_W: f32 = 120.0;
const NODE_H: f32 = 60.0;
const LIST_Y: f32 = 30.0;
const OLD_Y: f32 = 134.0;
const PANEL_Y: f32 = 250.0;
const FIRST_X: f32 = 180.0;
const MID_X: f32 = 410.0;
const LAST_X: f32 = 640.0;
const HEAD_W: f32 = 100.0;
/// Panel lines: the updater's and each reader's two.
const PANEL_LINES: usize = 2;

/// On a phone the list runs down the left edge, the updater's and the
/// readers' panels stacked to its right, each reader's pointer reaching
/// left into the list.
mod narrow {
    use super::NODE_H;
    pub const X: f32 = 12.0;
    /// Down the list: head, first, the linked version, last.
    pub const PITCH: f32 = NODE_H + 24.0;
    /// "NULL" under `last`, then the old versions, newest first.
    pub const OLD_GAP: f32 = 46.0;
    pub const OLD_PITCH: f32 = NODE_H + 16.0;
    pub const PANEL_X: f32 = 160.0;
    pub const PANEL_GAP: f32 = 8.0;
}

/// Where version `n` is drawn: in the list if linked, else in the row below
/// (wide) or the column under the list (narrow).
fn version_x(layout: Layout, m: &Rcu, n: u8) -> (f32, f32) {
    // Old versions, newest nearest the list's middle.
    let k = (0..m.linked).rev().position(|o| o == n).unwrap_or(0) as f32;
    match layout {
        Layout::Wide if n == m.linked => (MID_X, LIST_Y),
        Layout::Wide => (MID_X - k * (NODE_W + 16.0), OLD_Y),
        Layout::Narrow if n == m.linked => (narrow::X, LIST_Y + 2.0 * narrow::PITCH),
        Layout::Narrow => (
            narrow::X,
            LIST_Y + 3.0 * narrow::PITCH + NODE_H + narrow::OLD_GAP + k * narrow::OLD_PITCH,
        ),
    }
}

fn place_xy(layout: Layout, m: &Rcu, p: Place) -> (f32, f32) {
    match (p, layout) {
        (Place::Node(n), _) => version_x(layout, m, n),
        (Place::First, Layout::Wide) => (FIRST_X, LIST_Y),
        (Place::Last, Layout::Wide) => (LAST_X, LIST_Y),
        (Place::First, Layout::Narrow) => (narrow::X, LIST_Y + narrow::PITCH),
        (Place::Last, Layout::Narrow) => (narrow::X, LIST_Y + 3.0 * narrow::PITCH),
    }
}

/// The head's box: where the list starts.
fn head_xy(layout: Layout) -> (f32, f32, f32) {
    layout.pick((16.0, LIST_Y, HEAD_W), (narrow::X, LIST_Y, NODE_W))
}

/// The arrow from a box at (`x`, `y`), `w` wide, to the next one in the
/// list at (`tx`, `ty`): rightwards (wide), downwards (narrow).
fn onward(layout: Layout, (x, y, w): (f32, f32, f32), (tx, ty): (f32, f32)) -> [(f32, f32); 2] {
    match layout {
        Layout::Wide => [(x + w, y + NODE_H / 2.0), (tx - 2.0, ty + NODE_H / 2.0)],
        Layout::Narrow => [(x + w / 2.0, y + NODE_H), (tx + NODE_W / 2.0, ty - 2.0)],
    }
}

fn node_box(key: String, (x, y): (f32, f32), title: &str, sub: &str) -> Shape {
    Shape::group(
        key,
        vec![
            Shape::rect("box", 0.0, 0.0, NODE_W, NODE_H),
            Shape::text("name", NODE_W / 2.0, 28.0, title.to_string())
                .mono()
                .class("strong"),
            Shape::text("sub", NODE_W / 2.0, 49.0, sub.to_string()).size(Size::Small),
        ],
    )
    .at(x, y)
}

fn arrow(key: &str, from: (f32, f32), to: (f32, f32)) -> Shape {
    Shape::arrow(key.to_string(), from, to).class("thick")
}

/// Panels: the updater, then each reader CPU, in a row (wide) or a column
/// (narrow): x, y, width.
fn panel_at(layout: Layout, i: usize, count: usize) -> (f32, f32, f32) {
    match layout {
        Layout::Wide => {
            let gap = 12.0;
            let w = (W - 32.0 - gap * (count - 1) as f32) / count as f32;
            (16.0 + i as f32 * (w + gap), PANEL_Y, w)
        }
        Layout::Narrow => (
            narrow::PANEL_X,
            LIST_Y + i as f32 * (panel_height(PANEL_LINES) + narrow::PANEL_GAP),
            NARROW_WIDTH - narrow::PANEL_X - narrow::X,
        ),
    }
}

fn reader_lines(m: &Rcu, r: usize) -> Vec<Line> {
    let reader = m.readers[r];
    let p = match reader.at {
        None if reader.in_cs => "p = —".to_string(),
        None => "no pointer".to_string(),
        Some(Place::First) => "p = first".to_string(),
        Some(Place::Last) => "p = last".to_string(),
        Some(Place::Node(n)) => [
            "p = ",
            &name(n),
            match m.nodes[usize::from(n)] {
                NodeState::Live => " (new)",
                NodeState::Unlinked => " (old)",
                NodeState::Freed => " (freed)",
            },
        ]
        .concat(),
    };
    vec![
        mono(p),
        text(["data reads ", &reader.uses.to_string()].concat()),
    ]
}

fn updater_lines(m: &Rcu) -> Vec<Line> {
    match m.updater {
        Updater::Idle => vec![text("idle"), mono(["linked: ", &name(m.linked)].concat())],
        Updater::Published { old } => vec![
            text(["published ", &name(m.linked)].concat()),
            mono(["to reclaim: ", &name(old)].concat()),
        ],
        Updater::Waiting { old } => vec![
            text("in synchronize_rcu()"),
            mono(["then kfree(", &name(old), ")"].concat()),
        ],
    }
}

fn list(m: &Rcu, ui: &mut Ui<Rcu>) -> Figure {
    let layout = ui.layout();
    let readers = m.readers.len();
    let count = readers + 1;
    let height = match layout {
        Layout::Wide => PANEL_Y + 44.0 + 52.0 + 8.0,
        Layout::Narrow => {
            let (_, panels_end, _) = panel_at(layout, count, count);
            let oldest = version_x(layout, m, 0).1 + NODE_H + 8.0;
            panels_end.max(oldest)
        }
    };
    let mut f = Figure::new(
        "rcu-list",
        format!(
            "The list head → first → {} → last, with {} old version{}",
            node_name(m.linked),
            m.linked,
            demos::text::plural(usize::from(m.linked))
        ),
        layout.pick(W, NARROW_WIDTH),
        height,
    )
    .legend("done", "the linked version")
    .legend("warn", "unlinked, readers may still hold it")
    .legend("idle ghost", "freed")
    .legend("fault", "a reader on freed memory");
    let (hx, hy, hw) = head_xy(layout);
    let first = place_xy(layout, m, Place::First);
    let last = place_xy(layout, m, Place::Last);
    let linked = version_x(layout, m, m.linked);
    // Where the old versions' `next` arrives: last's middle, a little low.
    let mid = LIST_Y + NODE_H / 2.0;
    f.push(Shape::group(
        "head",
        vec![
            Shape::rect("box", hx, hy, hw, NODE_H).class("panel"),
            Shape::text("name", hx + hw / 2.0, hy + NODE_H / 2.0 + 6.0, "head")
                .mono()
                .class("strong"),
        ],
    ));
    let [from, to] = onward(layout, (hx, hy, hw), first);
    f.push(arrow("ptr-head", from, to));
    f.push(node_box("first".into(), first, "first", "unchanged").class("driver"));
    let [from, to] = onward(layout, (first.0, first.1, NODE_W), linked);
    f.push(
        arrow("link", from, to)
            .class("accent")
            .label(["first->next = ", &name(m.linked)].concat())
            .focus("link"),
    );
    f.push(node_box("last".into(), last, "last", "next = NULL").class("driver"));
    let null = match layout {
        Layout::Wide => Shape::text("null", LAST_X + NODE_W + 14.0, mid + 6.0, "NULL").start(),
        Layout::Narrow => Shape::text(
            "null",
            last.0 + NODE_W / 2.0,
            last.1 + NODE_H + 28.0,
            "NULL",
        ),
    };
    f.push(null.mono().class("muted"));
    for (i, state) in m.nodes.iter().enumerate() {
        let n = i as u8;
        let (x, y) = version_x(layout, m, n);
        let in_list = n == m.linked;
        let held = m.readers.iter().any(|r| r.held() == Some(n));
        let (class, word) = match state {
            NodeState::Live => ("done", "linked"),
            NodeState::Unlinked => ("warn", "unlinked"),
            NodeState::Freed if held => ("fault", "freed"),
            NodeState::Freed => ("idle ghost", "freed"),
        };
        if *state != NodeState::Freed {
            // Its next still leads on to `last` (list_replace_rcu keeps it).
            let next = if in_list {
                let [from, to] = onward(layout, (x, y, NODE_W), last);
                Shape::arrow(format!("next-{n}"), from, to)
            } else {
                let d = match layout {
                    Layout::Wide => {
                        let from = (x + NODE_W, y + NODE_H / 2.0);
                        PathData::new().move_to(from.0, from.1).curve_to(
                            (from.0 + 40.0, from.1),
                            (LAST_X - 40.0, mid + 14.0),
                            (LAST_X - 2.0, mid + 14.0),
                        )
                    }
                    // Up the list's right side, into last's.
                    Layout::Narrow => {
                        let (sx, sy) = (x + NODE_W, y + NODE_H / 2.0);
                        let (ex, ey) = (last.0 + NODE_W + 2.0, last.1 + NODE_H / 2.0 + 14.0);
                        PathData::new().move_to(sx, sy).curve_to(
                            (sx + 22.0, sy),
                            (ex + 22.0, ey),
                            (ex, ey),
                        )
                    }
                };
                Shape::path(format!("next-{n}"), d).arrowhead(Arrow::End)
            };
            f.push(next.class("line").class_if(!in_list, "dashed"));
        }
        f.push(
            node_box(
                format!("node-{n}"),
                (x, y),
                &node_name(n).to_string(),
                &["v", &(i + 1).to_string(), " · ", word].concat(),
            )
            .class(class)
            .state(word)
            .label(["Version ", &name(n), ": ", word].concat())
            .focus(format!("node-{n}")),
        );
    }
    let (ux, uy, uw) = panel_at(layout, 0, count);
    let waiting = matches!(m.updater, Updater::Waiting { .. });
    f.push(
        panel(
            "updater",
            (ux, uy, uw),
            "Updater",
            "CPU 0",
            &updater_lines(m),
        )
        .class(if waiting { "warn" } else { "nic" })
        .focus("updater"),
    );
    for r in 0..readers {
        let reader = m.readers[r];
        let (x, y, w) = panel_at(layout, r + 1, count);
        let word = if reader.in_cs { "inside" } else { "outside" };
        let lost = reader
            .held()
            .is_some_and(|n| m.nodes[usize::from(n)] == NodeState::Freed);
        if let Some(at) = reader.at {
            let (nx, ny) = place_xy(layout, m, at);
            // Several readers on one node arrive side by side.
            let spread = 12.0 * r as f32 - 18.0;
            let d = match layout {
                // Up from the panel into the node's underside.
                Layout::Wide => {
                    let (tx, ty) = (nx + NODE_W / 2.0 + spread, ny + NODE_H + 2.0);
                    let (sx, sy) = (x + w / 2.0, y - 2.0);
                    PathData::new().move_to(sx, sy).curve_to(
                        (sx, sy - 50.0),
                        (tx, ty + 50.0),
                        (tx, ty),
                    )
                }
                // Left from the panel into the node's right side.
                Layout::Narrow => {
                    let (tx, ty) = (nx + NODE_W + 2.0, ny + NODE_H / 2.0 + spread / 2.0);
                    let (sx, sy) = (x - 2.0, y + 30.0);
                    PathData::new().move_to(sx, sy).curve_to(
                        (sx - 16.0, sy),
                        (tx + 16.0, ty),
                        (tx, ty),
                    )
                }
            };
            f.push(
                Shape::path(format!("p-{r}"), d)
                    .arrowhead(Arrow::End)
                    .class("line")
                    .class(if lost { "fault" } else { "accent" }),
            );
        }
        let unlock = ui.act(RcuAction::Unlock(r));
        f.push(
            panel(
                format!("reader-{r}"),
                (x, y, w),
                &reader_name(r),
                word,
                &reader_lines(m, r),
            )
            .class(match (reader.in_cs, lost) {
                (_, true) => "fault",
                (true, _) => "driver",
                _ => "idle",
            })
            .state(word)
            .label([&reader_name(r), ": ", word].concat())
            .focus(format!("reader-{r}"))
            .on_click(if reader.in_cs {
                unlock
            } else {
                ui.act(RcuAction::Lock(r))
            }),
        );
    }
    f
}

const T_LEFT: f32 = 130.0;
const T_RIGHT: f32 = 900.0;
const WINDOW: u32 = 24;
/// Steps between the axis's labels.
const TICK: u32 = 4;

/// The timeline's axis: its ends, and the steps between labels. On a phone
/// the axis is shorter, so fewer labels, and it stops short of the edge so
/// the newest mark's word ("publish B") still fits after its dot.
struct Axis {
    width: f32,
    left: f32,
    right: f32,
    tick: u32,
}

impl Axis {
    fn new(layout: Layout) -> Self {
        match layout {
            Layout::Wide => Axis {
                width: W,
                left: T_LEFT,
                right: T_RIGHT,
                tick: TICK,
            },
            Layout::Narrow => Axis {
                width: NARROW_WIDTH,
                left: 84.0,
                right: 330.0,
                tick: 2 * TICK,
            },
        }
    }
}

/// On a phone, every other mark's word goes a line higher, so that marks a
/// few steps apart do not write over each other.
const MARK_Y: f32 = 55.0;
const MARK_RAISED_Y: f32 = 37.0;

fn timeline(m: &Rcu, layout: Layout) -> Figure {
    let h = &m.history;
    let axis = Axis::new(layout);
    let t0 = h.now.saturating_sub(WINDOW);
    let x = |t: u32| axis.left + (t.max(t0) - t0) as f32 * (axis.right - axis.left) / WINDOW as f32;
    let lane = |r: usize| 104.0 + 44.0 * r as f32;
    let bottom = lane(m.readers.len()) + 4.0;
    let mut f = Figure::new(
        "rcu-timeline",
        "Critical sections and grace periods over time",
        axis.width,
        bottom + 10.0,
    )
    .legend("accent", "grace period")
    .legend("warn", "section that saw an old version")
    .legend("done", "section that saw the linked version")
    .legend("fault", "section that touched freed memory");
    for t in (t0..=t0 + WINDOW).filter(|t| t % axis.tick == 0) {
        f.push(
            Shape::text(format!("tick-{t}"), x(t), 22.0, format!("step {t}"))
                .size(Size::Normal)
                .mono(),
        );
        f.push(Shape::line(format!("grid-{t}"), (x(t), 30.0), (x(t), bottom)).class("grid"));
    }
    f.push(Shape::line("now", (x(h.now), 30.0), (x(h.now), bottom)).class("accent"));
    f.push(
        Shape::text("lane-up", 16.0, 76.0, "updater")
            .start()
            .class("strong"),
    );
    for r in 0..m.readers.len() {
        f.push(
            Shape::text(format!("lane-{r}"), 16.0, lane(r) + 23.0, reader_name(r))
                .start()
                .class("strong"),
        );
    }
    for (i, s) in h.spans.iter().enumerate() {
        let (a, b) = (x(s.start), x(s.end.unwrap_or(h.now)));
        let what = match s.waiter {
            Waiter::Synchronize => "synchronize_rcu()",
            Waiter::Callback => "call_rcu()",
        };
        let mut shapes = vec![
            Shape::rect("bar", a, 62.0, (b - a).max(3.0), 26.0).class("bar"),
            Shape::line("from", (a, 30.0), (a, bottom)).class("dashed"),
        ];
        if b - a > 110.0 {
            shapes.push(
                Shape::text("t", a + 6.0, 80.0, "grace period")
                    .start()
                    .size(Size::Normal),
            );
        }
        if s.end.is_some() {
            shapes.push(Shape::line("to", (b, 30.0), (b, bottom)).class("dashed"));
        }
        f.push(
            Shape::group(format!("grace-{i}"), shapes)
                .class("accent")
                .state(if s.end.is_some() { "over" } else { "running" })
                .label(["Grace period for ", &name(s.node), ", ", what].concat())
                .focus("grace"),
        );
    }
    for (i, (t, mark)) in h.marks.iter().enumerate().filter(|(_, (t, _))| *t >= t0) {
        let word_y = if layout.is_narrow() && i % 2 == 1 {
            MARK_RAISED_Y
        } else {
            MARK_Y
        };
        let (word, class) = match mark {
            Mark::Publish(n) => (["publish ", &name(*n)].concat(), "done"),
            Mark::Free { node, early } => (
                ["free ", &name(*node)].concat(),
                if *early { "fault" } else { "idle" },
            ),
        };
        f.push(
            Shape::group(
                format!("mark-{i}"),
                vec![
                    Shape::circle("dot", x(*t), 50.0, 6.0).class("dot"),
                    Shape::text("t", x(*t) + 9.0, word_y, word)
                        .start()
                        .size(Size::Normal)
                        .class("tone"),
                ],
            )
            .class(class),
        );
    }
    for (i, s) in h
        .sections
        .iter()
        .enumerate()
        .filter(|(_, s)| s.end.is_none_or(|e| e >= t0))
    {
        let y = lane(usize::from(s.reader));
        let (a, b) = (x(s.start), x(s.end.unwrap_or(h.now)));
        let (class, word) = match s.saw {
            _ if s.damaged => ("fault", "freed!".to_string()),
            Some(n) if n == m.linked => ("done", ["saw ", &name(n)].concat()),
            Some(n) => ("warn", ["saw ", &name(n)].concat()),
            None => ("idle", String::new()),
        };
        let mut shapes = vec![Shape::rect("bar", a, y, (b - a).max(3.0), 30.0).class("bar")];
        if b - a > 60.0 && !word.is_empty() {
            shapes.push(
                Shape::text("t", a + 6.0, y + 21.0, word.clone())
                    .start()
                    .mono()
                    .size(Size::Normal),
            );
        }
        f.push(
            Shape::group(format!("cs-{i}"), shapes)
                .class(class)
                .class_if(s.end.is_none(), "dashed")
                .state(if s.end.is_some() { "closed" } else { "open" })
                .label(
                    [
                        &reader_name(usize::from(s.reader)),
                        ": critical section ",
                        &word,
                    ]
                    .concat(),
                ),
        );
    }
    f
}

impl View for Rcu {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let inside = self.readers.iter().filter(|r| r.in_cs).count();
        Scene::new(
            "RCU grace period",
            format!(
                "first->next points to {}; {inside} of {} reader CPUs inside a critical section; {} grace period{} running; {} use-after-free.",
                node_name(self.linked),
                self.readers.len(),
                self.grace.len(),
                demos::text::plural(self.grace.len()),
                self.damage.len()
            ),
        )
        .figure(list(self, ui))
        .figure(timeline(self, ui.layout()))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let mut out = Vec::new();
        for r in 0..self.readers.len() {
            let id = |what: &str| format!("{what}-{}", r + 1);
            out.push(Control::Group(Group {
                label: reader_name(r),
                controls: vec![
                    Control::button(&id("lock"), "rcu_read_lock()", ui.act(RcuAction::Lock(r))),
                    Control::button(
                        &id("deref"),
                        "p = rcu_dereference(…)",
                        ui.act(RcuAction::Deref(r)),
                    ),
                    Control::button(&id("use"), "read p->data", ui.act(RcuAction::Use(r))),
                    Control::button(
                        &id("unlock"),
                        "rcu_read_unlock()",
                        ui.act(RcuAction::Unlock(r)),
                    ),
                ],
                danger: false,
            }));
        }
        out.push(Control::group(
            "Updater · CPU 0",
            vec![
                Control::button(
                    "publish",
                    "Publish a new version: rcu_assign_pointer()",
                    ui.act(RcuAction::Publish),
                )
                .primary(),
                Control::button(
                    "synchronize",
                    "synchronize_rcu(), then kfree()",
                    ui.act(RcuAction::Synchronize),
                ),
                Control::button("call-rcu", "call_rcu()", ui.act(RcuAction::CallRcu)),
            ],
        ));
        let mut zone = vec![Control::button(
            "free-now",
            "kfree() the old version at once",
            ui.act(RcuAction::FreeNow),
        )
        .danger()];
        // Step follows the story until an action leaves it; the free is not in it.
        let on_story = self.story.is_some_and(|i| i < STORY.len());
        if on_story && self.refusal(&RcuAction::FreeNow).is_none() {
            zone.push(Control::note(
                "Freeing leaves the story: Step then lets the readers finish.",
            ));
        }
        out.push(Control::danger_group("Break it", zone));
        out.push(Control::slider(
            "readers",
            "Reader CPUs (restarts)",
            READERS.control_range(self.readers.len()),
            READERS.unit,
            ui.number(|v| {
                Ok(Command::Restart(RcuConfig {
                    readers: Quantity::from_i64(v),
                }))
            }),
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn story(n: usize) -> Rcu {
        let mut m = Rcu::new(&RcuConfig::default());
        for a in &STORY[..n] {
            m.apply(a).unwrap();
        }
        m
    }

    #[test]
    fn during_the_grace_period_cpu_1_holds_old_a_and_cpu_3_new_b() {
        let m = story(11);
        let scene = crate::build(&m, &()).0;
        assert_eq!(
            scene.find("node-0").unwrap().state.as_deref(),
            Some("unlinked")
        );
        assert_eq!(
            scene.find("node-1").unwrap().state.as_deref(),
            Some("linked")
        );
        let cpu1 = scene.find("reader-0").unwrap();
        assert!(cpu1
            .children()
            .iter()
            .any(|s| s.text_content() == Some("p = A (old)")));
        let cpu3 = scene.find("reader-2").unwrap();
        assert!(cpu3
            .children()
            .iter()
            .any(|s| s.text_content() == Some("p = B (new)")));
        assert_eq!(
            scene.find("grace-0").unwrap().state.as_deref(),
            Some("running")
        );
        assert_eq!(
            scene.find("updater").unwrap().children()[3].text_content(),
            Some("in synchronize_rcu()")
        );
        // CPU 1's section saw A, the old version; CPU 3's saw B.
        assert!(scene.find("cs-0").unwrap().has_class("warn"));
        assert!(scene.find("cs-1").unwrap().has_class("done"));
    }

    #[test]
    fn freeing_at_once_puts_a_reader_on_a_freed_node() {
        let mut m = Rcu::new(&RcuConfig::default());
        for a in [
            RcuAction::Lock(0),
            RcuAction::Deref(0),
            RcuAction::Deref(0),
            RcuAction::Publish,
            RcuAction::FreeNow,
            RcuAction::Use(0),
        ] {
            m.apply(&a).unwrap();
        }
        let scene = crate::build(&m, &()).0;
        let a = scene.find("node-0").unwrap();
        assert_eq!(a.state.as_deref(), Some("freed"));
        assert!(a.has_class("fault"));
        assert!(scene.find("p-0").unwrap().has_class("fault"));
        assert!(scene.find("cs-0").unwrap().has_class("fault"));
        assert!(
            scene.find("next-0").is_none(),
            "freed memory has no next to draw"
        );
    }

    #[test]
    fn clicking_a_reader_enters_or_leaves_its_critical_section() {
        let m = story(1);
        let (scene, _, ui) = crate::build(&m, &());
        let click = |key: &str| {
            ui.resolve(
                scene.find(key).unwrap().on_click.unwrap(),
                &crate::Input::Press,
            )
            .unwrap()
        };
        assert_eq!(click("reader-0"), Command::Do(RcuAction::Unlock(0)));
        assert_eq!(click("reader-1"), Command::Do(RcuAction::Lock(1)));
    }

    /// The Break it zone's notes.
    fn zone_notes(m: &Rcu) -> Vec<String> {
        let (_, controls, _) = crate::build(m, &());
        Control::danger_zone(&controls)
            .expect("a Break it zone")
            .notes()
    }

    #[test]
    fn break_it_says_it_leaves_the_story_when_it_can_free_on_the_story() {
        const NOTE: &str = "Freeing leaves the story: Step then lets the readers finish.";
        let publish = STORY.iter().position(|a| *a == RcuAction::Publish).unwrap();
        // Nothing to free before the update is published.
        assert!(zone_notes(&story(publish)).is_empty());
        let m = story(publish + 1);
        assert_eq!(zone_notes(&m), [NOTE]);
        // The note is true: Step leaves the story and runs the readers.
        let mut broken = m.clone();
        broken.apply(&RcuAction::FreeNow).unwrap();
        assert_eq!(broken.story, None);
        assert!(zone_notes(&broken).is_empty(), "off the story");
        assert_eq!(broken.next_auto(), Ok(RcuAction::Use(0)));
        assert_ne!(m.next_auto(), broken.next_auto());
        // Off the story, freeing does not change what Step picks.
        let mut off = story(publish + 1);
        off.apply(&RcuAction::Lock(1)).unwrap();
        assert_eq!(off.story, None);
        assert!(zone_notes(&off).is_empty());
    }
}
