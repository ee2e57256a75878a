//! The CTPIO transmit mode, `EF_CTPIO_MODE` (AMD Onload User Guide UG1586,
//! "CTPIO Modes" and the `EF_CTPIO_MODE` reference):
//! - `ct`, cut-through: the adapter starts the frame onto the wire while the
//!   rest is still crossing PCIe; if the writes fall behind, the frame goes
//!   out poisoned. UG1586 supports `ct` at 10 Gb and not at 25 Gb;
//! - `sf`, store-and-forward: the adapter sends only once the whole frame
//!   has crossed PCIe;
//! - `sf-np`, store-and-forward with no poison, Onload's default: as `sf`,
//!   and the adapter never emits a poisoned frame (an invalid one is not
//!   sent at all). Set on any VI, it holds every CTPIO user of the port to
//!   store-and-forward.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CtpioMode {
    Ct,
    Sf,
    SfNp,
}

/// The fastest wire at which UG1586 supports `ct`, Gb/s.
pub const CT_SUPPORTED_GBPS: u32 = 10;

impl CtpioMode {
    pub const ALL: [CtpioMode; 3] = [CtpioMode::Ct, CtpioMode::Sf, CtpioMode::SfNp];

    /// The value `EF_CTPIO_MODE` takes.
    pub fn env(self) -> &'static str {
        match self {
            CtpioMode::Ct => "ct",
            CtpioMode::Sf => "sf",
            CtpioMode::SfNp => "sf-np",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CtpioMode::Ct => "cut-through",
            CtpioMode::Sf => "store-and-forward",
            CtpioMode::SfNp => "store-and-forward, no poison",
        }
    }

    /// Whether the adapter may start the wire before the whole frame is in.
    pub fn cuts_through(self) -> bool {
        self == CtpioMode::Ct
    }

    /// What the mode promises, in one sentence.
    pub fn promise(self) -> &'static str {
        match self {
            CtpioMode::Ct => "the NIC starts the wire once the threshold is in, and poisons the frame if the writes then fall behind",
            CtpioMode::Sf => "the NIC starts the wire only once the whole frame is in, so the writes can never fall behind it",
            CtpioMode::SfNp => "as sf, and the NIC never sends a poisoned frame; this holds every CTPIO user of the port to store-and-forward",
        }
    }
}
