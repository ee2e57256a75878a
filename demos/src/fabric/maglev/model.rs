//! The `/fabric/maglev` demo: a small Maglev lookup table filled one turn
//! of Pseudocode 1 at a time, a backend leaving and the entries that change
//! owner (against modulo hashing and a hash ring), and the same three
//! methods measured on a large table.
//!
//! Step gives the next backend its turn: it reads down its preference list,
//! passes the entries already claimed and claims the first empty one
//! (Eisenbud et al., NSDI 2016, §3.4, Pseudocode 1). When a backend leaves,
//! the others keep their offsets, skips and order and the table is built
//! again from empty, as the paper's Table 1 shows it "before and after".
//! Every setting of the small table starts it again; the large table's
//! settings only change the comparison.

use super::build::{Build, Turn};
use super::compare::{compare, Comparison};
use super::coverage::not_prime;
use super::siphash::hashed;
use super::{check, counts, modulo_table, modulo_without, moved, populate, ring, without, Backend};
use crate::bound::Bound;
use crate::memo::Memo;
use crate::model::{Event, Figure, Model, Outcome, Refusal};
use crate::text::{capitalised, decimal, grouped, plural};
use serde::{Deserialize, Serialize};

/// The small table: prime sizes up to 17 (2, 3, 5, 7, 11, 13, 17), few
/// enough entries to draw every preference list whole on a phone.
pub const SIZE: Bound<u64> = Bound::new("table size", " entries", 2, 17);
/// Backends of the small table: the paper's example has three.
pub const BACKENDS: Bound<u32> = Bound::new("number of backends", "", 1, 5);
/// The large table: up to 65,537, the paper's default size (§5.3, "In
/// practice we use 65537 as the default table size").
pub const COMPARE_SIZE: Bound<u64> = Bound::new("large table's size", " entries", 2, 65_537);
/// Backends on the large table: up to the 1,000 of the paper's §5.3.
pub const COMPARE_BACKENDS: Bound<u32> =
    Bound::new("number of backends on the large table", "", 2, 1_000);
/// The ring's points per backend (virtual nodes).
pub const VIRTUAL_NODES: Bound<u32> = Bound::new("number of ring points per backend", "", 1, 200);
/// Large sizes offered: primes, from one below the backends' count to the
/// paper's 65,537 (251 to 16,381 are among the sizes Linux's Maglev
/// scheduler allows, `ip_vs_mh.c`, `primes[]`).
pub const COMPARE_SIZES: [u64; 7] = [13, 101, 251, 1_021, 4_093, 16_381, 65_537];
/// A backend's name is a short label: 1 to 3 letters or digits.
pub const NAME_CHARS: usize = 3;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MaglevConfig {
    /// The small table's size M.
    pub size: u64,
    /// Its backends, in the order they take turns.
    pub backends: Vec<Backend>,
    /// Whether each offset and skip is the hash of the backend's name.
    pub hashed: bool,
    /// The large table's size, backends and the ring's points per backend.
    pub compare_size: u64,
    pub compare_backends: u32,
    pub virtual_nodes: u32,
}

/// The paper's example (Table 1, p. 6): M = 7 and three backends whose
/// (offset, skip) pairs are (3, 4), (0, 2) and (3, 1), given directly.
pub fn paper_backends() -> Vec<Backend> {
    vec![
        Backend::new("B0", 3, 4),
        Backend::new("B1", 0, 2),
        Backend::new("B2", 3, 1),
    ]
}

impl Default for MaglevConfig {
    /// The paper's example; on the large table 10 backends share 1,021
    /// entries, just over the paper's 100 entries a backend, and the ring
    /// gives each backend 100 points.
    fn default() -> Self {
        MaglevConfig {
            size: 7,
            backends: paper_backends(),
            hashed: false,
            compare_size: 1_021,
            compare_backends: 10,
            virtual_nodes: 100,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Maglev {
    pub config: MaglevConfig,
    /// The backend whose offset and skip the controls edit.
    pub selected: usize,
    /// The backend that has left, if one has: the table is being built
    /// again without it.
    pub left: Option<usize>,
    /// Turns taken in the table being built.
    pub turns: usize,
    #[serde(skip)]
    memo: Memo<(u64, u32, u32), Comparison>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MaglevAction {
    /// The next backend's turn: it claims one entry.
    Claim,
    /// Every turn left, to a full table.
    Fill,
    /// Backend i leaves; the table is built again without it.
    Leave(usize),
    /// The backend that left comes back.
    Return,
    SetSize(u64),
    SetBackends(u32),
    /// Choose the backend whose offset and skip the controls edit.
    Select(usize),
    SetOffset(u64),
    SetSkip(u64),
    SetHashed(bool),
    SetCompareSize(u64),
    SetCompareBackends(u32),
    SetVirtualNodes(u32),
}

/// "3", "3 and 5", "3, 5 and 2".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

impl Maglev {
    /// M, as an index.
    pub fn size(&self) -> usize {
        self.config.size as usize
    }

    pub fn backends(&self) -> &[Backend] {
        &self.config.backends
    }

    pub fn name(&self, i: usize) -> &str {
        self.backends().get(i).map_or("?", |b| b.name.as_str())
    }

    /// The backends taking turns now, by their index in the full list.
    pub fn active(&self) -> Vec<usize> {
        (0..self.backends().len())
            .filter(|&i| Some(i) != self.left)
            .collect()
    }

    fn active_backends(&self) -> Vec<Backend> {
        self.active()
            .into_iter()
            .map(|i| self.backends()[i].clone())
            .collect()
    }

    /// The table being built, after the turns taken, and the last turn.
    /// Their backend indices count the active backends only.
    pub fn build(&self) -> (Build, Option<Turn>) {
        Build::after(self.size(), &self.active_backends(), self.turns)
    }

    /// Each entry's owner so far, by index in the full list.
    pub fn entries(&self) -> Vec<Option<usize>> {
        let active = self.active();
        self.build()
            .0
            .entry
            .iter()
            .map(|e| e.map(|k| active[k]))
            .collect()
    }

    /// The last turn, its backend by index in the full list.
    pub fn last_turn(&self) -> Option<Turn> {
        let active = self.active();
        self.build().1.map(|mut t| {
            t.backend = active[t.backend];
            t
        })
    }

    /// How far backend `i` has read down its list (`next[i]`); `None` for
    /// the backend that left.
    pub fn read_to(&self, i: usize) -> Option<usize> {
        let k = self.active().iter().position(|&a| a == i)?;
        self.build().0.next.get(k).copied()
    }

    /// Whose turn is next, by index in the full list.
    pub fn whose_turn(&self) -> Option<usize> {
        let active = self.active();
        self.build().0.whose_turn().map(|k| active[k])
    }

    pub fn full(&self) -> bool {
        self.turns >= self.size()
    }

    /// The round the next turn belongs to (or the last one, when full).
    pub fn round(&self) -> usize {
        let n = self.active().len().max(1);
        self.turns.min(self.size().saturating_sub(1)) / n + 1
    }

    /// The table with every backend, built to the end: the "before".
    pub fn original(&self) -> Vec<usize> {
        populate(self.size(), self.backends())
    }

    /// Entries each backend owns so far, by index in the full list.
    pub fn shares(&self) -> Vec<usize> {
        let mut out = vec![0; self.backends().len()];
        for owner in self.entries().into_iter().flatten() {
            out[owner] += 1;
        }
        out
    }

    /// Entries claimed again with a different owner than before the
    /// backend left: 0 while none has.
    pub fn moved_so_far(&self) -> usize {
        if self.left.is_none() {
            return 0;
        }
        let before = self.original();
        self.entries()
            .iter()
            .zip(&before)
            .filter(|(now, was)| now.is_some_and(|o| o != **was))
            .count()
    }

    /// Entries that change owner when backend `i` leaves, the table built
    /// to the end both times (0 for a lone backend or a wrong index).
    pub fn moved_when_leaves(&self, i: usize) -> usize {
        if self.backends().len() < 2 || i >= self.backends().len() {
            return 0;
        }
        moved(&self.original(), &without(self.size(), self.backends(), i))
    }

    /// The same with modulo hashing: entry k goes to backend k mod N.
    pub fn modulo_moved(&self, i: usize) -> usize {
        let n = self.backends().len();
        if n < 2 || i >= n {
            return 0;
        }
        moved(
            &modulo_table(self.size(), n),
            &modulo_without(self.size(), n, i),
        )
    }

    /// The small table as a hash ring would fill it: the backends' names
    /// at the large table's points per backend.
    pub fn ring_points(&self) -> Vec<ring::Point> {
        let names: Vec<String> = self.backends().iter().map(|b| b.name.clone()).collect();
        ring::points(&names, self.config.virtual_nodes as usize)
    }

    /// The same with a ring: only the leaving backend's entries move.
    pub fn ring_moved(&self, i: usize) -> usize {
        let pts = self.ring_points();
        let before = ring::table(&pts, self.size()).unwrap_or_default();
        let after = ring::table(&ring::without(&pts, i), self.size()).unwrap_or_default();
        if after.is_empty() {
            return 0;
        }
        moved(&before, &after)
    }

    /// Maglev, the ring and modulo hashing on the large table, kept so a
    /// redraw does not build it again.
    pub fn comparison(&self) -> Comparison {
        let c = &self.config;
        let key = (c.compare_size, c.compare_backends, c.virtual_nodes);
        self.memo.get(&key, || {
            compare(
                c.compare_size as usize,
                c.compare_backends as usize,
                c.virtual_nodes as usize,
            )
        })
    }

    fn restart(&mut self) {
        self.left = None;
        self.turns = 0;
        self.selected = self.selected.min(self.backends().len().saturating_sub(1));
    }

    /// The small table's settings become `next`, if valid; the table starts
    /// empty again.
    fn reconfigure(&mut self, next: MaglevConfig, said: String) -> Outcome {
        Maglev::validate(&next).map_err(Refusal::new)?;
        self.config = next;
        self.restart();
        let lists: Vec<String> = self
            .backends()
            .iter()
            .map(|b| format!("{} {}:{}", b.name, b.offset, b.skip))
            .collect();
        Ok(vec![Event::info(format!(
            "{said} The table starts empty again ({}, as offset:skip). Step gives the next backend its turn.",
            and_list(&lists)
        ))
        .at("table")])
    }

    /// The large table's settings become `next`, if valid.
    fn recompare(&mut self, next: MaglevConfig, said: String) -> Outcome {
        Maglev::validate(&next).map_err(Refusal::new)?;
        self.config = next;
        let c = self.comparison();
        Ok(vec![Event::info(format!(
            "{said} {}",
            comparison_sentence(&c)
        ))
        .at("compare")])
    }

    fn full_refusal(&self) -> Refusal {
        Refusal::new(format!(
            "The table is full: all {} entries are claimed. Let a backend leave, or change a setting, to build it again.",
            self.size()
        ))
    }

    fn claim(&mut self) -> Outcome {
        if self.full() {
            return Err(self.full_refusal());
        }
        let mut probe = self.clone();
        probe.turns += 1;
        let Some(t) = probe.last_turn() else {
            return Err(self.full_refusal());
        };
        *self = probe;
        let who = self.name(t.backend).to_string();
        let entries = self.entries();
        let mut text = format!("Round {}, {who}'s turn. ", t.round);
        if !t.passed.is_empty() {
            let taken: Vec<String> = t
                .passed
                .iter()
                .map(|&c| {
                    let owner = entries[c].map_or("?", |o| self.name(o));
                    format!("entry {c} ({owner}'s)")
                })
                .collect();
            text.push_str(&format!(
                "{} {} taken, so {who} reads on down its list. ",
                capitalised(&and_list(&taken)),
                if taken.len() == 1 { "is" } else { "are" }
            ));
        }
        text.push_str(&format!(
            "Entry {}, place {} in its list, is empty: {who} claims it.",
            t.claimed,
            t.position + 1
        ));
        if let Some(gone) = self.left {
            let was = self.original()[t.claimed];
            text.push_str(&if was == gone {
                format!(
                    " It was {}'s before {} left, so it had to move.",
                    self.name(gone),
                    self.name(gone)
                )
            } else if was == t.backend {
                format!(" {who} owned it before too.")
            } else {
                format!(
                    " Before, it was {}'s: it moved although {} is still here.",
                    self.name(was),
                    self.name(was)
                )
            });
        }
        let mut events = vec![Event::info(text)
            .at(format!("list-{}", t.backend))
            .at(format!("entry-{}", t.claimed))];
        if self.full() {
            events.push(self.full_event());
        }
        Ok(events)
    }

    /// What a full table says: each backend's share, and what moved.
    fn full_event(&self) -> Event {
        let shares = self.shares();
        let each: Vec<String> = self
            .active()
            .iter()
            .map(|&i| format!("{} {}", self.name(i), shares[i]))
            .collect();
        let mut text = format!(
            "The table is full after {} turns: {}.",
            self.size(),
            and_list(&each)
        );
        if let Some(gone) = self.left {
            let all = self.moved_so_far();
            let own = counts(&self.original(), self.backends().len())[gone];
            text.push_str(&format!(
                " {all} of {} entries changed owner: {}'s {own}, and {} more.",
                self.size(),
                self.name(gone),
                all - own
            ));
        }
        Event::done(text).at("table")
    }

    fn fill(&mut self) -> Outcome {
        if self.full() {
            return Err(self.full_refusal());
        }
        let left = self.size() - self.turns;
        self.turns = self.size();
        Ok(vec![
            Event::info(format!(
                "The backends take the {left} remaining turn{} in their order.",
                plural(left)
            )),
            self.full_event(),
        ])
    }

    fn leave(&mut self, i: usize) -> Outcome {
        let n = self.backends().len();
        if i >= n {
            return Err(Refusal::new(format!(
                "There is no backend {i}: there are {n}."
            )));
        }
        if n < 2 {
            return Err(Refusal::new(
                "The only backend cannot leave: nobody would take its entries.",
            ));
        }
        if self.left == Some(i) {
            return Err(Refusal::new(format!("{} has already left.", self.name(i))));
        }
        self.left = Some(i);
        self.turns = 0;
        let who = self.name(i).to_string();
        Ok(vec![Event::warn(format!(
            "{who} leaves. The others keep their offsets, skips and order, so their preference lists are the same; the table is built again from empty. Step to watch it fill: an entry whose owner changes is marked."
        ))
        .at(format!("list-{i}"))])
    }

    fn come_back(&mut self) -> Outcome {
        let Some(i) = self.left else {
            return Err(Refusal::new("Every backend is here already."));
        };
        self.left = None;
        self.turns = self.size();
        Ok(vec![Event::info(format!(
            "{} is back: with the same lists in the same order, the table is the original one again.",
            self.name(i)
        ))
        .at("table")])
    }

    /// A setting's unchanged value, refused.
    fn same(what: &str, value: impl std::fmt::Display) -> Refusal {
        Refusal::new(format!("The {what} is already {value}."))
    }

    fn set_size(&mut self, m: u64) -> Outcome {
        let m = SIZE.admit(m)?;
        if m == self.config.size {
            return Err(Self::same("table size", m));
        }
        let mut next = self.config.clone();
        next.size = m;
        for b in &mut next.backends {
            if next.hashed {
                *b = hashed(&b.name, m as usize);
            } else {
                // Only offset mod M matters (`preference`): the same start.
                b.offset %= m;
            }
        }
        self.reconfigure(next, format!("The table has {m} entries now."))
    }

    fn set_backends(&mut self, n: u32) -> Outcome {
        let n = BACKENDS.admit(n)? as usize;
        if n == self.backends().len() {
            return Err(Self::same("number of backends", n));
        }
        let mut next = self.config.clone();
        next.backends.truncate(n);
        while next.backends.len() < n {
            let name = (0..)
                .map(|k| format!("B{k}"))
                .find(|name| next.backends.iter().all(|b| &b.name != name))
                .unwrap_or_default();
            next.backends.push(hashed(&name, self.size()));
        }
        self.reconfigure(
            next,
            format!(
                "{n} backend{} now; a new one's offset and skip come from its name's hash.",
                plural(n)
            ),
        )
    }

    fn select(&mut self, i: usize) -> Outcome {
        if i >= self.backends().len() {
            return Err(Refusal::new(format!(
                "There is no backend {i}: there are {}.",
                self.backends().len()
            )));
        }
        if i == self.selected {
            return Err(Refusal::new(format!(
                "{} is selected already.",
                self.name(i)
            )));
        }
        self.selected = i;
        let b = &self.backends()[i];
        Ok(vec![Event::info(format!(
            "{}: offset {}, skip {}. Its list starts at entry {} and steps by {}.",
            b.name,
            b.offset,
            b.skip,
            super::preference(b, self.size(), 0),
            b.skip
        ))
        .at(format!("list-{i}"))])
    }

    fn hashed_refusal() -> Refusal {
        Refusal::new(
            "Offsets and skips come from the names' hashes now: switch hashing off to set them by hand.",
        )
    }

    fn set_offset(&mut self, v: u64) -> Outcome {
        if self.config.hashed {
            return Err(Self::hashed_refusal());
        }
        let top = self.config.size - 1;
        if v > top {
            return Err(Refusal::new(format!(
                "An offset is 0 to {top} (M − 1); {v} is out of range."
            )));
        }
        let i = self.selected;
        if self.backends()[i].offset == v {
            return Err(Self::same(&format!("offset of {}", self.name(i)), v));
        }
        let mut next = self.config.clone();
        next.backends[i].offset = v;
        let who = self.name(i).to_string();
        self.reconfigure(next, format!("{who}'s list starts at entry {v} now."))
    }

    fn set_skip(&mut self, v: u64) -> Outcome {
        if self.config.hashed {
            return Err(Self::hashed_refusal());
        }
        let i = self.selected;
        if self.backends()[i].skip == v {
            return Err(Self::same(&format!("skip of {}", self.name(i)), v));
        }
        let mut next = self.config.clone();
        next.backends[i].skip = v;
        let who = self.name(i).to_string();
        self.reconfigure(next, format!("{who}'s list steps by {v} now."))
    }

    fn set_hashed(&mut self, on: bool) -> Outcome {
        if on == self.config.hashed {
            return Err(Refusal::new(if on {
                "Offsets and skips come from the names' hashes already."
            } else {
                "Offsets and skips are set by hand already."
            }));
        }
        let mut next = self.config.clone();
        next.hashed = on;
        if on {
            next.backends = next
                .backends
                .iter()
                .map(|b| hashed(&b.name, self.size()))
                .collect();
        }
        self.reconfigure(
            next,
            if on {
                format!(
                    "Each offset is now h1(name) mod {m} and each skip h2(name) mod {} + 1, with SipHash-2-4 under two fixed keys as h1 and h2 (our choice: the paper does not name its hashes).",
                    self.config.size - 1,
                    m = self.config.size
                )
            } else {
                "Offsets and skips are set by hand now; they keep their hashed values until you change them.".to_string()
            },
        )
    }

    fn set_compare_size(&mut self, m: u64) -> Outcome {
        let m = COMPARE_SIZE.admit(m)?;
        if m == self.config.compare_size {
            return Err(Self::same("large table's size", grouped(m as i64)));
        }
        let mut next = self.config.clone();
        next.compare_size = m;
        self.recompare(
            next,
            format!("The large table has {} entries now.", grouped(m as i64)),
        )
    }

    fn set_compare_backends(&mut self, n: u32) -> Outcome {
        let n = COMPARE_BACKENDS.admit(n)?;
        if n == self.config.compare_backends {
            return Err(Self::same("number of backends on the large table", n));
        }
        let mut next = self.config.clone();
        next.compare_backends = n;
        self.recompare(next, format!("{n} backends share the large table now."))
    }

    fn set_virtual_nodes(&mut self, v: u32) -> Outcome {
        let v = VIRTUAL_NODES.admit(v)?;
        if v == self.config.virtual_nodes {
            return Err(Self::same("number of ring points per backend", v));
        }
        let mut next = self.config.clone();
        next.virtual_nodes = v;
        self.recompare(
            next,
            format!(
                "Each backend has {v} point{} on the ring now.",
                plural(v as usize)
            ),
        )
    }
}

/// The comparison in one or two sentences.
pub fn comparison_sentence(c: &Comparison) -> String {
    let spread = |s: &super::compare::Scheme| match s.spread_percent() {
        Some(p) => format!("{} % apart", decimal(p, 2)),
        None => "some get none".to_string(),
    };
    format!(
        "On {} entries and {} backends, Maglev gives each {} to {} entries ({}); the ring with {} point{} a backend gives {} to {} ({}). When b0 leaves, Maglev moves {} entries, the ring {} and modulo hashing {}.",
        grouped(c.size as i64),
        c.backends,
        grouped(c.maglev.fewest as i64),
        grouped(c.maglev.most as i64),
        spread(&c.maglev),
        c.virtual_nodes,
        plural(c.virtual_nodes),
        grouped(c.ring.fewest as i64),
        grouped(c.ring.most as i64),
        spread(&c.ring),
        grouped(c.maglev.moved as i64),
        grouped(c.ring.moved as i64),
        grouped(c.modulo.moved as i64)
    )
}

impl Model for Maglev {
    type Config = MaglevConfig;
    type Action = MaglevAction;

    /// The engine's own check of the table ([`check`]: a prime size, skips
    /// from 1 to M − 1), with the reason a size is not prime spelled out,
    /// and the demo's bounds.
    fn validate(c: &MaglevConfig) -> Result<(), String> {
        SIZE.check(c.size)?;
        if let Some(why) = not_prime(c.size, &c.backends) {
            return Err(why);
        }
        BACKENDS.check(u32::try_from(c.backends.len()).unwrap_or(u32::MAX))?;
        for (i, b) in c.backends.iter().enumerate() {
            let chars = b.name.chars().count();
            if chars == 0
                || chars > NAME_CHARS
                || !b.name.chars().all(|ch| ch.is_ascii_alphanumeric())
            {
                return Err(format!(
                    "Backend {}'s name must be 1 to {NAME_CHARS} letters or digits.",
                    i + 1
                ));
            }
            if b.offset >= c.size {
                return Err(format!(
                    "{}'s offset must be from 0 to {} (M − 1); it is {}.",
                    b.name,
                    c.size - 1,
                    b.offset
                ));
            }
            if c.backends[..i].iter().any(|o| o.name == b.name) {
                return Err(format!("Two backends are named {}.", b.name));
            }
        }
        check(c.size as usize, &c.backends).map_err(|e| capitalised(&e))?;
        if c.hashed {
            if let Some(b) = c
                .backends
                .iter()
                .find(|b| **b != hashed(&b.name, c.size as usize))
            {
                return Err(format!(
                    "With hashing on, {}'s offset and skip must be its name's hashes.",
                    b.name
                ));
            }
        }
        COMPARE_SIZE.check(c.compare_size)?;
        if let Some(why) = not_prime(c.compare_size, &[]) {
            return Err(why);
        }
        COMPARE_BACKENDS.check(c.compare_backends)?;
        VIRTUAL_NODES.check(c.virtual_nodes)?;
        Ok(())
    }

    fn new(c: &MaglevConfig) -> Self {
        Maglev {
            config: c.clone(),
            selected: 0,
            left: None,
            turns: 0,
            memo: Memo::default(),
        }
    }

    fn intro(&self) -> Event {
        let lists: Vec<String> = self
            .backends()
            .iter()
            .map(|b| format!("{} {}:{}", b.name, b.offset, b.skip))
            .collect();
        Event::info(format!(
            "A lookup table of {} entries and {} backends ({}, as offset:skip). Each backend prefers the entries offset, offset + skip, offset + 2·skip, … mod {}. Step gives the next backend its turn.",
            self.size(),
            self.backends().len(),
            and_list(&lists),
            self.size()
        ))
    }

    fn apply(&mut self, action: &MaglevAction) -> Outcome {
        match *action {
            MaglevAction::Claim => self.claim(),
            MaglevAction::Fill => self.fill(),
            MaglevAction::Leave(i) => self.leave(i),
            MaglevAction::Return => self.come_back(),
            MaglevAction::SetSize(m) => self.set_size(m),
            MaglevAction::SetBackends(n) => self.set_backends(n),
            MaglevAction::Select(i) => self.select(i),
            MaglevAction::SetOffset(v) => self.set_offset(v),
            MaglevAction::SetSkip(v) => self.set_skip(v),
            MaglevAction::SetHashed(on) => self.set_hashed(on),
            MaglevAction::SetCompareSize(m) => self.set_compare_size(m),
            MaglevAction::SetCompareBackends(n) => self.set_compare_backends(n),
            MaglevAction::SetVirtualNodes(v) => self.set_virtual_nodes(v),
        }
    }

    fn next_auto(&self) -> Result<MaglevAction, Refusal> {
        if self.full() {
            Err(self.full_refusal())
        } else {
            Ok(MaglevAction::Claim)
        }
    }

    fn check(&self) -> Result<(), String> {
        Self::validate(&self.config)?;
        let n = self.backends().len();
        if self.selected >= n {
            return Err("the selected backend does not exist".into());
        }
        if let Some(i) = self.left {
            if i >= n || n < 2 {
                return Err("the backend that left does not exist, or was the only one".into());
            }
        }
        if self.turns > self.size() {
            return Err("more turns than entries".into());
        }
        let (build, _) = self.build();
        if build.turns != self.turns {
            return Err("a turn found no empty entry".into());
        }
        let claimed = build.entry.iter().filter(|e| e.is_some()).count();
        if claimed != self.turns {
            return Err("a turn did not claim exactly one entry".into());
        }
        // §3.4: "Each backend will take either ⌊M/N⌋ or ⌈M/N⌉ entries".
        let shares = self.shares();
        let active: Vec<usize> = self.active().iter().map(|&i| shares[i]).collect();
        let (lo, hi) = (
            active.iter().min().copied().unwrap_or(0),
            active.iter().max().copied().unwrap_or(0),
        );
        if hi - lo > 1 {
            return Err("two backends' shares differ by more than one entry".into());
        }
        if let Some(i) = self.left {
            if shares[i] != 0 {
                return Err("the backend that left still owns entries".into());
            }
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        let shares = self.shares();
        let each: Vec<String> = self
            .active()
            .iter()
            .map(|&i| format!("{} {}", self.name(i), shares[i]))
            .collect();
        let mut out = vec![
            Figure::new(
                "claimed",
                "entries claimed",
                format!("{}/{}", self.turns, self.size()),
            ),
            Figure::new("round", "round", self.round()),
            Figure::new("shares", "entries each", each.join(" · ")),
        ];
        if self.left.is_some() {
            out.push(Figure::new(
                "moved",
                "changed owner so far",
                self.moved_so_far(),
            ));
        }
        let c = self.comparison();
        out.push(Figure::new(
            "large-maglev",
            "large table, Maglev: most ÷ mean",
            decimal(c.maglev.most_over_mean(c.size, c.backends), 3),
        ));
        out.push(Figure::new(
            "large-ring",
            "large table, ring: most ÷ mean",
            decimal(c.ring.most_over_mean(c.size, c.backends), 3),
        ));
        out
    }

    fn why(&self) -> Vec<String> {
        let m = self.size();
        let n = self.active().len().max(1);
        let mut out = vec![
            format!(
                "Each backend's preference list is offset, offset + skip, offset + 2·skip, … mod {m}. With {m} prime, every skip from 1 to {} shares no factor with it, so every list names all {m} entries once.",
                m.saturating_sub(1)
            ),
            format!(
                "Every turn claims one entry and the backends take turns, so each of the {n} owns ⌊{m}/{n}⌋ = {} or ⌈{m}/{n}⌉ = {} entries: the table is as even as {m} entries allow.",
                m / n,
                m.div_ceil(n)
            ),
        ];
        match self.left {
            Some(gone) => {
                let all = self.moved_when_leaves(gone);
                let own = counts(&self.original(), self.backends().len())[gone];
                out.push(format!(
                    "When {} leaves, {all} of {m} entries change owner: its own {own}, and {} more, because the turns of the others fall differently once it is gone. Modulo hashing (entry k to backend k mod N) moves {} of {m}; a hash ring moves only {}'s {}.",
                    self.name(gone),
                    all - own,
                    self.modulo_moved(gone),
                    self.name(gone),
                    self.ring_moved(gone)
                ));
            }
            None => out.push(
                "Let a backend leave to see which entries change owner, against modulo hashing and a hash ring."
                    .to_string(),
            ),
        }
        let c = self.comparison();
        let ratio = c.size as f64 / c.backends as f64;
        out.push(format!(
            "{} Here M/N is {}: the paper chooses M larger than 100 × N \"to ensure at most a 1% difference in hash space assigned to backends\" (§3.4), {} here.",
            comparison_sentence(&c),
            decimal(ratio, 1),
            if c.size > 100 * c.backends {
                "which holds"
            } else {
                "which does not hold"
            }
        ));
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: backend weights (the paper changes how often a backend takes a turn and gives no details), connection tracking (Maglev's first defence: a connection it has seen keeps its backend whatever the table says), the 5-tuple hash that picks an entry (each entry stands for an equal share of connections), several backends failing at once (the paper's Figure 12), and rendezvous hashing, the paper's other comparison. The hashes are ours: SipHash-2-4 under two fixed keys."
    }
}
