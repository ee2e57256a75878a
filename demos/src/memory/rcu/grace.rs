//! Grace periods (Documentation/RCU/whatisRCU.rst §2 and §5B): a grace period
//! that begins now waits only for the read-side critical sections already
//! running on some CPU; it ends once each of those CPUs has left its critical
//! section. A kernel learns that only when the CPU next passes a quiescent
//! state (§5B: a context switch; also the idle loop and user mode), not at
//! rcu_read_unlock(), which only ends the section; this model takes the
//! unlock as the signal, so its grace periods end as early as they could.
//! Critical sections that begin later do not extend it: they can only have
//! found the new version.

use super::{node_name, reader_name, NodeState, Rcu, Updater};
use crate::model::Event;
use serde::{Deserialize, Serialize};

/// Who is waiting for a grace period to end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Waiter {
    /// The updater, blocked in synchronize_rcu().
    Synchronize,
    /// A call_rcu() callback that frees the node.
    Callback,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GracePeriod {
    /// The unlinked node freed when it ends.
    pub node: u8,
    pub waiter: Waiter,
    /// Reader CPUs that were in a critical section when it began and have not left it.
    pub waiting_on: Vec<usize>,
}

impl Rcu {
    /// Starts a grace period for `node`; ends it at once if no reader is in a
    /// critical section.
    pub(super) fn begin_grace(&mut self, node: u8, waiter: Waiter) -> Vec<Event> {
        let waiting_on: Vec<usize> = (0..self.readers.len())
            .filter(|&r| self.readers[r].in_cs)
            .collect();
        let mut events = vec![Event::info(if waiting_on.is_empty() {
            "No CPU is inside a read-side critical section, so the grace period ends at once."
                .to_string()
        } else {
            let names: Vec<String> = waiting_on.iter().map(|&r| reader_name(r)).collect();
            format!(
                "The grace period waits for {}: inside a read-side critical section when it began.",
                names.join(" and ")
            )
        })
        .at("grace")];
        self.grace.push(GracePeriod {
            node,
            waiter,
            waiting_on,
        });
        self.history.begin_grace(node, waiter);
        events.extend(self.end_finished_graces());
        events
    }

    /// Reader `r` left its critical section: no grace period waits for it
    /// any more (standing in for the quiescent state the kernel would wait for).
    pub(super) fn left_critical_section(&mut self, r: usize) -> Vec<Event> {
        for g in &mut self.grace {
            g.waiting_on.retain(|&w| w != r);
        }
        self.end_finished_graces()
    }

    fn end_finished_graces(&mut self) -> Vec<Event> {
        let (done, pending): (Vec<GracePeriod>, Vec<GracePeriod>) = std::mem::take(&mut self.grace)
            .into_iter()
            .partition(|g| g.waiting_on.is_empty());
        self.grace = pending;
        done.into_iter()
            .map(|g| {
                self.nodes[usize::from(g.node)] = NodeState::Freed;
                self.history.end_grace(g.node);
                let n = node_name(g.node);
                match g.waiter {
                    Waiter::Synchronize => {
                        self.updater = Updater::Idle;
                        Event::done(format!(
                            "Grace period over: synchronize_rcu() returns and the updater frees {n}. No reader can still hold it."
                        ))
                    }
                    Waiter::Callback => Event::done(format!(
                        "Grace period over: the call_rcu() callback frees {n}."
                    )),
                }
                .at(format!("node-{}", g.node))
                .at("grace")
            })
            .collect()
    }
}
