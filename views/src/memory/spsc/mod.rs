//! SPSC ring: the producer's core and its store buffer on the left, shared
//! memory (the two indices and the slots) in the middle, the consumer's core
//! and buffer on the right; who writes what, with each index line's moves;
//! the values received and any wrong ones.

mod lesson;

use crate::control::Control;
use crate::draw::text::line_key;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Command, Ui, View};
use crate::scene::{Cell, Figure, Item, List, Scene, Shape, Size, Table};
use demos::memory::spsc::{
    ConsumerStep, Fault, IndexAccess, ProducerStep, Spsc, SpscAction, SpscConfig, CAPACITY,
    CONSUMER, FIRST_SLOT, HEAD, HEAD_LOC, PRODUCER, TAIL, TAIL_LOC,
};
use demos::memory::store_buffer::{Drain, Entry};

/// Two columns, the producer's on the left and the consumer's on the
/// right: core, store buffer, then the index that core writes; the slots
/// below, across both. Narrow enough to read on a projector.
const WIDTH: f32 = 600.0;
const COL_W: f32 = 285.0;
const CORE_H: f32 = 104.0;
const BUF_Y: f32 = 126.0;
const ENTRY: f32 = 32.0;
/// Buffered stores drawn per core; the rest are counted.
const SHOWN: usize = 5;
const BUF_H: f32 = 44.0 + SHOWN as f32 * ENTRY;
const INDEX_Y: f32 = BUF_Y + BUF_H + 18.0;
const SLOTS_Y: f32 = INDEX_Y + 56.0 + 62.0;
const SLOT_GAP: f32 = 8.0;
/// A column's height: core, buffer and index.
const COLUMN_H: f32 = INDEX_Y + 56.0;
/// The slots' caption: one line, or two on a phone.
const SLOTS_CAPTION: [&str; 2] = ["Slots in memory", "(H, T: where head and tail point)"];

/// Where the figure puts the two columns and the slots.
struct Geo {
    width: f32,
    col_w: f32,
    /// Each column's top-left corner, by core.
    columns: [(f32, f32); 2],
    slots_y: f32,
}

impl Geo {
    /// Wide: producer's column left, consumer's right. Narrow: each column
    /// full width, the producer's above the consumer's; the slots under
    /// both, their caption in two lines.
    fn new(layout: Layout) -> Self {
        match layout {
            Layout::Wide => Geo {
                width: WIDTH,
                col_w: COL_W,
                columns: [(10.0, 0.0), (WIDTH - 10.0 - COL_W, 0.0)],
                slots_y: SLOTS_Y,
            },
            Layout::Narrow => {
                let below = COLUMN_H + 16.0;
                let mut columns = [(12.0, 0.0); 2];
                columns[CONSUMER].1 = below;
                Geo {
                    width: NARROW_WIDTH,
                    col_w: NARROW_WIDTH - 24.0,
                    columns,
                    // Room for the caption's second line.
                    slots_y: below + SLOTS_Y + 22.0,
                }
            }
        }
    }
}

/// The producer's next step, in a few words.
fn producer_next(s: &Spsc) -> String {
    match s.producer {
        ProducerStep::CheckSpace => "check for space".into(),
        ProducerStep::WriteSlot => format!("write slot {}", s.slot(s.tail)),
        ProducerStep::PublishTail => format!("publish tail = {}", s.tail + 1),
    }
}

fn consumer_next(s: &Spsc) -> String {
    match s.consumer {
        ConsumerStep::ReadTail => "check for an item".into(),
        ConsumerStep::ReadSlot => format!("read slot {}", s.slot(s.head)),
        ConsumerStep::PublishHead => format!("publish head = {}", s.head + 1),
        ConsumerStep::ReadSlotLate => format!("read slot {}", s.slot(s.head - 1)),
    }
}

/// A store as it waits in a buffer: `slot 2 = 3`, `tail = 4 rel`.
fn entry_text(e: &Entry) -> String {
    match *e {
        Entry::Store {
            loc,
            value,
            release,
        } => {
            let what = match loc {
                HEAD_LOC => "head".to_string(),
                TAIL_LOC => "tail".to_string(),
                slot => format!("slot {}", slot - FIRST_SLOT),
            };
            format!("{what} = {value}{}", if release { " rel" } else { "" })
        }
        Entry::Barrier => "barrier".into(),
    }
}

/// A core: its name, next step and own counters.
fn core(g: &Geo, key: &str, who: usize, title: &str, next: String, counters: String) -> Shape {
    let (x, y) = g.columns[who];
    Shape::group(
        key,
        vec![
            Shape::rect("box", x, y + 10.0, g.col_w, CORE_H).class("panel"),
            Shape::text("name", x + 14.0, y + 38.0, title)
                .start()
                .size(Size::Title),
            Shape::text("next", x + 14.0, y + 68.0, format!("next: {next}")).start(),
            Shape::text("own", x + 14.0, y + 96.0, counters)
                .start()
                .mono()
                .class("muted"),
        ],
    )
    .class("driver")
    .focus(key)
}

/// A store buffer; each entry is clickable when `drain` gives it an action.
fn buffer(
    g: &Geo,
    s: &Spsc,
    core: usize,
    ui: &mut Ui<Spsc>,
    drain: impl Fn(usize) -> SpscAction,
) -> Shape {
    let (x, top) = g.columns[core];
    let (col_w, buf_y) = (g.col_w, top + BUF_Y);
    let b = &s.buffers[core];
    let policy = if core == PRODUCER {
        Drain::Weak
    } else {
        Drain::Fifo
    };
    let mut shapes = vec![
        Shape::rect("box", x, buf_y, col_w, BUF_H),
        Shape::text(
            "name",
            x + col_w / 2.0,
            buf_y + 26.0,
            "store buffer, oldest first",
        )
        .class("muted"),
    ];
    for (i, e) in b.entries.iter().take(SHOWN).enumerate() {
        let y = buf_y + 38.0 + ENTRY * i as f32;
        let free = b.can_drain(i, policy);
        shapes.push(
            Shape::group(
                format!("entry-{i}"),
                vec![
                    Shape::rect("r", x + 12.0, y, col_w - 24.0, ENTRY - 5.0),
                    Shape::text(
                        "t",
                        x + col_w / 2.0,
                        y + 19.0,
                        format!("{}{}", entry_text(e), if free { "" } else { " · held" }),
                    )
                    .mono(),
                ],
            )
            .class(if free { "nic" } else { "idle" })
            .state(if free { "can leave" } else { "held" })
            .label(format!("Drain {}", entry_text(e)))
            .on_click(ui.act(drain(i))),
        );
    }
    if b.entries.len() > SHOWN {
        shapes.push(
            Shape::text(
                "more",
                x + col_w / 2.0,
                buf_y + BUF_H - 8.0,
                format!("+{} more", b.entries.len() - SHOWN),
            )
            .class("muted"),
        );
    } else if b.entries.is_empty() {
        shapes.push(Shape::text("empty", x + col_w / 2.0, buf_y + 70.0, "empty").class("muted"));
    }
    let name = if core == PRODUCER {
        "buffer-producer"
    } else {
        "buffer-consumer"
    };
    Shape::group(name, shapes)
        .class(if b.is_empty() { "idle" } else { "nic" })
        .state(format!("{} pending", b.stores()))
        .focus(name)
}

/// An index cell in memory: its value, its writer and its line's moves.
fn index(g: &Geo, s: &Spsc, key: &str, line: usize, writer: &str) -> Shape {
    let loc = if line == HEAD { HEAD_LOC } else { TAIL_LOC };
    let (x, top) = g.columns[if line == HEAD { CONSUMER } else { PRODUCER }];
    let (y, col_w) = (top + INDEX_Y, g.col_w);
    let value = s.memory[loc as usize];
    Shape::group(
        key,
        vec![
            Shape::rect("box", x, y, col_w, 56.0),
            Shape::text("v", x + 14.0, y + 36.0, format!("{key} = {value}"))
                .start()
                .mono()
                .size(Size::Large),
            Shape::text(
                "who",
                x + col_w - 14.0,
                y + 24.0,
                format!("by the {writer}"),
            )
            .end(),
            Shape::text(
                "moves",
                x + col_w - 14.0,
                y + 46.0,
                format!("line moved {}×", s.lines.moves[line]),
            )
            .end()
            .class("muted"),
        ],
    )
    .class("accent")
    .state(value.to_string())
    .focus(key)
}

/// Slots per row, and each slot's side.
fn slot_grid(g: &Geo, cap: usize) -> (usize, f32) {
    let per_row = cap.min(8);
    let side = ((g.width - 20.0 - SLOT_GAP * (per_row as f32 - 1.0)) / per_row as f32).min(64.0);
    (per_row, side)
}

/// The slot's picture: item in the ring, being written, or free.
fn slots(g: &Geo, s: &Spsc) -> Vec<Shape> {
    let cap = s.capacity;
    let (per_row, side) = slot_grid(g, cap);
    let left = (g.width - per_row as f32 * (side + SLOT_GAP) + SLOT_GAP) / 2.0;
    let writing = (s.producer == ProducerStep::PublishTail).then(|| s.slot(s.tail));
    let head_at = s.slot(s.memory[HEAD_LOC as usize]);
    let tail_at = s.slot(s.memory[TAIL_LOC as usize]);
    (0..cap)
        .map(|i| {
            let x = left + (i % per_row) as f32 * (side + SLOT_GAP);
            let y = g.slots_y + (i / per_row) as f32 * (side + 58.0);
            let mid = x + side / 2.0;
            let value = s.memory[FIRST_SLOT as usize + i];
            let item = (s.head..s.tail).find(|&k| s.slot(k) == i);
            let (class, state) = match (item, writing == Some(i)) {
                (Some(k), _) => ("done", format!("item {k}")),
                (None, true) => ("warn", "being written".to_string()),
                _ => ("idle", "free".to_string()),
            };
            let marks = match (i == head_at, i == tail_at) {
                (true, true) => "H T",
                (true, false) => "H",
                (false, true) => "T",
                _ => "",
            };
            let shown = if value == 0 {
                "–".to_string()
            } else {
                value.to_string()
            };
            Shape::group(
                format!("slot-{i}"),
                vec![
                    Shape::text("i", mid, y - 8.0, i.to_string()).class("muted"),
                    Shape::rect("box", x, y, side, side),
                    Shape::text("v", mid, y + side / 2.0 + 7.0, shown)
                        .mono()
                        .size(Size::Large),
                    Shape::text("m", mid, y + side + 24.0, marks)
                        .mono()
                        .class("strong"),
                ],
            )
            .class(class)
            .state(state)
            .focus(format!("slot-{i}"))
        })
        .collect()
}

fn picture(s: &Spsc, ui: &mut Ui<Spsc>) -> Figure {
    let g = Geo::new(ui.layout());
    let (per_row, side) = slot_grid(&g, s.capacity);
    let rows = s.capacity.div_ceil(per_row) as f32;
    let height = g.slots_y + rows * (side + 58.0) - 14.0;
    let mut f = Figure::new(
        "spsc",
        format!(
            "SPSC ring of {}: {} item(s) in it; head {} and tail {} in memory",
            s.capacity,
            s.occupancy(),
            s.memory[HEAD_LOC as usize],
            s.memory[TAIL_LOC as usize]
        ),
        g.width,
        height,
    )
    .legend("done", "item in the ring")
    .legend("warn", "slot being written")
    .legend("nic", "store waiting in a buffer")
    .legend("idle", "free, or held back");
    let cached = |own: &str, n: u32, copy: &str, c: u32| {
        if s.cached {
            format!("{own}={n}  {copy} copy={c}")
        } else {
            format!("own {own} = {n}")
        }
    };
    f.push(core(
        &g,
        "producer",
        PRODUCER,
        "Producer",
        producer_next(s),
        cached("tail", s.tail, "head", s.cached_head),
    ));
    f.push(core(
        &g,
        "consumer",
        CONSUMER,
        "Consumer",
        consumer_next(s),
        cached("head", s.head, "tail", s.cached_tail),
    ));
    f.push(buffer(&g, s, PRODUCER, ui, |i| {
        SpscAction::DrainProducer(i as u8)
    }));
    f.push(buffer(&g, s, CONSUMER, ui, |_| SpscAction::DrainConsumer));
    f.push(index(&g, s, "tail", TAIL, "producer"));
    f.push(index(&g, s, "head", HEAD, "consumer"));
    let caption = match ui.layout() {
        Layout::Wide => vec![SLOTS_CAPTION.join(" ")],
        Layout::Narrow => SLOTS_CAPTION.map(String::from).to_vec(),
    };
    let lines = caption.len();
    for (i, line) in caption.into_iter().enumerate() {
        let key = line_key("slots", i);
        let y = g.slots_y - 32.0 - 22.0 * (lines - 1 - i) as f32;
        f.push(Shape::text(key, g.width / 2.0, y, line).class("muted"));
    }
    f.push(Shape::group("ring", slots(&g, s)).focus("ring"));
    f
}

fn who_writes(s: &Spsc) -> Table {
    let mut t = Table::new(
        "who-writes",
        "Who writes what (an index line moves when the other core touches it after a write)",
        &["Location", "written by", "read by", "line moves"],
    );
    let moves = |line: usize| {
        let (with, without) = (s.lines.moves[line], s.uncached_lines.moves[line]);
        if s.cached {
            format!("{with} (uncached: {without})")
        } else {
            with.to_string()
        }
    };
    let who = |side: &str, access: IndexAccess| {
        let order = s.order(access);
        // A relaxed publish is the break: mark it.
        let alarm = if order == "relaxed" { "!" } else { "" };
        format!("{side} ({order}{alarm})")
    };
    let rows = [
        (
            "head",
            who("consumer", IndexAccess::ConsumerWritesHead),
            who("producer", IndexAccess::ProducerReadsHead),
            moves(HEAD),
        ),
        (
            "tail",
            who("producer", IndexAccess::ProducerWritesTail),
            who("consumer", IndexAccess::ConsumerReadsTail),
            moves(TAIL),
        ),
        (
            "slots",
            "producer".into(),
            "consumer".into(),
            "not counted".into(),
        ),
    ];
    for (name, writer, reader, moves) in rows {
        t.row(
            format!("who-{name}"),
            vec![
                Cell::mono(name),
                Cell::text(writer),
                Cell::text(reader),
                Cell::text(moves).key(format!("moves-{name}")),
            ],
        );
    }
    t
}

fn received(s: &Spsc) -> List {
    let first = s.dequeued - s.received.len() as u32;
    s.received.iter().enumerate().fold(
        List::new(
            "received",
            "Values the consumer read (item i should be i + 1)",
            "nothing yet",
        )
        .chips(),
        |list, (i, v)| {
            let item = first + i as u32;
            let ok = *v == item + 1;
            list.item(
                Item::new(format!("got-{item}"), format!("item {item}: {v}"))
                    .class(if ok { "done" } else { "fault" })
                    .mono(),
            )
        },
    )
}

fn damage(s: &Spsc) -> List {
    s.damage.iter().enumerate().fold(
        List::new("damage", "Damage", "none: every read got the value sent"),
        |list, (i, d)| {
            list.item(
                Item::new(format!("damage-{i}"), demos::memory::spsc::damage_text(d))
                    .class("fault")
                    .tag(if d.stale() { "Stale:" } else { "Overwritten:" }),
            )
        },
    )
}

impl View for Spsc {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        Scene::new(
            "SPSC ring buffer",
            format!(
                "A ring of {} slots with {} item(s) in it; {} enqueued, {} dequeued, {} wrong read(s); the index lines moved {} time(s).",
                self.capacity,
                self.occupancy(),
                self.tail,
                self.dequeued,
                self.damage.len(),
                self.lines.total()
            ),
        )
        .figure(picture(self, ui))
        .table(who_writes(self))
        .list(received(self))
        .list(damage(self))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        use SpscAction::*;
        let (fault, cached) = (self.fault, self.cached);
        let mut drains: Vec<Control> = (0..self.buffers[PRODUCER].entries.len().min(SHOWN))
            .map(|i| {
                Control::button(
                    &format!("drain-p-{i}"),
                    format!("Drain {}", entry_text(&self.buffers[PRODUCER].entries[i])),
                    ui.act(DrainProducer(i as u8)),
                )
            })
            .collect();
        drains.push(Control::button(
            "drain-c",
            "Drain the consumer's oldest store",
            ui.act(DrainConsumer),
        ));
        vec![
            Control::button(
                "producer-step",
                format!("Producer: {}", producer_next(self)),
                ui.act(Producer),
            )
            .primary(),
            Control::button(
                "consumer-step",
                format!("Consumer: {}", consumer_next(self)),
                ui.act(Consumer),
            )
            .primary(),
            Control::group("Store buffers", drains),
            Control::toggle(
                "cached",
                "Cached indices",
                cached,
                ui.act(SetCached(!cached)),
            ),
            Control::slider(
                "capacity",
                "Capacity (restarts)",
                CAPACITY.control_range(self.capacity),
                CAPACITY.unit.trim_start(),
                ui.number(move |v| {
                    Ok(Command::Restart(SpscConfig {
                        capacity: v.max(0) as usize,
                        fault,
                        cached,
                    }))
                }),
            ),
            Control::danger_group(
                "Break it",
                vec![
                    Control::toggle(
                        "relaxed-tail",
                        "Publish tail with a relaxed store",
                        fault == Fault::RelaxedTail,
                        ui.act(SetFault(if fault == Fault::RelaxedTail {
                            Fault::None
                        } else {
                            Fault::RelaxedTail
                        })),
                    )
                    .danger(),
                    Control::toggle(
                        "early-head",
                        "Publish head before reading the slot",
                        fault == Fault::EarlyHead,
                        ui.act(SetFault(if fault == Fault::EarlyHead {
                            Fault::None
                        } else {
                            Fault::EarlyHead
                        })),
                    )
                    .danger(),
                    Control::note(STEP_NOTE),
                ],
            ),
        ]
    }
}

/// What Step does under either break (Step's order plays each break's race).
const STEP_NOTE: &str = "With either break, Step plays the race until it does damage, then stops.";

#[cfg(test)]
mod tests {
    use super::*;
    use demos::Model;
    use SpscAction::*;

    fn run(s: &mut Spsc, actions: &[SpscAction]) {
        for a in actions {
            s.apply(a).unwrap();
        }
    }

    #[test]
    fn a_published_item_shows_in_its_slot_and_the_tail_waits_behind_it() {
        let mut s = Spsc::new(&SpscConfig::default());
        run(&mut s, &[Producer, Producer]);
        let scene = crate::build(&s, &()).0;
        assert_eq!(
            scene.find("slot-0").unwrap().state.as_deref(),
            Some("being written")
        );
        run(&mut s, &[Producer]);
        let scene = crate::build(&s, &()).0;
        let buffer = scene.find("buffer-producer").unwrap();
        assert_eq!(buffer.state.as_deref(), Some("2 pending"));
        assert_eq!(
            scene.find("entry-1").unwrap().state.as_deref(),
            Some("held"),
            "the release tail store waits for the slot store"
        );
        assert_eq!(
            scene.find("slot-0").unwrap().state.as_deref(),
            Some("item 0")
        );
        assert_eq!(scene.find("tail").unwrap().state.as_deref(), Some("0"));
    }

    /// Issue 30: the table shows the producer's acquire load of head.
    #[test]
    fn who_writes_shows_each_index_access_with_its_order() {
        let s = Spsc::new(&SpscConfig::default());
        let scene = crate::build(&s, &()).0;
        let t = scene.table_named("who-writes").unwrap();
        let row = |k: &str| {
            let r = t.rows.iter().find(|r| r.key == k).unwrap();
            (r.cells[1].text.clone(), r.cells[2].text.clone())
        };
        assert_eq!(
            row("who-head"),
            ("consumer (release)".into(), "producer (acquire)".into())
        );
        assert_eq!(
            row("who-tail"),
            ("producer (release)".into(), "consumer (acquire)".into())
        );
        let broken = Spsc::new(&SpscConfig {
            fault: Fault::RelaxedTail,
            ..SpscConfig::default()
        });
        let scene = crate::build(&broken, &()).0;
        let t = scene.table_named("who-writes").unwrap();
        let tail = t.rows.iter().find(|r| r.key == "who-tail").unwrap();
        assert_eq!(tail.cells[1].text, "producer (relaxed!)");
    }

    #[test]
    fn the_relaxed_tail_break_is_named_in_the_damage_list() {
        let mut s = Spsc::new(&SpscConfig {
            fault: Fault::RelaxedTail,
            ..SpscConfig::default()
        });
        run(
            &mut s,
            &[
                Producer,
                Producer,
                Producer,
                DrainProducer(1),
                Consumer,
                Consumer,
            ],
        );
        let scene = crate::build(&s, &()).0;
        let damage = scene.list_named("damage").unwrap();
        assert_eq!(damage.items[0].tag.as_deref(), Some("Stale:"));
        assert!(damage.items[0].text.contains("slot 0 still held 0"));
        let got = scene.list_named("received").unwrap();
        assert_eq!(got.items[0].text, "item 0: 0");
        assert_eq!(got.items[0].class, "fault");
    }

    #[test]
    fn entries_drain_from_the_picture_and_the_buttons() {
        let mut s = Spsc::new(&SpscConfig::default());
        run(&mut s, &[Producer, Producer, Producer]);
        let (scene, controls, ui) = crate::build(&s, &());
        let slot = scene.find("entry-0").unwrap().on_click.unwrap();
        assert_eq!(
            ui.resolve(slot, &crate::Input::Press).unwrap(),
            Command::Do(DrainProducer(0))
        );
        let Some(Control::Button(b)) = Control::find(&controls, "drain-p-1") else {
            panic!("drain button");
        };
        assert_eq!(b.label, "Drain tail = 1 rel");
        let Some(Control::Button(p)) = Control::find(&controls, "producer-step") else {
            panic!("producer button");
        };
        assert_eq!(p.label, "Producer: check for space");
    }

    #[test]
    fn break_it_says_step_plays_the_race_to_the_damage_and_stops() {
        let (_, controls, _) = crate::build(&Spsc::new(&SpscConfig::default()), &());
        let zone = Control::danger_zone(&controls).expect("a Break it zone");
        assert!(zone
            .controls
            .iter()
            .any(|c| matches!(c, Control::Note(n) if n == STEP_NOTE)));
        // The note is true for every ring: Step alone reaches the damage
        // under either break, and Play stops there; the right protocol runs on.
        for capacity in CAPACITY.min..=CAPACITY.max {
            for cached in [false, true] {
                for fault in [Fault::None, Fault::RelaxedTail, Fault::EarlyHead] {
                    let mut s = Spsc::new(&SpscConfig {
                        capacity,
                        fault,
                        cached,
                    });
                    let mut steps = 0;
                    while let Ok(a) = s.next_auto() {
                        s.apply(&a).unwrap();
                        steps += 1;
                        if steps == 500 {
                            break;
                        }
                    }
                    let label = format!("{fault:?}, {capacity} slots, cached {cached}");
                    if fault == Fault::None {
                        assert!(s.damage.is_empty() && steps == 500, "{label}");
                    } else {
                        assert!(!s.damage.is_empty() && steps < 500, "{label}");
                        assert!(s.next_auto().is_err(), "{label}");
                    }
                }
            }
        }
    }
}
