//! The CPU each mode spends at the chosen packet rate, side by side.

use crate::shell::demo_host::Lab;
use demos::nic::busy_poll::{rate_text, BusyPoll, BUSY};
use demos::text::{ns, tenths};
use leptos::prelude::*;

/// Width of a utilisation bar: at most the whole track.
fn bar(util_tenths: u64) -> String {
    format!("{}%", util_tenths.min(1000) as f64 / 10.0)
}

pub fn cpu_panel(lab: Lab<BusyPoll>) -> impl IntoView {
    let cpu = move || lab.with(|m| m.cpu());
    let busy_on = move || lab.with(|m| m.pipe.uses(BUSY));
    let rate = move || lab.with(|m| rate_text(m.rate_pps.into()));
    let cheaper = move || {
        if cpu().busy_cheaper() {
            "busy polling"
        } else {
            "interrupts"
        }
    };
    let crossover = move || {
        match cpu().crossover_pps {
        Some(x) => format!(
            "Crossover: {}. Below it busy polling costs more CPU per packet than interrupts; above it, less.",
            rate_text(x)
        ),
        None => "No crossover: at these stage costs interrupts cost no CPU, so busy polling never pays.".into(),
    }
    };
    view! {
        <section class="panel cpu-panel" class:focus=move || lab.in_focus("cpu") aria-label="CPU cost" data-testid="cpu-panel">
            <h3>{move || format!("CPU cost at {}", rate())}</h3>
            <div class="table-scroll">
                <table class="cpu-table">
                    <thead>
                        <tr>
                            <th scope="col">"mode"</th>
                            <th scope="col">"CPU per packet"</th>
                            <th scope="col">"core use"</th>
                        </tr>
                    </thead>
                    <tbody>
                        <tr class:in-use=move || !busy_on()>
                            <th scope="row">"interrupts" {move || (!busy_on()).then_some(" (in use)")}</th>
                            <td class="mono" data-testid="irq-per-packet">{move || ns(cpu().irq_ns as i64)}</td>
                            <td>
                                <span class="util"><span class="util-fill irq" style:width=move || bar(cpu().irq_util)></span></span>
                                <span class="mono" data-testid="irq-util">{move || tenths(cpu().irq_util as i64)}</span>
                                {move || (cpu().irq_util > 1000).then_some(" more than a core")}
                            </td>
                        </tr>
                        <tr class:in-use=busy_on>
                            <th scope="row">"busy polling" {move || busy_on().then_some(" (in use)")}</th>
                            <td class="mono" data-testid="busy-per-packet">{move || ns(cpu().busy_ns as i64)}</td>
                            <td>
                                <span class="util"><span class="util-fill busy" style:width="100%"></span></span>
                                <span class="mono" data-testid="busy-util">{move || tenths(cpu().busy_util as i64)}</span>
                                <span class="muted">{move || format!(" ({} on packets)", tenths(cpu().busy_work_util as i64))}</span>
                            </td>
                        </tr>
                    </tbody>
                </table>
            </div>
            <p class="cheaper" data-testid="cheaper">
                {move || format!("Cheaper in CPU at this rate: {}.", cheaper())}
            </p>
            <p class="hint" data-testid="crossover">{crossover}</p>
        </section>
    }
}
