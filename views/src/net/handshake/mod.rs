//! TCP handshake and teardown: the sequence diagram of segments between the
//! two endpoints (click one in flight to lose it), and both RFC 9293 state
//! machines with the current state and the path taken.

mod lesson;

use crate::control::{Control, Field};
use crate::draw::geometry::PathData;
use crate::draw::text::{line_key, pieces_as_lines};
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Command, Ui, View};
use crate::scene::{Figure, Scene, Shape, Size};
use demos::net::handshake::{
    Endpoint, Fate, Handshake, HandshakeAction, HandshakeConfig, Segment, Side, TcpState, DELAY_MS,
    MSL_MS,
};
use demos::net::wire::tcp::{ACK, FLAGS};
use demos::Model;

/// Segments the diagram shows, the latest ones.
const SHOWN: usize = 14;
const SIDES: [Side; 2] = [Side::Client, Side::Server];
/// Bytes one press of Send hands to TCP.
const SEND_BYTES: u32 = 100;

/// The sequence diagram's arrangement. On a phone the lanes are 152 units
/// apart instead of 420: the time column and the state changes (beside
/// each lane, outside) keep their room, a segment's label takes two lines
/// between the lanes, and the rows are taller, so that the arrow still
/// shows above and below its label; each header box gives its numbers and
/// its timer two lines.
struct SeqDims {
    width: f32,
    lanes: [f32; 2],
    /// Centre of each side's header box.
    header_x: [f32; 2],
    header_w: f32,
    header_h: f32,
    /// Whether the header's numbers and timer each take two lines.
    header_wrap: bool,
    /// From one small line of the header to the next.
    header_step: f32,
    /// One row per moment something happened.
    row: f32,
    time_x: f32,
    /// Where the line of the present moment starts and ends.
    now: (f32, f32),
    /// A state change's pill, and its distance from the lane.
    pill_w: f32,
    pill_gap: f32,
    /// Whether a segment's label takes two lines, and where its first
    /// line sits from the arrow's middle; a lost segment's label, from its
    /// cross.
    label_wrap: bool,
    label_dy: f32,
    lost_label_dy: f32,
}

const WIDE_SEQ: SeqDims = SeqDims {
    width: 960.0,
    lanes: [270.0, 690.0],
    header_x: [270.0, 690.0],
    header_w: 300.0,
    header_h: 112.0,
    header_wrap: false,
    header_step: 22.0,
    row: 40.0,
    time_x: 8.0,
    now: (70.0, 950.0),
    pill_w: 148.0,
    pill_gap: 30.0,
    label_wrap: false,
    label_dy: -8.0,
    lost_label_dy: -8.0,
};

/// Rows 64 apart: the label (35 high) leaves the arrow's ends in sight.
/// The lanes at 164 and 316: a time (up to "9999 ms") and a 98-wide pill
/// on the client's left, a pill on the server's right; between them a
/// label line of 18 characters ("[PSH, ACK] Seq=101").
const NARROW_SEQ: SeqDims = SeqDims {
    width: NARROW_WIDTH,
    lanes: [164.0, 316.0],
    header_x: [104.0, 314.0],
    header_w: 204.0,
    header_h: 142.0,
    header_wrap: true,
    header_step: 17.0,
    row: 64.0,
    time_x: 2.0,
    now: (60.0, 418.0),
    pill_w: 98.0,
    pill_gap: 2.0,
    label_wrap: true,
    label_dy: -4.0,
    // Under the cross, where the lost segment's line would have gone: a
    // label on the middle would hide the cross.
    lost_label_dy: 25.0,
};

impl SeqDims {
    fn lane(&self, side: Side) -> f32 {
        self.lanes[side as usize]
    }

    /// Where the lanes start, under the headers.
    fn lane_top(&self) -> f32 {
        8.0 + self.header_h + 2.0
    }

    /// The first row.
    fn top(&self) -> f32 {
        8.0 + self.header_h + 30.0
    }
}

/// A segment as Wireshark lists it, in two parts: "[SYN, ACK] Seq=300"
/// and "Ack=101 Len=0".
fn segment_parts(s: &Segment) -> Vec<String> {
    let names: Vec<&str> = FLAGS
        .iter()
        .filter(|(bit, _, _)| s.flags & bit != 0)
        .map(|(_, _, name)| *name)
        .collect();
    let ack = if s.flags & ACK != 0 {
        format!("Ack={} ", s.ack)
    } else {
        String::new()
    };
    vec![
        format!("[{}] Seq={}", names.join(", "), s.seq),
        format!("{ack}Len={}", s.len),
    ]
}

/// "[SYN, ACK] Seq=300 Ack=101 Len=0", as Wireshark lists a segment.
pub fn segment_text(s: &Segment) -> String {
    segment_parts(s).join(" ")
}

/// The endpoint's header above its lane: name, state, numbers, timer.
fn header(m: &Handshake, side: Side, d: &SeqDims) -> Shape {
    let e: &Endpoint = m.endpoint(side);
    let x = d.header_x[side as usize];
    let timer = match (e.rtx_timer_ms, e.time_wait_until_ms) {
        (Some(t), _) => vec![
            format!("retransmit at {t} ms"),
            format!("(RTO {} ms)", e.rto_ms),
        ],
        (_, Some(t)) => vec!["TIME-WAIT ends".into(), format!("at {t} ms")],
        _ => vec!["no timer running".into()],
    };
    let numbers = if e.state.has_connection() {
        vec![
            format!("SND.NXT {}", e.snd_nxt),
            format!("RCV.NXT {}", e.rcv_nxt),
        ]
    } else {
        vec!["no connection".into()]
    };
    let class = match e.state {
        TcpState::Established => "done",
        TcpState::Closed => "idle",
        _ => "accent",
    };
    let mut parts = vec![
        Shape::rect("box", x - d.header_w / 2.0, 8.0, d.header_w, d.header_h),
        Shape::text("name", x, 32.0, side.name()).class("strong"),
        Shape::text("state", x, 60.0, e.state.label())
            .mono()
            .size(Size::Large),
    ];
    let small = [
        ("nums", pieces_as_lines(d.header_wrap, numbers, " · ")),
        ("timer", pieces_as_lines(d.header_wrap, timer, " ")),
    ];
    let mut y = 84.0;
    for (key, lines) in small {
        for (i, line) in lines.into_iter().enumerate() {
            let key = match i {
                0 => key.to_string(),
                _ => format!("{key}-{}", i + 1),
            };
            parts.push(Shape::text(key, x, y, line).mono().size(Size::Small));
            y += d.header_step;
        }
    }
    Shape::group(side.name(), parts)
        .class(class)
        .state(e.state.label())
        .focus(side.name())
}

/// The sequence diagram. Time runs down, one row per moment something
/// happened (not to scale), so long timers do not stretch it.
fn sequence(m: &Handshake, ui: &mut Ui<Handshake>) -> Figure {
    let d = ui.layout().pick(&WIDE_SEQ, &NARROW_SEQ);
    let shown: Vec<&Segment> = m.segments.iter().rev().take(SHOWN).rev().collect();
    let from = shown.first().map_or(m.now_ms, |s| s.sent_ms);
    let changes: Vec<_> = m.changes.iter().filter(|c| c.at_ms >= from).collect();
    let mut times: Vec<u64> = shown
        .iter()
        .flat_map(|s| [s.sent_ms, s.arrives_ms])
        .chain(changes.iter().map(|c| c.at_ms))
        .chain([m.now_ms])
        .collect();
    times.sort_unstable();
    times.dedup();
    let y = |t: u64| d.top() + d.row * times.iter().position(|&x| x == t).unwrap_or(0) as f32;
    let bottom = d.top() + d.row * times.len() as f32;
    let mut f = Figure::new(
        "sequence",
        format!(
            "Sequence diagram at {} ms: client {}, server {}, {} segment{} shown",
            m.now_ms,
            m.client.state.label(),
            m.server.state.label(),
            shown.len(),
            if shown.len() == 1 { "" } else { "s" }
        ),
        d.width,
        bottom + 10.0,
    )
    .legend("driver", "segment delivered")
    .legend("warn", "retransmission")
    .legend("accent dashed", "in flight: click to lose it")
    .legend("fault", "lost")
    .legend("idle", "discarded by the receiver");
    for side in SIDES {
        f.push(header(m, side, d));
        let x = d.lane(side);
        f.push(
            Shape::line(
                format!("lane-{}", side.name()),
                (x, d.lane_top()),
                (x, bottom),
            )
            .class("idle thick"),
        );
    }
    for (i, &t) in times.iter().enumerate() {
        f.push(
            Shape::text(format!("t{i}"), d.time_x, y(t) + 5.0, format!("{t} ms"))
                .start()
                .mono()
                .size(Size::Small),
        );
    }
    f.push(
        Shape::line("now", (d.now.0, y(m.now_ms)), (d.now.1, y(m.now_ms))).class("accent dashed"),
    );
    for (i, c) in changes.iter().enumerate() {
        let x = d.lane(c.side);
        // Two changes of one side in the same millisecond (a crash right
        // after a handshake) need keys of their own.
        let again = changes[..i]
            .iter()
            .filter(|o| o.side == c.side && o.at_ms == c.at_ms)
            .count();
        let key = match again {
            0 => format!("change-{}-{}", c.side.name(), c.at_ms),
            n => format!("change-{}-{}-{}", c.side.name(), c.at_ms, n + 1),
        };
        // Beside the lane, outside the two.
        let bx = match c.side {
            Side::Client => x - d.pill_gap - d.pill_w,
            Side::Server => x + d.pill_gap,
        };
        f.push(
            Shape::group(
                key,
                vec![
                    Shape::rect("r", bx, y(c.at_ms) - 13.0, d.pill_w, 26.0).rounded(13.0),
                    Shape::text("t", bx + d.pill_w / 2.0, y(c.at_ms) + 5.0, c.state.label())
                        .mono()
                        .size(Size::Small),
                ],
            )
            .class("accent"),
        );
    }
    for s in &shown {
        f.push(segment_arrow(m, s, d, &y, ui));
    }
    f
}

fn segment_arrow(
    m: &Handshake,
    s: &Segment,
    d: &SeqDims,
    y: &dyn Fn(u64) -> f32,
    ui: &mut Ui<Handshake>,
) -> Shape {
    let (x0, x1) = (d.lane(s.from), d.lane(s.from.other()));
    let (y0, y1) = (y(s.sent_ms), y(s.arrives_ms));
    let text = segment_text(s);
    let (fate, class) = match s.fate {
        Fate::InFlight => ("in flight", "accent dashed"),
        Fate::Dropped => ("lost", "fault"),
        Fate::Accepted if s.retransmission => ("delivered", "warn"),
        Fate::Accepted => ("delivered", "driver"),
        Fate::Discarded => ("discarded", "idle"),
    };
    let mut parts = Vec::new();
    if s.fate == Fate::Dropped {
        // Lost half way: the line stops at a cross.
        let (mx, my) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        parts.push(Shape::line("a", (x0, y0), (mx, my)).class("thick"));
        parts.push(
            Shape::path(
                "x",
                PathData::new()
                    .move_to(mx - 9.0, my - 9.0)
                    .line_to(mx + 9.0, my + 9.0)
                    .move_to(mx + 9.0, my - 9.0)
                    .line_to(mx - 9.0, my + 9.0),
            )
            .class("line thick"),
        );
    } else {
        parts.push(Shape::arrow("a", (x0, y0), (x1, y1)).class("thick"));
    }
    let label = pieces_as_lines(d.label_wrap, segment_parts(s), " ");
    let longest = label.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let w = longest as f32 * 7.9 + 10.0;
    // The label on a paper ground by the arrow's middle, a line every 16.
    let dy = if s.fate == Fate::Dropped {
        d.lost_label_dy
    } else {
        d.label_dy
    };
    let (tx, ty) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0 + dy);
    let h = 19.0 + 16.0 * (label.len() - 1) as f32;
    parts.push(Shape::rect("bg", tx - w / 2.0, ty - 14.0, w, h).class("paper"));
    for (i, line) in label.into_iter().enumerate() {
        let key = line_key("t", i);
        parts.push(
            Shape::text(key, tx, ty + 16.0 * i as f32, line)
                .mono()
                .size(Size::Small)
                .class("tone"),
        );
    }
    let prefix = if s.retransmission {
        "retransmitted "
    } else {
        ""
    };
    if s.fate == Fate::InFlight {
        // A generous target around the label and the middle of the arrow.
        parts.push(
            Shape::rect("hit", tx - w / 2.0 - 4.0, ty - 18.0, w + 8.0, h + 15.0).class("hit"),
        );
    }
    let shape = Shape::group(format!("seg-{}", s.id), parts)
        .class(class)
        .state(fate)
        .focus(format!("seg-{}", s.id));
    if s.fate == Fate::InFlight {
        shape
            .label(format!(
                "{prefix}segment {} {text}, in flight: lose it",
                s.id
            ))
            .on_click(ui.act(HandshakeAction::Drop { id: s.id }))
    } else {
        let _ = m;
        shape.label(format!("{prefix}segment {} {text}, {fate}", s.id))
    }
}

/// Where each state sits in the machine, after RFC 9293 Figure 5.
const PLACES: [(TcpState, f32, f32); 11] = [
    (TcpState::Closed, 1.0, 0.0),
    (TcpState::Listen, 1.0, 1.0),
    (TcpState::SynReceived, 0.0, 2.0),
    (TcpState::SynSent, 2.0, 2.0),
    (TcpState::Established, 1.0, 3.0),
    (TcpState::FinWait1, 0.0, 4.0),
    (TcpState::CloseWait, 2.0, 4.0),
    (TcpState::FinWait2, 0.0, 5.0),
    (TcpState::Closing, 1.0, 5.0),
    (TcpState::LastAck, 2.0, 5.0),
    (TcpState::TimeWait, 0.0, 6.0),
];
/// The transitions drawn (the returns to CLOSED are left to the text).
const EDGES: [(TcpState, TcpState); 14] = [
    (TcpState::Closed, TcpState::Listen),
    (TcpState::Listen, TcpState::SynReceived),
    (TcpState::Listen, TcpState::SynSent),
    (TcpState::SynSent, TcpState::SynReceived),
    (TcpState::SynReceived, TcpState::Established),
    (TcpState::SynSent, TcpState::Established),
    (TcpState::SynReceived, TcpState::FinWait1),
    (TcpState::Established, TcpState::FinWait1),
    (TcpState::Established, TcpState::CloseWait),
    (TcpState::FinWait1, TcpState::FinWait2),
    (TcpState::FinWait1, TcpState::Closing),
    (TcpState::CloseWait, TcpState::LastAck),
    (TcpState::FinWait2, TcpState::TimeWait),
    (TcpState::Closing, TcpState::TimeWait),
];

/// The two machines: side by side on a wide screen, one under the other on
/// a phone, where a machine's three columns are closer and its pills
/// narrower (still wider than "SYN-RECEIVED").
struct MachineDims {
    width: f32,
    height: f32,
    /// Each machine's top left corner.
    corners: [(f32, f32); 2],
    pill_w: f32,
    /// From one column to the next.
    column: f32,
}

const WIDE_MACHINES: MachineDims = MachineDims {
    width: 960.0,
    height: 330.0,
    corners: [(0.0, 0.0), (480.0, 0.0)],
    pill_w: 136.0,
    column: 152.0,
};

const NARROW_MACHINES: MachineDims = MachineDims {
    width: NARROW_WIDTH,
    height: 670.0,
    corners: [(0.0, 0.0), (0.0, 340.0)],
    pill_w: 120.0,
    column: 136.0,
};

fn place(state: TcpState, (left, top): (f32, f32), d: &MachineDims) -> (f32, f32) {
    let (_, c, r) = PLACES
        .iter()
        .find(|p| p.0 == state)
        .copied()
        .unwrap_or(PLACES[0]);
    (
        left + 16.0 + c * d.column + d.pill_w / 2.0,
        top + 60.0 + r * 42.0,
    )
}

/// One side's state machine: every state, the current one marked, the
/// states it passed through, and the last transition as an arrow.
fn machine(m: &Handshake, side: Side, d: &MachineDims) -> Shape {
    let corner = d.corners[side as usize];
    let now = m.endpoint(side).state;
    let mine: Vec<TcpState> = m
        .changes
        .iter()
        .filter(|c| c.side == side)
        .map(|c| c.state)
        .collect();
    let mut parts = vec![Shape::text(
        "name",
        corner.0 + 16.0,
        corner.1 + 26.0,
        format!("{} · RFC 9293 states", side.name()),
    )
    .start()
    .class("strong")];
    let edge = |a: TcpState, b: TcpState| {
        let (p, q) = (place(a, corner, d), place(b, corner, d));
        let (dy, dx) = (q.1 - p.1, q.0 - p.0);
        // From the bottom or side of one pill to the top or side of the next.
        let (from, to) = if dy.abs() < 1.0 {
            let s = dx.signum() * d.pill_w / 2.0;
            ((p.0 + s, p.1), (q.0 - s, q.1))
        } else {
            ((p.0 + dx * 0.25, p.1 + 13.0), (q.0 - dx * 0.25, q.1 - 13.0))
        };
        (from, to)
    };
    for (i, (a, b)) in EDGES.iter().enumerate() {
        let (from, to) = edge(*a, *b);
        parts.push(Shape::line(format!("e{i}"), from, to).class("grid"));
    }
    if let [.., before, last] = mine.as_slice() {
        if PLACES.iter().any(|p| p.0 == *before) {
            let (from, to) = edge(*before, *last);
            parts.push(Shape::arrow("last", from, to).class("accent thick"));
        }
    }
    for (state, _, _) in PLACES {
        let (cx, cy) = place(state, corner, d);
        let current = state == now;
        let (class, word) = if current {
            ("accent thick", "current")
        } else if mine.contains(&state) {
            ("done", "visited")
        } else {
            ("idle", "not visited")
        };
        parts.push(
            Shape::group(
                format!("{}-{}", side.name(), state.label().to_ascii_lowercase()),
                vec![
                    Shape::rect("r", cx - d.pill_w / 2.0, cy - 13.0, d.pill_w, 26.0).rounded(13.0),
                    Shape::text("t", cx, cy + 5.0, state.label())
                        .mono()
                        .size(Size::Small)
                        .class_if(current, "strong"),
                ],
            )
            .class(class)
            .state(word),
        );
    }
    Shape::group(format!("machine-{}", side.name()), parts).focus(side.name())
}

fn machines(m: &Handshake, layout: Layout) -> Figure {
    let d = layout.pick(&WIDE_MACHINES, &NARROW_MACHINES);
    let mut f = Figure::new(
        "machines",
        format!(
            "State machines: client {}, server {}",
            m.client.state.label(),
            m.server.state.label()
        ),
        d.width,
        d.height,
    )
    .legend("accent", "current state")
    .legend("done", "passed through")
    .legend("idle", "not visited");
    f.push(machine(m, Side::Client, d));
    f.push(machine(m, Side::Server, d));
    f
}

fn side_controls(ui: &mut Ui<Handshake>, side: Side) -> Control {
    let name = side.name();
    Control::group(
        format!("The {name}"),
        vec![
            Control::button(
                &format!("{name}-connect"),
                "Connect (active OPEN)",
                ui.act(HandshakeAction::ActiveOpen(side)),
            ),
            Control::button(
                &format!("{name}-listen"),
                "Listen (passive OPEN)",
                ui.act(HandshakeAction::PassiveOpen(side)),
            ),
            Control::button(
                &format!("{name}-send"),
                format!("Send {SEND_BYTES} bytes"),
                ui.act(HandshakeAction::Send {
                    side,
                    bytes: SEND_BYTES,
                }),
            ),
            Control::button(
                &format!("{name}-close"),
                "Close",
                ui.act(HandshakeAction::Close(side)),
            ),
        ],
    )
}

fn number(values: &[String], i: usize, what: &str, lo: u64, hi: u64) -> Result<u64, String> {
    values
        .get(i)
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|v| (lo..=hi).contains(v))
        .ok_or(format!(
            "The {what} must be a whole number from {lo} to {hi}."
        ))
}

/// Field `i` as a whole number inside the engine's bound: the bound's own
/// sentence when it is out of range.
fn within(values: &[String], i: usize, bound: &demos::Bound<u32>) -> Result<u32, String> {
    let text = values.get(i).map_or("", |v| v.trim());
    let value: u32 = text.parse().map_err(|_| {
        format!(
            "The {} must be a whole number from {} to {}{}.",
            bound.what, bound.min, bound.max, bound.unit
        )
    })?;
    bound.check(value)
}

impl View for Handshake {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        Scene::new(
            "TCP handshake and teardown",
            format!(
                "At {} ms the client is {} and the server {}; {} segments sent, {} lost, {} retransmitted.",
                self.now_ms,
                self.client.state.label(),
                self.server.state.label(),
                self.counters.segments,
                self.counters.dropped,
                self.counters.retransmissions
            ),
        )
        .figure(sequence(self, ui))
        .figure(machines(self, ui.layout()))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let c = self.config.clone();
        let mut listen = c.clone();
        listen.listen = !c.listen;
        let base = c.clone();
        vec![
            Control::note("Step delivers the next segment or fires the next timer. Click a segment in flight to lose it."),
            side_controls(ui, Side::Client),
            side_controls(ui, Side::Server),
            Control::form(
                "settings",
                "Connection (restarts)",
                vec![
                    Field::number("client-isn", "Client ISN", i64::from(c.client_isn), 0, i64::from(u32::MAX)),
                    Field::number("server-isn", "Server ISN", i64::from(c.server_isn), 0, i64::from(u32::MAX)),
                    Field::number("delay", "One-way delay, ms", i64::from(c.delay_ms), i64::from(DELAY_MS.min), i64::from(DELAY_MS.max)),
                    Field::number("msl", "MSL, ms", i64::from(c.msl_ms), i64::from(MSL_MS.min), i64::from(MSL_MS.max))
                        .help("TIME-WAIT lasts 2·MSL; RFC 9293 takes MSL as 2 minutes."),
                ],
                "Restart with these",
                ui.form(move |v| {
                    let next = HandshakeConfig {
                        client_isn: number(v, 0, "client ISN", 0, u32::MAX.into())? as u32,
                        server_isn: number(v, 1, "server ISN", 0, u32::MAX.into())? as u32,
                        delay_ms: within(v, 2, &DELAY_MS)?,
                        msl_ms: within(v, 3, &MSL_MS)?,
                        ..base.clone()
                    };
                    <Handshake as demos::Model>::validate(&next)?;
                    Ok(Command::Restart(next))
                }),
            ),
            Control::toggle(
                "server-listens",
                "Server listens from the start (off: open both ends at once)",
                c.listen,
                ui.restart(listen),
            ),
            Control::danger_group(
                "Break it",
                vec![
                    Control::button("crash-client", "Crash the client", ui.act(HandshakeAction::Crash(Side::Client))).danger(),
                    Control::button("crash-server", "Crash the server", ui.act(HandshakeAction::Crash(Side::Server))).danger(),
                    Control::note("A crashed host forgets the connection; its peer is left half-open."),
                ]
                .into_iter()
                .chain(crash_stops_step(self).then(|| Control::note(CRASH_STOPS_STEP)))
                .collect(),
            ),
        ]
    }
}

/// Said while Step's next move is the client's open: a crashed server no
/// longer listens, and Step opens only towards a listening server.
const CRASH_STOPS_STEP: &str =
    "Crashing the server now stops Step: it opens a connection only to a listener.";

fn crash_stops_step(m: &Handshake) -> bool {
    m.next_auto() == Ok(HandshakeAction::ActiveOpen(Side::Client))
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::Model;

    /// The scene as the model draws it (`crate::build` would stop at a
    /// repeated key first, in a debug build).
    fn model_scene(m: &Handshake) -> crate::Scene {
        m.scene(&(), &mut crate::Ui::new())
    }

    fn advance(m: &mut Handshake) {
        m.apply(&HandshakeAction::Advance).unwrap();
    }

    #[test]
    fn a_crash_in_the_same_millisecond_as_a_change_gets_a_key_of_its_own() {
        let mut m = Handshake::new(&HandshakeConfig::default());
        m.apply(&HandshakeAction::ActiveOpen(Side::Client)).unwrap();
        for _ in 0..3 {
            advance(&mut m);
        }
        m.apply(&HandshakeAction::Crash(Side::Server)).unwrap();
        let scene = model_scene(&m);
        assert_eq!(scene.repeated_keys(), Vec::<String>::new());
        assert!(scene.find("change-server-150-2").is_some());
    }

    #[test]
    fn the_syn_ack_in_flight_is_clickable_and_labelled_like_wireshark() {
        let mut m = Handshake::new(&HandshakeConfig::default());
        m.apply(&HandshakeAction::ActiveOpen(Side::Client)).unwrap();
        advance(&mut m);
        let (scene, _, ui) = crate::build(&m, &());
        let syn = scene.find("seg-1").unwrap();
        assert_eq!(syn.state.as_deref(), Some("delivered"));
        assert!(syn.on_click.is_none());
        let syn_ack = scene.find("seg-2").unwrap();
        assert_eq!(syn_ack.state.as_deref(), Some("in flight"));
        let label = syn_ack
            .children()
            .iter()
            .find_map(|c| c.text_content())
            .unwrap();
        assert_eq!(label, "[SYN, ACK] Seq=300 Ack=101 Len=0");
        let command = ui
            .resolve(syn_ack.on_click.unwrap(), &crate::Input::Press)
            .unwrap();
        assert_eq!(command, Command::Do(HandshakeAction::Drop { id: 2 }));
        assert_eq!(
            scene.find("server").unwrap().state.as_deref(),
            Some("SYN-RECEIVED")
        );
    }

    #[test]
    fn a_lost_syn_ack_is_drawn_lost_and_the_machines_end_established() {
        let mut m = Handshake::new(&HandshakeConfig::default());
        m.apply(&HandshakeAction::ActiveOpen(Side::Client)).unwrap();
        advance(&mut m);
        m.apply(&HandshakeAction::Drop { id: 2 }).unwrap();
        while m.next_event().is_some() {
            advance(&mut m);
        }
        let scene = crate::build(&m, &()).0;
        assert_eq!(scene.find("seg-2").unwrap().state.as_deref(), Some("lost"));
        let again = scene.find("seg-5").unwrap();
        assert!(again.has_class("warn"), "the resent SYN,ACK");
        for side in ["client", "server"] {
            let pill = scene.find(&format!("{side}-established")).unwrap();
            assert_eq!(pill.state.as_deref(), Some("current"));
        }
        assert_eq!(
            scene.find("server-syn-received").unwrap().state.as_deref(),
            Some("visited")
        );
        assert!(
            scene.find("change-client-1100").is_some(),
            "ESTABLISHED at 1,100 ms"
        );
    }

    #[test]
    fn the_settings_form_checks_its_numbers() {
        let m = Handshake::new(&HandshakeConfig::default());
        let (_, controls, ui) = crate::build(&m, &());
        let Some(Control::Form(form)) = Control::find(&controls, "settings") else {
            panic!("form");
        };
        let bad = crate::Input::Fields(vec!["1".into(), "2".into(), "0".into(), "1000".into()]);
        assert!(ui.resolve(form.send, &bad).is_err());
        let good = crate::Input::Fields(vec!["7".into(), "9".into(), "20".into(), "1000".into()]);
        match ui.resolve(form.send, &good).unwrap() {
            Command::Restart(c) => assert_eq!((c.client_isn, c.server_isn, c.delay_ms), (7, 9, 20)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn break_it_says_a_crash_stops_step_only_while_step_would_open() {
        let notes = |m: &Handshake| -> Vec<String> {
            let (_, controls, _) = crate::build(m, &());
            Control::danger_zone(&controls)
                .expect("a Break it zone")
                .notes()
        };
        let mut m = Handshake::new(&HandshakeConfig::default());
        assert!(notes(&m).iter().any(|n| n == CRASH_STOPS_STEP));
        // The note is true: Step opened; after the crash it is refused.
        let mut crashed = m.clone();
        crashed
            .apply(&HandshakeAction::Crash(Side::Server))
            .unwrap();
        assert!(crashed.next_auto().is_err());
        // Once the open is under way, a crash no longer stops Step.
        m.apply(&m.next_auto().unwrap()).unwrap();
        assert!(!notes(&m).iter().any(|n| n == CRASH_STOPS_STEP));
        assert!(notes(&m).iter().any(|n| n.starts_with("A crashed host")));
        m.apply(&HandshakeAction::Crash(Side::Server)).unwrap();
        assert!(m.next_auto().is_ok(), "the SYN is still in flight");
    }
}
