//! Send path latency: where the nanoseconds of one transmit go, and which
//! technique takes which stage off the path.
//!
//! Stage costs are the round, illustrative figures of the lab (not a
//! measurement of one NIC). The stages are listed in the order they happen:
//! the doorbell write comes before the NIC fetches the descriptor it announces.
//!
//! Rules and sources:
//! - A kernel `send()` transmits in the caller's own context: `dev_queue_xmit()`
//!   → `__dev_xmit_skb()` → `sch_direct_xmit()` → the driver's
//!   `ndo_start_xmit()` (`net/core/dev.c`, `net/sched/sch_generic.c`). No
//!   softirq and no wakeup is on that path. The skb waits in the qdisc, to
//!   be sent later by another CPU or by the NET_TX softirq, in two cases:
//!   - the qdisc is busy on another CPU: that CPU's `__qdisc_run()` sends it
//!     or, once its quota is spent, NET_TX (`__netif_schedule()` →
//!     `net_tx_action()`);
//!   - the driver has stopped its queue, the TX ring full
//!     (`netif_tx_stop_queue()`) or the BQL limit reached
//!     (`netdev_tx_sent_queue()`): a TX completion then restarts it,
//!     `netif_tx_wake_queue()` → `__netif_schedule()` (`net/core/dev.c`),
//!     or for BQL `netdev_tx_completed_queue()` → `netif_schedule_queue()`
//!     (`include/linux/netdevice.h`), and NET_TX sends the skb.
//!
//!   Either condition adds that stage. Its 500 ns is this model's assumption.
//! - Break it: a TX ring too small for the application's bursts (`ethtool
//!   -G <dev> tx N`). A burst fills it, the driver stops the queue, and the
//!   frame takes the stopped-queue path above; and since the ring is not
//!   empty, TX push (below) no longer applies. The cost is the difference
//!   of the two paths' totals, at the stage costs now set.
//! - Kernel bypass (e.g. AMD Solarflare Onload / ef_vi, DPDK): the application
//!   drives the NIC's rings from user space, so there is no `send()` system
//!   call, no kernel TCP/IP stack or `sk_buff`, no copy into a kernel buffer
//!   and no qdisc (ef_vi User Guide, "Overview"; Onload User Guide,
//!   "Background").
//! - TX push: the driver writes the descriptor into the doorbell write itself,
//!   so the NIC need not read it from host memory over PCIe (Linux
//!   `drivers/net/ethernet/sfc/nic_common.h` `efx_nic_may_push_tx_desc()`;
//!   ethtool `tx-push`, `ETHTOOL_A_RINGS_TX_PUSH` in
//!   `Documentation/networking/ethtool-netlink.rst`). It works from a kernel
//!   driver too, so it has no requirement here. sfc pushes only when one
//!   descriptor is added to an empty queue (`efx_nic_may_push_tx_desc()`
//!   checks the queue was empty and the write count grew by one): the
//!   model's frame is one descriptor, and a stopped, full queue excludes it.
//! - CTPIO (cut-through programmed I/O, AMD Solarflare X2): the CPU
//!   writes the frame itself into a NIC aperture and the NIC starts it onto
//!   the wire as the bytes arrive, so there is neither a descriptor fetch nor a
//!   DMA read of the payload (ef_vi User Guide, "CTPIO";
//!   `ef_vi_transmit_ctpio()`; Onload `EF_CTPIO`). It is driven from ef_vi or
//!   Onload, i.e. from a kernel-bypass stack, hence its requirement.
//! - After the PIO write, ef_vi posts the same frame as an ordinary DMA
//!   descriptor and rings the doorbell (`ef_vi_transmit_ctpio_fallback()`,
//!   `src/include/etherfabric/vi.h`: "provides a fallback frame which is sent
//!   in cases where the CTPIO send fails"). The frame is already on its way,
//!   so descriptor and doorbell are off the wire path: the Step walk narrates
//!   them after the PIO write instead of timing them. That is X2 (ef10). On
//!   X3 (efct) transmit is CTPIO only (`etherfabric/efct_vi.h`), and
//!   `efct_ef_vi_transmit_ctpio_fallback()` in `src/lib/ciul/efct_vi.c`
//!   posts no DMA descriptor: there is no DMA fallback.
//! - The PIO write of the frame is a stage of its own, present only with
//!   CTPIO. Its 60 ns is this model's assumption, not a measurement: a
//!   minimum 64-byte frame is one 64-byte write-combined burst, a posted PCIe
//!   write like the doorbell, so it is priced like the doorbell.

use super::stages::{Pipeline, Spec, StageAction, StageDef, TechDef, Walk};
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::{ns, share_tenths, tenths};
use serde::{Deserialize, Serialize};

pub const BYPASS: usize = 0;
pub const TX_PUSH: usize = 1;
pub const CTPIO: usize = 2;
/// Not a technique but a condition: the qdisc is busy on another CPU.
pub const CONTENDED: usize = 3;
/// A condition too: the driver has stopped its TX queue (ring full or BQL).
pub const STOPPED: usize = 4;
const BYPASS_BIT: u8 = 1 << BYPASS;
const TX_PUSH_BIT: u8 = 1 << TX_PUSH;
const CTPIO_BIT: u8 = 1 << CTPIO;
const CONTENDED_BIT: u8 = 1 << CONTENDED;
const STOPPED_BIT: u8 = 1 << STOPPED;
/// Index of the wait in the qdisc for its owner or NET_TX.
pub const NET_TX: usize = 3;

/// Index of the NIC's descriptor read, the largest default stage.
pub const FETCH: usize = 7;
/// Index of the CTPIO programmed-I/O write.
pub const PIO: usize = 4;
/// Indices of the driver's descriptor write and doorbell.
pub const DESCRIPTOR: usize = 5;
pub const DOORBELL: usize = 6;

pub static STAGES: &[StageDef] = &[
    StageDef::new(
        "syscall",
        "send() syscall + mode switch",
        90,
        BYPASS_BIT,
        true,
    ),
    StageDef::new(
        "kernel-stack",
        "kernel TCP/IP + sk_buff",
        220,
        BYPASS_BIT,
        true,
    ),
    StageDef::new("copy", "copy into a kernel buffer", 80, BYPASS_BIT, true),
    StageDef {
        key: "net-tx",
        name: "wait for qdisc owner or NET_TX",
        base_ns: 500,
        removed_by: BYPASS_BIT,
        only_with: CONTENDED_BIT | STOPPED_BIT,
        cpu: true,
    },
    StageDef {
        key: "pio",
        name: "CPU writes the frame (PIO)",
        base_ns: 60,
        removed_by: 0,
        only_with: CTPIO_BIT,
        cpu: true,
    },
    StageDef::new(
        "descriptor",
        "driver writes the TX descriptor",
        40,
        CTPIO_BIT,
        true,
    ),
    StageDef::new("doorbell", "doorbell MMIO write", 60, CTPIO_BIT, true),
    StageDef::new(
        "fetch",
        "NIC reads the descriptor over PCIe",
        300,
        TX_PUSH_BIT | CTPIO_BIT,
        false,
    ),
    StageDef::new("dma", "DMA across PCIe, start of TX", 250, CTPIO_BIT, false),
    StageDef::new("phy", "SerDes / PHY onto the wire", 80, 0, false),
];

pub static TECHNIQUES: &[TechDef] = &[
    TechDef {
        key: "bypass",
        name: "kernel bypass",
        requires: 0,
        requires_why: "",
        excludes: 0,
        excludes_why: "",
    },
    TechDef {
        key: "tx-push",
        name: "TX push",
        requires: 0,
        requires_why: "",
        excludes: STOPPED_BIT,
        excludes_why: "applies only to one descriptor added to an empty TX ring",
    },
    TechDef {
        key: "ctpio",
        name: "CTPIO",
        requires: BYPASS_BIT,
        requires_why: "is driven from a kernel-bypass stack (ef_vi or Onload)",
        excludes: 0,
        excludes_why: "",
    },
    TechDef {
        key: "contended",
        name: "qdisc contention",
        requires: 0,
        requires_why: "",
        excludes: 0,
        excludes_why: "",
    },
    TechDef {
        key: "stopped",
        name: "TX queue stopped",
        requires: 0,
        requires_why: "",
        excludes: TX_PUSH_BIT,
        excludes_why: "means a full TX ring, and TX push needs an empty one",
    },
];

pub static SPEC: Spec = Spec {
    stages: STAGES,
    techniques: TECHNIQUES,
    start: "the application hands the frame to the send path",
    finish: "the frame is on the wire",
};

/// Nothing to choose before starting: every setting is a learner action.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendPathConfig {}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendPath {
    pub pipe: Pipeline,
}

impl SendPath {
    /// The stages kernel bypass takes away, and their cost now.
    fn kernel_ns(&self) -> u32 {
        self.pipe.removable_ns(&SPEC, BYPASS_BIT)
    }

    pub fn saving(&self) -> i64 {
        self.pipe.saving(&SPEC)
    }

    /// What the full TX ring added to this send: the wait for a completion
    /// and NET_TX, and the descriptor fetch TX push no longer saves.
    fn stop_cost(&self, before: u32, pushed: bool) -> Event {
        let after = self.pipe.total(&SPEC);
        let wait = self.pipe.costs[NET_TX];
        let text = if pushed {
            format!(
                "A full TX ring costs this send {}: {} waiting in the qdisc for a TX completion and NET_TX, and {} for the descriptor fetch that TX push saved, since TX push needs an empty ring. Step walks the frame through the broken path.",
                ns(i64::from(after) - i64::from(before)),
                ns(wait),
                ns(self.pipe.costs[FETCH])
            )
        } else {
            format!(
                "A full TX ring costs this send {}: the frame waits {} in the qdisc for a TX completion and NET_TX. Step walks the frame through the broken path.",
                ns(i64::from(after) - i64::from(before)),
                ns(wait)
            )
        };
        Event::fault(text).at("net-tx")
    }
}

impl Model for SendPath {
    type Config = SendPathConfig;
    type Action = StageAction;

    fn validate(_config: &SendPathConfig) -> Result<(), String> {
        Ok(())
    }

    fn new(_config: &SendPathConfig) -> Self {
        SendPath {
            pipe: Pipeline::new(&SPEC),
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "An ordinary kernel send: {} stages, {} from send() to the wire. Step walks one frame through them; the toggles take stages away.",
            self.pipe.active(&SPEC).len(),
            ns(self.pipe.total(&SPEC))
        ))
    }

    fn apply(&mut self, action: &StageAction) -> Outcome {
        let before = self.pipe.total(&SPEC);
        let pushed = self.pipe.uses(TX_PUSH);
        let mut events = self.pipe.apply(&SPEC, action)?;
        let stops = StageAction::Use {
            technique: STOPPED,
            on: true,
        };
        if *action == stops && !self.pipe.uses(BYPASS) {
            events.push(self.stop_cost(before, pushed));
        }
        if *action == StageAction::Advance
            && self.pipe.uses(CTPIO)
            && self.pipe.walk == Walk::After(PIO)
        {
            let fallback = self.pipe.costs[DESCRIPTOR] + self.pipe.costs[DOORBELL];
            events.push(
                Event::info(format!(
                    "The frame is already leaving. Now ef_vi_transmit_ctpio_fallback() writes the same frame as a DMA descriptor and rings the doorbell ({} of CPU), off the wire path: the NIC sends that copy only if the cut-through send fails. That is X2; on X3 there is no DMA fallback.",
                    ns(fallback)
                ))
                .at("descriptor")
                .at("doorbell"),
            );
        }
        Ok(events)
    }

    fn next_auto(&self) -> Result<StageAction, Refusal> {
        self.pipe.next_auto(&SPEC)
    }

    fn check(&self) -> Result<(), String> {
        self.pipe.check(&SPEC)?;
        if self.pipe.uses(CTPIO) && self.pipe.is_active(&SPEC, FETCH) {
            return Err("CTPIO is on but the NIC still fetches a descriptor".into());
        }
        if self.pipe.uses(BYPASS) && self.pipe.is_active(&SPEC, 0) {
            return Err("kernel bypass is on but the syscall is still on the path".into());
        }
        let waits = self.pipe.uses(CONTENDED) || self.pipe.uses(STOPPED);
        if self.pipe.is_active(&SPEC, NET_TX) != (waits && !self.pipe.uses(BYPASS)) {
            return Err(
                "the NET_TX stage is on the path without a contended qdisc or a stopped queue"
                    .into(),
            );
        }
        if self.pipe.uses(TX_PUSH) && self.pipe.uses(STOPPED) {
            return Err("TX push is on with a full, stopped TX ring".into());
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        let total = self.pipe.total(&SPEC);
        let baseline = self.pipe.baseline(&SPEC);
        let saving = self.saving();
        vec![
            Figure::new("total", "send path now", ns(total)),
            Figure::new("baseline", "baseline", ns(baseline)),
            Figure::new(
                "saving",
                "saved",
                format!(
                    "{} ({})",
                    ns(saving),
                    tenths(share_tenths(saving, baseline.into()))
                ),
            ),
            Figure::new(
                "stages",
                "stages on the path",
                format!("{} of {}", self.pipe.active(&SPEC).len(), STAGES.len()),
            ),
            Figure::new("clock", "packet clock", ns(self.pipe.clock(&SPEC))),
        ]
    }

    fn why(&self) -> Vec<String> {
        let total = self.pipe.total(&SPEC);
        let baseline = self.pipe.baseline(&SPEC);
        let mut out = vec![format!(
            "This send takes {} against {} for the plain kernel path at the same stage costs: {} saved ({}).",
            ns(total),
            ns(baseline),
            ns(self.saving()),
            tenths(share_tenths(self.saving(), baseline.into()))
        )];
        if let Some(&big) = self
            .pipe
            .active(&SPEC)
            .iter()
            .max_by_key(|&&i| (self.pipe.costs[i], std::cmp::Reverse(i)))
        {
            out.push(format!(
                "The largest stage left is {} at {}, {} of the total: that is where a saving counts most.",
                STAGES[big].name,
                ns(self.pipe.costs[big]),
                tenths(share_tenths(self.pipe.costs[big].into(), total.into()))
            ));
        }
        if !self.pipe.uses(BYPASS) {
            let kernel = self.kernel_ns();
            out.push(format!(
                "The kernel's own work (system call, stack, copy{}) is {}, {} of this send; kernel bypass removes all of it. The kernel sends in the caller's context: no softirq unless the qdisc is busy on another CPU or the driver has stopped the queue.",
                if self.pipe.is_active(&SPEC, NET_TX) { ", the wait for NET_TX" } else { "" },
                ns(kernel),
                tenths(share_tenths(kernel.into(), total.into()))
            ));
        }
        if self.pipe.uses(STOPPED) && !self.pipe.uses(BYPASS) {
            out.push(format!(
                "The driver stopped the queue: its TX ring is full or BQL's limit is reached. The packet waits in the qdisc until a TX completion frees room: netif_tx_wake_queue() calls __netif_schedule(), and the NET_TX softirq sends it ({} here).",
                ns(self.pipe.costs[NET_TX])
            ));
        }
        if self.pipe.is_active(&SPEC, FETCH) {
            out.push(format!(
                "After the doorbell the NIC still has to read the descriptor from host memory, a PCIe round trip of {}. TX push puts the descriptor in the doorbell write instead; CTPIO fetches no descriptor on the wire path (its fallback descriptor is posted after the frame has left).",
                ns(self.pipe.costs[FETCH])
            ));
        }
        if self.pipe.uses(CTPIO) {
            out.push(format!(
                "CTPIO is not free: the CPU itself writes the frame to the NIC, {} here (an assumption: one 64-byte write-combined burst, priced like the doorbell), then spends {} posting the fallback descriptor, after the frame has gone. That is X2: on X3 transmit is CTPIO only, with no DMA fallback.",
                ns(self.pipe.costs[PIO]),
                ns(self.pipe.costs[DESCRIPTOR] + self.pipe.costs[DOORBELL])
            ));
        }
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: overlap between stages (the model adds them up in series), frame size and frames of several descriptors, TX completions and the cost of polling for them (and how long a stopped queue waits for one), and what the fallback send costs when a CTPIO send fails. Stage costs are round teaching figures, not measurements."
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> SendPath {
        SendPath::new(&SendPathConfig::default())
    }

    fn use_(m: &mut SendPath, technique: usize, on: bool) -> Outcome {
        m.apply(&StageAction::Use { technique, on })
    }

    #[test]
    fn the_uncontended_kernel_path_has_no_softirq_and_sums_eight_stages() {
        // dev_queue_xmit() runs the driver in the caller's context.
        let m = model();
        let sum: u32 = [90, 220, 80, 40, 60, 300, 250, 80].iter().sum();
        assert_eq!(m.pipe.total(&SPEC), sum);
        assert_eq!(m.pipe.active(&SPEC).len(), 8);
        assert!(!m.pipe.is_active(&SPEC, NET_TX));
        m.check().unwrap();
    }

    #[test]
    fn a_contended_qdisc_adds_the_net_tx_stage_and_bypass_removes_it() {
        let mut m = model();
        use_(&mut m, CONTENDED, true).unwrap();
        assert_eq!(m.pipe.total(&SPEC), 1120 + 500);
        use_(&mut m, BYPASS, true).unwrap();
        assert!(!m.pipe.is_active(&SPEC, NET_TX));
        m.check().unwrap();
    }

    #[test]
    fn a_stopped_driver_queue_also_sends_through_net_tx() {
        // netif_tx_wake_queue() -> __netif_schedule() on TX completion: the
        // old model put NET_TX on the path only under qdisc contention.
        let mut m = model();
        assert_eq!(
            m.pipe.off_reason(&SPEC, NET_TX).as_deref(),
            Some("only with qdisc contention or TX queue stopped")
        );
        use_(&mut m, STOPPED, true).unwrap();
        assert!(m.pipe.is_active(&SPEC, NET_TX));
        assert_eq!(m.pipe.total(&SPEC), 1120 + 500);
        let why = m.why().join(" ");
        assert!(why.contains("netif_tx_wake_queue() calls __netif_schedule()"));
        assert!(!why.contains("no softirq unless the qdisc is contended"));
        m.check().unwrap();
        use_(&mut m, BYPASS, true).unwrap();
        assert!(!m.pipe.is_active(&SPEC, NET_TX));
        m.check().unwrap();
    }

    #[test]
    fn tx_push_needs_an_empty_ring_so_a_stopped_queue_turns_it_off() {
        // sfc efx_nic_may_push_tx_desc(): one descriptor added to an empty queue.
        let mut m = model();
        use_(&mut m, TX_PUSH, true).unwrap();
        let events = use_(&mut m, STOPPED, true).unwrap();
        assert!(!m.pipe.uses(TX_PUSH));
        assert!(events[0].text.contains("TX push needs an empty one"));
        let events = use_(&mut m, TX_PUSH, true).unwrap();
        assert!(!m.pipe.uses(STOPPED));
        assert!(events[0]
            .text
            .contains("applies only to one descriptor added to an empty TX ring"));
        m.check().unwrap();
    }

    #[test]
    fn a_full_tx_ring_costs_the_net_tx_wait_and_the_fetch_tx_push_saved() {
        let mut m = model();
        use_(&mut m, TX_PUSH, true).unwrap();
        let tuned = m.pipe.total(&SPEC);
        assert_eq!(tuned, 1120 - 300);
        let events = use_(&mut m, STOPPED, true).unwrap();
        let broken = m.pipe.total(&SPEC);
        assert_eq!(broken - tuned, 500 + 300);
        let cost = events.last().unwrap();
        assert_eq!(cost.tone, crate::model::Tone::Fault);
        assert!(
            cost.text
                .starts_with("A full TX ring costs this send 800 ns: 500 ns waiting"),
            "{}",
            cost.text
        );
        m.check().unwrap();
        // Computed from the costs now set, not fixed: a slower wait costs more.
        let mut m = model();
        m.apply(&StageAction::SetCost {
            stage: NET_TX,
            ns: 2_000,
        })
        .unwrap();
        let events = use_(&mut m, STOPPED, true).unwrap();
        assert!(events
            .last()
            .unwrap()
            .text
            .starts_with("A full TX ring costs this send 2,000 ns: the frame waits 2,000 ns"));
        // Under kernel bypass there is no qdisc to wait in: no cost to narrate.
        let mut m = model();
        use_(&mut m, BYPASS, true).unwrap();
        let events = use_(&mut m, STOPPED, true).unwrap();
        assert!(events.iter().all(|e| !e.text.contains("full TX ring")));
    }

    #[test]
    fn the_ctpio_fallback_is_named_as_x2s_not_x3s() {
        let mut m = model();
        use_(&mut m, CTPIO, true).unwrap();
        assert!(m
            .why()
            .join(" ")
            .contains("on X3 transmit is CTPIO only, with no DMA fallback"));
    }

    #[test]
    fn kernel_bypass_removes_syscall_stack_and_copy() {
        let mut m = model();
        use_(&mut m, BYPASS, true).unwrap();
        assert_eq!(m.saving(), 90 + 220 + 80);
        for i in 0..3 {
            assert_eq!(
                m.pipe.off_reason(&SPEC, i).as_deref(),
                Some("removed by kernel bypass")
            );
        }
    }

    #[test]
    fn tx_push_removes_only_the_descriptor_fetch_and_needs_no_bypass() {
        let mut m = model();
        use_(&mut m, TX_PUSH, true).unwrap();
        assert!(!m.pipe.uses(BYPASS));
        assert_eq!(m.saving(), 300);
    }

    #[test]
    fn ctpio_turns_bypass_on_and_the_wire_path_is_the_pio_write_then_the_phy() {
        let mut m = model();
        let events = use_(&mut m, CTPIO, true).unwrap();
        assert!(m.pipe.uses(BYPASS));
        assert!(events[0].text.contains("kernel bypass turns on too"));
        assert!(m.pipe.is_active(&SPEC, PIO));
        assert!(!m.pipe.is_active(&SPEC, DESCRIPTOR) && !m.pipe.is_active(&SPEC, DOORBELL));
        let removed = 90 + 220 + 80 + 40 + 60 + 300 + 250;
        assert_eq!(m.saving(), removed - 60);
        assert_eq!(m.pipe.total(&SPEC), 60 + 80);
    }

    #[test]
    fn the_ctpio_walk_narrates_the_fallback_after_the_pio_write() {
        let mut m = model();
        use_(&mut m, CTPIO, true).unwrap();
        let first = m.apply(&StageAction::Advance).unwrap();
        assert!(first
            .last()
            .unwrap()
            .text
            .contains("ef_vi_transmit_ctpio_fallback()"));
        let second = m.apply(&StageAction::Advance).unwrap();
        assert!(second
            .iter()
            .any(|e| e.text.contains("on the wire after 140 ns")));
    }

    #[test]
    fn bypass_off_turns_ctpio_off() {
        let mut m = model();
        use_(&mut m, CTPIO, true).unwrap();
        let events = use_(&mut m, BYPASS, false).unwrap();
        assert!(!m.pipe.uses(CTPIO));
        assert!(events[0].text.contains("CTPIO off too"));
        assert_eq!(m.saving(), 0);
    }

    #[test]
    fn tx_push_and_ctpio_both_claim_the_fetch() {
        let mut m = model();
        use_(&mut m, TX_PUSH, true).unwrap();
        use_(&mut m, CTPIO, true).unwrap();
        assert_eq!(
            m.pipe.off_reason(&SPEC, FETCH).as_deref(),
            Some("removed by TX push and CTPIO")
        );
    }

    #[test]
    fn step_walks_the_active_stages_with_a_clock() {
        let mut m = model();
        use_(&mut m, BYPASS, true).unwrap();
        let action = m.next_auto().unwrap();
        m.apply(&action).unwrap();
        assert_eq!(m.pipe.walk, Walk::After(DESCRIPTOR));
        assert_eq!(m.pipe.clock(&SPEC), 40);
        while let Ok(a) = m.next_auto() {
            m.apply(&a).unwrap();
        }
        assert_eq!(m.pipe.clock(&SPEC), m.pipe.total(&SPEC));
        assert!(m.next_auto().unwrap_err().reason.contains("on the wire"));
    }

    #[test]
    fn a_slower_stage_raises_the_total_and_its_share() {
        let mut m = model();
        m.apply(&StageAction::SetCost {
            stage: FETCH,
            ns: 900,
        })
        .unwrap();
        let w = m.pipe.waterfall(&SPEC);
        assert_eq!(w.total_ns, w.baseline_ns);
        let defaults: u32 = STAGES
            .iter()
            .filter(|s| s.only_with == 0)
            .map(|s| s.base_ns)
            .sum();
        assert_eq!(w.total_ns, defaults + 600);
        assert_eq!(w.rows[FETCH].share_tenths, 523);
        assert!(m.why()[1].contains("NIC reads the descriptor"));
    }
}
