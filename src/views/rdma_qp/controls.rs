//! The queue pair's controls: post, poll, the sockets contrast, break it.

use crate::shell::demo_host::Lab;
use crate::widgets::slider::Slider;
use demos::nic::rdma_qp::{
    RdmaAction, RdmaConfig, RdmaQp, WorkRequest, DEPTH_MAX, DEPTH_MIN, MSG_BYTES,
};
use leptos::prelude::*;

pub fn controls(lab: Lab<RdmaQp>) -> AnyView {
    let button = move |label: &'static str,
                       action: RdmaAction,
                       testid: &'static str,
                       class: &'static str| {
        view! {
            <button type="button" class=format!("btn {class}") on:click=move |_| lab.act(action) data-testid=testid>
                {label}
            </button>
        }
    };
    let sq_depth = Signal::derive(move || lab.with(|m| m.config.sq_depth));
    let cq_depth = Signal::derive(move || lab.with(|m| m.config.cq_depth));
    view! {
        <div class="button-group" role="group" aria-label="Application">
            <span class="group-label">"App"</span>
            {button("Post a Send", RdmaAction::PostSend(WorkRequest::valid()), "post-send", "primary-outline")}
            {button("Poll the CQ", RdmaAction::PollCq, "poll-cq", "")}
        </div>
        <p class="hint">"Step runs the NIC: fetch, DMA, completion."</p>
        <div class="button-group" role="group" aria-label="Contrast">
            <span class="group-label">"Contrast"</span>
            {button("send() through a socket", RdmaAction::SocketSend(MSG_BYTES), "socket-send", "")}
        </div>
        <div class="button-group break-group" role="group" aria-label="Break it">
            <span class="group-label">"Break it"</span>
            {button("Post outside the region", RdmaAction::PostSend(WorkRequest::outside()), "post-outside", "danger")}
            {button("Post with a wrong lkey", RdmaAction::PostSend(WorkRequest::wrong_key()), "post-badkey", "danger")}
        </div>
        <div class="button-group" role="group" aria-label="Recover">
            <span class="group-label">"Recover"</span>
            {button("Reset the QP to RTS", RdmaAction::ResetQp, "reset-qp", "")}
        </div>
        <Slider label="SQ depth (restarts)" min=DEPTH_MIN max=DEPTH_MAX value=sq_depth unit="WQEs"
            on_change=Callback::new(move |n| lab.reconfigure(RdmaConfig { sq_depth: n, ..lab.config() }))
            testid="sq-depth" />
        <Slider label="CQ depth (restarts)" min=DEPTH_MIN max=DEPTH_MAX value=cq_depth unit="CQEs"
            on_change=Callback::new(move |n| lab.reconfigure(RdmaConfig { cq_depth: n, ..lab.config() }))
            testid="cq-depth" />
    }
    .into_any()
}
