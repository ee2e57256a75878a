//! The configurations the learner has tried: each one's total, the stage
//! that dominates it, and every stage's share, as they were computed when
//! the learner tried it.

use super::{Journey, Setup, StageId, Technique, TRIED_KEPT};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tried {
    pub message_bytes: usize,
    pub mss: u16,
    pub line_gbps: u32,
    pub setup: Setup,
    pub total_ns: u64,
    pub dominant: Option<StageId>,
    /// Each stage on the path and its share, tenths of a percent.
    pub shares: Vec<(StageId, u16)>,
}

impl Tried {
    /// The techniques and faults on, in words ("interrupt path" if none).
    pub fn label(&self) -> String {
        let mut parts: Vec<&str> = Technique::ALL
            .iter()
            .filter(|&&t| self.setup.uses(t))
            .map(|t| t.name())
            .collect();
        parts.extend(
            super::Fault::ALL
                .iter()
                .filter(|&&f| self.setup.breaks(f))
                .map(|f| f.name()),
        );
        let what = if parts.is_empty() {
            "interrupt path".to_string()
        } else {
            parts.join(", ")
        };
        format!(
            "{} B, MSS {}, {} Gb/s: {what}",
            self.message_bytes, self.mss, self.line_gbps
        )
    }

    /// Whether this row is the journey's configuration now.
    pub fn is(&self, j: &Journey) -> bool {
        self.setup == j.setup
            && self.message_bytes == j.message_bytes
            && self.mss == j.config.mss
            && self.line_gbps == j.config.line_gbps
    }

    pub fn share_of(&self, id: StageId) -> Option<u16> {
        self.shares.iter().find(|(s, _)| *s == id).map(|&(_, t)| t)
    }
}

impl Journey {
    /// This configuration as a row of the comparison.
    pub fn tried_now(&self) -> Tried {
        let path = self.path();
        Tried {
            message_bytes: self.message_bytes,
            mss: self.config.mss,
            line_gbps: self.config.line_gbps,
            setup: self.setup,
            total_ns: path.total_ns,
            dominant: path.dominant().map(|s| s.id),
            shares: path
                .on_path()
                .map(|s| (s.id, path.share_tenths(s.id) as u16))
                .collect(),
        }
    }

    /// Adds this configuration to the comparison unless it is there already;
    /// the oldest goes once [`TRIED_KEPT`] are kept.
    pub(super) fn remember(&mut self) {
        let now = self.tried_now();
        if self.tried.iter().any(|t| t.is(self)) {
            return;
        }
        self.tried.push(now);
        if self.tried.len() > TRIED_KEPT {
            self.tried.remove(0);
        }
    }
}
