//! The sockets contrast beside the RDMA counters, and the completions polled.

use crate::shell::demo_host::Lab;
use demos::nic::rdma_qp::{RdmaQp, WcStatus};
use leptos::prelude::*;

pub fn contrast(lab: Lab<RdmaQp>) -> impl IntoView {
    let c =
        move |f: fn(&demos::nic::rdma_qp::Counters) -> u64| move || lab.with(|m| f(&m.counters));
    view! {
        <section class="panel contrast" class:focus=move || lab.in_focus("sockets")
            aria-label="RDMA against sockets" data-testid="contrast">
            <h3>"Per send: RDMA against sockets"</h3>
            <div class="table-scroll">
                <table>
                    <thead>
                        <tr><th scope="col">""</th><th scope="col">"RDMA verbs"</th><th scope="col">"sockets send()"</th></tr>
                    </thead>
                    <tbody>
                        <tr><th scope="row">"sends posted"</th>
                            <td class="mono" data-testid="rdma-sends">{c(|c| c.posted)}</td>
                            <td class="mono" data-testid="sock-sends">{c(|c| c.sock_sends)}</td></tr>
                        <tr><th scope="row">"system calls"</th>
                            <td class="mono" data-testid="rdma-syscalls">{c(|c| c.data_syscalls)}</td>
                            <td class="mono" data-testid="sock-syscalls">{c(|c| c.sock_syscalls)}</td></tr>
                        <tr><th scope="row">"copies by the CPU"</th>
                            <td class="mono" data-testid="rdma-copies">{c(|c| c.copies)}</td>
                            <td class="mono" data-testid="sock-copies">{c(|c| c.sock_copies)}</td></tr>
                        <tr><th scope="row">"bytes copied"</th>
                            <td class="mono" data-testid="rdma-bytes">{c(|c| c.bytes_copied)}</td>
                            <td class="mono" data-testid="sock-bytes">{c(|c| c.sock_bytes_copied)}</td></tr>
                    </tbody>
                </table>
            </div>
            <p class="hint">{move || lab.with(|m| format!(
                "Recovery used {} ibv_modify_qp call{} (control path, through the kernel).",
                m.counters.control_syscalls, if m.counters.control_syscalls == 1 { "" } else { "s" }))}</p>
        </section>
    }
}

pub fn polled(lab: Lab<RdmaQp>) -> impl IntoView {
    let items = move || {
        lab.with(|m| {
            if m.polled.is_empty() {
                return view! { <li class="muted">"nothing polled yet"</li> }.into_any();
            }
            m.polled
                .iter()
                .rev()
                .map(|c| {
                    let ok = c.status == WcStatus::Success;
                    let text = format!("WR #{} · {} · {} B", c.wr_id, c.status.label(), c.byte_len);
                    if ok {
                        view! { <li class="chip done mono">{text}</li> }.into_any()
                    } else {
                        view! { <li class="fault-item mono"><span class="tone-word">"Error: "</span>{text}</li> }.into_any()
                    }
                })
                .collect_view()
                .into_any()
        })
    };
    view! {
        <section class="panel polled" aria-label="Completions polled" data-testid="polled">
            <h3>"ibv_poll_cq: latest completions"</h3>
            <ul class="polled-list">{items}</ul>
        </section>
    }
}
