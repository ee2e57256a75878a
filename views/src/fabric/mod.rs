//! The Fabric & distributed section's pictures.

pub mod maglev;
