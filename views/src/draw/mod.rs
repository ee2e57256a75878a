//! Shared drawing: geometry and the chart builders several demos use
//! (axes and series, timeline lanes, the stage waterfall). Builders return
//! shapes; they take every number from the caller.

pub mod chart;
pub mod geometry;
pub mod lanes;
pub mod text;
pub mod waterfall;
