//! RCU grace period: an RCU-protected list `head → first → X → last`
//! whose middle element X the updater replaces with a new version (A, then
//! B, …); readers on several CPUs enter and leave read-side critical
//! sections and walk the list one `rcu_dereference()` at a time.
//!
//! Source: Linux `Documentation/RCU/whatisRCU.rst`. §1: an update is removal
//! (readers may keep the old version) then reclamation, which must wait for
//! every reader that might hold the old version. §2: rcu_read_lock() /
//! rcu_read_unlock() delimit a critical section; rcu_dereference() fetches
//! the pointer, valid only inside that critical section; rcu_assign_pointer()
//! publishes (a store-release); synchronize_rcu() blocks until all
//! pre-existing critical sections have completed, not later ones; call_rcu()
//! (§4) registers a callback invoked after such a grace period, and the
//! updater continues at once. Grace-period rules are in `grace.rs`.
//!
//! The replacement is `list_replace_rcu()` (include/linux/rculist.h): the
//! new node takes the old one's `next`, is published into its predecessor's
//! `next` with rcu_assign_pointer(), and the old node's own `next` is left
//! alone, so a reader standing on the old node can still walk on to `last`.
//!
//! Break it: free the old node at once. A reader that fetched it before the
//! update and uses it afterwards reads freed memory; the model detects it.

mod grace;
mod history;
#[cfg(test)]
mod tests;

use crate::bound::Bound;
use crate::model::{Event, Figure, Model, Outcome, Refusal};
pub use grace::{GracePeriod, Waiter};
pub use history::{History, Mark, Section, Span, KEPT};
use serde::{Deserialize, Serialize};

/// Reader CPUs.
pub const READERS: Bound<usize> = Bound::new("number of reader CPUs", "", 2, 4);
/// Nodes A to F: the first and up to five replacements.
pub const NODES_MAX: usize = 6;

/// "A" for node 0.
pub fn node_name(n: u8) -> char {
    char::from(b'A' + n)
}

/// Reader CPUs are numbered from 1: the updater runs on CPU 0.
pub fn reader_name(r: usize) -> String {
    format!("CPU {}", r + 1)
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RcuConfig {
    /// Reader CPUs.
    pub readers: usize,
}

impl Default for RcuConfig {
    fn default() -> Self {
        RcuConfig { readers: 3 }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NodeState {
    /// The version `first->next` points to.
    Live,
    /// Replaced: no longer reachable from head, but readers may still hold it.
    Unlinked,
    Freed,
}

/// Where a reader's pointer `p` stands in the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Place {
    /// The first element, which never changes.
    First,
    /// A version of the middle element (0 = A).
    Node(u8),
    /// The last element, which never changes.
    Last,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reader {
    pub in_cs: bool,
    /// The pointer the last rcu_dereference() of this critical section returned.
    pub at: Option<Place>,
    /// Reads of a version's data in this critical section.
    pub uses: u32,
}

impl Reader {
    /// The version of the middle element this reader's pointer is on.
    pub fn held(&self) -> Option<u8> {
        match self.at {
            Some(Place::Node(n)) => Some(n),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Updater {
    Idle,
    /// Published a replacement; the old node still has to be reclaimed.
    Published {
        old: u8,
    },
    /// Blocked in synchronize_rcu().
    Waiting {
        old: u8,
    },
}

/// A reader used a node after it was freed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UseAfterFree {
    pub reader: usize,
    pub node: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RcuAction {
    /// rcu_read_lock() on a reader CPU.
    Lock(usize),
    /// Walk one step: p = rcu_dereference(head), or p = rcu_dereference(p->next).
    Deref(usize),
    /// Read p->data.
    Use(usize),
    /// rcu_read_unlock().
    Unlock(usize),
    /// Copy the middle node, update the copy, rcu_assign_pointer(first->next, copy).
    Publish,
    /// Break it: kfree(old) at once.
    FreeNow,
    /// synchronize_rcu(); kfree(old).
    Synchronize,
    /// call_rcu(old, free): the updater continues.
    CallRcu,
}

/// The story Step plays: CPU 1 walks to A; CPU 3 enters and stands on
/// `first`; the updater publishes B and enters synchronize_rcu(), which waits
/// for both; CPU 3 walks on and finds B; CPU 2 begins afterwards and finds B;
/// CPU 1 reads A, still intact, and walks on to `last`; A is freed once CPU 1
/// and CPU 3 have left, while CPU 2 is still reading B, and that is fine.
pub const STORY: [RcuAction; 16] = [
    RcuAction::Lock(0),
    RcuAction::Deref(0),
    RcuAction::Deref(0),
    RcuAction::Lock(2),
    RcuAction::Deref(2),
    RcuAction::Publish,
    RcuAction::Synchronize,
    RcuAction::Deref(2),
    RcuAction::Lock(1),
    RcuAction::Deref(1),
    RcuAction::Deref(1),
    RcuAction::Use(0),
    RcuAction::Deref(0),
    RcuAction::Unlock(0),
    RcuAction::Unlock(2),
    RcuAction::Use(1),
];

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rcu {
    /// States of the middle element's versions; version 0 is A.
    pub nodes: Vec<NodeState>,
    /// The version `first->next` points to (the live one).
    pub linked: u8,
    pub readers: Vec<Reader>,
    pub updater: Updater,
    /// Grace periods in progress.
    pub grace: Vec<GracePeriod>,
    pub damage: Vec<UseAfterFree>,
    /// Some old node was freed without a grace period.
    pub freed_early: bool,
    /// Position in [`STORY`] while the learner follows it.
    pub story: Option<usize>,
    /// Critical sections, grace periods, publications and frees over time.
    pub history: History,
}

impl Rcu {
    fn reader(&self, r: usize) -> Result<Reader, Refusal> {
        self.readers.get(r).copied().ok_or_else(|| {
            Refusal::new(format!(
                "The reader CPUs are CPU 1 to CPU {}.",
                self.readers.len()
            ))
        })
    }

    fn pending_old(&self) -> Result<u8, Refusal> {
        match self.updater {
            Updater::Published { old } => Ok(old),
            Updater::Waiting { .. } => Err(Refusal::new(
                "The updater is blocked in synchronize_rcu() until the grace period ends.",
            )),
            Updater::Idle => Err(Refusal::new(
                "There is no old node to reclaim: publish an update first.",
            )),
        }
    }

    fn reader_action(&mut self, action: RcuAction, r: usize) -> Outcome {
        let reader = self.reader(r)?;
        let cpu = reader_name(r);
        let at = format!("reader-{r}");
        let event = match action {
            RcuAction::Lock(_) => {
                if reader.in_cs {
                    return Err(Refusal::new(format!(
                        "{cpu} is already inside a read-side critical section (the kernel allows nesting; this model does not)."
                    )));
                }
                self.readers[r].in_cs = true;
                self.history.enter(r);
                Event::info(format!(
                    "{cpu}: rcu_read_lock(). Its critical section begins."
                ))
            }
            RcuAction::Deref(_) => {
                if !reader.in_cs {
                    return Err(Refusal::new(format!(
                        "{cpu} is outside a critical section, where a pointer from rcu_dereference() is not protected: rcu_read_lock() first."
                    )));
                }
                return self.walk(r);
            }
            RcuAction::Use(_) => {
                let Some(n) = reader.held() else {
                    return Err(Refusal::new(format!(
                        "{cpu} is not on the replaced element: walk to it with rcu_dereference() first."
                    )));
                };
                self.readers[r].uses += 1;
                match self.nodes[usize::from(n)] {
                    NodeState::Freed => self.use_after_free(r, n, "reads p->data"),
                    NodeState::Unlinked => Event::info(format!(
                        "{cpu} reads {}'s data: the old version, unlinked but still intact.",
                        node_name(n)
                    )),
                    NodeState::Live => Event::info(format!(
                        "{cpu} reads {}'s data: the current version.",
                        node_name(n)
                    )),
                }
            }
            _ => {
                if !reader.in_cs {
                    return Err(Refusal::new(format!(
                        "{cpu} is not in a read-side critical section."
                    )));
                }
                self.readers[r] = Reader::default();
                self.history.leave(r);
                let mut events = vec![Event::info(format!(
                    "{cpu}: rcu_read_unlock() ends its critical section, and its pointer is no longer valid. Classic RCU notices only at the CPU's next quiescent state (a context switch, idle or user mode); this model counts the unlock."
                ))
                .at(at)];
                events.extend(self.left_critical_section(r));
                return Ok(events);
            }
        };
        Ok(vec![event.at(at)])
    }

    /// Reader `r` (inside a critical section) follows one pointer.
    fn walk(&mut self, r: usize) -> Outcome {
        let cpu = reader_name(r);
        let (to, text) = match self.readers[r].at {
            None => (
                Place::First,
                format!("{cpu}: p = rcu_dereference(head) gives first."),
            ),
            Some(Place::First) => {
                let n = self.linked;
                if let Some(s) = self.history.open(r) {
                    s.saw.get_or_insert(n);
                }
                let version = if n == 0 { "the original" } else { "the newest" };
                (
                    Place::Node(n),
                    format!(
                        "{cpu}: p = rcu_dereference(first->next) gives {}, {version} version.",
                        node_name(n)
                    ),
                )
            }
            Some(Place::Node(n)) => {
                let text = format!(
                    "{cpu}: p = rcu_dereference({}->next) gives last{}.",
                    node_name(n),
                    if n == self.linked {
                        ""
                    } else {
                        ": the old node still points on into the list"
                    }
                );
                if self.nodes[usize::from(n)] == NodeState::Freed {
                    let event = self.use_after_free(r, n, "follows p->next");
                    self.readers[r].at = Some(Place::Last);
                    return Ok(vec![event.at(format!("reader-{r}"))]);
                }
                (Place::Last, text)
            }
            Some(Place::Last) => {
                return Err(Refusal::new(format!(
                    "{cpu} is on last, whose next is NULL: the walk is over, so rcu_read_unlock()."
                )))
            }
        };
        self.readers[r].at = Some(to);
        Ok(vec![Event::info(text).at(format!("reader-{r}"))])
    }

    /// Reader `r` touches freed version `n`: recorded and told.
    fn use_after_free(&mut self, r: usize, n: u8, what: &str) -> Event {
        self.damage.push(UseAfterFree { reader: r, node: n });
        if let Some(s) = self.history.open(r) {
            s.damaged = true;
        }
        Event::fault(format!(
            "{} {what}, but {} has been freed: a use-after-free. The memory may already hold something else.",
            reader_name(r),
            node_name(n)
        ))
        .at(format!("node-{n}"))
    }

    fn publish(&mut self) -> Outcome {
        if self.updater != Updater::Idle {
            return Err(Refusal::new(match self.updater {
                Updater::Waiting { .. } => "The updater is blocked in synchronize_rcu().",
                _ => "Reclaim the old node first: free it now, synchronize_rcu() or call_rcu().",
            }));
        }
        if self.nodes.len() >= NODES_MAX {
            return Err(Refusal::new(format!(
                "This demo stops at {NODES_MAX} versions: Reset to start again."
            )));
        }
        let old = self.linked;
        let new = self.nodes.len() as u8;
        self.nodes[usize::from(old)] = NodeState::Unlinked;
        self.nodes.push(NodeState::Live);
        self.linked = new;
        self.updater = Updater::Published { old };
        self.history.mark(Mark::Publish(new));
        Ok(vec![Event::info(format!(
            "The updater copies {0} into a new node {1} (so {1}->next = last), changes the copy, then rcu_assign_pointer(first->next, {1}): walks from now on find {1}. {0} is unlinked but not yet freed.",
            node_name(old),
            node_name(new)
        ))
        .at("link")
        .at(format!("node-{new}"))])
    }

    fn reclaim(&mut self, action: RcuAction) -> Outcome {
        let old = self.pending_old()?;
        let n = node_name(old);
        match action {
            RcuAction::FreeNow => {
                self.nodes[usize::from(old)] = NodeState::Freed;
                self.updater = Updater::Idle;
                self.freed_early = true;
                self.history.mark(Mark::Free {
                    node: old,
                    early: true,
                });
                let holders: Vec<String> = (0..self.readers.len())
                    .filter(|&r| self.readers[r].held() == Some(old))
                    .map(reader_name)
                    .collect();
                let mut events = vec![Event::warn(format!(
                    "Break it: the updater calls kfree({n}) at once, with no grace period."
                ))
                .at(format!("node-{old}"))];
                if !holders.is_empty() {
                    events.push(Event::fault(format!(
                        "{} still hold{} a pointer to {n}: any read through it is now a use-after-free.",
                        holders.join(" and "),
                        if holders.len() == 1 { "s" } else { "" }
                    )));
                }
                Ok(events)
            }
            RcuAction::Synchronize => {
                self.updater = Updater::Waiting { old };
                let mut events = vec![Event::info(format!(
                    "The updater calls synchronize_rcu() and blocks; it will free {n} when it returns."
                ))
                .at("updater")];
                events.extend(self.begin_grace(old, Waiter::Synchronize));
                Ok(events)
            }
            _ => {
                self.updater = Updater::Idle;
                let mut events = vec![Event::info(format!(
                    "The updater calls call_rcu({n}, free) and carries on: the callback frees {n} after a grace period."
                ))
                .at("updater")];
                events.extend(self.begin_grace(old, Waiter::Callback));
                Ok(events)
            }
        }
    }
}

impl Model for Rcu {
    type Config = RcuConfig;
    type Action = RcuAction;

    fn validate(config: &RcuConfig) -> Result<(), String> {
        READERS.check(config.readers).map(|_| ())
    }

    fn new(config: &RcuConfig) -> Self {
        Rcu {
            nodes: vec![NodeState::Live],
            linked: 0,
            readers: vec![Reader::default(); config.readers],
            updater: Updater::Idle,
            grace: Vec::new(),
            damage: Vec::new(),
            freed_early: false,
            story: Some(0),
            history: History::default(),
        }
    }

    fn intro(&self) -> Event {
        Event::info(format!(
            "The list is head → first → A → last. {} reader CPUs are idle; the updater runs on CPU 0. Step plays a story, or drive readers and updater yourself.",
            self.readers.len()
        ))
    }

    fn apply(&mut self, action: &RcuAction) -> Outcome {
        // Everything this action does happens at the next tick.
        self.history.now += 1;
        let events = match *action {
            RcuAction::Lock(r) | RcuAction::Deref(r) | RcuAction::Use(r) | RcuAction::Unlock(r) => {
                self.reader_action(*action, r)
            }
            RcuAction::Publish => self.publish(),
            _ => self.reclaim(*action),
        }
        .inspect_err(|_| self.history.now -= 1)?;
        self.story = match self.story {
            Some(i) if STORY.get(i) == Some(action) => Some(i + 1),
            _ => None,
        };
        Ok(events)
    }

    fn next_auto(&self) -> Result<RcuAction, Refusal> {
        if let Some(&action) = self.story.and_then(|i| STORY.get(i)) {
            if self.clone().apply(&action).is_ok() {
                return Ok(action);
            }
        }
        // Off the story: let the readers a grace period waits for finish.
        let waited = self.grace.iter().flat_map(|g| g.waiting_on.iter()).min();
        let busy = waited
            .copied()
            .or_else(|| self.readers.iter().position(|r| r.in_cs));
        match busy {
            Some(r) if self.readers[r].held().is_some() && self.readers[r].uses == 0 => {
                Ok(RcuAction::Use(r))
            }
            Some(r) => Ok(RcuAction::Unlock(r)),
            None => Err(Refusal::new(
                "No reader is in a critical section and no grace period is running: lock a reader or publish an update.",
            )),
        }
    }

    fn check(&self) -> Result<(), String> {
        let live: Vec<usize> = (0..self.nodes.len())
            .filter(|&n| self.nodes[n] == NodeState::Live)
            .collect();
        if live != [usize::from(self.linked)] {
            return Err("exactly the version first->next points to must be live".into());
        }
        for (r, reader) in self.readers.iter().enumerate() {
            if !reader.in_cs && reader.at.is_some() {
                return Err(format!(
                    "{} holds a pointer outside a critical section",
                    reader_name(r)
                ));
            }
            if let Some(n) = reader.held() {
                if !self.freed_early && self.nodes[usize::from(n)] == NodeState::Freed {
                    return Err(format!("{} holds a freed node despite RCU", reader_name(r)));
                }
            }
        }
        if !self.freed_early && !self.damage.is_empty() {
            return Err("use-after-free without freeing early".into());
        }
        let waiting = self.grace.iter().any(|g| g.waiter == Waiter::Synchronize);
        if waiting != matches!(self.updater, Updater::Waiting { .. }) {
            return Err("the updater blocks exactly while its grace period runs".into());
        }
        let h = &self.history;
        for (r, reader) in self.readers.iter().enumerate() {
            let open = h
                .sections
                .iter()
                .filter(|s| usize::from(s.reader) == r && s.end.is_none())
                .count();
            if open != usize::from(reader.in_cs) {
                return Err(format!(
                    "the timeline disagrees with {} being inside",
                    reader_name(r)
                ));
            }
        }
        if h.spans.iter().filter(|s| s.end.is_none()).count() != self.grace.len() {
            return Err("the timeline disagrees with the grace periods running".into());
        }
        for g in &self.grace {
            if self.nodes[usize::from(g.node)] != NodeState::Unlinked
                || g.waiting_on.iter().any(|&r| !self.readers[r].in_cs)
            {
                return Err(
                    "a grace period waits on a CPU that has left, or for a node not unlinked"
                        .into(),
                );
            }
        }
        Ok(())
    }

    fn status(&self) -> Vec<Figure> {
        const KEYS: [&str; READERS.max] = ["cpu-1", "cpu-2", "cpu-3", "cpu-4"];
        const LABELS: [&str; READERS.max] = ["CPU 1", "CPU 2", "CPU 3", "CPU 4"];
        let nodes: Vec<String> = self
            .nodes
            .iter()
            .enumerate()
            .map(|(n, s)| {
                let state = match s {
                    NodeState::Live => "live",
                    NodeState::Unlinked => "unlinked",
                    NodeState::Freed => "freed",
                };
                format!("{} {state}", node_name(n as u8))
            })
            .collect();
        let updater = match self.updater {
            Updater::Idle => "idle".to_string(),
            Updater::Published { old } => format!("published; {} to reclaim", node_name(old)),
            Updater::Waiting { old } => {
                format!("in synchronize_rcu(), then free {}", node_name(old))
            }
        };
        let waits: Vec<String> = self
            .grace
            .iter()
            .map(|g| {
                let cpus: Vec<String> = g.waiting_on.iter().map(|&r| reader_name(r)).collect();
                format!("{}: {}", node_name(g.node), cpus.join(", "))
            })
            .collect();
        let mut figures = vec![
            Figure::new("linked", "first->next", node_name(self.linked)),
            Figure::new("nodes", "nodes", nodes.join(" · ")),
            Figure::new("updater", "updater", updater),
            Figure::new(
                "grace",
                "grace periods waiting on",
                if waits.is_empty() {
                    "none".into()
                } else {
                    waits.join(" | ")
                },
            ),
        ];
        for (r, reader) in self.readers.iter().enumerate() {
            let text = match (reader.in_cs, reader.at) {
                (false, _) => "outside".to_string(),
                (true, None) => "in critical section".to_string(),
                (true, Some(Place::First)) => "on first".to_string(),
                (true, Some(Place::Last)) => "on last".to_string(),
                (true, Some(Place::Node(n))) if n == self.linked => {
                    format!("holds {} (current)", node_name(n))
                }
                (true, Some(Place::Node(n))) => format!("holds {} (old)", node_name(n)),
            };
            figures.push(Figure::new(KEYS[r], LABELS[r], text));
        }
        figures.push(Figure::new(
            "use-after-free",
            "use-after-free",
            self.damage.len(),
        ));
        figures
    }

    fn why(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(d) = self.damage.first() {
            out.push(format!(
                "{} fetched {} before the update and read it after it was freed. Freeing at once ignores readers that started before the removal; only a grace period covers them.",
                reader_name(d.reader),
                node_name(d.node)
            ));
        }
        let holding = |old: bool| {
            self.readers
                .iter()
                .filter(|r| r.held().is_some_and(|n| (n != self.linked) == old))
                .count()
        };
        let (old, new) = (holding(true), holding(false));
        if old + new > 0 {
            out.push(format!(
                "Readers on an old version: {old}; on the current one: {new}. Each sees a whole, consistent node, never a half-updated one.",
            ));
        }
        out.push("A grace period waits only for critical sections already running when it starts; readers that begin later find the new node and may outlive it.".into());
        out.push("Readers take no lock and write nothing shared: the cost lands on the updater, which waits with synchronize_rcu() or defers with call_rcu().".into());
        out
    }

    fn leaves_out() -> &'static str {
        "Leaves out: nested critical sections, preemptible RCU, the wait between leaving a critical section and the CPU's next quiescent state (a context switch, the idle loop or user mode; rcu_read_unlock() itself is not one), which the model skips by counting the unlock, batching of grace periods, and memory ordering."
    }
}
