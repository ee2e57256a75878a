//! What a link spends besides TLPs: ACK and flow-control DLLPs, and SKP
//! ordered sets.
//!
//! A receiver acknowledges TLPs and returns flow-control credits in DLLPs,
//! each 8 bytes on the wire (framing, 4-byte DLLP, 2-byte CRC). How often is
//! set by the specification's guidelines: the Ack transmission latency
//! limits (PCIe Base Specification 5.0, Tables 3-7 to 3-9) and the UpdateFC
//! transmission latency guidelines (Tables 2-46 to 2-48), in symbol times,
//! by generation, width and MPS. A link that sends one of each every that
//! many symbols loses 8 / interval of its bandwidth to each.
//!
//! The numbers below are the open model's transcription of those tables
//! (`pcie-bench/pcie-model`, `model/pcie.py`, `Ack_Limits` and `FC_Guide`);
//! we have not read the specification's tables themselves, which are not
//! public. Gen3 to Gen5 share one table there. The two transcriptions differ
//! in two cells that are otherwise alike, so one of each pair is likely a
//! slip: ×32 at MPS 2048 on Gen1 (Ack 148, FC 248) and ×32 at MPS 4096 on
//! Gen2 (Ack 237, FC 327). We keep both as transcribed, so that our figures
//! are the open model's; they matter only for Gen1 and Gen2 ×32 links.

use super::link::{Generation, Link, LANES, TRANSFER_SIZES};

/// An ACK or UpdateFC DLLP on the wire: 2 framing bytes, the 4-byte DLLP,
/// its 2-byte CRC (§3.5).
pub const DLLP_BYTES: f64 = 8.0;

/// A SKP ordered set for clock compensation, charged as 4 symbols on every
/// lane once every 1538 symbol times: 8b/10b's longest allowed interval
/// (§4.2.7). 128b/130b links schedule a longer SKP set by blocks instead
/// (about every 370), a cost within a few hundredths of a percent of this;
/// the open model charges every generation alike, and so do we.
pub const SKP_BYTES: f64 = 4.0;
pub const SKP_INTERVAL: f64 = 1538.0;

/// Rows: ×1, ×2, ×4, ×8, ×16, ×32; columns: MPS 128 … 4096.
type Table = [[u16; 6]; 6];

const ACK_GEN1: Table = [
    [237, 416, 559, 1071, 2095, 4143],
    [128, 217, 289, 545, 1057, 2081],
    [73, 118, 154, 282, 538, 1050],
    [67, 107, 86, 150, 278, 534],
    [48, 72, 86, 150, 278, 534],
    [33, 45, 52, 84, 148, 276],
];
const ACK_GEN2: Table = [
    [288, 467, 610, 1122, 2146, 4194],
    [179, 268, 340, 596, 1108, 2132],
    [124, 169, 205, 333, 589, 1101],
    [118, 158, 137, 201, 329, 585],
    [99, 123, 137, 201, 329, 585],
    [84, 96, 103, 135, 199, 237],
];
const GEN3_ON: Table = [
    [333, 512, 655, 1167, 2191, 4239],
    [224, 313, 385, 641, 1153, 2177],
    [169, 214, 250, 378, 634, 1146],
    [163, 203, 182, 246, 374, 630],
    [144, 168, 182, 246, 374, 630],
    [129, 141, 148, 180, 244, 372],
];
const FC_GEN1: Table = {
    let mut t = ACK_GEN1;
    t[5][4] = 248;
    t
};
const FC_GEN2: Table = {
    let mut t = ACK_GEN2;
    t[5][5] = 327;
    t
};

fn cell(table: &Table, link: &Link) -> f64 {
    let row = LANES.iter().position(|&l| l == link.lanes);
    let column = TRANSFER_SIZES.iter().position(|&s| s == link.mps);
    match (row, column) {
        (Some(r), Some(c)) => f64::from(table[r][c]),
        // Link::check refuses these before any figure is asked for.
        _ => f64::INFINITY,
    }
}

/// Symbol times between two ACK DLLPs.
pub fn ack_interval(link: &Link) -> f64 {
    let table = match link.generation {
        Generation::Gen1 => &ACK_GEN1,
        Generation::Gen2 => &ACK_GEN2,
        _ => &GEN3_ON,
    };
    cell(table, link)
}

/// Symbol times between two UpdateFC DLLPs.
pub fn flow_control_interval(link: &Link) -> f64 {
    let table = match link.generation {
        Generation::Gen1 => &FC_GEN1,
        Generation::Gen2 => &FC_GEN2,
        _ => &GEN3_ON,
    };
    cell(table, link)
}

/// The share of the link's bandwidth that ACKs, UpdateFCs and SKP ordered
/// sets take: each one's size over its interval, summed.
pub fn overhead_share(link: &Link) -> f64 {
    DLLP_BYTES / ack_interval(link)
        + DLLP_BYTES / flow_control_interval(link)
        + SKP_BYTES / SKP_INTERVAL
}
