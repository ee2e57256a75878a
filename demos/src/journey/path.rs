//! The path: every stage's time and bytes, each asked of its own demo's
//! model (see the module notes for which), and their plain sum.

use super::setup::Frames;
use super::{Journey, StageId};
use crate::host::pcie::link::Link;
use crate::host::pcie::nic::{per_packet, transaction_wire, Op, Path as Way, Transaction};
use crate::host::pcie::transfer;
use crate::host::ring_sizing::wire::frame_ps;
use crate::net::congestion::path::serialise_ns;
use crate::net::congestion::sender::RTO_MIN_LINUX_NS;
use crate::net::incast::{self, RTO_MIN_FINE_NS};
use crate::net::wire::ethernet::{FCS_LEN, HEADER_LEN};
use crate::nic::busy_poll::{self, BusyPoll};
use crate::nic::coalescing::STRANDED_NS;
use crate::nic::rdma_qp::{POST_SEND_SYSCALLS, SOCKET_SEND_SYSCALLS};
use crate::nic::send_path::{self, SendPath, DESCRIPTOR, DOORBELL, FETCH, NET_TX, PIO};
use crate::nic::stages::Spec as StageSpec;
use crate::text::{grouped, ns, plural};

/// A stage's index in a demo's stage table, found by its stable key.
fn index(spec: &StageSpec, key: &str) -> usize {
    spec.stages
        .iter()
        .position(|s| s.key == key)
        .expect("the demo has this stage")
}

/// One stage as the journey shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    pub id: StageId,
    /// Its time, ns (what it would take, when off the path).
    pub ns: u64,
    pub on_path: bool,
    /// Why it is off the path, when it is.
    pub off_reason: Option<String>,
    /// Bytes it handles: copied, added, sent, moved over PCIe.
    pub bytes: u64,
    /// PCIe TLPs it takes (0 for a stage with no PCIe traffic).
    pub tlps: u64,
    /// What happens there and why it costs what it costs, from the numbers.
    pub detail: String,
}

/// The whole path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path {
    /// Every stage, in order, on the path or not.
    pub stages: Vec<Stage>,
    pub total_ns: u64,
    pub frames: Frames,
}

impl Path {
    pub fn stage(&self, id: StageId) -> &Stage {
        self.stages
            .iter()
            .find(|s| s.id == id)
            .expect("every stage is on the list")
    }

    pub fn on_path(&self) -> impl Iterator<Item = &Stage> {
        self.stages.iter().filter(|s| s.on_path)
    }

    /// The stage that takes the longest (the first of equals), if any.
    pub fn dominant(&self) -> Option<&Stage> {
        self.on_path()
            .fold(None, |best: Option<&Stage>, s| match best {
                Some(b) if b.ns >= s.ns => Some(b),
                _ => Some(s),
            })
    }

    /// A stage's share of the total, tenths of a percent.
    pub fn share_tenths(&self, id: StageId) -> i64 {
        let s = self.stage(id);
        if !s.on_path {
            return 0;
        }
        crate::text::share_tenths(s.ns as i64, self.total_ns as i64)
    }
}

/// TLPs and link bytes (both directions) of one transaction.
fn pcie_cost(link: &Link, t: &Transaction) -> (u64, u64) {
    let tlps = match t.op {
        Op::Write => transfer::write(link, t.bytes).count,
        Op::Read => {
            let read = transfer::read(link, t.bytes);
            read.requests.count + read.completions.count
        }
    };
    let wire = transaction_wire(link, t);
    (tlps, wire.inbound + wire.outbound)
}

/// The PCIe cost of the named transactions of one packet of `bytes`.
fn pcie_of(link: &Link, way: Way, bytes: usize, names: &[&str]) -> (u64, u64) {
    per_packet(way, bytes as u64)
        .iter()
        .filter(|t| names.contains(&t.what))
        .map(|t| pcie_cost(link, t))
        .fold((0, 0), |(a, b), (c, d)| (a + c, b + d))
}

/// A stage on the send path, by the send-path model's own verdict.
fn sent_on(send: &SendPath, i: usize) -> bool {
    send.pipe.is_active(&send_path::SPEC, i)
}

fn received_on(receive: &BusyPoll, i: usize) -> bool {
    receive.pipe.is_active(&busy_poll::SPEC, i)
}

fn off(on: bool, reason: impl FnOnce() -> Option<String>) -> Option<String> {
    if on {
        None
    } else {
        reason()
    }
}

/// The serialisation of a frame of `len` bytes at `gbps`, ns, rounded.
pub fn wire_ns(len: usize, gbps: u32) -> u64 {
    let payload = len.saturating_sub(HEADER_LEN + FCS_LEN) as u32;
    frame_ps(payload, gbps).div_ceil(1_000)
}

impl Journey {
    /// The switch's own delay for a frame of `len`: from the frame's last
    /// bit in to its last bit out, less nothing (store-and-forward sends
    /// the whole frame again; cut-through only the threshold's head start).
    pub fn switch_ns(&self, len: usize) -> u64 {
        let model = self.switch_model(len);
        let plan = model.sent();
        let last_in = plan.arrival(plan.chunks - 1);
        model.ns(plan.end.saturating_sub(last_in)).round() as u64
    }

    /// Packets queued ahead of the message in a loaded switch: the deepest
    /// queue of one incast request.
    pub fn queue_ahead(&self) -> u64 {
        incast::run(&self.config.incast).path.max_queue as u64
    }

    /// CTPIO's time from the first chunk written to the first bit on the
    /// wire, for a frame of `len`.
    pub fn ctpio_ns(&self, len: usize) -> u64 {
        let model = self.ctpio_model(len);
        model.ns(model.sent().start).round() as u64
    }

    /// The retransmission timer: Linux's floor, or the 1 ms one if the
    /// incast configuration has the fine-grained RTO fix.
    pub fn rto_ns(&self) -> u64 {
        if self.config.incast.fixes.fine_rto {
            RTO_MIN_FINE_NS
        } else {
            RTO_MIN_LINUX_NS
        }
    }

    /// Every stage, asked of its own model.
    pub fn path(&self) -> Path {
        let frames = self.frames();
        let n = frames.lens.len().max(1) as u64;
        let total_len: usize = frames.lens.iter().sum();
        let last_len = frames.lens.last().copied().unwrap_or(0);
        let send = self.send_model();
        let receive = self.receive_model();
        let sc = &send.pipe.costs;
        let rc = &receive.pipe.costs;
        // Under RDMA the stage models still say "kernel bypass" and "a
        // poll-mode driver"; the reason the learner reads is the verbs'.
        let rdma = self.setup.rdma;
        let send_off = |i: usize| {
            if rdma {
                Some(format!(
                    "system calls: ibv_post_send() {POST_SEND_SYSCALLS}, send() {SOCKET_SEND_SYSCALLS}"
                ))
            } else {
                send.pipe.off_reason(&send_path::SPEC, i)
            }
        };
        let recv_off = |i: usize| {
            if rdma {
                Some("an RDMA WRITE needs no CPU at the receiver".into())
            } else {
                receive.pipe.off_reason(&busy_poll::SPEC, i)
            }
        };
        let link = self.config.pcie_model().link();
        let s = &self.setup;
        let bytes = self.message_bytes as u64;
        let line = self.config.line_gbps;
        let mut stages = Vec::new();
        let (syscall, kernel_stack, copy, dma_read) = (
            index(&send_path::SPEC, "syscall"),
            index(&send_path::SPEC, "kernel-stack"),
            index(&send_path::SPEC, "copy"),
            index(&send_path::SPEC, "dma"),
        );
        let (rx_dma, msix, stack, wakeup, recvmsg, app_poll) = (
            index(&busy_poll::SPEC, "dma"),
            index(&busy_poll::SPEC, "msix"),
            index(&busy_poll::SPEC, "stack"),
            index(&busy_poll::SPEC, "wakeup"),
            index(&busy_poll::SPEC, "recvmsg"),
            index(&busy_poll::SPEC, "app-poll"),
        );

        // send(): the system call and the copy of the message.
        let on = sent_on(&send, syscall);
        stages.push(Stage {
            id: StageId::Send,
            ns: u64::from(sc[syscall] + sc[copy]),
            on_path: on,
            off_reason: off(on, || send_off(syscall)),
            bytes,
            tlps: 0,
            detail: format!(
                "The system call and its mode switch ({}), then the copy of {} byte{} into a kernel buffer ({}): the send path's costs.",
                ns(sc[syscall]),
                grouped(bytes as i64),
                plural(self.message_bytes),
                ns(sc[copy])
            ),
        });

        // TCP/IP: the kernel stack runs once per segment.
        let on = sent_on(&send, kernel_stack) && !s.rdma;
        let headers = (total_len as u64).saturating_sub(bytes);
        stages.push(Stage {
            id: StageId::Segment,
            ns: u64::from(sc[kernel_stack]) * frames.segments.max(1) as u64,
            on_path: on,
            off_reason: off(on, || {
                if s.rdma {
                    Some("the RDMA NIC cuts the message into packets itself".into())
                } else {
                    send_off(kernel_stack)
                }
            }),
            bytes: headers,
            tlps: 0,
            detail: format!(
                "TCP cuts the message at the {}-byte MSS into {} segment{}; TCP, IP and Ethernet add {} bytes of headers, pad and FCS. The kernel stack costs {} a segment.",
                self.config.mss,
                frames.segments,
                plural(frames.segments),
                grouped(headers as i64),
                ns(sc[kernel_stack])
            ),
        });

        // The qdisc: straight through, or a wait.
        let kernel = sent_on(&send, syscall);
        let waits = sent_on(&send, NET_TX);
        stages.push(Stage {
            id: StageId::Qdisc,
            ns: if waits { u64::from(sc[NET_TX]) } else { 0 },
            on_path: kernel,
            off_reason: off(kernel, || send_off(syscall)),
            bytes: 0,
            tlps: 0,
            detail: if waits {
                format!(
                    "The skb cannot go straight to the driver: it waits {} in the qdisc for its owner on another CPU or for NET_TX after a TX completion.",
                    ns(sc[NET_TX])
                )
            } else {
                "An idle qdisc sends in the caller's own context, straight to the driver: no wait (its own work is in the kernel stack's cost).".into()
            },
        });

        // CTPIO: the CPU writes the frame itself.
        let on = sent_on(&send, PIO);
        let chunk_bytes: u64 = frames
            .lens
            .iter()
            .map(|&l| super::JourneyConfig::chunks(l) as u64 * 64)
            .sum();
        let pio_tlps: u64 = frames
            .lens
            .iter()
            .map(|&l| super::JourneyConfig::chunks(l) as u64)
            .sum();
        stages.push(Stage {
            id: StageId::Pio,
            ns: u64::from(sc[PIO]) * n,
            on_path: on,
            off_reason: off(on, || send_off(PIO)),
            bytes: chunk_bytes,
            tlps: pio_tlps,
            detail: format!(
                "The CPU writes each frame into the NIC's aperture in 64-byte write-combined bursts: {} byte{} in {} posted write{}, {} a frame.",
                grouped(chunk_bytes as i64),
                plural(chunk_bytes as usize),
                pio_tlps,
                plural(pio_tlps as usize),
                ns(sc[PIO])
            ),
        });

        // Descriptor and doorbell.
        let on = sent_on(&send, DESCRIPTOR);
        let (bell_tlps, bell_bytes) = pcie_of(&link, Way::Transmit, 0, &["doorbell: tail pointer"]);
        stages.push(Stage {
            id: StageId::Doorbell,
            ns: u64::from(sc[DESCRIPTOR] + sc[DOORBELL]) * n,
            on_path: on,
            off_reason: off(on, || send_off(DESCRIPTOR)),
            bytes: bell_bytes * n,
            tlps: bell_tlps * n,
            detail: format!(
                "The driver writes a descriptor ({}) and then the NIC's tail pointer, a posted MMIO write of {} bytes on the link ({}), for each frame.",
                ns(sc[DESCRIPTOR]),
                bell_bytes,
                ns(sc[DOORBELL])
            ),
        });

        // The NIC's fetch, or CTPIO's head start.
        let (fetch, fetch_bytes, fetch_tlps, fetch_detail) = if send.pipe.uses(send_path::CTPIO) {
            let ns_sum: u64 = frames.lens.iter().map(|&l| self.ctpio_ns(l)).sum();
            let threshold = self.config.ctpio.threshold;
            (
                ns_sum,
                0,
                0,
                format!(
                    "No fetch: the NIC starts the wire once {threshold} chunk{} of the CPU's writes are in, at {} Gb/s over PCIe; the cut-through model's plan gives {}.",
                    plural(threshold),
                    self.config.ctpio.pcie_gbps,
                    ns(ns_sum as i64)
                ),
            )
        } else {
            let mut tlps = 0;
            let mut link_bytes = 0;
            for &len in &frames.lens {
                let (t, b) = pcie_of(
                    &link,
                    Way::Transmit,
                    len,
                    &["descriptor fetch", "packet fetch"],
                );
                tlps += t;
                link_bytes += b;
            }
            let mut cost = 0;
            if sent_on(&send, FETCH) {
                cost += u64::from(sc[FETCH]);
            }
            if sent_on(&send, dma_read) {
                cost += u64::from(sc[dma_read]);
            }
            (
                cost * n,
                link_bytes,
                tlps,
                format!(
                    "The NIC reads the 16-byte descriptor ({}), then the frame ({}): {} TLP{} and {} bytes on a Gen{} ×{} link, requests and completions counted.",
                    ns(sc[FETCH]),
                    ns(sc[dma_read]),
                    tlps,
                    plural(tlps as usize),
                    grouped(link_bytes as i64),
                    self.config.pcie.generation,
                    self.config.pcie.lanes
                ),
            )
        };
        stages.push(Stage {
            id: StageId::Fetch,
            ns: fetch,
            on_path: true,
            off_reason: None,
            bytes: fetch_bytes,
            tlps: fetch_tlps,
            detail: fetch_detail,
        });

        // The wire: the SerDes and PHY (the send path's last stage), then
        // each frame's line time.
        let phy = index(&send_path::SPEC, "phy");
        let phy_ns = u64::from(sc[phy]) * u64::from(sent_on(&send, phy));
        let wire: u64 = frames.lens.iter().map(|&l| wire_ns(l, line)).sum::<u64>() + phy_ns * n;
        stages.push(Stage {
            id: StageId::Wire,
            ns: wire,
            on_path: true,
            off_reason: None,
            bytes: total_len as u64,
            tlps: 0,
            detail: format!(
                "The SerDes and PHY put each frame on the line ({}), then {} frame{} of {} bytes in all cross it at {} Gb/s, each behind 8 bytes of preamble and start-of-frame delimiter and before a 12-byte gap.",
                ns(phy_ns as i64),
                frames.lens.len(),
                plural(frames.lens.len()),
                grouped(total_len as i64),
                line
            ),
        });

        // The switch.
        let forward: u64 = frames.lens.iter().map(|&l| self.switch_ns(l)).sum();
        let ahead = if s.loaded_switch {
            self.queue_ahead()
        } else {
            0
        };
        let queued = ahead * serialise_ns(u64::from(line) * 1_000);
        let how = if s.cut_through_switch {
            format!(
                "cut-through: it forwards after {} chunk{} of 64 bytes",
                self.config.switch_threshold,
                plural(self.config.switch_threshold)
            )
        } else {
            "store-and-forward: it takes in the whole frame before it sends the first bit".into()
        };
        let queue_text = if s.loaded_switch {
            format!(
                " A loaded port: {ahead} full-size packet{} ahead of it (the deepest queue of one incast request) take {}.",
                plural(ahead as usize),
                ns(queued as i64)
            )
        } else {
            String::new()
        };
        stages.push(Stage {
            id: StageId::Switch,
            ns: forward + queued,
            on_path: true,
            off_reason: None,
            bytes: total_len as u64,
            tlps: 0,
            detail: format!("The switch is {how}: {}.{queue_text}", ns(forward as i64)),
        });

        // Break it: the last frame is dropped; the timer, then the resend of
        // that frame down the same transmit path.
        let resend_host = if send.pipe.uses(send_path::CTPIO) {
            u64::from(sc[PIO]) + self.ctpio_ns(last_len)
        } else {
            [DESCRIPTOR, DOORBELL, FETCH, dma_read]
                .iter()
                .filter(|&&i| sent_on(&send, i))
                .map(|&i| u64::from(sc[i]))
                .sum()
        };
        let resend = resend_host + phy_ns + wire_ns(last_len, line) + self.switch_ns(last_len);
        let rto = self.rto_ns();
        stages.push(Stage {
            id: StageId::Retransmit,
            ns: rto + resend,
            on_path: s.drop,
            off_reason: off(s.drop, || Some("no frame is dropped".into())),
            bytes: last_len as u64,
            tlps: 0,
            detail: format!(
                "The switch drops the last frame. Nothing follows it, so no duplicate ACK can start a fast retransmit; here TCP waits for its retransmission timer, at least {} ({}), then sends the frame again through the driver, the NIC and the switch, whose queue has drained by then ({}). Linux would first send a tail loss probe about two smoothed RTTs after the frame (RFC 8985 §7), which the lab, like its incast demo, leaves out.",
                crate::text::duration(rto),
                if self.config.incast.fixes.fine_rto {
                    "the 1 ms floor of the incast demo's fix"
                } else {
                    "Linux's TCP_RTO_MIN"
                },
                ns(resend as i64)
            ),
        });

        // The receiving NIC.
        let (rx_tlps, rx_bytes) = frames
            .lens
            .iter()
            .map(|&l| {
                pcie_of(
                    &link,
                    Way::Receive,
                    l,
                    &["packet write", "descriptor write-back"],
                )
            })
            .fold((0, 0), |(a, b), (c, d)| (a + c, b + d));
        stages.push(Stage {
            id: StageId::RxDma,
            ns: u64::from(rc[rx_dma]) * n,
            on_path: true,
            off_reason: None,
            bytes: rx_bytes,
            tlps: rx_tlps,
            detail: format!(
                "The NIC writes each frame into a posted buffer and writes the descriptor back: {} posted TLP{}, {} bytes on the link; {} a frame.",
                rx_tlps,
                plural(rx_tlps as usize),
                grouped(rx_bytes as i64),
                ns(rc[rx_dma])
            ),
        });

        // Moderation: the coalescing rule for this burst.
        let irq_on = received_on(&receive, msix);
        let coalescing = self.coalescing_model(last_len);
        let wait = coalescing.burst_wait_ns(frames.lens.len() as u32);
        let on = irq_on && s.moderation;
        stages.push(Stage {
            id: StageId::Moderation,
            ns: wait.unwrap_or(STRANDED_NS),
            on_path: on,
            off_reason: off(on, || {
                Some(if !irq_on {
                    "no interrupt on the path".into()
                } else {
                    "moderation off: rx-usecs 0, rx-frames 1".into()
                })
            }),
            bytes: 0,
            tlps: 0,
            detail: match wait {
                Some(0) => format!(
                    "rx-frames {} is met by the message's {} frame{}: the interrupt fires at once.",
                    coalescing.frames_now(),
                    frames.lens.len(),
                    plural(frames.lens.len())
                ),
                Some(w) => format!(
                    "rx-frames {} is not met by {} frame{}, so the NIC holds the interrupt for rx-usecs: {}.",
                    coalescing.frames_now(),
                    frames.lens.len(),
                    plural(frames.lens.len()),
                    crate::text::duration(w)
                ),
                None => format!(
                    "rx-usecs 0 and rx-frames {} never met: the message waits for later packets; counted here as the coalescing demo's stranded mark, {}.",
                    coalescing.frames_now(),
                    crate::text::duration(STRANDED_NS)
                ),
            },
        });

        // The interrupt.
        let irq = receive.interrupt();
        let (msi_tlps, msi_bytes) = pcie_of(&link, Way::Receive, 0, &["interrupt (MSI)"]);
        stages.push(Stage {
            id: StageId::Interrupt,
            ns: irq.delay_ns(),
            on_path: irq_on,
            off_reason: off(irq_on, || recv_off(msix)),
            bytes: msi_bytes,
            tlps: msi_tlps,
            detail: format!(
                "The MSI-X message, a {msi_bytes}-byte write on the link, reaches the core ({}); the hard-IRQ handler schedules NAPI ({}).",
                ns(irq.delivery_ns),
                ns(irq.handler_ns)
            ),
        });

        // NAPI: once per frame.
        let on = received_on(&receive, stack);
        stages.push(Stage {
            id: StageId::Napi,
            ns: u64::from(rc[stack]) * n,
            on_path: on,
            off_reason: off(on, || recv_off(stack)),
            bytes: total_len as u64,
            tlps: 0,
            detail: format!(
                "{} the driver's poll, then IP and TCP, {} a frame{}.",
                if s.busy_poll {
                    "The reader's own busy-poll loop calls"
                } else {
                    "The softirq runs"
                },
                ns(rc[stack]),
                if n > 1 {
                    format!(", {} frames", n)
                } else {
                    String::new()
                }
            ),
        });

        // GRO: merges; its time is inside the poll's cost.
        let on = received_on(&receive, stack) && !s.rdma;
        stages.push(Stage {
            id: StageId::Gro,
            ns: 0,
            on_path: on,
            off_reason: off(on, || recv_off(stack)),
            bytes,
            tlps: 0,
            detail: format!(
                "GRO merges the {} segment{} of one flow into one before TCP sees them; the busy-poll model counts its time inside the NAPI poll's.",
                frames.segments,
                plural(frames.segments)
            ),
        });

        // The socket: wakeup and recvmsg().
        let wake = received_on(&receive, wakeup);
        let read = received_on(&receive, recvmsg);
        let copied = self.zero_copy_model().per_packet().copied;
        let copied_bytes = if copied > 0 { bytes } else { 0 };
        let socket_ns =
            u64::from(rc[wakeup]) * u64::from(wake) + u64::from(rc[recvmsg]) * u64::from(read);
        stages.push(Stage {
            id: StageId::Socket,
            ns: if wake || read {
                socket_ns
            } else {
                u64::from(rc[wakeup] + rc[recvmsg])
            },
            on_path: read,
            off_reason: off(read, || recv_off(recvmsg)),
            bytes: copied_bytes,
            tlps: 0,
            detail: format!(
                "{}recvmsg() returns with the data ({}), copying {} byte{}{}.",
                if wake {
                    format!(
                        "The scheduler wakes the sleeping reader and switches to it ({}); ",
                        ns(rc[wakeup])
                    )
                } else {
                    "The reader is already running, spinning in recvmsg(): no wakeup. ".into()
                },
                ns(rc[recvmsg]),
                grouped(copied_bytes as i64),
                plural(copied_bytes as usize),
                if s.zero_copy {
                    " (zero-copy: the payload stays where the NIC wrote it; the lab prices recvmsg() whole, so the time does not move)"
                } else {
                    ""
                }
            ),
        });

        // A poll-mode application.
        let on = received_on(&receive, app_poll);
        stages.push(Stage {
            id: StageId::AppPoll,
            ns: u64::from(rc[app_poll]),
            on_path: on,
            off_reason: off(on, || recv_off(app_poll)),
            bytes: 0,
            tlps: 0,
            detail: if s.rdma {
                format!(
                    "The peer's NIC wrote the bytes into registered memory with no CPU; the application finds them by polling ({}).",
                    ns(rc[app_poll])
                )
            } else {
                format!(
                    "The application polls its own RX ring and finds the frame ({}).",
                    ns(rc[app_poll])
                )
            },
        });

        let total_ns = stages.iter().filter(|s| s.on_path).map(|s| s.ns).sum();
        Path {
            stages,
            total_ns,
            frames,
        }
    }
}
