//! Relations over at most 32 events as bit matrices: row `a` holds the set
//! of events `b` with `a → b`. A test has at most 3 initial writes plus
//! 4 × 6 operations = 27 events, so one `u32` per row is enough and the
//! cat-style operators (`|`, `&`, `\`, `;`, `^-1`, `+`) are a few word operations.

use serde::{Deserialize, Serialize};

/// A set of events.
pub type Set = u32;

/// Most events an execution may have.
pub const MAX_EVENTS: usize = 32;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Rel {
    pub rows: [u32; MAX_EVENTS],
}

/// Iterates over the members of a set, lowest first.
pub fn members(mut set: Set) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            Some(i)
        }
    })
}

impl Rel {
    pub const EMPTY: Rel = Rel {
        rows: [0; MAX_EVENTS],
    };

    pub fn add(&mut self, a: usize, b: usize) {
        self.rows[a] |= 1 << b;
    }

    pub fn has(&self, a: usize, b: usize) -> bool {
        self.rows[a] & (1 << b) != 0
    }

    /// All pairs of `from × to`.
    pub fn cross(from: Set, to: Set) -> Rel {
        let mut r = Rel::EMPTY;
        for a in members(from) {
            r.rows[a] = to;
        }
        r
    }

    /// The identity on `set`: `[set]` in cat.
    pub fn id(set: Set) -> Rel {
        let mut r = Rel::EMPTY;
        for a in members(set) {
            r.rows[a] = 1 << a;
        }
        r
    }

    pub fn union(mut self, o: Rel) -> Rel {
        for i in 0..MAX_EVENTS {
            self.rows[i] |= o.rows[i];
        }
        self
    }

    pub fn inter(mut self, o: Rel) -> Rel {
        for i in 0..MAX_EVENTS {
            self.rows[i] &= o.rows[i];
        }
        self
    }

    pub fn minus(mut self, o: Rel) -> Rel {
        for i in 0..MAX_EVENTS {
            self.rows[i] &= !o.rows[i];
        }
        self
    }

    /// Sequential composition `self ; o`.
    pub fn seq(&self, o: &Rel) -> Rel {
        let mut r = Rel::EMPTY;
        for (a, row) in self.rows.iter().enumerate() {
            let mut acc = 0;
            for b in members(*row) {
                acc |= o.rows[b];
            }
            r.rows[a] = acc;
        }
        r
    }

    pub fn inverse(&self) -> Rel {
        let mut r = Rel::EMPTY;
        for (a, row) in self.rows.iter().enumerate() {
            for b in members(*row) {
                r.rows[b] |= 1 << a;
            }
        }
        r
    }

    /// `[from]; self`.
    pub fn from_set(mut self, from: Set) -> Rel {
        for (a, row) in self.rows.iter_mut().enumerate() {
            if from & (1 << a) == 0 {
                *row = 0;
            }
        }
        self
    }

    /// `self; [to]`.
    pub fn to_set(mut self, to: Set) -> Rel {
        for row in self.rows.iter_mut() {
            *row &= to;
        }
        self
    }

    /// `[from]; self; [to]`.
    pub fn between(self, from: Set, to: Set) -> Rel {
        self.from_set(from).to_set(to)
    }

    /// The transitive closure `self+` (Warshall).
    pub fn plus(mut self) -> Rel {
        for k in 0..MAX_EVENTS {
            let bit = 1 << k;
            let row_k = self.rows[k];
            if row_k == 0 {
                continue;
            }
            for row in self.rows.iter_mut() {
                if *row & bit != 0 {
                    *row |= row_k;
                }
            }
        }
        self
    }

    /// `self?;` as a union with the identity on `set`.
    pub fn opt(self, set: Set) -> Rel {
        self.union(Rel::id(set))
    }

    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|r| *r == 0)
    }

    pub fn is_irreflexive(&self) -> bool {
        self.rows.iter().enumerate().all(|(a, r)| r & (1 << a) == 0)
    }

    pub fn is_acyclic(&self) -> bool {
        // Repeatedly strip events with no incoming edge (Kahn); a cycle is what remains.
        let mut alive: u32 = self
            .rows
            .iter()
            .enumerate()
            .filter(|(_, r)| **r != 0)
            .fold(0, |s, (a, r)| s | (1 << a) | r);
        loop {
            let mut has_pred = 0u32;
            for a in members(alive) {
                has_pred |= self.rows[a] & alive;
            }
            let sources = alive & !has_pred;
            if sources == 0 {
                return alive == 0;
            }
            alive &= !sources;
        }
    }

    /// The set of events with an outgoing edge.
    pub fn domain(&self) -> Set {
        self.rows
            .iter()
            .enumerate()
            .filter(|(_, r)| **r != 0)
            .fold(0, |s, (a, _)| s | (1 << a))
    }

    /// All pairs, lowest source first.
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.rows
            .iter()
            .enumerate()
            .flat_map(|(a, r)| members(*r).map(move |b| (a, b)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(pairs: &[(usize, usize)]) -> Rel {
        let mut r = Rel::EMPTY;
        for &(a, b) in pairs {
            r.add(a, b);
        }
        r
    }

    #[test]
    fn closure_composition_and_cycles() {
        let chain = rel(&[(0, 1), (1, 2), (2, 3)]);
        assert!(chain.plus().has(0, 3));
        assert!(chain.is_acyclic());
        assert!(!rel(&[(0, 1), (1, 2), (2, 0)]).is_acyclic());
        assert!(!rel(&[(4, 4)]).is_acyclic());
        assert_eq!(rel(&[(0, 1)]).seq(&rel(&[(1, 2)])), rel(&[(0, 2)]));
        assert_eq!(rel(&[(0, 1), (2, 3)]).inverse(), rel(&[(1, 0), (3, 2)]));
        assert_eq!(Rel::cross(0b11, 0b100).between(0b01, 0b100), rel(&[(0, 2)]));
    }
}
