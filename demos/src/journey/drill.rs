//! Drill-down: for each stage, the demo it comes from and that demo's
//! share-link state in the journey's configuration, so the page opens the
//! demo showing the same thing (`/<demo>?s=<state>`).

use super::setup::{receive_actions, send_actions, Frames};
use super::{Journey, StageId};
use crate::host::pcie::{Kind, Pcie};
use crate::host::zero_copy::ZeroCopy;
use crate::model::Model;
use crate::net::encapsulation::Encapsulation;
use crate::net::incast::Incast;
use crate::nic::busy_poll::BusyPoll;
use crate::nic::coalescing::Coalescing;
use crate::nic::cut_through::CutThrough;
use crate::nic::napi::{Napi, NapiAction, NapiConfig, BURST};
use crate::nic::rdma_qp::{RdmaAction, RdmaConfig, RdmaQp, WorkRequest};
use crate::nic::send_path::SendPath;
use crate::scenario::Scenario;

/// Every demo a stage of the journey comes from (`section/slug`): each of
/// these pages links to the journey. [`Journey::drill_demo`] decides which
/// one a stage opens; a test walks it over every setting and finds exactly
/// these.
pub const STAGE_DEMOS: [&str; 10] = [
    "nic/send-path",
    "net/encapsulation",
    "nic/cut-through",
    "host/pcie",
    "net/incast",
    "nic/coalescing",
    "nic/busy-poll",
    "nic/napi",
    "host/zero-copy",
    "nic/rdma-qp",
];

/// Where a stage's demo is and the state to open it in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drill {
    /// `section/slug`, as the catalogue spells the demo's address.
    pub demo: &'static str,
    /// The `s=` value of the demo's share link (`v1.` + base64 of postcard).
    pub state: String,
}

impl Drill {
    fn of<M: Model>(demo: &'static str, config: M::Config, actions: Vec<M::Action>) -> Drill {
        Drill {
            demo,
            state: Scenario::<M> { config, actions }.encode(),
        }
    }

    /// The path and query a page links to, from the site's root.
    pub fn href(&self) -> String {
        format!("/{}?s={}", self.demo, self.state)
    }
}

impl Journey {
    /// The demo a stage comes from, in the journey's configuration.
    pub fn drill(&self, id: StageId) -> Drill {
        self.drill_with(id, &self.frames())
    }

    /// [`Journey::drill`] with the message's frames already cut.
    fn drill_with(&self, id: StageId, frames: &Frames) -> Drill {
        let first = frames.lens.first().copied().unwrap_or(0);
        let c = &self.config;
        let send = || {
            Drill::of::<SendPath>(
                "nic/send-path",
                Default::default(),
                send_actions(&self.setup),
            )
        };
        let receive = || {
            Drill::of::<BusyPoll>(
                "nic/busy-poll",
                Default::default(),
                receive_actions(&self.setup),
            )
        };
        let encapsulation =
            || Drill::of::<Encapsulation>("net/encapsulation", self.encap_config(), vec![]);
        let napi = || {
            let burst = frames.lens.len().clamp(BURST.min, BURST.max);
            Drill::of::<Napi>(
                "nic/napi",
                NapiConfig::default(),
                vec![NapiAction::Burst(burst)],
            )
        };
        match id {
            StageId::Send | StageId::Qdisc | StageId::Doorbell => send(),
            StageId::Segment | StageId::Wire => encapsulation(),
            StageId::Pio => Drill::of::<CutThrough>("nic/cut-through", c.ctpio_for(first), vec![]),
            StageId::Fetch if self.setup.ctpio => {
                Drill::of::<CutThrough>("nic/cut-through", c.ctpio_for(first), vec![])
            }
            StageId::Fetch => Drill::of::<Pcie>("host/pcie", c.pcie_for(first, Kind::Read), vec![]),
            StageId::RxDma => {
                Drill::of::<Pcie>("host/pcie", c.pcie_for(first, Kind::Write), vec![])
            }
            StageId::Switch if self.setup.loaded_switch => {
                Drill::of::<Incast>("net/incast", c.incast.clone(), vec![])
            }
            StageId::Switch => Drill::of::<CutThrough>(
                "nic/cut-through",
                c.switch_for(first, self.setup.cut_through_switch),
                vec![],
            ),
            StageId::Retransmit => Drill::of::<Incast>("net/incast", c.incast.clone(), vec![]),
            StageId::Moderation => {
                Drill::of::<Coalescing>("nic/coalescing", c.coalescing_for(first), vec![])
            }
            StageId::Interrupt => receive(),
            StageId::Napi | StageId::Gro => napi(),
            StageId::Socket if self.setup.zero_copy => Drill::of::<ZeroCopy>(
                "host/zero-copy",
                c.zero_copy_for(self.message_bytes, true),
                vec![],
            ),
            StageId::Socket => receive(),
            StageId::AppPoll if self.setup.rdma => Drill::of::<RdmaQp>(
                "nic/rdma-qp",
                RdmaConfig::default(),
                vec![RdmaAction::PostSend(WorkRequest::write())],
            ),
            StageId::AppPoll => receive(),
        }
    }

    /// The demo a stage's figures come from now (`section/slug`): what
    /// [`Journey::drill`] links to, without building its state.
    pub fn drill_demo(&self, id: StageId) -> &'static str {
        match id {
            StageId::Send | StageId::Qdisc | StageId::Doorbell => "nic/send-path",
            StageId::Segment | StageId::Wire => "net/encapsulation",
            StageId::Pio => "nic/cut-through",
            StageId::Fetch if self.setup.ctpio => "nic/cut-through",
            StageId::Fetch | StageId::RxDma => "host/pcie",
            StageId::Switch if self.setup.loaded_switch => "net/incast",
            StageId::Switch => "nic/cut-through",
            StageId::Retransmit => "net/incast",
            StageId::Moderation => "nic/coalescing",
            StageId::Interrupt => "nic/busy-poll",
            StageId::Napi | StageId::Gro => "nic/napi",
            StageId::Socket if self.setup.zero_copy => "host/zero-copy",
            StageId::Socket => "nic/busy-poll",
            StageId::AppPoll if self.setup.rdma => "nic/rdma-qp",
            StageId::AppPoll => "nic/busy-poll",
        }
    }

    /// Every stage's drill-down, in the path's order (the frames cut once:
    /// cutting them is most of a drill-down's cost).
    pub fn drills(&self) -> Vec<(StageId, Drill)> {
        let frames = self.frames();
        StageId::ALL
            .iter()
            .map(|&id| (id, self.drill_with(id, &frames)))
            .collect()
    }
}
