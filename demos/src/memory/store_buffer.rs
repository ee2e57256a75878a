//! A core's store buffer: stores wait here, in program order, before they
//! reach memory; the core's own loads see them first.
//!
//! Two drain policies:
//! - [`Drain::Fifo`] — x86-TSO (Sewell et al., "x86-TSO", CACM 53(7) 2010,
//!   §3 abstract machine): only the oldest store may leave, so stores reach
//!   memory in program order;
//! - [`Drain::Weak`] — an Arm-like buffer for teaching: any pending store
//!   may leave, unless an older pending store is to the same location
//!   (coherence), an older barrier is still pending, or it is a release
//!   store with older stores pending. Stores to different locations then
//!   become visible out of program order, as Armv8 permits for plain STRs.

use serde::{Deserialize, Serialize};

/// One pending entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Entry {
    Store {
        loc: u8,
        value: u32,
        /// A release store leaves only after every older store.
        release: bool,
    },
    /// A store-store barrier (DMB ISHST): no younger store leaves before the older ones.
    Barrier,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Drain {
    Fifo,
    Weak,
}

/// Pending entries, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct StoreBuffer {
    pub entries: Vec<Entry>,
}

impl StoreBuffer {
    pub fn push(&mut self, loc: u8, value: u32, release: bool) {
        self.entries.push(Entry::Store {
            loc,
            value,
            release,
        });
    }

    /// Adds a barrier behind the pending stores (nothing to order if there are none).
    pub fn push_barrier(&mut self) {
        if !self.is_empty() {
            self.entries.push(Entry::Barrier);
        }
    }

    /// No store is pending.
    pub fn is_empty(&self) -> bool {
        self.stores() == 0
    }

    pub fn stores(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| matches!(e, Entry::Store { .. }))
            .count()
    }

    /// The newest pending value for `loc`: what the core's own load reads.
    pub fn forward(&self, loc: u8) -> Option<u32> {
        self.entries.iter().rev().find_map(|e| match *e {
            Entry::Store { loc: l, value, .. } if l == loc => Some(value),
            _ => None,
        })
    }

    /// May entry `i` leave now under `policy`?
    pub fn can_drain(&self, i: usize, policy: Drain) -> bool {
        let Some(Entry::Store { loc, release, .. }) = self.entries.get(i).copied() else {
            return false;
        };
        let older = &self.entries[..i];
        match policy {
            Drain::Fifo => older.is_empty(),
            Drain::Weak => {
                (!release || older.is_empty())
                    && older.iter().all(|e| match *e {
                        Entry::Store { loc: l, .. } => l != loc,
                        Entry::Barrier => false,
                    })
            }
        }
    }

    /// Indices of the entries that may leave now.
    pub fn drainable(&self, policy: Drain) -> Vec<usize> {
        (0..self.entries.len())
            .filter(|&i| self.can_drain(i, policy))
            .collect()
    }

    /// Removes entry `i` if it may leave, returning (location, value) for memory.
    pub fn drain(&mut self, i: usize, policy: Drain) -> Option<(u8, u32)> {
        if !self.can_drain(i, policy) {
            return None;
        }
        let Entry::Store { loc, value, .. } = self.entries.remove(i) else {
            return None;
        };
        // A barrier with nothing older left orders nothing any more.
        while self.entries.first() == Some(&Entry::Barrier) {
            self.entries.remove(0);
        }
        Some((loc, value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifo_drains_in_program_order_and_forwards_the_newest_value() {
        let mut b = StoreBuffer::default();
        b.push(0, 1, false);
        b.push(1, 1, false);
        b.push(0, 2, false);
        assert_eq!(b.forward(0), Some(2));
        assert_eq!(b.forward(2), None);
        assert_eq!(b.drainable(Drain::Fifo), [0]);
        assert_eq!(
            b.drain(1, Drain::Fifo),
            None,
            "a younger store cannot overtake"
        );
        assert_eq!(b.drain(0, Drain::Fifo), Some((0, 1)));
        assert_eq!(b.stores(), 2);
    }

    #[test]
    fn weak_lets_stores_to_other_locations_overtake_but_not_barriers_or_releases() {
        let mut b = StoreBuffer::default();
        b.push(0, 1, false); // x = 1
        b.push(1, 1, false); // y = 1
        b.push(0, 2, false); // x = 2: same location as the oldest
        assert_eq!(b.drainable(Drain::Weak), [0, 1]);
        b.push_barrier();
        b.push(2, 1, false); // behind the barrier
        b.push(1, 5, true); // a release
        assert_eq!(b.drainable(Drain::Weak), [0, 1]);
        assert_eq!(b.drain(1, Drain::Weak), Some((1, 1)));
        assert_eq!(b.drain(0, Drain::Weak), Some((0, 1)));
        assert_eq!(b.drain(0, Drain::Weak), Some((0, 2)));
        // The barrier is now at the front with nothing older: it goes.
        assert_eq!(b.entries.len(), 2);
        assert_eq!(b.drainable(Drain::Weak), [0]);
    }
}
