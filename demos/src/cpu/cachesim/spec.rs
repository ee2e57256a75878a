//! What one cache level is: its geometry, replacement policy and latency,
//! and how it cuts a byte address into tag, set and offset.

use serde::{Deserialize, Serialize};

/// Most sets a level may have (2^32): the set index is a slice of the address.
pub const MAX_SETS: u64 = 1 << 32;
/// Most ways a level may have: a fully associative cache of 65,536 lines.
pub const MAX_WAYS: usize = 1 << 16;
/// Largest line: 2^40 bytes. Real cache lines are 32–128 bytes; a 4 KiB or
/// 2 MiB "line" models a TLB entry, a 1 GiB or 512 GiB one a paging-structure
/// cache entry.
pub const MAX_LINE: u64 = 1 << 40;
/// Most levels in one hierarchy.
pub const MAX_LEVELS: usize = 8;
/// Longest level name.
pub const MAX_NAME: usize = 16;

/// Which way of a full set gives up its line to a new one. Every policy
/// first fills an empty (invalid) way, the lowest-numbered one, and only
/// consults its own rule when the set is full.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Policy {
    /// Least recently used: the way whose last demand access is oldest.
    Lru,
    /// First in, first out: the way filled longest ago; hits change nothing.
    Fifo,
    /// Binary-tree pseudo-LRU: follow the tree's bits from the root.
    Plru,
    /// A way drawn from the level's seeded generator.
    Random,
}

impl Policy {
    pub const ALL: [Policy; 4] = [Policy::Lru, Policy::Fifo, Policy::Plru, Policy::Random];

    /// The name used in configuration files: `lru`, `fifo`, `plru`, `random`.
    pub fn key(self) -> &'static str {
        match self {
            Policy::Lru => "lru",
            Policy::Fifo => "fifo",
            Policy::Plru => "plru",
            Policy::Random => "random",
        }
    }

    pub fn from_key(key: &str) -> Option<Policy> {
        Policy::ALL.into_iter().find(|p| p.key() == key)
    }

    /// The name shown to a learner.
    pub fn label(self) -> &'static str {
        match self {
            Policy::Lru => "LRU",
            Policy::Fifo => "FIFO",
            Policy::Plru => "tree-PLRU",
            Policy::Random => "random",
        }
    }

    /// Why this policy picked its victim, as a phrase: "it was used least recently".
    pub fn reason(self) -> &'static str {
        match self {
            Policy::Lru => "it was the least recently used",
            Policy::Fifo => "it was filled first",
            Policy::Plru => "the PLRU tree bits pointed to it",
            Policy::Random => "the random draw picked it",
        }
    }
}

/// Which lines a level takes in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Allocation {
    /// Every demand miss that passes through the level fills it
    /// (write-allocate): the simulator's rule for every level unless told.
    #[default]
    OnMiss,
    /// Only the lines the level just inside it evicts, clean or dirty, fill
    /// it: a victim, non-inclusive cache. A demand miss passes through it
    /// without filling it, and a hit leaves the line in it as well as filling
    /// the levels inside. This is the non-inclusive L3 of Intel's Xeon
    /// Scalable parts from Skylake-SP on: a line from memory goes into the
    /// core's L2, and the L3 holds mainly lines evicted from the L2s (Intel
    /// 64 and IA-32 Architectures Optimization Reference Manual, the Skylake
    /// Server microarchitecture's cache hierarchy; Cornell Virtual Workshop,
    /// "Last Level Cache", on Skylake and Cascade Lake). Sapphire Rapids
    /// keeps it so: its 2 MiB L2 is larger than a core's 1.875 MiB share of
    /// L3, which could not include it. Which L2 victims the real L3 keeps is
    /// decided by a heuristic Intel does not document; here it keeps all.
    Victims,
}

impl Allocation {
    /// The name used in configuration files: `miss` or `victim`.
    pub fn key(self) -> &'static str {
        match self {
            Allocation::OnMiss => "miss",
            Allocation::Victims => "victim",
        }
    }

    pub fn from_key(key: &str) -> Option<Allocation> {
        [Allocation::OnMiss, Allocation::Victims]
            .into_iter()
            .find(|a| a.key() == key)
    }
}

/// One cache level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelSpec {
    /// Shown in output and narration: `L1`, `L2`, `TLB`.
    pub name: String,
    /// Number of sets, a power of two.
    pub sets: u64,
    /// Lines per set (associativity); 1 is direct-mapped.
    pub ways: usize,
    /// Line size in bytes, a power of two.
    pub line: u64,
    pub policy: Policy,
    /// Cycles a lookup in this level adds to an access that reaches it.
    pub latency: u32,
    /// Seed of this level's generator (used by the random policy only).
    pub seed: u64,
    /// Filled on a miss (the default) or by the inner level's victims.
    pub allocation: Allocation,
}

/// A byte address cut the way one level reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Split {
    pub tag: u64,
    pub set: u64,
    pub offset: u64,
}

impl LevelSpec {
    pub fn new(name: &str, sets: u64, ways: usize, line: u64, policy: Policy) -> Self {
        LevelSpec {
            name: name.to_string(),
            sets,
            ways,
            line,
            policy,
            latency: 0,
            seed: 0,
            allocation: Allocation::OnMiss,
        }
    }

    pub fn with_allocation(mut self, allocation: Allocation) -> Self {
        self.allocation = allocation;
        self
    }

    pub fn with_latency(mut self, cycles: u32) -> Self {
        self.latency = cycles;
        self
    }

    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Why this level cannot be built, as a sentence fragment.
    pub fn check(&self) -> Result<(), String> {
        let name = &self.name;
        if name.is_empty() || name.len() > MAX_NAME {
            return Err(format!("a level name is 1 to {MAX_NAME} characters"));
        }
        if !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(format!(
                "level name '{name}' may use only letters, digits, '-' and '_'"
            ));
        }
        if name.eq_ignore_ascii_case("mem") {
            return Err("the name MEM is reserved for main memory".into());
        }
        if !self.sets.is_power_of_two() || self.sets > MAX_SETS {
            return Err(format!(
                "{name}: sets must be a power of two from 1 to {MAX_SETS}, not {}",
                self.sets
            ));
        }
        if !(1..=MAX_WAYS).contains(&self.ways) {
            return Err(format!(
                "{name}: ways must be 1 to {MAX_WAYS}, not {}",
                self.ways
            ));
        }
        if !self.line.is_power_of_two() || self.line > MAX_LINE {
            return Err(format!(
                "{name}: line must be a power of two from 1 to {MAX_LINE} bytes, not {}",
                self.line
            ));
        }
        let bytes = self
            .sets
            .checked_mul(self.ways as u64)
            .and_then(|lines| lines.checked_mul(self.line));
        if bytes.is_none_or(|b| b > 1 << 62) {
            return Err(format!("{name}: sets × ways × line exceeds 2^62 bytes"));
        }
        if self.policy == Policy::Plru && !self.ways.is_power_of_two() {
            return Err(format!(
                "{name}: tree-PLRU needs a power-of-two number of ways (a full binary tree), not {}",
                self.ways
            ));
        }
        Ok(())
    }

    /// Lines the level holds in all.
    pub fn lines(&self) -> u64 {
        self.sets * self.ways as u64
    }

    /// Capacity in bytes.
    pub fn bytes(&self) -> u64 {
        self.lines() * self.line
    }

    pub fn offset_bits(&self) -> u32 {
        self.line.trailing_zeros()
    }

    pub fn set_bits(&self) -> u32 {
        self.sets.trailing_zeros()
    }

    /// The line number of a byte address (the address without its offset).
    pub fn line_of(&self, addr: u64) -> u64 {
        addr >> self.offset_bits()
    }

    /// The first byte of the line holding `addr`.
    pub fn base_of(&self, addr: u64) -> u64 {
        addr & !(self.line - 1)
    }

    /// Tag, set index and offset: the low bits are the offset, the next
    /// bits the set, the rest the tag (Hennessy & Patterson, 6th ed., §B.1).
    pub fn split(&self, addr: u64) -> Split {
        let line = self.line_of(addr);
        Split {
            tag: line >> self.set_bits(),
            set: line & (self.sets - 1),
            offset: addr & (self.line - 1),
        }
    }

    /// The byte address where a line with this tag in this set begins.
    pub fn base_from(&self, tag: u64, set: u64) -> u64 {
        ((tag << self.set_bits()) | set) << self.offset_bits()
    }
}

/// Why a hierarchy of these levels cannot be built.
pub fn check_levels(levels: &[LevelSpec]) -> Result<(), String> {
    if levels.is_empty() {
        return Err("a hierarchy needs at least one cache level".into());
    }
    if levels.len() > MAX_LEVELS {
        return Err(format!("at most {MAX_LEVELS} levels, not {}", levels.len()));
    }
    for (i, level) in levels.iter().enumerate() {
        level.check()?;
        if i == 0 && level.allocation == Allocation::Victims {
            return Err(format!(
                "{} takes only the victims of the level inside it, so it cannot be the first level",
                level.name
            ));
        }
        if levels[..i].iter().any(|l| l.name == level.name) {
            return Err(format!("two levels are named {}", level.name));
        }
        // A line is filled whole from the level below; a smaller line there
        // could not supply it in one piece.
        if let Some(inner) = i.checked_sub(1).map(|j| &levels[j]) {
            if level.line < inner.line {
                return Err(format!(
                    "{}'s line ({} bytes) is smaller than {}'s ({} bytes): line sizes may not shrink going outward",
                    level.name, level.line, inner.name, inner.line
                ));
            }
        }
    }
    Ok(())
}
