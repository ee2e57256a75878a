//! The two index cache lines (head and tail, each on a line of its own, as
//! padded SPSC rings place them) and a simple ownership rule for counting
//! cross-core transfers: a line moves when a core touches it while the other
//! core has written it since this core last held it. No MESI states, no slot
//! lines, no timing — a count to compare with and without cached indices.

use serde::{Deserialize, Serialize};

/// The producer's core.
pub const PRODUCER: usize = 0;
/// The consumer's core.
pub const CONSUMER: usize = 1;
/// The line holding `head` (written by the consumer).
pub const HEAD: usize = 0;
/// The line holding `tail` (written by the producer).
pub const TAIL: usize = 1;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lines {
    /// `fresh[line][core]`: the core holds the line's current contents.
    pub fresh: [[bool; 2]; 2],
    /// Transfers of each line between the cores.
    pub moves: [u32; 2],
}

impl Default for Lines {
    fn default() -> Self {
        Lines {
            fresh: [[true; 2]; 2],
            moves: [0; 2],
        }
    }
}

impl Lines {
    /// A core reads the line; returns true if the line had to move to it.
    pub fn touch(&mut self, line: usize, core: usize) -> bool {
        let moved = !self.fresh[line][core];
        if moved {
            self.moves[line] += 1;
            self.fresh[line][core] = true;
        }
        moved
    }

    /// A core's store to the line reached memory: only that core is current now.
    pub fn write(&mut self, line: usize, core: usize) {
        self.fresh[line] = [false; 2];
        self.fresh[line][core] = true;
    }

    pub fn total(&self) -> u32 {
        self.moves.iter().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_moves_only_after_the_other_core_wrote_it() {
        let mut l = Lines::default();
        assert!(!l.touch(HEAD, PRODUCER), "nothing written yet");
        l.write(HEAD, CONSUMER);
        assert!(l.touch(HEAD, PRODUCER));
        assert!(!l.touch(HEAD, PRODUCER), "already here");
        l.write(HEAD, CONSUMER);
        assert!(!l.touch(HEAD, CONSUMER), "the writer holds it");
        assert_eq!(l.total(), 1);
    }
}
