//! Between the hosts: the PHY and the wire, the switch (its queue, then
//! store-and-forward or cut-through), and a dropped frame's timer and
//! resend.

use super::{off, send, wire_ns, Ctx, Stage};
use crate::host::ring_sizing::wire::{INTERFRAME_GAP_BYTES, PREAMBLE_SFD_BYTES};
use crate::journey::StageId;
use crate::net::congestion::path::serialise_ns;
use crate::nic::cut_through::CHUNK_BYTES;
use crate::text::{duration, grouped, ns, plural};

pub(super) fn stages(c: &Ctx) -> Vec<Stage> {
    vec![wire(c), switch(c), retransmit(c)]
}

/// The send path's SerDes and PHY stage, per frame.
fn phy_ns(c: &Ctx) -> u64 {
    c.sc("phy") * u64::from(c.sent("phy"))
}

/// The PHY, then each frame's line time.
fn wire(c: &Ctx) -> Stage {
    let line: u64 = c
        .frames
        .lens
        .iter()
        .map(|&len| wire_ns(len, c.line()))
        .sum();
    let frames = c.frames.lens.len();
    Stage {
        id: StageId::Wire,
        ns: line + phy_ns(c) * c.n(),
        on_path: true,
        off_reason: None,
        bytes: c.total_len() as u64,
        tlps: 0,
        detail: format!(
            "The SerDes and PHY put each frame on the line ({}), then {} frame{} of {} bytes in all cross it at {} Gb/s, each behind {PREAMBLE_SFD_BYTES} bytes of preamble and start-of-frame delimiter and before a {INTERFRAME_GAP_BYTES}-byte gap.",
            ns(phy_ns(c) as i64),
            frames,
            plural(frames),
            grouped(c.total_len() as i64),
            c.line()
        ),
    }
}

/// The switch: the queue ahead, if loaded, then its forwarding delay.
fn switch(c: &Ctx) -> Stage {
    let s = &c.j.setup;
    let forward: u64 = c.frames.lens.iter().map(|&len| c.j.switch_ns(len)).sum();
    let ahead = if s.loaded_switch {
        c.j.queue_ahead()
    } else {
        0
    };
    let queued = ahead * serialise_ns(u64::from(c.line()) * 1_000);
    let how = if s.cut_through_switch {
        let t = c.j.config.switch_threshold;
        format!(
            "cut-through: it forwards after {t} chunk{} of 64 bytes",
            plural(t)
        )
    } else {
        "store-and-forward: it takes in the whole frame before it sends the first bit".into()
    };
    let queue = if s.loaded_switch {
        format!(
            " A loaded port: {ahead} full-size packet{} ahead of it (the deepest queue of one incast request) take {}.",
            plural(ahead as usize),
            ns(queued as i64)
        )
    } else {
        String::new()
    };
    Stage {
        id: StageId::Switch,
        ns: forward + queued,
        on_path: true,
        off_reason: None,
        bytes: c.total_len() as u64,
        tlps: 0,
        detail: format!(
            "The switch is {how}, in the cut-through demo's {CHUNK_BYTES}-byte chunks: {}.{queue}",
            ns(forward as i64)
        ),
    }
}

/// Break it: the last frame is dropped; the timer, then the resend of that
/// frame down the same transmit path.
fn retransmit(c: &Ctx) -> Stage {
    let last = c.last_len();
    let on = c.j.setup.drop;
    let resend = send::resend_host(c) + phy_ns(c) + wire_ns(last, c.line()) + c.j.switch_ns(last);
    let rto = c.j.rto_ns();
    Stage {
        id: StageId::Retransmit,
        ns: rto + resend,
        on_path: on,
        off_reason: off(on, || Some("no frame is dropped".into())),
        bytes: last as u64,
        tlps: 0,
        detail: format!(
            "The switch drops the last frame. Nothing follows it, so no duplicate ACK can start a fast retransmit; here TCP waits for its retransmission timer, at least {} ({}), then sends the frame again through the driver, the NIC and the switch, whose queue has drained by then ({}). Linux would first send a tail loss probe about two smoothed RTTs after the frame (RFC 8985 §7), which the lab, like its incast demo, leaves out.",
            duration(rto),
            if c.j.config.incast.fixes.fine_rto {
                "the 1 ms floor of the incast demo's fix"
            } else {
                "Linux's TCP_RTO_MIN"
            },
            ns(resend as i64)
        ),
    }
}
