//! The Fabric & distributed section's pictures.

pub mod ecmp;
pub mod maglev;
pub mod metastable;
pub mod pfc;
