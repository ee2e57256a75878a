//! The receiving host: the NIC's DMA, moderation, the interrupt, the NAPI
//! poll and GRO, the socket, or a polling application. Costs are the
//! busy-poll model's, the hold-back the coalescing rule's, PCIe bytes the
//! simple NIC's, what is copied the zero-copy model's.

use super::{off, Ctx, Stage};
use crate::host::pcie::nic::Path as Way;
use crate::journey::StageId;
use crate::nic::coalescing::STRANDED_NS;
use crate::text::{duration, grouped, ns, plural};

pub(super) fn stages(c: &Ctx) -> Vec<Stage> {
    vec![
        rx_dma(c),
        moderation(c),
        interrupt(c),
        napi(c),
        gro(c),
        socket(c),
        app_poll(c),
    ]
}

/// The NIC writes each frame and its descriptor into host memory.
fn rx_dma(c: &Ctx) -> Stage {
    let (tlps, bytes) = c.pcie_frames(Way::Receive, &["packet write", "descriptor write-back"]);
    Stage {
        id: StageId::RxDma,
        ns: c.rc("dma") * c.n(),
        on_path: true,
        off_reason: None,
        bytes,
        tlps,
        detail: format!(
            "The NIC writes each frame into a posted buffer and writes the descriptor back: {tlps} posted TLP{}, {} bytes on the link; {} a frame.",
            plural(tlps as usize),
            grouped(bytes as i64),
            ns(c.rc("dma") as i64)
        ),
    }
}

/// Moderation: how long the coalescing rule holds this burst's interrupt.
fn moderation(c: &Ctx) -> Stage {
    let irq_on = c.received("msix");
    let on = irq_on && c.j.setup.moderation;
    let coalescing = c.j.coalescing_model(c.last_len());
    let frames = c.frames.lens.len();
    let wait = coalescing.burst_wait_ns(frames as u32);
    let rx_frames = coalescing.frames_now();
    Stage {
        id: StageId::Moderation,
        ns: wait.unwrap_or(STRANDED_NS),
        on_path: on,
        off_reason: off(on, || {
            Some(if irq_on {
                "moderation off: rx-usecs 0, rx-frames 1".into()
            } else {
                "no interrupt on the path".into()
            })
        }),
        bytes: 0,
        tlps: 0,
        detail: match wait {
            Some(0) => format!(
                "rx-frames {rx_frames} is met by the message's {frames} frame{}: the interrupt fires at once.",
                plural(frames)
            ),
            Some(w) => format!(
                "rx-frames {rx_frames} is not met by {frames} frame{}, so the NIC holds the interrupt for rx-usecs: {}.",
                plural(frames),
                duration(w)
            ),
            None => format!(
                "rx-usecs 0 and rx-frames {rx_frames} never met: the message waits for later packets; counted here as the coalescing demo's stranded mark, {}.",
                duration(STRANDED_NS)
            ),
        },
    }
}

/// MSI-X delivery and the hard-IRQ handler: one interrupt, by the one rule.
fn interrupt(c: &Ctx) -> Stage {
    let on = c.received("msix");
    let irq = c.receive.interrupt();
    let (tlps, bytes) = c.pcie(Way::Receive, 0, &["interrupt (MSI)"]);
    Stage {
        id: StageId::Interrupt,
        ns: irq.delay_ns(),
        on_path: on,
        off_reason: off(on, || c.recv_off("msix")),
        bytes,
        tlps,
        detail: format!(
            "The MSI-X message, a {bytes}-byte write on the link, reaches the core ({}); the hard-IRQ handler schedules NAPI ({}).",
            ns(irq.delivery_ns),
            ns(irq.handler_ns)
        ),
    }
}

/// The NAPI poll: driver, IP and TCP, once per frame.
fn napi(c: &Ctx) -> Stage {
    let on = c.received("stack");
    let n = c.n();
    Stage {
        id: StageId::Napi,
        ns: c.rc("stack") * n,
        on_path: on,
        off_reason: off(on, || c.recv_off("stack")),
        bytes: c.total_len() as u64,
        tlps: 0,
        detail: format!(
            "{} the driver's poll, then IP and TCP, {} a frame{}.",
            if c.j.setup.busy_poll {
                "The reader's own busy-poll loop calls"
            } else {
                "The softirq runs"
            },
            ns(c.rc("stack") as i64),
            if n > 1 {
                format!(", {n} frames")
            } else {
                String::new()
            }
        ),
    }
}

/// GRO merges the segments; its time is inside the poll's cost.
fn gro(c: &Ctx) -> Stage {
    let on = c.received("stack") && !c.j.setup.rdma;
    let segments = c.frames.segments;
    Stage {
        id: StageId::Gro,
        ns: 0,
        on_path: on,
        off_reason: off(on, || c.recv_off("stack")),
        bytes: c.bytes(),
        tlps: 0,
        detail: format!(
            "GRO merges the {segments} segment{} of one flow into one before TCP sees them; the busy-poll model counts its time inside the NAPI poll's.",
            plural(segments)
        ),
    }
}

/// The socket: the reader's wakeup and `recvmsg()`.
fn socket(c: &Ctx) -> Stage {
    let wake = c.received("wakeup");
    let read = c.received("recvmsg");
    let copied = if c.j.zero_copy_model().per_packet().copied > 0 {
        c.bytes()
    } else {
        0
    };
    let on_path_ns = c.rc("wakeup") * u64::from(wake) + c.rc("recvmsg") * u64::from(read);
    Stage {
        id: StageId::Socket,
        ns: if read {
            on_path_ns
        } else {
            c.rc("wakeup") + c.rc("recvmsg")
        },
        on_path: read,
        off_reason: off(read, || c.recv_off("recvmsg")),
        bytes: copied,
        tlps: 0,
        detail: format!(
            "{}recvmsg() returns with the data ({}), copying {} byte{}{}.",
            if wake {
                format!(
                    "The scheduler wakes the sleeping reader and switches to it ({}); ",
                    ns(c.rc("wakeup") as i64)
                )
            } else {
                "The reader is already running, spinning in recvmsg(): no wakeup. ".into()
            },
            ns(c.rc("recvmsg") as i64),
            grouped(copied as i64),
            plural(copied as usize),
            if c.j.setup.zero_copy {
                " (zero-copy: the payload stays where the NIC wrote it; the lab prices recvmsg() whole, so the time does not move)"
            } else {
                ""
            }
        ),
    }
}

/// A polling application finds the message itself.
fn app_poll(c: &Ctx) -> Stage {
    let on = c.received("app-poll");
    Stage {
        id: StageId::AppPoll,
        ns: c.rc("app-poll"),
        on_path: on,
        off_reason: off(on, || c.recv_off("app-poll")),
        bytes: 0,
        tlps: 0,
        detail: if c.j.setup.rdma {
            format!(
                "The peer's NIC wrote the bytes into registered memory with no CPU; the application finds them by polling ({}).",
                ns(c.rc("app-poll") as i64)
            )
        } else {
            format!(
                "The application polls its own RX ring and finds the frame ({}).",
                ns(c.rc("app-poll") as i64)
            )
        },
    }
}
