//! What the page prints about batching, and the invariants.

use super::*;
use crate::text::{grouped, ns, ratio, tenths};

pub(super) fn timer_text(c: &BatchConfig) -> String {
    if c.timeout_ns == 0 {
        "with no flush timer".into()
    } else {
        format!("{} after its first item", ns(i64::from(c.timeout_ns)))
    }
}

/// Mean of latencies, ns (0 for none).
pub(super) fn mean_ns(latencies: &[u32]) -> u64 {
    let sum: u64 = latencies.iter().map(|&l| u64::from(l)).sum();
    ratio(sum, latencies.len() as u64, 0) as u64
}

/// 99th percentile of latencies by nearest rank, ns (0 for none); sorts them.
pub(super) fn p99_ns(latencies: &mut [u32]) -> u64 {
    latencies.sort_unstable();
    let n = latencies.len();
    if n == 0 {
        return 0;
    }
    u64::from(latencies[(n * 99).div_ceil(100) - 1])
}

impl Batching {
    /// Mean latency of finished items, ns.
    pub fn mean_latency_ns(&self) -> u64 {
        mean_ns(&self.latencies)
    }

    /// 99th percentile latency of finished items, ns (nearest rank).
    pub fn p99_latency_ns(&self) -> u64 {
        p99_ns(&mut self.latencies.clone())
    }

    /// Items that have left their batch (finished, queued or in service).
    fn items_left_batch(&self) -> u64 {
        u64::from(self.arrived) - self.open.len() as u64
    }

    /// Mean wait for the batch to leave, over items whose batch has left, ns.
    pub fn mean_fill_wait_measured_ns(&self) -> u64 {
        ratio(self.fill_wait_sum, self.items_left_batch(), 0) as u64
    }

    /// Items finished per second so far, in thousands.
    pub fn achieved_kps(&self) -> u64 {
        ratio(self.latencies.len() as u64 * 1_000_000, self.now, 0) as u64
    }

    /// Share of the consumer's processing time spent on fixed costs.
    pub fn overhead_measured_tenths(&self) -> i64 {
        crate::text::share_tenths(self.fixed_spent_ns as i64, self.busy_ns as i64)
    }
}

pub(super) fn figures(m: &Batching) -> Vec<Figure> {
    let c = &m.config;
    vec![
        Figure::new("time", "time", ns(m.now as i64)),
        Figure::new(
            "done",
            "items done",
            format!("{}/{}", m.latencies.len(), c.items),
        ),
        Figure::new("batches", "batches", m.batches_left),
        Figure::new(
            "mean-latency",
            "mean latency",
            ns(m.mean_latency_ns() as i64),
        ),
        Figure::new("p99-latency", "p99 latency", ns(m.p99_latency_ns() as i64)),
        Figure::new(
            "fill-wait",
            "mean fill wait",
            ns(m.mean_fill_wait_measured_ns() as i64),
        ),
        Figure::new(
            "throughput",
            "max throughput",
            format!(
                "{} k items/s",
                grouped(throughput_kps(c.batch, c.fixed_ns, c.per_item_ns) as i64)
            ),
        ),
        Figure::new(
            "overhead",
            "fixed-cost share",
            tenths(overhead_tenths(c.batch, c.fixed_ns, c.per_item_ns)),
        ),
    ]
}

pub(super) fn why(m: &Batching) -> Vec<String> {
    let c = &m.config;
    let one = throughput_kps(1, c.fixed_ns, c.per_item_ns);
    let this = throughput_kps(c.batch, c.fixed_ns, c.per_item_ns);
    let offered = 1_000_000 / u64::from(c.gap_ns);
    let mut out = vec![format!(
        "One operation per item tops out at {} k items/s with {} of the time in fixed cost; batches of {} reach {} k/s with {}.",
        grouped(one as i64),
        tenths(overhead_tenths(1, c.fixed_ns, c.per_item_ns)),
        c.batch,
        grouped(this as i64),
        tenths(overhead_tenths(c.batch, c.fixed_ns, c.per_item_ns))
    )];
    out.push(if offered > this {
        format!(
            "Items arrive at {} k/s, faster than this batch size can serve: the queue, and every item's wait, grows without bound.",
            grouped(offered as i64)
        )
    } else if offered > one {
        format!(
            "Items arrive at {} k/s, more than one operation per item could serve: here batching is what keeps up.",
            grouped(offered as i64)
        )
    } else {
        format!(
            "Items arrive at only {} k/s, which one operation per item could also serve: the batch saves processor time, not throughput, and each batch still waits to fill.",
            grouped(offered as i64)
        )
    });
    let fill = mean_fill_wait_ns(c.batch, c.gap_ns);
    out.push(if c.timeout_ns == 0 {
        format!(
            "Without a timer an item waits on average (B − 1)/(2λ) = {} for its batch to fill; the first waits for {} more arrivals.",
            ns(fill as i64),
            c.batch - 1
        )
    } else {
        format!(
            "Without a timer the mean fill wait would be {}; the {} timer caps every item's wait for the batch to leave.",
            ns(fill as i64),
            ns(i64::from(c.timeout_ns))
        )
    });
    if !m.latencies.is_empty() {
        out.push(format!(
            "So far: mean latency {}, p99 {}, over {} items.",
            ns(m.mean_latency_ns() as i64),
            ns(m.p99_latency_ns() as i64),
            m.latencies.len()
        ));
    }
    out
}

pub(super) fn check(m: &Batching) -> Result<(), String> {
    let c = &m.config;
    let queued: usize = m.ready.iter().map(|b| b.arrivals.len()).sum();
    let serving = m.serving.as_ref().map_or(0, |s| s.0.arrivals.len());
    if m.arrived as usize != m.latencies.len() + m.open.len() + queued + serving {
        return Err("an item was lost or counted twice".into());
    }
    if m.arrived > c.items || m.open.len() >= c.batch as usize {
        return Err("a full batch stayed behind, or too many items arrived".into());
    }
    let armed = c.timeout_ns > 0 && !m.open.is_empty();
    if m.deadline.is_some() != armed
        || m.deadline
            .is_some_and(|d| d != m.open[0] + u64::from(c.timeout_ns))
    {
        return Err("the flush timer is not set from the batch's first item".into());
    }
    if c.timeout_ns > 0 && m.max_fill_wait > u64::from(c.timeout_ns) {
        return Err("an item waited longer than the flush timer".into());
    }
    if c.timeout_ns == 0 && m.full_batches != m.batches_left {
        return Err("a batch left before it was full without a timer".into());
    }
    let floor = u64::from(c.fixed_ns) + u64::from(c.per_item_ns);
    if m.latencies.iter().any(|&l| u64::from(l) < floor) {
        return Err("an item finished faster than one operation takes".into());
    }
    if m.serving.as_ref().is_some_and(|s| s.2 < m.now) || m.open.iter().any(|&a| a > m.now) {
        return Err("the clock ran past an event".into());
    }
    if m.serving.is_none() && !m.ready.is_empty() {
        return Err("the consumer idles while a batch waits".into());
    }
    Ok(())
}
