//! The Treiber stack's micro-steps (Treiber, IBM Research Report RJ 5118,
//! 1986): a pop reads head, reads head->next, then CAS(head, old, next); a
//! push reads head, sets node->next = head, then CAS(head, old, node). A
//! failed CAS starts the operation over from reading head.
//!
//! Fixes: a tagged head pairs the pointer with a version counter bumped by
//! every successful CAS, so a CAS compares both (the IBM System/370 remedy
//! with compare-double-and-swap; Principles of Operation, appendix A; on
//! x86-64 CMPXCHG16B, which gives the tag a full word); hazard
//! pointers (Michael, "Hazard Pointers", IEEE TPDS 15(6), 2004): a pop
//! publishes the head it read before using it, and a popped node is retired,
//! not freed, until no hazard pointer holds it.

use super::{name, ptr, Aba, Damage, Home, Task};
use crate::model::Event;
use serde::{Deserialize, Serialize};

/// A thread's next micro-step within its operation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Next {
    #[default]
    ReadHead,
    ReadNext,
    Cas,
}

impl Aba {
    fn head_text(&self, head: Option<u8>, tag: u32) -> String {
        let node = ptr(head);
        if self.tagged {
            format!("{node} (tag {tag})")
        } else {
            node
        }
    }

    pub(super) fn read_head(&mut self, t: usize) -> Vec<Event> {
        let who = format!("T{}", t + 1);
        let (head, tag) = (self.head, self.tag);
        let w = &mut self.workers[t];
        w.seen = head;
        w.seen_tag = tag;
        let seen = self.head_text(head, tag);
        let text = match (self.workers[t].task, head) {
            (Task::Pop, None) => {
                self.workers[t].task = Task::Idle;
                format!("{who} reads head = null: the stack is empty, so the pop returns nothing.")
            }
            (Task::Pop, Some(old)) => {
                self.workers[t].next_step = Next::ReadNext;
                if self.deferred {
                    self.workers[t].hazard = Some(old);
                    format!(
                        "{who} reads head = {seen} and publishes {} as its hazard pointer.",
                        name(old)
                    )
                } else {
                    format!("{who} reads head = {seen}.")
                }
            }
            (Task::Push(n), _) => {
                self.nodes[usize::from(n)].next = head;
                self.workers[t].next_step = Next::Cas;
                format!(
                    "{who} reads head = {seen} and sets {}.next = {}.",
                    name(n),
                    ptr(head)
                )
            }
            (Task::Idle, _) => String::new(),
        };
        vec![Event::info(text).at(format!("thread-{t}")).at("head")]
    }

    pub(super) fn read_next(&mut self, t: usize) -> Vec<Event> {
        let who = format!("T{}", t + 1);
        let Some(old) = self.workers[t].seen else {
            return Vec::new();
        };
        let node = self.nodes[usize::from(old)];
        self.workers[t].next = node.next;
        self.workers[t].next_step = Next::Cas;
        let text = format!("{who} reads {}.next = {}.", name(old), ptr(node.next));
        let at = format!("node-{old}");
        if node.home == Home::Free {
            vec![Event::warn(format!(
                "{text} {} is on the free list: a read of freed memory, harmless here only because freed nodes stay mapped.",
                name(old)
            ))
            .at(format!("thread-{t}"))
            .at(at)]
        } else {
            vec![Event::info(text).at(format!("thread-{t}")).at(at)]
        }
    }

    pub(super) fn cas(&mut self, t: usize) -> Vec<Event> {
        let who = format!("T{}", t + 1);
        let w = self.workers[t];
        let desired = match w.task {
            Task::Pop => w.next,
            Task::Push(n) => Some(n),
            Task::Idle => return Vec::new(),
        };
        let call = format!("CAS(head, {}, {})", ptr(w.seen), ptr(desired));
        let same_pointer = self.head == w.seen;
        if !same_pointer || (self.tagged && self.tag != w.seen_tag) {
            let ws = &mut self.workers[t];
            ws.retries += 1;
            ws.next_step = Next::ReadHead;
            ws.hazard = None;
            let why = if same_pointer {
                format!(
                    "head is {} again, but its tag is {}, not {}: the node was popped and pushed back meanwhile",
                    ptr(self.head),
                    self.tag,
                    w.seen_tag
                )
            } else {
                format!("head is now {}", self.head_text(self.head, self.tag))
            };
            let mut events = vec![Event::warn(format!(
                "{who}'s {call} fails: {why}. {who} starts over from reading head."
            ))
            .at(format!("thread-{t}"))
            .at("head")];
            events.extend(self.scan());
            return events;
        }
        self.head = desired;
        if self.tagged {
            self.tag += 1;
        }
        let ws = &mut self.workers[t];
        ws.task = Task::Idle;
        ws.hazard = None;
        ws.done += 1;
        let mut events = Vec::new();
        match w.task {
            Task::Push(n) => {
                self.nodes[usize::from(n)].home = Home::Linked;
                events.push(Event::done(format!(
                    "{who}'s {call} succeeds: head = {}.",
                    self.head_text(self.head, self.tag)
                )));
            }
            _ => {
                let Some(old) = w.seen else {
                    return events;
                };
                let node = &mut self.nodes[usize::from(old)];
                if node.home != Home::Linked {
                    self.damage.push(Damage::DoubleFree(old));
                    events.push(
                        Event::fault(Damage::DoubleFree(old).sentence()).at(format!("node-{old}")),
                    );
                    self.free.retain(|&f| f != old);
                    self.retired.retain(|&r| r != old);
                }
                let fate = if self.deferred {
                    node.home = Home::Retired;
                    self.retired.push(old);
                    "retired until no hazard pointer holds it"
                } else {
                    node.home = Home::Free;
                    self.free.push(old);
                    "freed onto the free list"
                };
                events.push(Event::done(format!(
                    "{who}'s {call} succeeds: head = {}. {} is popped and {fate}.",
                    self.head_text(self.head, self.tag),
                    name(old)
                )));
            }
        }
        events[0] = events[0].clone().at(format!("thread-{t}")).at("head");
        events.extend(self.scan());
        events
    }

    /// Hazard-pointer reclamation: every retired node no hazard pointer holds
    /// is freed. Michael scans once the retired list reaches a threshold; here
    /// the threshold is one node.
    fn scan(&mut self) -> Vec<Event> {
        let held: Vec<u8> = self.workers.iter().filter_map(|w| w.hazard).collect();
        let (keep, reclaim): (Vec<u8>, Vec<u8>) =
            self.retired.iter().partition(|n| held.contains(n));
        self.retired = keep;
        reclaim
            .into_iter()
            .map(|n| {
                self.nodes[usize::from(n)].home = Home::Free;
                self.free.push(n);
                Event::info(format!(
                    "{} is reclaimed onto the free list: no hazard pointer holds it.",
                    name(n)
                ))
                .at(format!("node-{n}"))
            })
            .collect()
    }
}
