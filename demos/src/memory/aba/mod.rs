//! The ABA problem: a Treiber stack A → B → C (with D spare on the free list)
//! and two threads, each popping and pushing in micro-steps the learner
//! schedules.
//!
//! The classic interleaving: T1 reads head = A and A.next = B, then stalls;
//! T2 pops A, pops B, then reuses A from the free list for a push, so A is on
//! top again with C behind it; T1's CAS(head, A, B) succeeds because head is A, and
//! installs B, a node already freed, as head. The next pop frees B twice; had
//! T2 pushed another node behind A, that node would be lost.
//!
//! Fixes: a tagged head (the stale CAS fails on the version) and deferred
//! reclamation by hazard pointers (A cannot be reused while T1 holds it).
//! Rules are cited in `stack.rs`.
//!
//! Break it ([`AbaAction::Unprotect`], [`Aba::reuse`]): the unprotected
//! stack, a bare head pointer compared by CAS, is the one IBM's System/370
//! Principles of Operation warns about (GA22-7000-4, 1975, appendix,
//! "Free-Pool-List Manipulation": a remover interrupted between fetching
//! the first element's pointer and the CS finds A and C at the top, and its
//! CS stores B into the header, "destroying the list"; the remedy there is a
//! counter beside the header, updated by CDS). Treiber's stack (IBM Research
//! Report RJ 5118, 1986) is that list as a stack; Michael, "Hazard
//! Pointers", IEEE TPDS 15(6), 2004, prevents the reuse instead; Dechev,
//! Pirkelbauer and Stroustrup, "Understanding and Effectively Preventing the
//! ABA Problem in Descriptor-based Lock-free Designs", ISORC 2010,
//! pp. 185–192, analyse when ABA arises and compare these remedies.

mod audit;
mod stack;
#[cfg(test)]
mod tests;

use crate::model::{Event, Figure, Model, Outcome, Refusal};
pub use audit::Damage;
use serde::{Deserialize, Serialize};
pub use stack::Next;

pub const NODES: usize = 4;
pub const THREADS: usize = 2;

/// A node's letter: 0 → 'A'.
pub fn name(n: u8) -> char {
    char::from(b'A' + n)
}

/// A pointer as text: a node's letter or "null".
pub fn ptr(p: Option<u8>) -> String {
    p.map_or("null".to_string(), |n| name(n).to_string())
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbaConfig {
    /// Head carries a version counter.
    pub tagged: bool,
    /// Popped nodes wait for hazard pointers before reuse.
    pub deferred: bool,
}

/// Where the algorithm and the allocator believe a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Home {
    /// Pushed and not popped: should be reachable from head.
    Linked,
    /// On the free list, ready for reuse.
    Free,
    /// Popped; waits until no hazard pointer holds it (deferred reclamation).
    Retired,
    /// Taken off the free list by this thread's push, not yet linked.
    Pushing(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    pub next: Option<u8>,
    pub home: Home,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Task {
    #[default]
    Idle,
    Pop,
    Push(u8),
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Worker {
    pub task: Task,
    pub next_step: Next,
    /// Head as this thread last read it, and its tag.
    pub seen: Option<u8>,
    pub seen_tag: u32,
    /// Pop: the `next` read from the node it saw at head.
    pub next: Option<u8>,
    pub hazard: Option<u8>,
    pub retries: u32,
    /// Operations completed.
    pub done: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AbaAction {
    /// This thread starts a pop (and reads head).
    Pop(usize),
    /// This thread takes the node off the free list and starts pushing it.
    Push(usize, u8),
    /// This thread takes its next micro-step.
    Step(usize),
    /// Turn the tagged-pointer fix on or off (the stack starts over).
    SetTagged(bool),
    /// Turn hazard-pointer reclamation on or off (the stack starts over).
    SetDeferred(bool),
    /// Break it: start over with the unprotected stack (both fixes off, the
    /// head a bare pointer), with Step at the start of the classic run.
    Unprotect,
}

/// The classic interleaving, T1 = thread 0 and T2 = thread 1.
pub const CLASSIC: [AbaAction; 11] = [
    AbaAction::Pop(0),
    AbaAction::Step(0),
    AbaAction::Pop(1),
    AbaAction::Step(1),
    AbaAction::Step(1),
    AbaAction::Pop(1),
    AbaAction::Step(1),
    AbaAction::Step(1),
    AbaAction::Push(1, 0),
    AbaAction::Step(1),
    AbaAction::Step(0),
];

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Aba {
    pub tagged: bool,
    pub deferred: bool,
    pub nodes: Vec<Node>,
    pub head: Option<u8>,
    /// Version counter paired with head (tagged mode only).
    pub tag: u32,
    /// The free list, most recently freed last.
    pub free: Vec<u8>,
    /// Popped nodes awaiting reclamation (deferred mode only).
    pub retired: Vec<u8>,
    pub workers: Vec<Worker>,
    /// Every kind of damage found so far, in order.
    pub damage: Vec<Damage>,
    /// Position in [`CLASSIC`] while the learner's actions follow it.
    pub script: Option<usize>,
}

impl Aba {
    pub fn corrupted(&self) -> bool {
        !self.damage.is_empty()
    }

    fn worker(&self, t: usize) -> Result<&Worker, Refusal> {
        self.workers
            .get(t)
            .ok_or_else(|| Refusal::new("There are two threads, T1 and T2."))
    }

    fn start(&mut self, t: usize, task: Task) -> Outcome {
        if self.worker(t)?.task != Task::Idle {
            return Err(Refusal::new(format!(
                "T{} is in the middle of an operation: Step it to the end first.",
                t + 1
            )));
        }
        let mut events = Vec::new();
        if let Task::Push(n) = task {
            let node = self.nodes.get(usize::from(n)).ok_or_else(|| {
                Refusal::new(format!("The nodes are A to {}.", name(NODES as u8 - 1)))
            })?;
            if node.home != Home::Free {
                let holder = self.workers.iter().position(|w| w.hazard == Some(n));
                return Err(Refusal::new(match (node.home, holder) {
                    (Home::Retired, Some(h)) => format!(
                        "{} is retired and T{}'s hazard pointer still holds it, so it cannot be reused yet.",
                        name(n),
                        h + 1
                    ),
                    _ => format!("{} is not on the free list: only free nodes can be pushed.", name(n)),
                }));
            }
            self.free.retain(|&f| f != n);
            self.nodes[usize::from(n)].home = Home::Pushing(t as u8);
            events.push(
                Event::info(format!(
                    "T{} takes {} off the free list to push it.",
                    t + 1,
                    name(n)
                ))
                .at(format!("node-{n}")),
            );
        }
        self.workers[t] = Worker {
            task,
            retries: self.workers[t].retries,
            done: self.workers[t].done,
            ..Worker::default()
        };
        events.extend(self.read_head(t));
        Ok(events)
    }

    fn step(&mut self, t: usize) -> Outcome {
        let w = *self.worker(t)?;
        if w.task == Task::Idle {
            return Err(Refusal::new(format!(
                "T{} is idle: start a pop or a push on it.",
                t + 1
            )));
        }
        Ok(match w.next_step {
            Next::ReadHead => self.read_head(t),
            Next::ReadNext => self.read_next(t),
            Next::Cas => self.cas(t),
        })
    }

    fn set_fix(&mut self, tagged: bool, deferred: bool) -> Outcome {
        if (tagged, deferred) == (self.tagged, self.deferred) {
            return Err(Refusal::new("That fix is already set that way."));
        }
        *self = Aba::new(&AbaConfig { tagged, deferred });
        Ok(vec![Event::info(format!(
            "The stack starts over as A → B → C with {}.",
            self.fix_label()
        ))
        .at("fix")])
    }

    /// Break it: the unprotected stack, started over. Raw CAS is also the
    /// default, so from a fresh raw stack there is nothing to break.
    fn unprotect(&mut self) -> Outcome {
        let fresh = Aba::new(&AbaConfig::default());
        let ahead = fresh.damage_ahead();
        let reach = ahead.map_or(String::new(), |(n, d)| {
            format!(
                " {n} Step{} reach the damage: {}.",
                crate::text::plural(n),
                d.phrase()
            )
        });
        if *self == fresh {
            return Err(Refusal::new(format!(
                "The stack is already unprotected, its default, and untouched: Step plays the classic interleaving.{reach}"
            )));
        }
        *self = fresh;
        Ok(vec![
            Event::warn(
                "The stack starts over unprotected: head is a bare pointer that CAS compares alone, with no tag, and a popped node is freed at once, with no hazard pointer to hold it.",
            )
            .at("fix")
            .at("head"),
            Event::info(format!(
                "Step now plays the classic interleaving from its start.{reach}"
            )),
        ])
    }

    /// What Step leads to from here: how many Steps until the first damage
    /// not yet on record, and that damage; `None` if Step reaches none
    /// (a fix holds, or Step runs out of moves first).
    pub fn damage_ahead(&self) -> Option<(usize, Damage)> {
        let mut m = self.clone();
        // A generous bound: twice the classic run, and once that is over
        // Step only finishes the operations in flight (a few steps each).
        for n in 1..=2 * CLASSIC.len() + 3 * THREADS {
            let action = m.next_auto().ok()?;
            m.apply(&action).ok()?;
            if let Some(&d) = m.damage.get(self.damage.len()) {
                return Some((n, d));
            }
        }
        None
    }

    /// The move that makes ABA: a pop waits to CAS head from node `n` to
    /// the `next` it read, `n` has left the stack, and head has moved past
    /// that `next`. Pushing `n` back makes head `n` again, so (untagged)
    /// the stale CAS succeeds and installs the old `next`. Returns the idle
    /// thread that would push, the thread whose pop holds `n`, and `n`.
    pub fn reuse(&self) -> Option<(usize, usize, u8)> {
        let idle = self.workers.iter().position(|w| w.task == Task::Idle)?;
        self.workers.iter().enumerate().find_map(|(holder, w)| {
            let n = w.seen?;
            let gone = matches!(self.nodes[usize::from(n)].home, Home::Free | Home::Retired);
            let stale = w.task == Task::Pop && w.next_step == Next::Cas && w.next != self.head;
            (gone && stale).then_some((idle, holder, n))
        })
    }

    pub fn fix_label(&self) -> &'static str {
        match (self.tagged, self.deferred) {
            (false, false) => "raw CAS",
            (true, false) => "a tagged head",
            (false, true) => "hazard pointers",
            (true, true) => "a tagged head and hazard pointers",
        }
    }
}

impl Model for Aba {
    type Config = AbaConfig;
    type Action = AbaAction;

    fn validate(_: &AbaConfig) -> Result<(), String> {
        Ok(())
    }

    fn new(config: &AbaConfig) -> Self {
        let linked = |next| Node {
            next,
            home: Home::Linked,
        };
        Aba {
            tagged: config.tagged,
            deferred: config.deferred,
            nodes: vec![
                linked(Some(1)),
                linked(Some(2)),
                linked(None),
                Node {
                    next: None,
                    home: Home::Free,
                },
            ],
            head: Some(0),
            tag: 0,
            free: vec![3],
            retired: Vec::new(),
            workers: vec![Worker::default(); THREADS],
            damage: Vec::new(),
            script: Some(0),
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "A Treiber stack A → B → C, D on the free list, two threads, {}. Step plays the classic interleaving, or schedule your own.",
            self.fix_label()
        ))
    }

    fn apply(&mut self, action: &AbaAction) -> Outcome {
        let mut events = match *action {
            AbaAction::Pop(t) => self.start(t, Task::Pop),
            AbaAction::Push(t, n) => self.start(t, Task::Push(n)),
            AbaAction::Step(t) => self.step(t),
            AbaAction::SetTagged(on) => self.set_fix(on, self.deferred),
            AbaAction::SetDeferred(on) => self.set_fix(self.tagged, on),
            AbaAction::Unprotect => self.unprotect(),
        }?;
        for d in self.audit() {
            self.damage.push(d);
            events.push(Event::fault(d.sentence()).at("head"));
        }
        self.script = match self.script {
            Some(i) if CLASSIC.get(i) == Some(action) => Some(i + 1),
            Some(_)
                if matches!(
                    action,
                    AbaAction::SetTagged(_) | AbaAction::SetDeferred(_) | AbaAction::Unprotect
                ) =>
            {
                Some(0)
            }
            _ => None,
        };
        Ok(events)
    }

    fn next_auto(&self) -> Result<AbaAction, Refusal> {
        if let Some(&action) = self.script.and_then(|i| CLASSIC.get(i)) {
            if self.clone().apply(&action).is_ok() {
                return Ok(action);
            }
        }
        self.workers
            .iter()
            .position(|w| w.task != Task::Idle)
            .map(AbaAction::Step)
            .ok_or_else(|| Refusal::new("Both threads are idle: start a pop or a push."))
    }

    fn check(&self) -> Result<(), String> {
        for (i, node) in self.nodes.iter().enumerate() {
            let n = i as u8;
            let on_free = self.free.iter().filter(|&&f| f == n).count();
            let retired = self.retired.iter().filter(|&&r| r == n).count();
            // Once a node is named in the damage (freed twice, freed while
            // reachable...), the free list and the stack really do disagree
            // about it: that is the corruption the demo shows, not a bug.
            let damaged = self.damage.iter().any(|d| {
                matches!(d, Damage::FreedReachable(x) | Damage::Lost(x)
                    | Damage::Cycle(x) | Damage::DoubleFree(x) if *x == n)
            });
            if !damaged
                && (on_free != usize::from(node.home == Home::Free)
                    || retired != usize::from(node.home == Home::Retired))
            {
                return Err(format!("{} is on the wrong list for its state", name(n)));
            }
            if let Home::Pushing(t) = node.home {
                if self.workers[usize::from(t)].task != Task::Push(n) {
                    return Err(format!("{} is held by a push that is not running", name(n)));
                }
            }
        }
        if (self.tagged || self.deferred) && self.corrupted() {
            let first = self.damage[0].sentence();
            return Err(format!("corrupted despite the fix. {first}"));
        }
        if !self.audit().is_empty() {
            return Err("damage went unrecorded".into());
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        let (reachable, cycle) = self.walk();
        let mut stack: Vec<String> = reachable.iter().map(|&n| name(n).to_string()).collect();
        if let Some(n) = cycle {
            stack.push(format!("{} …", name(n)));
        }
        let list = |v: &[u8]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.iter()
                    .map(|&n| name(n).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        let worker = |w: &Worker| match w.task {
            Task::Idle => "idle".to_string(),
            Task::Pop => format!(
                "pop: saw {}, next {}, then {}",
                ptr(w.seen),
                if w.next_step == Next::Cas {
                    ptr(w.next)
                } else {
                    "?".to_string()
                },
                step_label(w.next_step)
            ),
            Task::Push(n) => format!(
                "push {}: saw {}, then {}",
                name(n),
                ptr(w.seen),
                step_label(w.next_step)
            ),
        };
        vec![
            Figure::new("fix", "fix", self.fix_label()),
            Figure::new(
                "head",
                "head",
                if self.tagged {
                    format!("{} (tag {})", ptr(self.head), self.tag)
                } else {
                    ptr(self.head)
                },
            ),
            Figure::new(
                "stack",
                "stack",
                if stack.is_empty() {
                    "empty".into()
                } else {
                    stack.join(" → ")
                },
            ),
            Figure::new("free", "free list", list(&self.free)),
            Figure::new("retired", "retired", list(&self.retired)),
            Figure::new("t1", "T1", worker(&self.workers[0])),
            Figure::new("t2", "T2", worker(&self.workers[1])),
            Figure::new(
                "retries",
                "failed CAS",
                self.workers.iter().map(|w| w.retries).sum::<u32>(),
            ),
            Figure::new(
                "damage",
                "damage",
                if self.corrupted() {
                    "corrupted"
                } else {
                    "none"
                },
            ),
        ]
    }

    fn why(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.corrupted() {
            out.push(format!(
                "The stale CAS compared only the pointer: head was A again, so it succeeded, though A had left the stack and come back with a different next. {} problem{} followed.",
                self.damage.len(),
                crate::text::plural(self.damage.len())
            ));
        }
        out.push(match (self.tagged, self.deferred) {
            (false, false) => "A CAS checks that head holds the same address, not that nothing happened: a node freed and reused at the same address passes the check.".to_string(),
            (true, _) => "With a tag, every successful CAS bumps the version, so a head that went A → B → A carries a new number and the stale CAS fails. Here the tag is a whole word beside the pointer, compared by one double-width CAS (x86-64 CMPXCHG16B).".to_string(),
            (false, true) => "With hazard pointers, a node a thread is about to use cannot be freed, so it cannot be pushed back while that thread's CAS is pending.".to_string(),
        });
        out
    }

    fn leaves_out() -> &'static str {
        // Tag width: packed into a pointer's unused bits (16 above x86-64's
        // 48-bit canonical addresses) a tag is a few bits and wraps soon;
        // beside the pointer in a double-width CAS (Intel SDM vol. 2A
        // CMPXCHG16B; Arm CASP) it is a full 64-bit word.
        "Leaves out: tag wrap-around (a tag packed into a pointer's spare bits, such as the 16 above a 48-bit x86-64 address, is that small and can repeat; beside the pointer in a double-width CAS, x86-64 CMPXCHG16B or Arm CASP, it is a whole 64-bit word), the re-check of head after publishing a hazard pointer (done here in the same step), memory ordering, and epoch-based reclamation."
    }
}

fn step_label(next: Next) -> &'static str {
    match next {
        Next::ReadHead => "read head",
        Next::ReadNext => "read next",
        Next::Cas => "CAS",
    }
}
