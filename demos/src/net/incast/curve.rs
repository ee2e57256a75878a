//! Goodput against the number of servers: the incast collapse as chart data.

use super::{Fixes, Incast, IncastConfig};
use crate::model::Model;
use serde::{Deserialize, Serialize};

/// Server counts the chart samples.
pub const CURVE_SENDERS: [usize; 12] = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64];

/// One point of the chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CurvePoint {
    pub senders: usize,
    /// Goodput over the second half of a full run's requests, tenths of
    /// Mbit/s: the first half lets windows (and DCTCP's α) settle, as they
    /// would in a long-running workload.
    pub goodput_tenths: u64,
    pub drops: u64,
    pub timeouts: u32,
}

/// One curve: the fixes it was measured with, and its points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sweep {
    pub fixes: Fixes,
    pub points: Vec<CurvePoint>,
}

/// Runs the whole workload for each server count with `config`'s other
/// settings (its fixes included) and reports the goodput.
pub fn goodput_curve(config: &IncastConfig) -> Vec<CurvePoint> {
    CURVE_SENDERS
        .iter()
        .map(|&senders| {
            let m = run(&IncastConfig {
                senders,
                ..config.clone()
            });
            CurvePoint {
                senders,
                goodput_tenths: m.goodput_from_tenths(m.finished.len() / 2),
                drops: m.drops(),
                timeouts: m.timeouts(),
            }
        })
        .collect()
}

/// Plays every request to the end, headless.
pub fn run(config: &IncastConfig) -> Incast {
    let mut m = Incast::new(config);
    while !m.all_done() {
        if m.path.step().is_none() {
            break;
        }
        m.settle();
    }
    m
}
