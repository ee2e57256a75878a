//! Each stage's demo model, built in the journey's configuration: the only
//! place the journey turns its state into another demo's state.

use super::{Journey, JourneyConfig, Setup};
use crate::host::pcie::{Kind, Pcie, PcieConfig};
use crate::host::zero_copy::{Mode, ZeroCopy, ZeroCopyConfig, PAYLOAD as ZC_PAYLOAD};
use crate::model::Model;
use crate::net::encapsulation::{EncapAction, EncapConfig, Encapsulation, Stage};
use crate::nic::busy_poll::{BusyPoll, BusyPollAction, BUSY, PMD};
use crate::nic::coalescing::{Coalescing, CoalescingConfig, FRAME_SIZES};
use crate::nic::cut_through::{
    threshold_bound, CtpioMode, CutThrough, CutThroughConfig, CHUNK_BYTES,
};
use crate::nic::send_path::{SendPath, BYPASS, CONTENDED, CTPIO, STOPPED};
use crate::nic::stages::StageAction;

/// What the encapsulation model made of the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frames {
    /// Each frame's length as the NIC sends it: padded, FCS included.
    pub lens: Vec<usize>,
    pub segments: usize,
}

/// A readable message of `bytes` ASCII bytes (one byte a character).
pub fn message_text(bytes: usize) -> String {
    "one message, end to end. "
        .chars()
        .cycle()
        .take(bytes)
        .collect()
}

/// The actions that put a send-path model into this setup, in an order its
/// rules accept (bypass before CTPIO, which requires it).
pub fn send_actions(setup: &Setup) -> Vec<StageAction> {
    let uses = [
        (BYPASS, setup.bypass || setup.rdma),
        (CTPIO, setup.ctpio),
        (CONTENDED, setup.busy_qdisc),
        (STOPPED, setup.full_ring),
    ];
    uses.iter()
        .filter(|(_, on)| *on)
        .map(|&(technique, _)| StageAction::Use {
            technique,
            on: true,
        })
        .collect()
}

/// The actions that put a busy-poll model into this setup.
pub fn receive_actions(setup: &Setup) -> Vec<BusyPollAction> {
    let technique = if setup.bypass || setup.rdma {
        Some(PMD)
    } else if setup.busy_poll {
        Some(BUSY)
    } else {
        None
    };
    technique
        .map(|technique| {
            BusyPollAction::Stage(StageAction::Use {
                technique,
                on: true,
            })
        })
        .into_iter()
        .collect()
}

/// Applies every action; the setup keeps the models' own rules, so none is
/// refused (the journey's check says so if one ever were).
fn played<M: Model>(config: &M::Config, actions: &[M::Action]) -> M {
    let mut model = M::new(config);
    for action in actions {
        let _ = model.apply(action);
    }
    model
}

pub fn send_model(setup: &Setup) -> SendPath {
    played(&Default::default(), &send_actions(setup))
}

pub fn receive_model(setup: &Setup) -> BusyPoll {
    played(&Default::default(), &receive_actions(setup))
}

impl JourneyConfig {
    /// The encapsulation demo's configuration for a message of `bytes`.
    pub fn encap(&self, bytes: usize) -> EncapConfig {
        EncapConfig {
            payload: message_text(bytes),
            mss: self.mss,
            ..EncapConfig::default()
        }
    }

    /// The PCIe demo's configuration for one DMA of `bytes` of this kind.
    pub fn pcie_for(&self, bytes: usize, kind: Kind) -> PcieConfig {
        PcieConfig {
            size: bytes as u64,
            kind,
            ..self.pcie.clone()
        }
    }

    /// The PCIe model of the hosts' link (its transfer is not used).
    pub fn pcie_model(&self) -> Pcie {
        Pcie::new(&self.pcie)
    }

    /// A frame of `len` bytes in 64-byte chunks, at least one.
    pub fn chunks(len: usize) -> usize {
        len.div_ceil(CHUNK_BYTES as usize).max(1)
    }

    /// The cut-through demo's configuration for CTPIO of a frame of `len`.
    pub fn ctpio_for(&self, len: usize) -> CutThroughConfig {
        let chunks = Self::chunks(len);
        CutThroughConfig {
            chunks,
            wire_gbps: self.line_gbps,
            threshold: self.ctpio.threshold.min(chunks),
            ..self.ctpio.clone()
        }
    }

    /// The cut-through demo's configuration for the switch: a frame of
    /// `len` arriving at the line rate and leaving at the line rate.
    pub fn switch_for(&self, len: usize, cut_through: bool) -> CutThroughConfig {
        let chunks = Self::chunks(len);
        let threshold = if cut_through {
            threshold_bound(chunks)
                .max
                .min(self.switch_threshold.max(1))
        } else {
            chunks
        };
        CutThroughConfig {
            chunks,
            pcie_gbps: self.line_gbps,
            wire_gbps: self.line_gbps,
            threshold,
            mode: if cut_through {
                CtpioMode::Ct
            } else {
                CtpioMode::Sf
            },
            seed: self.ctpio.seed,
        }
    }

    /// The coalescing demo's configuration for frames of `len` bytes: its
    /// frame size is one of two, so the nearer one.
    pub fn coalescing_for(&self, len: usize) -> CoalescingConfig {
        let nearest = FRAME_SIZES
            .iter()
            .copied()
            .min_by_key(|&f| (f as i64 - len as i64).unsigned_abs())
            .unwrap_or(FRAME_SIZES[0]);
        CoalescingConfig {
            frame_bytes: nearest,
            ..self.coalescing.clone()
        }
    }

    /// The zero-copy demo's configuration for a payload of `bytes` (within
    /// its bound), copying or not.
    pub fn zero_copy_for(&self, bytes: usize, zero_copy: bool) -> ZeroCopyConfig {
        let payload = (bytes as u32).clamp(ZC_PAYLOAD.min, ZC_PAYLOAD.max);
        ZeroCopyConfig {
            mode: if zero_copy {
                Mode::ZeroCopy
            } else {
                Mode::Copy
            },
            payload,
            ..ZeroCopyConfig::default()
        }
    }
}

/// The encapsulation model run until every byte is delivered: the frames
/// it put on the wire and the segments it cut.
pub fn frames(config: &EncapConfig) -> Frames {
    let mut model = Encapsulation::new(config);
    let mut lens = Vec::new();
    // A bounded walk: each segment takes a handful of steps.
    for _ in 0..10_000 {
        if model.stage == Stage::Done || model.apply(&EncapAction::Step).is_err() {
            break;
        }
        if model.stage == Stage::Ethernet {
            lens.extend(model.frames.iter().map(Vec::len));
        }
    }
    Frames {
        lens,
        segments: model.counters.segments as usize,
    }
}

impl Journey {
    pub fn send_model(&self) -> SendPath {
        send_model(&self.setup)
    }

    pub fn receive_model(&self) -> BusyPoll {
        receive_model(&self.setup)
    }

    pub fn encap_config(&self) -> EncapConfig {
        self.config.encap(self.message_bytes)
    }

    pub fn frames(&self) -> Frames {
        frames(&self.encap_config())
    }

    pub fn coalescing_model(&self, frame_len: usize) -> Coalescing {
        Coalescing::new(&self.config.coalescing_for(frame_len))
    }

    pub fn zero_copy_model(&self) -> ZeroCopy {
        ZeroCopy::new(
            &self
                .config
                .zero_copy_for(self.message_bytes, self.setup.zero_copy),
        )
    }

    pub fn switch_model(&self, len: usize) -> CutThrough {
        CutThrough::new(&self.config.switch_for(len, self.setup.cut_through_switch))
    }

    pub fn ctpio_model(&self, len: usize) -> CutThrough {
        CutThrough::new(&self.config.ctpio_for(len))
    }
}
