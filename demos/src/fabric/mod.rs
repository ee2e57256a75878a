//! AI fabrics and distributed systems: how traffic is spread over paths and
//! servers.

pub mod ecmp;
pub mod maglev;
pub mod metastable;
pub mod pfc;
