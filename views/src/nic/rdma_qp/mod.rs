//! RDMA queue pair: userspace above, the NIC below, the kernel between and
//! out of the way; the registered region, the send and completion queues,
//! the NIC's DMA engine and the wire; the peer with its receive queue and
//! its remotely accessible region; the sockets contrast; the completions.

mod lesson;

use crate::control::Control;
use crate::draw::geometry::PathData;
use crate::draw::text::wrap_words;
use crate::layout::Layout;
use crate::live::{Command, Ui, View};
use crate::scene::{Anchor, Arrow, Cell, Figure, Item, List, Scene, Shape, Size, Table};
use demos::nic::rdma_qp::{
    Op, QpState, RdmaAction, RdmaConfig, RdmaQp, Stage, WcStatus, WorkRequest, CQ_DEPTH, LKEY,
    MR_ADDR, MR_LEN, MSG_BYTES, PEER_MR_ADDR, PEER_MR_LEN, RKEY, RNR_RETRY, RQ_DEPTH, SQ_DEPTH,
};
use demos::text::plural;
use demos::Quantity;

/// Characters of the kernel band's syscall count per line on a phone, where
/// it shares the band's width with the arrows that cross it.
const NARROW_SYSCALL_CHARS: usize = 18;

/// A rectangle: x, y, width, height.
type Area = (f32, f32, f32, f32);

/// Where the parts go. Wide: userspace, kernel and hardware are bands one
/// above the other with the peer beside them. On a phone the memory region
/// sits above the two queues, the NIC above the wire, the peer under the
/// hardware with its receive queue and its region side by side; the arrows
/// that cross the kernel band leave room for its words.
#[derive(Clone, Copy)]
struct Dims {
    width: f32,
    height: f32,
    user_band: Area,
    mr_w: f32,
    queue_w: f32,
    sq_x: f32,
    cq_x: f32,
    queue_y: f32,
    kernel_band: Area,
    kernel_label: (f32, f32),
    /// The syscall count: where, and whether it ends (not starts) there.
    syscalls: (f32, f32, bool),
    hw_band: Area,
    /// The NIC's and the wire's panels: left, top, width.
    nic: (f32, f32, f32),
    wire: (f32, f32, f32),
    peer: PeerDims,
}

/// The peer's panel, and where its region and its CPU's words go in it.
#[derive(Clone, Copy)]
struct PeerDims {
    frame: Area,
    /// Offsets from the panel's corner.
    mr: (f32, f32),
    cpu: (f32, f32),
}

impl Dims {
    fn new(layout: Layout) -> Self {
        match layout {
            Layout::Wide => Dims {
                width: 960.0,
                height: 450.0,
                user_band: (4.0, 4.0, 752.0, 196.0),
                mr_w: 236.0,
                queue_w: 220.0,
                sq_x: 272.0,
                cq_x: 518.0,
                queue_y: 74.0,
                kernel_band: (4.0, 212.0, 752.0, 40.0),
                kernel_label: (16.0, 237.0),
                syscalls: (744.0, 237.0, true),
                hw_band: (4.0, 264.0, 752.0, 182.0),
                nic: (150.0, 300.0, 330.0),
                wire: (520.0, 300.0, 220.0),
                peer: PeerDims {
                    frame: (772.0, 4.0, 184.0, 442.0),
                    mr: (12.0, 232.0),
                    cpu: (12.0, 392.0),
                },
            },
            Layout::Narrow => Dims {
                width: 420.0,
                height: 1002.0,
                // The queues fill the width but for a gap where the DMA
                // arrow passes; "Completion Queue 16/16" just fits.
                user_band: (2.0, 4.0, 416.0, 302.0),
                mr_w: 388.0,
                queue_w: 196.0,
                sq_x: 6.0,
                cq_x: 208.0,
                queue_y: 222.0,
                kernel_band: (2.0, 318.0, 416.0, 80.0),
                kernel_label: (216.0, 342.0),
                syscalls: (216.0, 364.0, false),
                hw_band: (2.0, 410.0, 416.0, 342.0),
                nic: (16.0, 450.0, 388.0),
                wire: (16.0, 602.0, 388.0),
                peer: PeerDims {
                    frame: (4.0, 766.0, 412.0, 232.0),
                    mr: (204.0, 40.0),
                    cpu: (204.0, 196.0),
                },
            },
        }
    }
}

/// Cell of entry `i` in a queue of `depth` entries: (x, y, w, h).
fn cell(d: Dims, x0: f32, depth: usize, i: usize) -> (f32, f32, f32, f32) {
    let cols = depth.clamp(1, 8);
    let w = d.queue_w / cols as f32;
    let h = if depth > 8 { 34.0 } else { 52.0 };
    (
        x0 + (i % cols) as f32 * w,
        d.queue_y + (i / cols) as f32 * (h + 4.0),
        w - 4.0,
        h,
    )
}

fn status_short(status: WcStatus) -> &'static str {
    match status {
        WcStatus::Success => "OK",
        WcStatus::LocProtErr => "PROT",
        WcStatus::RemAccessErr => "REMOTE",
        WcStatus::RnrRetryExcErr => "RNR",
        WcStatus::WrFlushErr => "FLUSH",
    }
}

fn op_short(op: Op) -> &'static str {
    match op {
        Op::Send => "SEND",
        Op::Write => "WRITE",
        Op::Read => "READ",
    }
}

/// View-only choice: whether the post buttons set IBV_SEND_SIGNALED.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RdmaLook {
    pub unsignaled: bool,
}

fn queue_cell(key: String, (x, y, w, h): (f32, f32, f32, f32), lines: Vec<String>) -> Vec<Shape> {
    let mut shapes = vec![Shape::rect("r", x, y, w, h)];
    let tall = h > 40.0;
    for (i, line) in lines.into_iter().enumerate().take(if tall { 2 } else { 1 }) {
        let ty = if tall {
            y + 22.0 + 20.0 * i as f32
        } else {
            y + h / 2.0 + 5.0
        };
        shapes.push(
            Shape::text(format!("{key}-t{i}"), x + w / 2.0, ty, line)
                .mono()
                .size(Size::Small)
                .class("strong"),
        );
    }
    shapes
}

fn queues(m: &RdmaQp, d: Dims) -> Vec<Shape> {
    let sq = (0..m.config.sq_depth)
        .map(|i| {
            let entry = m.sq.get(i).copied();
            let class = entry.map_or("idle dashed", |e| match e.stage {
                Stage::Posted => "driver",
                Stage::Fetched | Stage::Acked => "nic",
                Stage::RnrWait(_) => "warn",
                Stage::Done => "done dashed",
                Stage::Failed(_) => "fault",
            });
            let lines = entry.map_or(Vec::new(), |e| {
                let second = match e.stage {
                    Stage::RnrWait(n) => format!("RNR {n}"),
                    Stage::Done => "no CQE".into(),
                    _ => op_short(e.wr.op).into(),
                };
                vec![format!("#{}", e.wr_id), second]
            });
            Shape::group(
                format!("sq-{i}"),
                queue_cell("c".into(), cell(d, d.sq_x, m.config.sq_depth, i), lines),
            )
            .class(class)
            .state(entry.map_or("empty", |e| e.stage.label()))
        })
        .collect();
    let cq = (0..m.config.cq_depth)
        .map(|i| {
            let entry = m.cq.get(i).copied();
            let class = match entry.map(|e| e.status) {
                None => "idle dashed",
                Some(WcStatus::Success) => "done",
                Some(_) => "fault",
            };
            let lines = entry.map_or(Vec::new(), |e| {
                vec![format!("#{}", e.wr_id), status_short(e.status).to_string()]
            });
            Shape::group(
                format!("cq-{i}"),
                queue_cell("c".into(), cell(d, d.cq_x, m.config.cq_depth, i), lines),
            )
            .class(class)
            .state(entry.map_or("empty", |e| e.status.label()))
        })
        .collect();
    vec![
        Shape::group(
            "sq",
            [
                vec![Shape::text(
                    "title",
                    d.sq_x,
                    d.queue_y - 14.0,
                    format!("Send Queue {}/{}", m.sq.len(), m.config.sq_depth),
                )
                .start()
                .mono()
                .class("strong")],
                sq,
            ]
            .concat(),
        )
        .focus("sq"),
        Shape::group(
            "cq",
            [
                vec![Shape::text(
                    "title",
                    d.cq_x,
                    d.queue_y - 14.0,
                    format!("Completion Queue {}/{}", m.cq.len(), m.config.cq_depth),
                )
                .start()
                .mono()
                .class("strong")],
                cq,
            ]
            .concat(),
        )
        .focus("cq"),
    ]
}

fn engine_text(m: &RdmaQp) -> String {
    match m.head().map(|(_, w)| w) {
        Some(w) if m.qp == QpState::Err && !matches!(w.stage, Stage::Failed(_)) => {
            format!("flushing WR #{}", w.wr_id)
        }
        Some(w) => match w.stage {
            Stage::Fetched => format!("holds WR #{}: checking lkey", w.wr_id),
            Stage::RnrWait(n) => format!("WR #{}: RNR NAK {n}, will retry", w.wr_id),
            Stage::Acked => format!("WR #{} acked; completion next", w.wr_id),
            Stage::Failed(_) => format!("WR #{} failed; error CQE next", w.wr_id),
            _ => format!("WR #{} waiting to be fetched", w.wr_id),
        },
        None => "DMA engine idle".to_string(),
    }
}

/// The peer host: its receive queue and its remotely accessible region.
fn peer(m: &RdmaQp, d: PeerDims) -> Shape {
    let (x, top, w, h) = d.frame;
    let (mx, my) = (x + d.mr.0, top + d.mr.1);
    let (cx, cy) = (x + d.cpu.0, top + d.cpu.1);
    let c = &m.counters;
    let mut shapes = vec![
        Shape::rect("frame", x, top, w, h)
            .rounded(10.0)
            .class("panel"),
        Shape::text("t", x + 12.0, top + 26.0, "Peer host")
            .start()
            .class("strong"),
        Shape::text(
            "rq-title",
            x + 12.0,
            top + 58.0,
            format!("RQ {}/{RQ_DEPTH}", m.peer_rq),
        )
        .start()
        .mono()
        .class("strong"),
    ];
    let cells = (0..RQ_DEPTH)
        .map(|i| {
            let y = top + 70.0 + i as f32 * 30.0;
            let posted = i < m.peer_rq;
            Shape::group(
                format!("rq-{i}"),
                vec![
                    Shape::rect("r", x + 12.0, y, 160.0, 26.0).rounded(3.0),
                    Shape::text(
                        "t",
                        x + 92.0,
                        y + 18.0,
                        if posted { "recv WQE" } else { "" },
                    )
                    .mono()
                    .size(Size::Small),
                ],
            )
            .class(if posted { "driver" } else { "idle dashed" })
            .state(if posted { "posted" } else { "empty" })
        })
        .collect();
    shapes.push(Shape::group("peer-rq", cells).focus("peer-rq"));
    shapes.push(
        Shape::text(
            "recvs",
            x + 12.0,
            top + 210.0,
            format!(
                "{} Send{} received",
                c.peer_recvs,
                if c.peer_recvs == 1 { "" } else { "s" }
            ),
        )
        .start()
        .size(Size::Small),
    );
    shapes.push(
        Shape::group(
            "peer-mr",
            vec![
                Shape::rect("r", mx, my, 160.0, 130.0).rounded(8.0),
                Shape::text("t", mx + 10.0, my + 22.0, "Its memory region")
                    .start()
                    .size(Size::Small)
                    .class("strong"),
                Shape::text("a", mx + 10.0, my + 44.0, format!("{PEER_MR_ADDR:#x}"))
                    .start()
                    .mono()
                    .size(Size::Small),
                Shape::text("k", mx + 10.0, my + 66.0, format!("rkey {RKEY:#x}"))
                    .start()
                    .mono()
                    .size(Size::Small),
                Shape::text(
                    "written",
                    mx + 10.0,
                    my + 90.0,
                    format!("written {} B", c.bytes_written_remote),
                )
                .start()
                .size(Size::Small),
                Shape::text(
                    "read",
                    mx + 10.0,
                    my + 114.0,
                    format!("read {} B", c.bytes_read_remote),
                )
                .start()
                .size(Size::Small),
            ],
        )
        .class("done")
        .focus("peer-mr"),
    );
    shapes.push(
        Shape::text("cpu", cx, cy, "its CPU: only Sends")
            .start()
            .size(Size::Small),
    );
    shapes.push(
        Shape::text("cpu2", cx, cy + 22.0, "wake it up")
            .start()
            .size(Size::Small),
    );
    Shape::group("peer", shapes).label(format!(
        "Peer: {} receives posted, {} bytes written and {} read by RDMA, {PEER_MR_LEN}-byte region with rkey {RKEY:#x}",
        m.peer_rq, c.bytes_written_remote, c.bytes_read_remote
    ))
}

/// A flow between the parts, highlighted when the narration is about it.
fn flow(key: &str, d: PathData, label: (f32, f32, &str, bool), focus: &str, dashed: bool) -> Shape {
    let text = Shape::text("label", label.0, label.1, label.2).size(Size::Small);
    let text = if label.3 { text.end() } else { text.start() };
    Shape::group(
        key,
        vec![
            Shape::path("p", d).class("line").arrowhead(Arrow::End),
            text,
        ],
    )
    .class("idle")
    .class_if(dashed, "dashed")
    .focus(focus)
}

/// An arrow between the parts: key, the points it passes through, its
/// label (x, y, words, whether the words end there), focus, dashed.
type FlowSpec = (
    &'static str,
    Vec<(f32, f32)>,
    (f32, f32, &'static str, bool),
    &'static str,
    bool,
);

/// The arrows, laid out for `layout`.
fn flows(layout: Layout) -> [FlowSpec; 6] {
    [
        (
            "flow-dma",
            layout.pick(
                vec![(200.0, 186.0), (200.0, 298.0)],
                vec![(203.0, 186.0), (203.0, 448.0)],
            ),
            layout.pick(
                (194.0, 294.0, "DMA payload", true),
                (209.0, 444.0, "DMA payload", false),
            ),
            "mr",
            false,
        ),
        (
            "flow-doorbell",
            layout.pick(
                vec![(300.0, 132.0), (300.0, 298.0)],
                vec![(18.0, 280.0), (18.0, 448.0)],
            ),
            layout.pick(
                (306.0, 294.0, "doorbell", false),
                (24.0, 444.0, "doorbell", false),
            ),
            "doorbell",
            true,
        ),
        (
            "flow-fetch",
            layout.pick(
                vec![(380.0, 132.0), (380.0, 298.0)],
                vec![(90.0, 280.0), (90.0, 448.0)],
            ),
            layout.pick(
                (386.0, 294.0, "fetch WQE", false),
                (96.0, 444.0, "fetch WQE", false),
            ),
            "sq",
            false,
        ),
        (
            "flow-cqe",
            layout.pick(
                vec![
                    (470.0, 300.0),
                    (470.0, 164.0),
                    (628.0, 164.0),
                    (628.0, 134.0),
                ],
                vec![(396.0, 450.0), (396.0, 280.0)],
            ),
            layout.pick(
                (520.0, 158.0, "write CQE", false),
                (390.0, 444.0, "write CQE", true),
            ),
            "cq",
            false,
        ),
        (
            "flow-wire",
            layout.pick(
                vec![(480.0, 358.0), (518.0, 358.0)],
                vec![(300.0, 566.0), (300.0, 600.0)],
            ),
            layout.pick((480.0, 350.0, "", false), (300.0, 584.0, "", false)),
            "wire",
            false,
        ),
        (
            "flow-peer",
            layout.pick(
                vec![(740.0, 358.0), (770.0, 358.0)],
                vec![(300.0, 718.0), (300.0, 764.0)],
            ),
            layout.pick((740.0, 350.0, "", false), (300.0, 740.0, "", false)),
            "wire",
            false,
        ),
    ]
}

fn diagram(m: &RdmaQp, layout: Layout) -> Figure {
    let d = Dims::new(layout);
    let msg_w = 212.0 * MSG_BYTES as f32 / MR_LEN as f32;
    let mut f = Figure::new(
        "rdma",
        format!(
            "QP {}, send queue {} of {}, completion queue {} of {}",
            m.qp.label(),
            m.sq.len(),
            m.config.sq_depth,
            m.cq.len(),
            m.config.cq_depth
        ),
        d.width,
        d.height,
    )
    .legend("driver", "posted")
    .legend("nic", "with the NIC")
    .legend("done", "completed OK")
    .legend("fault", "error / flushed");
    let (ux, uy, uw, uh) = d.user_band;
    f.push(
        Shape::rect("band-user", ux, uy, uw, uh)
            .rounded(10.0)
            .class("driver ghost"),
    );
    f.push(
        Shape::text(
            "band-user-label",
            16.0,
            26.0,
            "USERSPACE · the app's memory",
        )
        .start()
        .size(Size::Small)
        .class("strong"),
    );
    f.push(
        Shape::group(
            "mr",
            vec![
                Shape::rect("frame", 16.0, 40.0, d.mr_w, 146.0)
                    .rounded(8.0)
                    .class("panel"),
                Shape::text("t", 28.0, 64.0, "Memory region")
                    .start()
                    .class("strong"),
                Shape::text("l1", 28.0, 86.0, "registered · pinned · LOCAL_WRITE")
                    .start()
                    .size(Size::Small),
                Shape::text(
                    "l2",
                    28.0,
                    110.0,
                    format!("{MR_ADDR:#x}–{:#x}", MR_ADDR + MR_LEN),
                )
                .start()
                .mono()
                .size(Size::Small),
                Shape::text("l3", 28.0, 132.0, format!("lkey {LKEY:#x}"))
                    .start()
                    .mono()
                    .size(Size::Small),
                Shape::rect("msg", 28.0, 148.0, msg_w, 22.0)
                    .rounded(3.0)
                    .class("done"),
                Shape::text(
                    "l4",
                    34.0 + msg_w,
                    164.0,
                    format!("{MSG_BYTES} of {MR_LEN} B"),
                )
                .start()
                .size(Size::Small),
            ],
        )
        .class("driver")
        .focus("mr"),
    );
    f.extend(queues(m, d));
    let (kx, ky, kw, kh) = d.kernel_band;
    f.push(
        Shape::rect("band-kernel", kx, ky, kw, kh)
            .rounded(8.0)
            .class("idle ghost"),
    );
    f.push(
        Shape::text(
            "kernel-label",
            d.kernel_label.0,
            d.kernel_label.1,
            "KERNEL · bypassed",
        )
        .start()
        .mono()
        .class("muted"),
    );
    let syscalls = format!("{} syscalls on the data path", m.counters.data_syscalls);
    // On a phone the count shares the band with the arrows: it wraps.
    let syscalls = match layout {
        Layout::Wide => vec![syscalls],
        Layout::Narrow => wrap_words(&syscalls, NARROW_SYSCALL_CHARS),
    };
    let (sx, sy, ends) = d.syscalls;
    f.extend(syscalls.into_iter().enumerate().map(|(i, line)| {
        let key = match i {
            0 => "kernel-syscalls".to_string(),
            i => format!("kernel-syscalls-{i}"),
        };
        Shape::text(key, sx, sy + 22.0 * i as f32, line)
            .anchor(if ends { Anchor::End } else { Anchor::Start })
            .mono()
            .class("muted")
    }));
    let (hx, hy, hw, hh) = d.hw_band;
    f.push(
        Shape::rect("band-hw", hx, hy, hw, hh)
            .rounded(10.0)
            .class("nic ghost"),
    );
    f.push(
        Shape::text(
            "band-hw-label",
            16.0,
            hy + hh - 10.0,
            "HARDWARE · RDMA NIC and the wire",
        )
        .start()
        .size(Size::Small)
        .class("strong"),
    );
    let err = m.qp == QpState::Err;
    let (nx, ny, nw) = d.nic;
    f.push(
        Shape::group(
            "nic",
            vec![
                Shape::rect("frame", nx, ny, nw, 116.0)
                    .rounded(8.0)
                    .class("panel"),
                Shape::text("t", nx + 16.0, ny + 26.0, "RDMA NIC")
                    .start()
                    .class("strong"),
                Shape::text("nic-engine", nx + 16.0, ny + 52.0, engine_text(m))
                    .start()
                    .size(Size::Small),
                Shape::group(
                    "qp-state",
                    vec![
                        Shape::rect("pill", nx + 16.0, ny + 66.0, 150.0, 38.0).rounded(19.0),
                        Shape::text("t", nx + 91.0, ny + 91.0, format!("QP {}", m.qp.label()))
                            .mono()
                            .class("strong"),
                    ],
                )
                .class(if err { "fault" } else { "done" })
                .state(m.qp.label())
                .focus("qp-state"),
            ],
        )
        .class("nic")
        .focus("nic"),
    );
    let wire = match m.on_wire {
        Some((id, len, op)) => format!("last: WR #{id}, {len} B {}", op_short(op)),
        None => "quiet".to_string(),
    };
    let (wx, wy, ww) = d.wire;
    f.push(
        Shape::group(
            "wire",
            vec![
                Shape::rect("frame", wx, wy, ww, 116.0)
                    .rounded(8.0)
                    .class("panel"),
                Shape::text("t", wx + 16.0, wy + 26.0, "Wire")
                    .start()
                    .class("strong"),
                Shape::text("l1", wx + 16.0, wy + 52.0, wire)
                    .start()
                    .size(Size::Small),
                Shape::text(
                    "l2",
                    wx + 16.0,
                    wy + 78.0,
                    format!("{} B sent in total", m.counters.bytes_sent),
                )
                .start()
                .size(Size::Small),
            ],
        )
        .class("done")
        .focus("wire"),
    );
    for (key, points, label, focus, dashed) in flows(layout) {
        let path = points[1..].iter().fold(
            PathData::new().move_to(points[0].0, points[0].1),
            |p, &(x, y)| p.line_to(x, y),
        );
        f.push(flow(key, path, label, focus, dashed));
    }
    f.push(peer(m, d.peer));
    f
}

fn contrast(m: &RdmaQp) -> Table {
    let c = &m.counters;
    let mut t = Table::new(
        "contrast",
        format!(
            "Per send: RDMA against sockets. Recovery used {} ibv_modify_qp call{} (control path, through the kernel).",
            c.control_syscalls,
            plural(c.control_syscalls as usize)
        ),
        &["", "RDMA verbs", "sockets send()"],
    );
    for (name, key, rdma, sock) in [
        ("requests posted", "sends", c.posted, c.sock_sends),
        ("system calls", "syscalls", c.data_syscalls, c.sock_syscalls),
        ("copies by the CPU", "copies", c.copies, c.sock_copies),
        ("bytes copied", "bytes", c.bytes_copied, c.sock_bytes_copied),
    ] {
        t.row(
            format!("row-{key}"),
            vec![
                Cell::text(name),
                Cell::mono(rdma.to_string()).key(format!("rdma-{key}")),
                Cell::mono(sock.to_string()).key(format!("sock-{key}")),
            ],
        )
        .focus("sockets");
    }
    t
}

fn polled(m: &RdmaQp) -> List {
    m.polled.iter().rev().enumerate().fold(
        List::new(
            "polled",
            "ibv_poll_cq: latest completions",
            "nothing polled yet",
        ),
        |list, (i, c)| {
            // ibv_poll_cq(3): an error completion's opcode is not valid;
            // the app maps it back to its request through wr_id.
            let mut text = format!(
                "WR #{} · {} · {}",
                c.wr_id,
                c.status.label(),
                c.opcode
                    .map_or("no valid opcode: look up wr_id", |op| op.wc_label())
            );
            if let Some(n) = c.byte_len {
                text.push_str(&format!(" · {n} B"));
            }
            let item = Item::new(format!("wc-{i}"), text).mono();
            list.item(if c.status == WcStatus::Success {
                item.class("done")
            } else {
                item.class("fault").tag("Error:")
            })
        },
    )
}

impl View for RdmaQp {
    type Look = RdmaLook;

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &RdmaLook, ui: &mut Ui<Self>) -> Scene {
        Scene::new(
            "RDMA queue pair",
            format!(
                "The queue pair is in {}. {} work request(s) in the send queue, {} completion(s) in the completion queue; the peer has {} receive(s) posted; {} system call(s) on the data path so far.",
                self.qp.label(),
                self.sq.len(),
                self.cq.len(),
                self.peer_rq,
                self.counters.data_syscalls
            ),
        )
        .figure(diagram(self, ui.layout()))
        .table(contrast(self))
        .list(polled(self))
    }

    fn controls(&self, look: &RdmaLook, ui: &mut Ui<Self>) -> Vec<Control> {
        let config = self.config.clone();
        let signal = |wr: WorkRequest| {
            if look.unsignaled {
                wr.unsignaled()
            } else {
                wr
            }
        };
        let post = |wr| RdmaAction::PostSend(signal(wr));
        let app = vec![
            Control::button(
                "post-send",
                "Post a Send",
                ui.act(post(WorkRequest::valid())),
            )
            .primary(),
            Control::button(
                "post-write",
                "Post an RDMA WRITE",
                ui.act(post(WorkRequest::write())),
            ),
            Control::button(
                "post-read",
                "Post an RDMA READ",
                ui.act(post(WorkRequest::read())),
            ),
            Control::toggle(
                "signaled",
                "IBV_SEND_SIGNALED on each WR",
                !look.unsignaled,
                ui.look(RdmaLook {
                    unsignaled: !look.unsignaled,
                }),
            ),
            Control::button("poll-cq", "Poll the CQ", ui.act(RdmaAction::PollCq)),
        ];
        let peer = vec![Control::button(
            "peer-recv",
            "Peer posts a receive",
            ui.act(RdmaAction::PeerPostRecv),
        )];
        let contrast = vec![Control::button(
            "socket-send",
            "send() through a socket",
            ui.act(RdmaAction::SocketSend(MSG_BYTES)),
        )];
        let breaks = vec![
            Control::button(
                "post-outside",
                "Post outside the region",
                ui.act(post(WorkRequest::outside())),
            )
            .danger(),
            Control::button(
                "post-badkey",
                "Post with a wrong lkey",
                ui.act(post(WorkRequest::wrong_key())),
            )
            .danger(),
            Control::button(
                "post-badrkey",
                "RDMA WRITE with a wrong rkey",
                ui.act(post(WorkRequest::wrong_rkey())),
            )
            .danger(),
            Control::note("A Send with no receive posted at the peer earns RNR NAKs; unsignaled WRs that are never followed by a signaled one fill the SQ."),
        ];
        let recover = vec![Control::button(
            "reset-qp",
            "Reset the QP to RTS",
            ui.act(RdmaAction::ResetQp),
        )];
        let restart = move |change: fn(&mut RdmaConfig, i64), v: i64| {
            let mut c = config.clone();
            change(&mut c, v);
            Ok(Command::Restart(c))
        };
        let (r1, r2, r3) = (restart.clone(), restart.clone(), restart);
        vec![
            Control::group("App", app),
            Control::note("Step runs the NIC: fetch, transfer, completion."),
            Control::group("Peer", peer),
            Control::group("Contrast", contrast),
            Control::danger_group("Break it", breaks),
            Control::group("Recover", recover),
            Control::slider(
                "sq-depth",
                "SQ depth (restarts)",
                SQ_DEPTH.control_range(self.config.sq_depth),
                SQ_DEPTH.unit.trim_start(),
                ui.number(move |n| r1(|c, n| c.sq_depth = usize::from_i64(n), n)),
            ),
            Control::slider(
                "cq-depth",
                "CQ depth (restarts)",
                CQ_DEPTH.control_range(self.config.cq_depth),
                CQ_DEPTH.unit.trim_start(),
                ui.number(move |n| r2(|c, n| c.cq_depth = usize::from_i64(n), n)),
            ),
            Control::slider(
                "rnr-retry",
                "rnr_retry (restarts; 7 = for ever)",
                RNR_RETRY.control_range(self.config.rnr_retry),
                "retries",
                ui.number(move |n| r3(|c, n| c.rnr_retry = u8::from_i64(n), n)),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::Model;

    #[test]
    fn a_bad_key_turns_the_qp_pill_to_err() {
        let mut m = RdmaQp::new(&RdmaConfig::default());
        m.apply(&RdmaAction::PostSend(WorkRequest::wrong_key()))
            .unwrap();
        while let Ok(a) = m.next_auto() {
            m.apply(&a).unwrap();
        }
        let scene = crate::build(&m, &RdmaLook::default()).0;
        let pill = scene.find("qp-state").unwrap();
        assert_eq!(pill.state.as_deref(), Some("ERR"));
        assert!(pill.has_class("fault"));
    }

    #[test]
    fn the_contrast_counts_socket_syscalls() {
        let mut m = RdmaQp::new(&RdmaConfig::default());
        m.apply(&RdmaAction::SocketSend(MSG_BYTES)).unwrap();
        let scene = crate::build(&m, &RdmaLook::default()).0;
        let t = scene.table_named("contrast").unwrap();
        let syscalls = t.cell("sock-syscalls").unwrap();
        assert_eq!(syscalls.text, "1");
    }

    #[test]
    fn the_signal_switch_makes_the_post_buttons_unsignaled() {
        let m = RdmaQp::new(&RdmaConfig::default());
        let look = RdmaLook { unsignaled: true };
        let (_, controls, ui) = crate::build(&m, &look);
        let Some(Control::Button(b)) = Control::find(&controls, "post-write") else {
            panic!("write button");
        };
        assert_eq!(
            ui.resolve(b.send, &crate::Input::Press).unwrap(),
            Command::Do(RdmaAction::PostSend(WorkRequest::write().unsignaled()))
        );
    }

    #[test]
    fn the_polled_list_shows_an_opcode_only_on_success() {
        // ibv_poll_cq(3): on error only wr_id, status, qp_num and vendor_err
        // are valid. The old list printed IBV_WC_SEND on a flushed WR.
        let mut m = RdmaQp::new(&RdmaConfig::default());
        m.apply(&RdmaAction::PostSend(WorkRequest::valid()))
            .unwrap();
        m.apply(&RdmaAction::PostSend(WorkRequest::wrong_key()))
            .unwrap();
        m.apply(&RdmaAction::PostSend(WorkRequest::valid()))
            .unwrap();
        while let Ok(a) = m.next_auto() {
            m.apply(&a).unwrap();
        }
        m.apply(&RdmaAction::PollCq).unwrap();
        let scene = crate::build(&m, &RdmaLook::default()).0;
        let list = scene.list_named("polled").unwrap();
        let texts: Vec<&str> = list.items.iter().map(|i| i.text.as_str()).collect();
        assert_eq!(
            texts,
            vec![
                "WR #3 · IBV_WC_WR_FLUSH_ERR · no valid opcode: look up wr_id",
                "WR #2 · IBV_WC_LOC_PROT_ERR · no valid opcode: look up wr_id",
                "WR #1 · IBV_WC_SUCCESS · IBV_WC_SEND",
            ]
        );
    }

    #[test]
    fn the_depth_sliders_read_the_models_bounds() {
        let m = RdmaQp::new(&RdmaConfig::default());
        let (_, controls, _) = crate::build(&m, &RdmaLook::default());
        let Some(Control::Number(sq)) = Control::find(&controls, "sq-depth") else {
            panic!("sq slider");
        };
        assert_eq!((sq.min, sq.max), (SQ_DEPTH.min as i64, SQ_DEPTH.max as i64));
        let Some(Control::Number(rnr)) = Control::find(&controls, "rnr-retry") else {
            panic!("rnr slider");
        };
        assert_eq!(rnr.max, i64::from(RNR_RETRY.max));
    }

    #[test]
    fn the_peer_shows_its_receive_queue() {
        let mut m = RdmaQp::new(&RdmaConfig::default());
        m.apply(&RdmaAction::PostSend(WorkRequest::valid()))
            .unwrap();
        while let Ok(a) = m.next_auto() {
            m.apply(&a).unwrap();
        }
        let scene = crate::build(&m, &RdmaLook::default()).0;
        assert_eq!(scene.find("rq-0").unwrap().state.as_deref(), Some("posted"));
        assert_eq!(scene.find("rq-1").unwrap().state.as_deref(), Some("empty"));
    }
}
