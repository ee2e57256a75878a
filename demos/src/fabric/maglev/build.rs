//! Pseudocode 1 one turn at a time, for a table small enough to watch fill.
//!
//! Eisenbud et al., NSDI 2016, §3.4, Pseudocode 1 (p. 6): "In the body of
//! the outer while loop, we iterate through all the backends. For each
//! backend i we find a candidate index c from permutation[i] which has not
//! been filled yet, and fill it with the backend. The loop keeps going until
//! all entries in the table have been filled." A *turn* here is one pass of
//! that inner `for` body: backend `i` reads down its list from `next[i]`,
//! passes the entries already claimed, claims the first empty one and moves
//! past it. [`super::populate`] is the same loop run to the end; the tests
//! pin that the two agree.

use super::{preference, Backend};

/// What one turn did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// Whose turn it was: an index into the backends given to [`Build`].
    pub backend: usize,
    /// The round, from 1: every backend has one turn a round.
    pub round: usize,
    /// The entries it tried and found claimed, in the order it read them.
    pub passed: Vec<usize>,
    /// The entry it claimed.
    pub claimed: usize,
    /// Where that entry is in its preference list (`j`, from 0).
    pub position: usize,
}

/// A table part-way through Pseudocode 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Build {
    size: usize,
    backends: Vec<Backend>,
    /// `entry[c]`: the backend that claimed entry `c`, if one has.
    pub entry: Vec<Option<usize>>,
    /// `next[i]`: how far backend `i` has read down its preference list.
    pub next: Vec<usize>,
    /// Turns taken so far (the pseudocode's `n`).
    pub turns: usize,
}

impl Build {
    /// An empty table of `size` entries for these backends, in this order.
    /// The caller has checked them ([`super::check`]): with a prime size and
    /// skips from 1 to M − 1 every list names every entry.
    pub fn new(size: usize, backends: &[Backend]) -> Build {
        Build {
            size,
            backends: backends.to_vec(),
            entry: vec![None; size],
            next: vec![0; backends.len()],
            turns: 0,
        }
    }

    /// The table after the first `turns` turns, and what the last one did.
    pub fn after(size: usize, backends: &[Backend], turns: usize) -> (Build, Option<Turn>) {
        let mut build = Build::new(size, backends);
        let mut last = None;
        for _ in 0..turns {
            match build.turn() {
                Some(t) => last = Some(t),
                None => break,
            }
        }
        (build, last)
    }

    /// Whether every entry is claimed.
    pub fn full(&self) -> bool {
        self.turns >= self.size
    }

    /// Whose turn is next: the backends go in their order, round after
    /// round.
    pub fn whose_turn(&self) -> Option<usize> {
        if self.full() || self.backends.is_empty() {
            None
        } else {
            Some(self.turns % self.backends.len())
        }
    }

    /// The entry backend `i` reads next: `permutation[i][next[i]]`.
    pub fn candidate(&self, i: usize) -> Option<usize> {
        let b = self.backends.get(i)?;
        let j = *self.next.get(i)?;
        (j < self.size).then(|| preference(b, self.size, j))
    }

    /// One turn: the next backend passes the claimed entries at the head of
    /// its list, claims the first empty one and moves past it. `None` once
    /// the table is full, or if a list ran out (which a checked table never
    /// does: a list names every entry, and one is still empty).
    pub fn turn(&mut self) -> Option<Turn> {
        let i = self.whose_turn()?;
        let mut passed = Vec::new();
        loop {
            let c = self.candidate(i)?;
            if self.entry[c].is_none() {
                let position = self.next[i];
                self.entry[c] = Some(i);
                self.next[i] += 1;
                let round = self.turns / self.backends.len() + 1;
                self.turns += 1;
                return Some(Turn {
                    backend: i,
                    round,
                    passed,
                    claimed: c,
                    position,
                });
            }
            passed.push(c);
            self.next[i] += 1;
        }
    }

    /// The whole table, once full: `entry` without the options.
    pub fn table(&self) -> Option<Vec<usize>> {
        self.entry.iter().copied().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{populate, Backend};
    use super::*;

    fn paper() -> Vec<Backend> {
        vec![
            Backend::new("B0", 3, 4),
            Backend::new("B1", 0, 2),
            Backend::new("B2", 3, 1),
        ]
    }

    /// Round 1 of the paper's example (Table 1): B0 claims 3, B1 claims 0,
    /// B2 tries 3 (B0's) and claims 4.
    #[test]
    fn the_first_round_of_the_papers_example() {
        let mut b = Build::new(7, &paper());
        let t: Vec<Turn> = (0..3).map(|_| b.turn().unwrap()).collect();
        assert_eq!((t[0].claimed, t[1].claimed, t[2].claimed), (3, 0, 4));
        assert_eq!(t[2].passed, [3]);
        assert_eq!((t[2].round, t[2].position), (1, 1));
        // Round 3: B0 passes 5 and 2 and claims 6, the last entry.
        let (mut full, last) = Build::after(7, &paper(), 7);
        let last = last.unwrap();
        assert_eq!((last.backend, last.round, last.claimed), (0, 3, 6));
        assert_eq!(last.passed, [5, 2]);
        assert!(full.full() && full.turn().is_none());
        assert_eq!(full.whose_turn(), None);
    }

    #[test]
    fn turn_by_turn_is_populate() {
        for size in [2usize, 3, 5, 7, 11, 13, 17] {
            for n in 1..=5 {
                let bs: Vec<Backend> = (0..n)
                    .map(|i| super::super::siphash::hashed(&format!("B{i}"), size))
                    .collect();
                let (b, _) = Build::after(size, &bs, size);
                assert_eq!(b.table().unwrap(), populate(size, &bs), "{size} {n}");
            }
        }
    }
}
