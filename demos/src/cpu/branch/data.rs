//! The array the loop walks: bytes drawn from the seeded generator, then
//! arranged so the branch `a[i] >= 128` follows a chosen pattern.

use crate::rng::Rng;
use crate::Bound;
use serde::{Deserialize, Serialize};

/// Letters in a repeating pattern: its bits live in a `u16`.
pub const PATTERN_LEN: Bound<u8> = Bound::new("pattern length", " letters", 2, 16);
pub const PATTERN_MIN: u8 = PATTERN_LEN.min;
pub const PATTERN_MAX: u8 = PATTERN_LEN.max;
/// The predictability slider, percent of elements kept sorted.
pub const PREDICTABILITY: Bound<u8> = Bound::new("predictability", " %", 0, 100);

/// The low `n` bits set (all 16 from 16 on).
fn low_bits(n: u8) -> u16 {
    1u16.checked_shl(u32::from(n)).map_or(u16::MAX, |b| b - 1)
}

/// A repeating outcome pattern: bit `i` is the outcome at position `i` of
/// each period (1 = taken). A link or an action may carry any `len` and
/// `bits`; [`Pattern::is_valid`] says whether it is one the model runs, and
/// every method here is defined (never panics) for the others too, so a
/// refusal can still name what was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pattern {
    pub len: u8,
    pub bits: u16,
}

impl Pattern {
    /// T T N repeating: the break-it pattern of this demo.
    pub const TTN: Pattern = Pattern {
        len: 3,
        bits: 0b011,
    };

    /// A loop of `n` iterations seen by its closing branch: taken n−1 times,
    /// then not taken once at the exit.
    pub fn loop_exit(n: u8) -> Pattern {
        Pattern {
            len: n,
            bits: low_bits(n.saturating_sub(1)),
        }
    }

    /// The outcome at position `i` of the repeating sequence. Positions past
    /// the 16 bits a pattern can hold read as not taken, and an empty
    /// pattern is never taken (neither is a valid pattern).
    pub fn taken_at(self, i: usize) -> bool {
        if self.len == 0 {
            return false;
        }
        let at = (i % usize::from(self.len)) as u32;
        self.bits.checked_shr(at).is_some_and(|b| b & 1 == 1)
    }

    /// The shortest global history (in outcomes) after which the next outcome
    /// is always the same: the last k outcomes at each position of the period
    /// are either distinct or followed by the same outcome. A history as long
    /// as the period is always enough (it ends where the pattern restarts),
    /// but many patterns need less: T T N needs 2 (after T T comes N, after
    /// T N or N T comes T). With fewer, some history is followed by T at one
    /// position and by N at another, and its counter misses at least once a
    /// period.
    pub fn history_needed(self) -> u8 {
        let n = usize::from(self.len);
        (0..self.len)
            .find(|&k| {
                let k = usize::from(k);
                // The k outcomes before position i, oldest first, and the
                // outcome at i.
                let window = |i: usize| -> (Vec<bool>, bool) {
                    let before = (0..k).map(|j| self.taken_at(i + n * k - k + j)).collect();
                    (before, self.taken_at(i))
                };
                (0..n).all(|i| {
                    (0..n).all(|j| {
                        let (a, x) = window(i);
                        let (b, y) = window(j);
                        a != b || x == y
                    })
                })
            })
            .unwrap_or(self.len)
    }

    /// `TTN` style, first position first.
    pub fn text(self) -> String {
        (0..usize::from(self.len))
            .map(|i| if self.taken_at(i) { 'T' } else { 'N' })
            .collect()
    }

    /// Reads `T`/`N` letters (either case; spaces ignored), first position
    /// first: the inverse of [`Pattern::text`].
    pub fn parse(text: &str) -> Result<Pattern, String> {
        let mut bits = 0u16;
        let mut len = 0u8;
        for c in text.chars().filter(|c| !c.is_whitespace()) {
            let taken = match c {
                'T' | 't' => true,
                'N' | 'n' => false,
                _ => {
                    return Err(format!(
                        "Write the pattern with T (taken) and N (not taken) only, not {c}."
                    ))
                }
            };
            if len == PATTERN_MAX {
                len += 1;
                break;
            }
            bits |= u16::from(taken) << len;
            len += 1;
        }
        let p = Pattern { len, bits };
        if p.is_valid() {
            Ok(p)
        } else {
            Err(format!(
                "A pattern is {PATTERN_MIN} to {PATTERN_MAX} letters T or N, such as TTN."
            ))
        }
    }

    pub fn is_valid(self) -> bool {
        PATTERN_LEN.contains(self.len) && self.bits & !low_bits(self.len) == 0
    }
}

/// How the array is arranged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Data {
    /// Ascending: all the not-taken values first, then all the taken ones.
    #[default]
    Sorted,
    /// The same random bytes in the order they were drawn.
    Shuffled,
    /// The predictability slider: each element keeps its sorted value with
    /// probability p % and is otherwise a fresh random byte, which still
    /// agrees with the sorted outcome half the time. p = 100 is sorted,
    /// p = 0 is random.
    Predictable(u8),
    /// Values chosen so the branch repeats a pattern.
    Pattern(Pattern),
}

impl Data {
    pub fn label(self) -> String {
        match self {
            Data::Sorted => "sorted".into(),
            Data::Shuffled => "shuffled".into(),
            Data::Predictable(p) => format!("predictability {p} % (the rest random)"),
            Data::Pattern(p) => format!("pattern {} repeating", p.text()),
        }
    }

    pub fn is_valid(self) -> bool {
        match self {
            Data::Predictable(p) => PREDICTABILITY.contains(p),
            Data::Pattern(p) => p.is_valid(),
            Data::Sorted | Data::Shuffled => true,
        }
    }
}

/// The branch's condition: the loop adds `a[i]` when it holds, and this
/// model calls the branch *taken* then.
pub fn taken(value: u8) -> bool {
    value >= 128
}

/// `len` bytes arranged as `data` says, from `seed`.
pub fn generate(data: Data, len: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut values: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
    match data {
        Data::Shuffled => {}
        Data::Sorted => values.sort_unstable(),
        Data::Predictable(p) => {
            values.sort_unstable();
            for v in &mut values {
                // A draw in 0..=99 at or above p replaces the sorted value.
                if rng.range(0, 99) >= u64::from(p) {
                    *v = rng.next_u64() as u8;
                }
            }
        }
        Data::Pattern(pattern) => {
            for (i, v) in values.iter_mut().enumerate() {
                let low = *v & 0x7f;
                *v = if pattern.taken_at(i) { low | 0x80 } else { low };
            }
        }
    }
    values
}
