//! Userspace above, the NIC below, the kernel between and out of the way:
//! the registered region, the send and completion queues, the NIC's DMA
//! engine and the wire.

use crate::shell::demo_host::Lab;
use demos::nic::rdma_qp::{RdmaQp, Stage, WcStatus, LKEY, MR_ADDR, MR_LEN, MSG_BYTES};
use leptos::prelude::*;

const QUEUE_W: f64 = 220.0;
const SQ_X: f64 = 272.0;
const CQ_X: f64 = 518.0;
const QUEUE_Y: f64 = 74.0;
/// The message's share of the region, drawn to scale.
const MSG_W: f64 = 212.0 * MSG_BYTES as f64 / MR_LEN as f64;

fn stage_class(stage: Stage) -> &'static str {
    match stage {
        Stage::Posted => "posted",
        Stage::Fetched | Stage::Sent => "busy",
        Stage::Failed => "failed",
    }
}

fn status_short(status: WcStatus) -> &'static str {
    match status {
        WcStatus::Success => "OK",
        WcStatus::LocProtErr => "PROT",
        WcStatus::WrFlushErr => "FLUSH",
    }
}

/// Cells for a queue of `depth` entries: (x, y, w, h) for entry `i`.
fn cell(x0: f64, depth: usize, i: usize) -> (f64, f64, f64, f64) {
    let cols = depth.min(8);
    let w = QUEUE_W / cols as f64;
    let h = if depth > 8 { 34.0 } else { 52.0 };
    (
        x0 + (i % cols) as f64 * w,
        QUEUE_Y + (i / cols) as f64 * (h + 4.0),
        w - 4.0,
        h,
    )
}

pub fn queues(lab: Lab<RdmaQp>) -> impl IntoView {
    let sq_cells = move || {
        lab.with(|m| {
            let depth = m.config.sq_depth;
            (0..depth)
                .map(|i| {
                    let (x, y, w, h) = cell(SQ_X, depth, i);
                    let entry = m.sq.get(i).copied();
                    let class = entry.map_or("empty", |e| stage_class(e.stage));
                    view! {
                        <g class=format!("q-cell {class}") data-testid=format!("sq-{i}")
                            data-state=entry.map_or("empty", |e| e.stage.label())>
                            <rect x=x y=y width=w height=h rx="4" />
                            <text x=x + w / 2.0 y=y + h / 2.0 + 5.0>
                                {entry.map_or(String::new(), |e| format!("#{}", e.wr_id))}
                            </text>
                        </g>
                    }
                })
                .collect_view()
        })
    };
    let cq_cells = move || {
        lab.with(|m| {
            let depth = m.config.cq_depth;
            (0..depth)
                .map(|i| {
                    let (x, y, w, h) = cell(CQ_X, depth, i);
                    let entry = m.cq.get(i).copied();
                    let class = match entry.map(|e| e.status) {
                        None => "empty",
                        Some(WcStatus::Success) => "ok",
                        Some(_) => "error",
                    };
                    let tall = h > 40.0;
                    view! {
                        <g class=format!("q-cell {class}") data-testid=format!("cq-{i}")
                            data-state=entry.map_or("empty", |e| e.status.label())>
                            <rect x=x y=y width=w height=h rx="4" />
                            <text x=x + w / 2.0 y=y + if tall { 22.0 } else { h / 2.0 + 5.0 }>
                                {entry.map_or(String::new(), |e| format!("#{}", e.wr_id))}
                            </text>
                            {tall.then(|| view! {
                                <text x=x + w / 2.0 y=y + 42.0 class="q-status">
                                    {entry.map_or("", |e| status_short(e.status))}
                                </text>
                            })}
                        </g>
                    }
                })
                .collect_view()
        })
    };
    let sq_title = move || lab.with(|m| format!("Send Queue {}/{}", m.sq.len(), m.config.sq_depth));
    let cq_title =
        move || lab.with(|m| format!("Completion Queue {}/{}", m.cq.len(), m.config.cq_depth));
    let engine = move || {
        lab.with(|m| match m.sq.front() {
            Some(w) if w.stage == Stage::Fetched => format!("holds WR #{}: checking lkey", w.wr_id),
            Some(w) if w.stage == Stage::Sent => format!("WR #{} sent; CQE next", w.wr_id),
            Some(w) if w.stage == Stage::Failed => {
                format!("WR #{} failed; error CQE next", w.wr_id)
            }
            Some(w) if m.qp == demos::nic::rdma_qp::QpState::Err => {
                format!("flushing WR #{}", w.wr_id)
            }
            Some(w) => format!("WR #{} waiting to be fetched", w.wr_id),
            None => "DMA engine idle".to_string(),
        })
    };
    let wire = move || {
        lab.with(|m| match m.on_wire {
            Some((id, len)) => format!("last: WR #{id}, {len} B"),
            None => "quiet".to_string(),
        })
    };
    let sent = move || lab.with(|m| format!("{} B sent in total", m.counters.bytes_sent));
    let qp_err = move || lab.with(|m| m.qp == demos::nic::rdma_qp::QpState::Err);
    let qp_label = move || lab.with(|m| format!("QP {}", m.qp.label()));

    view! {
        <figure class="rdma-figure">
            <div class="svg-scroll" tabindex="0" role="region" aria-label="Queue pair diagram, scrollable">
            <svg viewBox="0 0 760 450" role="img" aria-labelledby="rdma-title" class="rdma-svg">
                <title id="rdma-title">
                    {move || lab.with(|m| format!(
                        "QP {}, send queue {} of {}, completion queue {} of {}",
                        m.qp.label(), m.sq.len(), m.config.sq_depth, m.cq.len(), m.config.cq_depth))}
                </title>
                <defs>
                    <marker id="rdma-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto">
                        <path d="M0 0 L10 5 L0 10 z" class="arrow-head" />
                    </marker>
                </defs>
                <rect x="4" y="4" width="752" height="196" rx="10" class="band user" />
                <text x="16" y="26" class="band-label">"USERSPACE · the app's memory"</text>

                <g class="mr" class:focus=move || lab.in_focus("mr") data-testid="mr">
                    <rect x="16" y="40" width="236" height="146" rx="8" class="frame" />
                    <text x="28" y="64" class="box-title-left">"Memory region"</text>
                    <text x="28" y="86" class="box-line">"registered · pinned"</text>
                    <text x="28" y="110" class="box-line mono">{format!("{MR_ADDR:#x}–{:#x}", MR_ADDR + MR_LEN)}</text>
                    <text x="28" y="132" class="box-line mono">{format!("lkey {LKEY:#x}")}</text>
                    <rect x="28" y="148" width=MSG_W height="22" rx="3" class="msg" />
                    <text x=34.0 + MSG_W y="164" class="box-line">{format!("{MSG_BYTES} of {MR_LEN} B")}</text>
                </g>

                <g class="queue" class:focus=move || lab.in_focus("sq") data-testid="sq">
                    <text x=SQ_X y="60" class="q-title">{sq_title}</text>
                    {sq_cells}
                </g>
                <g class="queue" class:focus=move || lab.in_focus("cq") data-testid="cq">
                    <text x=CQ_X y="60" class="q-title">{cq_title}</text>
                    {cq_cells}
                </g>

                <rect x="4" y="212" width="752" height="40" rx="8" class="band kernel" />
                <text x="16" y="237" class="kernel-label">"KERNEL · bypassed"</text>
                <text x="744" y="237" class="kernel-label end" data-testid="kernel-syscalls">
                    {move || lab.with(|m| format!("{} syscalls on the data path", m.counters.data_syscalls))}
                </text>

                <rect x="4" y="264" width="752" height="182" rx="10" class="band hw" />
                <text x="16" y="436" class="band-label">"HARDWARE · RDMA NIC and the wire"</text>

                <g class="nic-box" class:focus=move || lab.in_focus("nic") data-testid="nic">
                    <rect x="150" y="300" width="330" height="116" rx="8" class="frame" />
                    <text x="166" y="326" class="box-title-left">"RDMA NIC"</text>
                    <text x="166" y="352" class="box-line" data-testid="nic-engine">{engine}</text>
                    <g class="qp-pill" class:err=qp_err class:focus=move || lab.in_focus("qp-state") data-testid="qp-state">
                        <rect x="166" y="366" width="140" height="38" rx="19" />
                        <text x="236" y="391">{qp_label}</text>
                    </g>
                </g>
                <g class="wire" class:focus=move || lab.in_focus("wire") data-testid="wire">
                    <rect x="520" y="300" width="220" height="116" rx="8" class="frame" />
                    <text x="536" y="326" class="box-title-left">"Wire"</text>
                    <text x="536" y="352" class="box-line">{wire}</text>
                    <text x="536" y="378" class="box-line">{sent}</text>
                </g>

                <g class="flows">
                    <path d="M200 186 V 298" class="flow-line" class:hot=move || lab.in_focus("mr") marker-end="url(#rdma-arrow)" />
                    <text x="194" y="294" class="flow-label end">"DMA payload"</text>
                    <path d="M300 132 V 298" class="flow-line doorbell" class:hot=move || lab.in_focus("doorbell") marker-end="url(#rdma-arrow)" />
                    <text x="306" y="294" class="flow-label">"doorbell"</text>
                    <path d="M380 132 V 298" class="flow-line" class:hot=move || lab.in_focus("sq") marker-end="url(#rdma-arrow)" />
                    <text x="386" y="294" class="flow-label">"fetch WQE"</text>
                    <path d="M470 300 V 164 H 628 V 134" class="flow-line" class:hot=move || lab.in_focus("cq") marker-end="url(#rdma-arrow)" />
                    <text x="520" y="158" class="flow-label">"write CQE"</text>
                    <path d="M480 358 H 518" class="flow-line" class:hot=move || lab.in_focus("wire") marker-end="url(#rdma-arrow)" />
                </g>
            </svg>
            </div>
            <figcaption class="legend">
                <span class="key rdma-posted">"posted"</span>
                <span class="key rdma-busy">"with the NIC"</span>
                <span class="key rdma-ok">"completed OK"</span>
                <span class="key rdma-error">"error / flushed"</span>
            </figcaption>
        </figure>
    }
}
