//! The waterfall: every number the view draws, computed from the path.

use super::{Pipeline, Spec, Walk};
use crate::text::share_tenths;

/// Where a stage stands relative to the walked packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowWalk {
    Passed,
    Here,
    Ahead,
    OffPath,
}

/// One row of the waterfall, every number computed here for the view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub index: usize,
    pub key: &'static str,
    pub name: &'static str,
    pub cost_ns: u32,
    pub base_ns: u32,
    /// CPU work (true) or NIC / bus work (false).
    pub cpu: bool,
    /// A stage a technique brings with it (not on the plain path).
    pub extra: bool,
    pub active: bool,
    /// Why the stage is off the path, e.g. "removed by kernel bypass".
    pub off_reason: Option<String>,
    /// Start on the current path's clock (for an inactive stage: where it would sit).
    pub start_ns: u32,
    /// Share of the current total, in tenths of a percent.
    pub share_tenths: u32,
    pub walk: RowWalk,
}

/// The waterfall as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waterfall {
    pub rows: Vec<Row>,
    pub total_ns: u32,
    pub baseline_ns: u32,
    /// Width of the time axis: the longer of the baseline and the total.
    pub scale_ns: u32,
    pub clock_ns: u32,
    pub walk_done: bool,
}

impl Pipeline {
    /// Everything the waterfall view draws.
    pub fn waterfall(&self, spec: &Spec) -> Waterfall {
        let total = self.total(spec);
        let baseline = self.baseline(spec);
        let clock = self.clock(spec);
        let done = self.walk_done(spec);
        let mut start = 0;
        let rows = spec
            .stages
            .iter()
            .enumerate()
            .map(|(i, def)| {
                let active = self.is_active(spec, i);
                let cost = self.costs[i];
                let walk = if !active {
                    RowWalk::OffPath
                } else {
                    match self.walk {
                        Walk::After(at) if i < at => RowWalk::Passed,
                        Walk::After(at) if i == at => RowWalk::Here,
                        _ => RowWalk::Ahead,
                    }
                };
                let row = Row {
                    index: i,
                    key: def.key,
                    name: def.name,
                    cost_ns: cost,
                    base_ns: def.base_ns,
                    cpu: def.cpu,
                    extra: def.only_with != 0,
                    active,
                    off_reason: self.off_reason(spec, i),
                    start_ns: start,
                    share_tenths: if active {
                        share_tenths(cost.into(), total.into()) as u32
                    } else {
                        0
                    },
                    walk,
                };
                if active {
                    start += cost;
                }
                row
            })
            .collect();
        Waterfall {
            rows,
            total_ns: total,
            baseline_ns: baseline,
            scale_ns: total.max(baseline).max(1),
            clock_ns: clock,
            walk_done: done,
        }
    }
}
