//! The ABA problem: the Treiber stack as linked nodes (head, then each node's
//! `next`), the free list and the retired list as rows below, and the two
//! threads with what they read. A node sits in the row where the allocator
//! believes it is, so a `next` pointer into the free list is damage you see.

mod lesson;

use super::kit::{mono, panel, text, Line};
use crate::control::Control;
use crate::draw::geometry::PathData;
use crate::draw::text::line_key;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Ui, View};
use crate::scene::{Arrow, Figure, Item, List, Scene, Shape, Size};
use demos::memory::aba::{name, ptr, Aba, AbaAction, Home, Next, Task, Worker, NODES, THREADS};

const W: f32 = 960.0;
const NODE_H: f32 = 60.0;
/// The head's box: its width (it is node-high).
const HEAD_W: f32 = 140.0;
/// Lines in a thread's panel (see [`worker_lines`]).
const PANEL_LINES: f32 = 5.0;

/// Where the figure puts the rows, the nodes and the threads.
struct Geo {
    width: f32,
    height: f32,
    node_w: f32,
    /// The first node slot of a row, and the pitch between slots.
    slot_x: f32,
    pitch: f32,
    /// Rows: the stack, the free list, the retired list.
    rows: [f32; 3],
    /// The head's box, top-left.
    head: (f32, f32),
    /// Each thread's panel, top-left; their width.
    panels: [(f32, f32); THREADS],
    panel_w: f32,
    /// A row's name, relative to the row's top: left of the row (wide),
    /// over it (narrow).
    row_name: (f32, f32),
}

impl Geo {
    /// Wide: the head left of the stack's row, the lists' names left of
    /// theirs, the two threads side by side. Narrow: four slimmer nodes fill
    /// a row, so the head sits above the stack, each list's name above its
    /// row, and the threads one under the other.
    fn new(layout: Layout) -> Self {
        let panel_h = 44.0 + 26.0 * PANEL_LINES;
        match layout {
            Layout::Wide => {
                let (thread_y, panel_w) = (364.0, 450.0);
                Geo {
                    width: W,
                    height: thread_y + panel_h + 8.0,
                    node_w: 110.0,
                    slot_x: 200.0,
                    pitch: 180.0,
                    rows: [30.0, 160.0, 270.0],
                    head: (16.0, 30.0),
                    panels: [(16.0, thread_y), (W - 16.0 - panel_w, thread_y)],
                    panel_w,
                    row_name: (16.0, 36.0),
                }
            }
            Layout::Narrow => {
                let (margin, node_w) = (16.0, 88.0);
                let slots = NODES as f32;
                let pitch = (NARROW_WIDTH - 2.0 * margin - node_w) / (slots - 1.0);
                let thread_y = 470.0;
                Geo {
                    width: NARROW_WIDTH,
                    height: thread_y + 2.0 * panel_h + 12.0 + 8.0,
                    node_w,
                    slot_x: margin,
                    pitch,
                    rows: [130.0, 250.0, 370.0],
                    head: (margin, 16.0),
                    panels: [(12.0, thread_y), (12.0, thread_y + panel_h + 12.0)],
                    panel_w: NARROW_WIDTH - 24.0,
                    row_name: (16.0, -10.0),
                }
            }
        }
    }
}

/// Where node `n` is drawn (its top-left corner), by where it lives.
fn place(g: &Geo, m: &Aba, n: u8) -> (f32, f32) {
    let slot = |list: &[u8]| list.iter().position(|&x| x == n).unwrap_or(0) as f32;
    match m.nodes[usize::from(n)].home {
        Home::Linked => {
            let (walk, _) = m.walk();
            // Reachable nodes in order, then linked ones nothing points to.
            let mut linked: Vec<u8> = walk
                .into_iter()
                .filter(|&x| m.nodes[usize::from(x)].home == Home::Linked)
                .collect();
            for x in 0..NODES as u8 {
                if m.nodes[usize::from(x)].home == Home::Linked && !linked.contains(&x) {
                    linked.push(x);
                }
            }
            (g.slot_x + slot(&linked) * g.pitch, g.rows[0])
        }
        Home::Free => (g.slot_x + slot(&m.free) * g.pitch, g.rows[1]),
        Home::Retired => (g.slot_x + slot(&m.retired) * g.pitch, g.rows[2]),
        Home::Pushing(t) => {
            let (x, y) = g.panels[usize::from(t)];
            (x + g.panel_w - g.node_w - 16.0, y + 60.0)
        }
    }
}

fn home_word(home: Home) -> &'static str {
    match home {
        Home::Linked => "linked",
        Home::Free => "free",
        Home::Retired => "retired",
        Home::Pushing(_) => "pushing",
    }
}

fn node(g: &Geo, m: &Aba, n: u8, reachable: bool) -> Shape {
    let node = m.nodes[usize::from(n)];
    let (x, y) = place(g, m, n);
    let freed = matches!(node.home, Home::Free | Home::Retired);
    let class = match node.home {
        _ if freed && reachable => "fault",
        Home::Linked if !reachable => "fault",
        Home::Linked => "driver",
        Home::Pushing(_) => "accent",
        Home::Retired => "warn",
        Home::Free => "idle",
    };
    let held = m
        .workers
        .iter()
        .enumerate()
        .filter(|(_, w)| w.hazard == Some(n))
        .map(|(t, _)| format!("HP T{}", t + 1))
        .next();
    let mut shapes = vec![
        Shape::rect("box", 0.0, 0.0, g.node_w, NODE_H),
        Shape::text("name", 22.0, 38.0, name(n).to_string())
            .mono()
            .size(Size::Large),
        Shape::text("next", 44.0, 26.0, "next")
            .start()
            .size(Size::Small),
        Shape::text("to", 44.0, 48.0, ptr(node.next)).start().mono(),
    ];
    if let Some(hp) = held {
        shapes.push(
            Shape::text("hp", g.node_w / 2.0, NODE_H + 18.0, hp)
                .mono()
                .size(Size::Small)
                .class("tone"),
        );
    }
    Shape::group(format!("node-{n}"), shapes)
        .at(x, y)
        .class(class)
        .state(home_word(node.home))
        .label(
            [
                "Node ",
                &ptr(Some(n)),
                ": ",
                home_word(node.home),
                if class == "fault" { ", damaged" } else { "" },
            ]
            .concat(),
        )
        .focus(format!("node-{n}"))
}

/// A pointer from a box at (`x`, `y`) (`w` wide, node-high) to node `to`:
/// side to side along a row, top to bottom between rows, over the top when
/// it points back along its own row. From a node being pushed in a thread
/// panel that has the other panel above it (narrow), out of the node's right
/// side, up the figure's right margin and along under the target's row
/// (clear of its `HP` word), rather than across the other thread's lines.
fn pointer(g: &Geo, m: &Aba, key: String, (x, y, w): (f32, f32, f32), to: u8) -> Shape {
    let (tx, ty) = place(g, m, to);
    let node_w = g.node_w;
    let stacked = g.panels[1].1 > g.panels[0].1;
    let d = if stacked && y > g.panels[1].1 {
        let (sx, sy) = (x + w, y + NODE_H / 2.0);
        let (margin, under, ex) = (g.width - 6.0, ty + NODE_H + 28.0, tx + node_w - 14.0);
        PathData::new()
            .move_to(sx, sy)
            .line_to(margin, sy)
            .line_to(margin, under)
            .line_to(ex, under)
            .line_to(ex, ty + NODE_H + 2.0)
    } else if (ty - y).abs() < 1.0 && tx > x {
        let mid = y + NODE_H / 2.0;
        PathData::new().move_to(x + w, mid).line_to(tx - 2.0, mid)
    } else if (ty - y).abs() < 1.0 {
        let (sx, ex) = (x + w / 2.0, tx + node_w / 2.0);
        PathData::new()
            .move_to(sx, y)
            .curve_to((sx, y - 28.0), (ex, ty - 28.0), (ex, ty - 2.0))
    } else if ty > y {
        PathData::new()
            .move_to(x + w / 2.0, y + NODE_H)
            .line_to(tx + node_w / 2.0, ty - 2.0)
    } else {
        PathData::new()
            .move_to(x + w / 2.0, y)
            .line_to(tx + node_w / 2.0, ty + NODE_H + 2.0)
    };
    Shape::path(key, d).arrowhead(Arrow::End).class("line")
}

fn worker_lines(m: &Aba, w: &Worker) -> Vec<Line> {
    let step = match w.next_step {
        Next::ReadHead => "read head",
        Next::ReadNext => "read next",
        Next::Cas => "CAS",
    };
    let mut seen = ["saw head = ", &ptr(w.seen)].concat();
    if m.tagged {
        seen = [&seen, " · tag ", &w.seen_tag.to_string()].concat();
    }
    let mut lines = match w.task {
        Task::Idle => vec![
            text("idle: start a pop or a push"),
            mono("saw head = —"),
            mono("next = —"),
        ],
        Task::Pop => vec![
            text(["pop · next step: ", step].concat()),
            mono(seen),
            mono(
                [
                    "next = ",
                    &if w.next_step == Next::Cas {
                        ptr(w.next)
                    } else {
                        "?".into()
                    },
                ]
                .concat(),
            ),
        ],
        Task::Push(n) => vec![
            text(["push ", &ptr(Some(n)), " · next step: ", step].concat()),
            mono(seen),
            mono(
                [
                    &ptr(Some(n)),
                    ".next = ",
                    &ptr(m.nodes[usize::from(n)].next),
                ]
                .concat(),
            ),
        ],
    };
    lines.push(mono(
        [
            "hazard = ",
            &if m.deferred {
                ptr(w.hazard)
            } else {
                "off".into()
            },
        ]
        .concat(),
    ));
    lines.push(text(format!("done {} · failed CAS {}", w.done, w.retries)));
    lines
}

fn stack(m: &Aba, ui: &mut Ui<Aba>) -> Figure {
    let g = Geo::new(ui.layout());
    let (reachable, cycle) = m.walk();
    let mut f = Figure::new(
        "aba-stack",
        format!(
            "Treiber stack with {}: head {}, free list {}",
            m.fix_label(),
            ptr(m.head),
            if m.free.is_empty() {
                "empty".to_string()
            } else {
                m.free
                    .iter()
                    .map(|&n| name(n).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ),
        g.width,
        g.height,
    )
    .legend("driver", "in the stack")
    .legend("idle", "on the free list")
    .legend("warn", "retired, waiting for hazard pointers")
    .legend("accent", "being pushed")
    .legend("fault", "damage: freed yet reachable, or lost");
    for (i, row) in ["stack", "free list", "retired"].iter().enumerate() {
        if i > 0 {
            f.push(
                Shape::text(
                    format!("row-{i}"),
                    g.row_name.0,
                    g.rows[i] + g.row_name.1,
                    *row,
                )
                .start()
                .class("muted"),
            );
        }
    }
    if !m.deferred {
        // One line where the retired nodes would be; two on a phone.
        let (first, second) = ("(hazard pointers off:", "popped nodes are freed at once)");
        let y = g.rows[2] + 36.0;
        let lines = match ui.layout() {
            Layout::Wide => vec![([first, " ", second].concat(), y)],
            Layout::Narrow => vec![
                (first.to_string(), y - 11.0),
                (second.to_string(), y + 11.0),
            ],
        };
        for (i, (line, y)) in lines.into_iter().enumerate() {
            let key = line_key("row-off", i);
            f.push(Shape::text(key, g.slot_x, y, line).start().class("muted"));
        }
    }
    let head_text = if m.tagged {
        format!("{} · tag {}", ptr(m.head), m.tag)
    } else {
        ptr(m.head)
    };
    let (hx, hy) = g.head;
    f.push(
        Shape::group(
            "head",
            vec![
                Shape::rect("box", hx, hy, HEAD_W, NODE_H).class("panel"),
                Shape::text("title", hx + 12.0, hy + 24.0, "head")
                    .start()
                    .class("strong"),
                Shape::text("value", hx + 12.0, hy + 50.0, head_text.clone())
                    .start()
                    .mono(),
            ],
        )
        .class(if m.corrupted() { "fault" } else { "accent" })
        .state(head_text)
        .focus("head"),
    );
    for t in 0..THREADS {
        let w = &m.workers[t];
        let word = match w.task {
            Task::Idle => "idle",
            _ if w.next_step == Next::Cas => "CAS next",
            _ => "running",
        };
        f.push(
            panel(
                format!("thread-{t}"),
                (g.panels[t].0, g.panels[t].1, g.panel_w),
                &format!("T{}", t + 1),
                word,
                &worker_lines(m, w),
            )
            .class(if w.task == Task::Idle {
                "idle"
            } else {
                "driver"
            })
            .state(word)
            .label(word)
            .focus(format!("thread-{t}"))
            .on_click(ui.act(AbaAction::Step(t))),
        );
    }
    // A live pointer into freed memory is damage; pointers no walk from
    // head follows are stale words in freed or unlinked nodes (dashed).
    let freed = |n: u8| matches!(m.nodes[usize::from(n)].home, Home::Free | Home::Retired);
    if let Some(h) = m.head {
        f.push(pointer(&g, m, "ptr-head".into(), (hx, hy, HEAD_W), h).class_if(freed(h), "fault"));
    }
    for n in 0..NODES as u8 {
        let node = m.nodes[usize::from(n)];
        if let Some(to) = node.next {
            let (x, y) = place(&g, m, n);
            let live = reachable.contains(&n) || matches!(node.home, Home::Pushing(_));
            f.push(
                pointer(&g, m, format!("ptr-{n}"), (x, y, g.node_w), to)
                    .class_if(!live, "dashed")
                    .class_if(live && (freed(to) || cycle == Some(to)), "fault"),
            );
        }
    }
    for n in 0..NODES as u8 {
        f.push(node(&g, m, n, reachable.contains(&n)));
    }
    f
}

fn damage(m: &Aba) -> List {
    let mut list = List::new(
        "aba-damage",
        "Damage found",
        "None: every node is where the algorithm believes it is.",
    )
    .focus("head");
    for (i, d) in m.damage.iter().enumerate() {
        list = list.item(
            Item::new(format!("damage-{i}"), d.sentence())
                .class("fault")
                .tag("Fault:"),
        );
    }
    list
}

impl View for Aba {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let (walk, cycle) = self.walk();
        let mut chain: Vec<String> = walk.iter().map(|&n| name(n).to_string()).collect();
        if cycle.is_some() {
            chain.push("…".into());
        }
        Scene::new(
            "The ABA problem",
            format!(
                "A Treiber stack with {}. From head: {}. {}",
                self.fix_label(),
                if chain.is_empty() {
                    "empty".to_string()
                } else {
                    chain.join(" → ")
                },
                if self.corrupted() {
                    "The stack is corrupted."
                } else {
                    "No damage."
                }
            ),
        )
        .figure(stack(self, ui))
        .list(damage(self))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let mut out = Vec::new();
        for t in 0..THREADS {
            let who = format!("T{}", t + 1);
            let id = |what: &str| format!("{what}-t{}", t + 1);
            let mut group = vec![
                Control::button(
                    &id("step"),
                    format!("Step {who}"),
                    ui.act(AbaAction::Step(t)),
                )
                .primary(),
                Control::button(&id("pop"), format!("{who}: pop"), ui.act(AbaAction::Pop(t))),
            ];
            for &n in &self.free {
                let letter = name(n);
                group.push(Control::button(
                    &format!("push-t{}-{}", t + 1, letter.to_ascii_lowercase()),
                    format!("{who}: push {letter}"),
                    ui.act(AbaAction::Push(t, n)),
                ));
            }
            out.push(Control::group(who, group));
        }
        out.push(Control::group(
            "Fixes (each starts over; both off is raw CAS, which breaks)",
            vec![
                Control::toggle(
                    "tagged",
                    "Tagged head (version counter)",
                    self.tagged,
                    ui.act(AbaAction::SetTagged(!self.tagged)),
                ),
                Control::toggle(
                    "hazard",
                    "Hazard pointers (deferred reuse)",
                    self.deferred,
                    ui.act(AbaAction::SetDeferred(!self.deferred)),
                ),
            ],
        ));
        out.push(Control::note(
            "Step plays the classic run: T1 reads A and A.next = B, stalls; T2 pops A and B, pushes A back; T1's CAS.",
        ));
        out.push(break_it(self, ui));
        out
    }
}

/// The Break it zone. Raw CAS is the default, so the stack starts out
/// broken: the zone holds the moves that lead to the damage, and says what
/// Step reaches from here (the model's count).
fn break_it(m: &Aba, ui: &mut Ui<Aba>) -> Control {
    let mut zone = vec![Control::button(
        "unprotect",
        "Unprotected stack: bare head pointer, no tag, no hazard pointers (starts over)",
        ui.act(AbaAction::Unprotect),
    )
    .danger()];
    if let Some((t, holder, n)) = m.reuse() {
        zone.push(
            Control::button(
                "reuse",
                format!(
                    "T{}: push {} back while T{} still holds it",
                    t + 1,
                    name(n),
                    holder + 1
                ),
                ui.act(AbaAction::Push(t, n)),
            )
            .danger(),
        );
    }
    let raw = !m.tagged && !m.deferred;
    let ahead = m.damage_ahead().map(|(steps, d)| {
        format!(
            "{steps} more Step{} reach the damage: {}.",
            demos::text::plural(steps),
            d.phrase()
        )
    });
    let note = match ahead {
        Some(ahead) if raw => {
            ["Raw CAS is this demo's default, so the stack is already the unprotected one. ", &ahead].concat()
        }
        Some(ahead) => ahead,
        None if m.corrupted() => {
            "The stack is corrupted: Damage found lists what the stale CAS did. Step reaches no further damage from here.".to_string()
        }
        None if raw => {
            "Raw CAS, but Step reaches no damage from this schedule: start over unprotected to replay the classic run.".to_string()
        }
        None => format!(
            "With {}, Step reaches no damage: the unprotected stack starts over without the fixes.",
            m.fix_label()
        ),
    };
    zone.push(Control::note(note));
    Control::danger_group("Break it", zone)
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::memory::aba::{AbaConfig, CLASSIC};
    use demos::Model;

    fn classic(config: AbaConfig) -> Aba {
        let mut m = Aba::new(&config);
        for a in CLASSIC {
            m.apply(&a).unwrap();
        }
        m
    }

    #[test]
    fn raw_cas_leaves_head_pointing_into_the_free_list() {
        let m = classic(AbaConfig::default());
        let scene = crate::build(&m, &()).0;
        let b = scene.find("node-1").unwrap();
        assert_eq!(b.state.as_deref(), Some("free"));
        assert!(b.has_class("fault"), "B is free yet reachable");
        assert!(scene.find("ptr-head").is_some());
        assert_eq!(scene.find("head").unwrap().state.as_deref(), Some("B"));
        let list = scene.list_named("aba-damage").unwrap();
        assert_eq!(
            list.items[0].text,
            "Corrupted: B is reachable from head, but it was freed."
        );
    }

    #[test]
    fn with_a_tag_the_stack_is_whole_and_the_head_shows_its_version() {
        let m = classic(AbaConfig {
            tagged: true,
            deferred: false,
        });
        let scene = crate::build(&m, &()).0;
        assert_eq!(
            scene.find("head").unwrap().state.as_deref(),
            Some("A · tag 3")
        );
        assert!(scene.list_named("aba-damage").unwrap().items.is_empty());
        assert!(scene
            .figures()
            .next()
            .unwrap()
            .walk()
            .iter()
            .all(|s| !s.has_class("fault")));
    }

    fn zone(controls: &[Control]) -> &crate::control::Group {
        let groups: Vec<_> = controls
            .iter()
            .filter_map(|c| match c {
                Control::Group(g) if g.label == "Break it" => Some(g),
                _ => None,
            })
            .collect();
        assert_eq!(groups.len(), 1, "one Break it zone");
        assert!(groups[0].danger, "drawn as the danger zone");
        groups[0]
    }

    fn note(g: &crate::control::Group) -> &str {
        g.controls
            .iter()
            .find_map(|c| match c {
                Control::Note(text) => Some(text.as_str()),
                _ => None,
            })
            .expect("a note")
    }

    /// Issue 37: the Break it zone's Unprotect restarts with the bare head,
    /// and the note counts the Steps to the damage from the model.
    #[test]
    fn break_it_unprotects_and_says_what_step_reaches() {
        let fixed = Aba::new(&AbaConfig {
            tagged: true,
            deferred: false,
        });
        let (_, controls, ui) = crate::build(&fixed, &());
        let g = zone(&controls);
        assert_eq!(
            note(g),
            "With a tagged head, Step reaches no damage: the unprotected stack starts over without the fixes."
        );
        let Some(Control::Button(b)) = Control::find(&controls, "unprotect") else {
            panic!("unprotect button");
        };
        assert_eq!(b.emphasis, crate::control::Emphasis::Danger);
        let crate::Command::Do(action) = ui.resolve(b.send, &crate::Input::Press).unwrap() else {
            panic!("unprotect is a model action");
        };
        let mut m = fixed.clone();
        m.apply(&action).unwrap();
        assert_eq!(m, Aba::new(&AbaConfig::default()));
        let (scene, controls, _) = crate::build(&m, &());
        assert_eq!(
            note(zone(&controls)),
            "Raw CAS is this demo's default, so the stack is already the unprotected one. 11 more Steps reach the damage: B freed yet reachable from head."
        );
        assert!(scene.summary.contains("with raw CAS"));
        // Stepping the count the note gives reaches the damage it names.
        for _ in 0..11 {
            let a = m.next_auto().unwrap();
            m.apply(&a).unwrap();
        }
        let (scene, controls, _) = crate::build(&m, &());
        assert!(scene.find("node-1").unwrap().has_class("fault"));
        assert!(note(zone(&controls)).starts_with("The stack is corrupted"));
    }

    /// On the untouched default the page marks Unprotect refused, saying the
    /// stack is already the broken one.
    #[test]
    fn unprotect_on_the_default_is_refused_with_the_reason() {
        let (mut live, _) = crate::live::open::<Aba>(None);
        let frame = live.frame();
        let Some(Control::Button(b)) = Control::find(&frame.controls, "unprotect") else {
            panic!("unprotect button");
        };
        assert!(b
            .refused
            .as_deref()
            .is_some_and(|r| r.starts_with("The stack is already unprotected, its default")));
    }

    /// The reuse move appears exactly when pushing the node back is the ABA,
    /// and pressing it then letting T1 CAS corrupts the stack.
    #[test]
    fn the_reuse_move_is_the_aba() {
        let mut m = Aba::new(&AbaConfig::default());
        for a in &CLASSIC[..8] {
            let (_, controls, _) = crate::build(&m, &());
            assert!(Control::find(&controls, "reuse").is_none());
            m.apply(a).unwrap();
        }
        let (_, controls, ui) = crate::build(&m, &());
        let Some(Control::Button(b)) = Control::find(&controls, "reuse") else {
            panic!("reuse button");
        };
        assert_eq!(b.label, "T2: push A back while T1 still holds it");
        let crate::Command::Do(action) = ui.resolve(b.send, &crate::Input::Press).unwrap() else {
            panic!("reuse is a model action");
        };
        assert_eq!(action, AbaAction::Push(1, 0));
        for a in [action, AbaAction::Step(1), AbaAction::Step(0)] {
            m.apply(&a).unwrap();
        }
        assert!(m.corrupted());
        let scene = crate::build(&m, &()).0;
        assert_eq!(
            scene.list_named("aba-damage").unwrap().items[0].text,
            "Corrupted: B is reachable from head, but it was freed."
        );
    }

    #[test]
    fn a_node_being_pushed_sits_with_its_thread_and_hazards_are_shown() {
        let mut m = Aba::new(&AbaConfig {
            tagged: false,
            deferred: true,
        });
        m.apply(&AbaAction::Pop(0)).unwrap();
        m.apply(&AbaAction::Push(1, 3)).unwrap();
        let scene = crate::build(&m, &()).0;
        assert_eq!(
            scene.find("node-3").unwrap().state.as_deref(),
            Some("pushing")
        );
        let hp = scene
            .find("node-0")
            .unwrap()
            .children()
            .iter()
            .any(|s| s.text_content() == Some("HP T1"));
        assert!(hp, "T1's hazard pointer holds A");
        let (_, controls, _) = crate::build(&m, &());
        assert!(
            Control::find(&controls, "push-t1-d").is_none(),
            "D is not free any more"
        );
    }
}
