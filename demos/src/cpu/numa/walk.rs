//! One access after another: placing pages on first touch, pricing each
//! access, and the break-it move of the thread.

use super::*;

impl Numa {
    pub(super) fn place(&self, page: usize) -> u8 {
        match self.config.policy {
            Policy::FirstTouch => self.thread,
            Policy::Interleave => (page % usize::from(self.config.sockets)) as u8,
            Policy::Bind(n) => n,
        }
    }

    pub(super) fn next_page(&mut self) -> usize {
        match self.config.order {
            Order::Sequential => self.done % self.config.pages,
            Order::Random => self.rng.range(0, self.config.pages as u64 - 1) as usize,
        }
    }

    pub(super) fn access(&mut self) -> Vec<Event> {
        let page = self.next_page();
        let first_touch = self.page_node[page].is_none();
        let node = match self.page_node[page] {
            Some(node) => node,
            None => {
                let node = self.place(page);
                self.page_node[page] = Some(node);
                node
            }
        };
        let from = self.thread;
        let n = hops(self.config.sockets, from, node);
        let latency_ns = self.latency_ns(from, node);
        let gbs = self.path_gbs(from, node);
        // Little's law: k lines in flight hide all but 1/k of the latency.
        // Whole picoseconds, rounded up, so rounding never lets a run beat
        // the ceilings it is checked against.
        let latency_ps = (u64::from(latency_ns) * 1000).div_ceil(u64::from(self.lines_in_flight()));
        let transfer_ps = (LINE_BYTES * 1000).div_ceil(u64::from(gbs));
        self.elapsed_ps += latency_ps.max(transfer_ps);
        for link in route(self.config.sockets, from, node) {
            self.link_bytes[link] += LINE_BYTES;
        }
        self.done += 1;
        self.latency_sum_ns += u64::from(latency_ns);
        self.hop_sum += u64::from(n);
        if n == 0 {
            self.local += 1;
        } else {
            self.remote += 1;
        }
        let a = Access {
            number: self.done,
            page,
            from,
            node,
            hops: n,
            latency_ns,
            gbs,
            first_touch,
        };
        self.recent.push(a);
        if self.recent.len() > RECENT_KEPT {
            self.recent.remove(0);
        }
        let mut events = vec![report::narrate(self, &a)];
        if first_touch
            && self.config.migrate_after_touch
            && !self.moved_after_touch
            && self.page_node.iter().all(Option::is_some)
        {
            self.moved_after_touch = true;
            let to = farthest(self.config.sockets, self.thread);
            events.push(self.move_thread(to, true));
        }
        events
    }

    pub(super) fn move_thread(&mut self, to: u8, by_break_it: bool) -> Event {
        let from = self.thread;
        self.thread = to;
        self.migrations += 1;
        let why = if by_break_it {
            "Every page is placed; now the scheduler moves the thread"
        } else {
            "The thread moves"
        };
        Event::warn(format!(
            "{why} from socket {from} to socket {to}. Its pages stay where they were first touched."
        ))
        .at(format!("socket-{to}"))
        .at("thread")
    }

    pub(super) fn ensure_left(&self) -> Result<(), Refusal> {
        if self.done >= self.config.accesses {
            return Err(Refusal::new(format!(
                "The run's {} accesses are done. Restart to run again.",
                self.config.accesses
            )));
        }
        Ok(())
    }

    pub(super) fn run(&mut self, n: usize) -> Outcome {
        self.ensure_left()?;
        let left = self.config.accesses - self.done;
        if n == 0 || n > left {
            return Err(Refusal::new(format!(
                "Run 1 to {left} accesses: that is what is left of this run."
            )));
        }
        let remote_before = self.remote;
        let mut events = Vec::new();
        for _ in 0..n {
            // Keep only what matters from a batch: placements and moves.
            let step = self.access();
            events.extend(step.into_iter().skip(1));
        }
        let remote = self.remote - remote_before;
        events.insert(
            0,
            Event::info(format!(
                "{n} access{} ran: {} local, {remote} remote; average now {}.",
                if n == 1 { "" } else { "es" },
                n as u32 - remote,
                report::avg_text(self)
            ))
            .at("pages"),
        );
        Ok(events)
    }
}
