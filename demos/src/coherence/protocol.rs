//! The three snooping protocols and the five line states they use.
//!
//! Sources: Culler & Singh, "Parallel Computer Architecture" §5.3 (MSI
//! §5.3.1, MESI §5.3.2 with the shared-line signal `S` on BusRd); Sorin, Hill &
//! Wood, "A Primer on Memory Consistency and Cache Coherence" (2nd ed.) ch. 7
//! (baseline MSI snooping protocol, then adding E and O).

use serde::{Deserialize, Serialize};

/// Which states a cache may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Protocol {
    /// Modified, Shared, Invalid.
    Msi,
    /// Adds Exclusive: a clean, sole copy that can be written without a bus transaction.
    #[default]
    Mesi,
    /// Adds Owned: a dirty copy that may be shared; the owner, not memory, answers reads.
    Moesi,
}

impl Protocol {
    pub const ALL: [Protocol; 3] = [Protocol::Msi, Protocol::Mesi, Protocol::Moesi];

    pub fn label(self) -> &'static str {
        match self {
            Protocol::Msi => "MSI",
            Protocol::Mesi => "MESI",
            Protocol::Moesi => "MOESI",
        }
    }

    /// Position in [`Protocol::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn has_exclusive(self) -> bool {
        self != Protocol::Msi
    }

    pub fn has_owned(self) -> bool {
        self == Protocol::Moesi
    }
}

/// The state of one line in one cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum State {
    /// The only valid copy, written since it came from memory (memory is stale).
    M,
    /// Dirty and possibly shared (MOESI): this cache must answer reads and write back.
    O,
    /// The only copy, clean (MESI/MOESI).
    E,
    /// A clean read-only copy; others may hold one too.
    S,
    /// No valid copy.
    #[default]
    I,
}

impl State {
    pub fn letter(self) -> &'static str {
        match self {
            State::M => "M",
            State::O => "O",
            State::E => "E",
            State::S => "S",
            State::I => "I",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            State::M => "Modified",
            State::O => "Owned",
            State::E => "Exclusive",
            State::S => "Shared",
            State::I => "Invalid",
        }
    }

    pub fn is_valid(self) -> bool {
        self != State::I
    }

    /// Holds data newer than memory, so it must supply it and write it back.
    pub fn is_dirty(self) -> bool {
        matches!(self, State::M | State::O)
    }

    /// May be written without telling anyone.
    pub fn is_exclusive(self) -> bool {
        matches!(self, State::M | State::E)
    }
}
