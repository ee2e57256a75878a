//! The array the loop walks: bytes drawn from the seeded generator, then
//! arranged so the branch `a[i] >= 128` follows a chosen pattern.

use crate::rng::Rng;
use serde::{Deserialize, Serialize};

pub const PATTERN_MIN: u8 = 2;
pub const PATTERN_MAX: u8 = 16;

/// A repeating outcome pattern: bit `i` is the outcome at position `i` of
/// each period (1 = taken).
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
            bits: ((1u32 << (n - 1)) - 1) as u16,
        }
    }

    pub fn taken_at(self, i: usize) -> bool {
        self.bits >> (i % usize::from(self.len)) & 1 == 1
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
        (PATTERN_MIN..=PATTERN_MAX).contains(&self.len) && u32::from(self.bits) < 1u32 << self.len
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
            Data::Predictable(p) => p <= 100,
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
